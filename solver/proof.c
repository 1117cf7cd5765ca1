/* proof.c - see proof.h. */
#include "proof.h"

#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "../engine/notation.h"
#include "../engine/symmetry.h"
#include "pairing.h"

/* Steps of pairing_find per position of a Chaos proof: a failing search
 * costs about as much as a few nodes of the re-search it may save. */
enum { PROOF_PAIRING_BUDGET = 2000 };

/* Visited positions (canonical forms): open addressing, doubled at half full. */
typedef struct {
    Board *slot;
    uint8_t *used;
    size_t cap, count;
} Seen;

static int seen_grow(Seen *s);

static bool seen_insert(Seen *s, Board b, bool *fresh)
{
    if (2 * (s->count + 1) > s->cap && seen_grow(s) != 0) return false;
    size_t i = XXH3_64bits(b.s, sizeof b.s) & (s->cap - 1);
    while (s->used[i]) {
        if (board_equal(s->slot[i], b)) {
            *fresh = false;
            return true;
        }
        i = (i + 1) & (s->cap - 1);
    }
    s->used[i] = 1;
    s->slot[i] = b;
    s->count++;
    *fresh = true;
    return true;
}

static int seen_grow(Seen *s)
{
    Seen t = {NULL, NULL, s->cap ? 2 * s->cap : 1024, 0};
    t.slot = malloc(t.cap * sizeof *t.slot);
    t.used = calloc(t.cap, 1);
    if (!t.slot || !t.used) {
        free(t.slot);
        free(t.used);
        return -1;
    }
    for (size_t i = 0; i < s->cap; i++) {
        bool fresh;
        if (s->used[i]) seen_insert(&t, s->slot[i], &fresh);
    }
    free(s->slot);
    free(s->used);
    *s = t;
    return 0;
}

typedef struct {
    FILE *f;
    Dfpn *d;
    Winner winner;
    bool pairing; /* close Chaos's branches by pairing lines */
    uint64_t max_lines;
    Seen seen;
    ProofStats st;
    char *err;
    int errlen;
} Writer;

static int fail(Writer *w, const char *what, Board b)
{
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, w->d->r->n, pos);
    snprintf(w->err, (size_t)w->errlen, "%s at %s", what, pos);
    return -1;
}

/* Is the certificate at its line bound? */
static bool full(const Writer *w) { return w->max_lines && w->st.lines == w->max_lines; }

/* Closes b by a pairing (pairing.h) when one is found for its canonical
 * form canon, written in canon's frame: 0, else 1 (none found), or -1. */
static int pairing_line(Writer *w, Board b, Board canon)
{
    const Rules *r = w->d->r;
    PairSet ps;
    if (!pairing_find(r, canon, PROOF_PAIRING_BUDGET, &ps)) return 1;
    if (!pairing_holds(r, canon, &ps)) return fail(w, "a pairing that does not hold (a solver bug)", b);
    if (full(w)) return fail(w, "the certificate would pass its line bound (--proof-max-lines)", b);
    char pos[NOTATION_POS_LEN], a[3], c[3];
    notation_format_position(canon, r->n, pos);
    if (fprintf(w->f, "%s lemma pairing", pos) < 0) return fail(w, "write error", b);
    for (int j = 0; j < ps.n; j++) {
        notation_format_cell(ps.p[j].a, a);
        notation_format_cell(ps.p[j].b, c);
        if (fprintf(w->f, " %s:%s%c", a, c, ps.p[j].same ? '=' : '~') < 0) return fail(w, "write error", b);
    }
    if (fputc('\n', w->f) == EOF) return fail(w, "write error", b);
    w->st.lines++;
    w->st.lemmas++;
    return 0;
}

