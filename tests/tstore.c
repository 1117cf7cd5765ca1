/* tstore.c - see tstore.h. */
#include "tstore.h"

#include <criterion/criterion.h>

#include "testlib.h"

Store *tstore_open_ok(const char *path, bool readonly)
{
    char err[256] = "";
    Store *s = store_open(path, readonly, 1, err, sizeof err); /* 1 MiB: the tests also grow the map */
    cr_assert(s != NULL, "store_open %s: %s", path, err);
    return s;
}

StoreKey tstore_key_of(const RefPos *p)
{
    return (StoreKey){tl_rules(p->rules), p->n, p->k, tl_board(p)};
}
