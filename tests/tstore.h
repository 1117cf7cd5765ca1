/* tstore.h - what the tests of the store of decided positions share
 * (test_store.c, test_store_open.c, test_store_full.c): opening a store
 * that must open, and a store key from a reference position (tests/ref.h)
 * through the test's own bridge to the engine's board (testlib.h). */
#ifndef OCS_TSTORE_H
#define OCS_TSTORE_H

#include <stdbool.h>

#include "../tables/store.h"
#include "ref.h"

/* store_open with a 1 MiB map (the tests also grow the map); the test
 * fails, with the store's message, if it does not open. */
Store *tstore_open_ok(const char *path, bool readonly);
/* p's game and position as a store key. */
StoreKey tstore_key_of(const RefPos *p);

#endif