static int visit(Writer *w, Board b)
{
    const Rules *r = w->d->r;
    Winner st = rules_status(r, b);
    if (st != WINNER_NONE) {
        if ((st == WINNER_ORDER) != (w->winner == WINNER_ORDER)) return fail(w, "proof reaches a loss", b);
        return 0;
    }
    KnScan sc;
    kn_scan(r, b, &sc);
    if (w->winner == WINNER_CHAOS && sc.relevant == 0) return 0; /* no line can be won any more */
    bool order = board_order_to_move(b);
    if (w->winner == WINNER_ORDER && order && (sc.win[0] | sc.win[1])) return 0; /* Order completes a line */
    /* exact-end: a run of exactly k with both ends taken stands for ever
     * (knowledge.h, "secured"; the verifier knows it too) */
    if (w->winner == WINNER_ORDER && kn_secured(r, b)) return 0;

    int sym;
    Board canon = sym_canonical(b, r->n, &sym);
    bool fresh;
    if (!seen_insert(&w->seen, canon, &fresh)) return fail(w, "out of memory", b);
    if (!fresh) return 0;
    w->st.positions++;
    if (w->winner == WINNER_CHAOS && w->pairing) {
        int rc = pairing_line(w, b, canon);
        if (rc <= 0) return rc;
    }
    if (w->winner == WINNER_ORDER && centre_win(&w->d->centre, b)) {
        /* Closed by the lemma (centre.h), which the verifier checks itself. */
        if (full(w)) return fail(w, "the certificate would pass its line bound (--proof-max-lines)", b);
        char pos[NOTATION_POS_LEN];
        notation_format_position(canon, r->n, pos);
        if (fprintf(w->f, "%s lemma centre\n", pos) < 0) return fail(w, "write error", b);
        w->st.lines++;
        w->st.lemmas++;
        return 0;
    }

    if (order == (w->winner == WINNER_ORDER)) {
        if (full(w)) return fail(w, "the certificate would pass its line bound (--proof-max-lines)", b);
        Move m = dfpn_winning_move(w->d, b, w->winner);
        if (m == MOVE_NONE) return fail(w, w->d->stopped ? "a limit stopped the search" : "no winning move found", b);
        char pos[NOTATION_POS_LEN], mv[4];
        notation_format_position(canon, r->n, pos);
        notation_format_move(sym_move(m, sym, r->n), mv);
        if (fprintf(w->f, "%s %s\n", pos, mv) < 0) return fail(w, "write error", b);
        w->st.lines++;
        board_place(&b, m);
        return visit(w, b);
    }
    for (uint64_t e = r->cells & ~board_occupied(b); e;) {
        int c = bb_pop(&e);
        for (int s = 0; s < 2; s++) {
            Board cb = b;
            board_place(&cb, move_make(s, c));
            if (visit(w, cb) != 0) return -1;
        }
    }
    return 0;
}

int proof_write(FILE *f, Dfpn *d, Board root, Winner winner, uint64_t max_lines, ProofStats *st, char *err,
                int errlen)
{
    const Rules *r = d->r;
    char pos[NOTATION_POS_LEN];
    notation_format_position(root, r->n, pos);
    /* Version 2 where a lemma line may be written (README, certificates):
     * the centre for Order, a pairing for Chaos, each with its switch. */
    bool pairing = winner == WINNER_CHAOS && d->cfg.kn.pairing && !(r->n & 1);
    bool v2 = pairing || (winner == WINNER_ORDER && d->centre.on);
    fprintf(f, "ocproof %d\n# written by ocsolve solve\nboard %d %d\nrules %s\nwinner %s\nroot %s\n", v2 ? 2 : 1,
            r->n, r->k, rules_name(r->rules), winner_name(winner), pos);
    Writer w = {f, d, winner, pairing, max_lines, {NULL, NULL, 0, 0}, {0, 0, 0}, err, errlen};
    int rc = visit(&w, root);
    free(w.seen.slot);
    free(w.seen.used);
    *st = w.st;
    if (rc == 0 && (fflush(f) != 0 || ferror(f))) {
        snprintf(err, (size_t)errlen, "write error");
        rc = -1;
    }
    return rc;
}
