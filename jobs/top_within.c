/* top_within.c - the top tree's bounded mode (within.h): the store's
 * bound records (what decides a position without a job is
 * within_static.c's). Positions and
 * questions only: the tree itself (top_tree.c) calls these, never the
 * reverse. Soundness is argued in within.h; here each rule stands beside
 * its code. */
#include <stdio.h>

#include "../engine/notation.h"
#include "within.h"

/* With certificates on (tc), does the claim (w, plies) on b have its
 * certificate in the folder, agreeing with it? 1 yes, 0 no (search
 * again), -1 a disagreement (the run ends: the message in err). */
static int certified(const TopCert *tc, Board b, Winner w, int plies, char *err, int errlen)
{
    if (!tc) return 1;
    char name[JOBRUN_NAME_MAX], why[4600];
    if (plies < 0) jobrun_cert_name(tc->r, b, name);
    else jobrun_within_name(tc->r, b, w == WINNER_ORDER, plies, name);
    int agrees = within_agrees(tc, b, w, plies, name, why, (int)sizeof why);
    if (agrees == 0) {
        snprintf(err, (size_t)errlen, "store: %s", why);
        return -1;
    }
    return agrees == 1;
}

/* The records' answer for b asking d (normal form q): *w and *wdepth, or
 * WINNER_NONE; -1 when a certificate disagrees (the message in err). */
static int answer(const TopCert *tc, const Rules *r, Board b, int d, int q, const StoreBound *bd,
                  const StoreValue *v, Winner *w, int *wdepth, char *err, int errlen)
{
    /* a no read through the normal form only without certificates (within.h) */
    int noq = tc ? d : q;
    int ok;
    if (bd && bd->yes != STORE_BOUND_NONE && bd->yes <= d &&
        (ok = certified(tc, b, WINNER_ORDER, bd->yes, err, errlen)) != 0)
        return ok < 0 ? -1 : (*w = WINNER_ORDER, *wdepth = bd->yes, 0);
    if (bd && bd->no != STORE_BOUND_NONE && bd->no >= noq &&
        (ok = certified(tc, b, WINNER_CHAOS, bd->no, err, errlen)) != 0)
        return ok < 0 ? -1 : (*w = WINNER_CHAOS, *wdepth = bd->no, 0);
    if (v && v->winner == WINNER_CHAOS && (ok = certified(tc, b, WINNER_CHAOS, -1, err, errlen)) != 0)
        return ok < 0 ? -1 : (*w = WINNER_CHAOS, *wdepth = -1, 0);
    if (v && v->winner == WINNER_ORDER && !tc) { /* no certificate of its length: not with certificates */
        StoreKey k = {r->rules, r->n, r->k, b};
        StoreBound of;
        store_bound_of_value(&k, v, &of);
        if (of.yes != STORE_BOUND_NONE && of.yes <= d) *w = WINNER_ORDER, *wdepth = of.yes;
        else if (of.no != STORE_BOUND_NONE && of.no >= q) *w = WINNER_CHAOS, *wdepth = of.no;
    }
    return 0;
}

int within_lookup(Store *st, const TopCert *tc, const Rules *r, Board b, int d, Winner *w, int *wdepth, char *err,
                  int errlen)
{
    *w = WINNER_NONE;
    *wdepth = -1;
    if (!st) return 0;
    StoreKey k = {r->rules, r->n, r->k, b};
    StoreBound bd;
    StoreValue v;
    int gb = store_get_bound(st, &k, &bd);
    int gv = gb < 0 ? -1 : store_get(st, &k, &v);
    if (gb < 0 || gv < 0) {
        snprintf(err, (size_t)errlen, "store: %s", store_error(st));
        return -1;
    }
    int q = within_question(r, b, d);
    return answer(tc, r, b, d, q, gb ? &bd : NULL, gv ? &v : NULL, w, wdepth, err, errlen);
}

int within_put(Store *st, const Rules *r, Board b, Winner w, int wdepth, Move move, char *err, int errlen)
{
    if (!st) return 0;
    bool yes = w == WINNER_ORDER;
    StoreBound bd = {.yes = STORE_BOUND_NONE, .no = STORE_BOUND_NONE, .move = move, .source = STORE_SOURCE_DFPN};
    if (yes) bd.yes = wdepth;
    else bd.no = wdepth;
    StoreKey k = {r->rules, r->n, r->k, b};
    char msg[300] = "";
    if (store_put_bound(st, &k, &bd, msg, sizeof msg) == 0) return 0;
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, r->n, pos);
    snprintf(err, (size_t)errlen, "store: %s: %s", pos, msg[0] ? msg : "put failed");
    return -1;
}
