/* proof.c - see proof.h: the walk every writer shares (proof_writer.h)
 * with its closing rules (proof_fewest_to_line among them), and the value
 * search's writer; the bounded question's writers are in proof_within.c,
 * which uses the walk and never the reverse. */
#include "proof.h"
#include "centre_half.h"
#include "proof_writer.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "../engine/notation.h"
#include "../engine/symmetry.h"
#include "centre_ring.h"
#include "pairing.h"

/* Steps of pairing_find per position of a Chaos proof: a failing search
 * costs about as much as a few nodes of the re-search it may save. */
enum { PROOF_PAIRING_BUDGET = 2000 };

/* Visited positions (canonical forms, Seen in proof_writer.h): open
 * addressing, doubled at half full. A free slot holds SEEN_FREE, X and O
 * on every bit, which no position is: one array, so a probe touches one
 * cache line, not two (seen_insert is the writer's largest single cost,
 * 15-18 % by perf). */

static const Board SEEN_FREE = {{~0ULL, ~0ULL}};

static int seen_grow(Seen *s);

static bool seen_insert(Seen *s, Board b, bool *fresh)
{
    if (2 * (s->count + 1) > s->cap && seen_grow(s) != 0) return false;
    size_t i = XXH3_64bits(b.s, sizeof b.s) & (s->cap - 1);
    while (!board_equal(s->slot[i], SEEN_FREE)) {
        if (board_equal(s->slot[i], b)) {
            *fresh = false;
            return true;
        }
        i = (i + 1) & (s->cap - 1);
    }
    s->slot[i] = b;
    s->count++;
    *fresh = true;
    return true;
}

/* The slots of a set of cap (a power of two): from 2 MiB on, on huge
 * pages where the system gives them (a probe of a big set misses the TLB
 * as well as the cache otherwise; the transposition table's reason too,
 * tt.h). free() releases either. */
static Board *seen_alloc(size_t cap)
{
    size_t bytes = cap * sizeof(Board), huge = (size_t)2 << 20;
    if (bytes < huge) return malloc(bytes);
    Board *p = aligned_alloc(huge, bytes); /* bytes is a multiple of huge */
#ifdef MADV_HUGEPAGE
    if (p) madvise(p, bytes, MADV_HUGEPAGE); /* a hint: failure only costs speed */
#endif
    return p;
}

static int seen_grow(Seen *s)
{
    Seen t = {NULL, s->cap ? 2 * s->cap : 1024, 0};
    t.slot = seen_alloc(t.cap);
    if (!t.slot) return -1;
    memset(t.slot, 0xFF, t.cap * sizeof *t.slot); /* SEEN_FREE everywhere */
    for (size_t i = 0; i < s->cap; i++) {
        bool fresh;
        if (!board_equal(s->slot[i], SEEN_FREE)) seen_insert(&t, s->slot[i], &fresh);
    }
    free(s->slot);
    *s = t;
    return 0;
}

int proof_fail(Writer *w, const char *what, Board b)
{
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, w->r->n, pos);
    snprintf(w->err, (size_t)w->errlen, "%s at %s", what, pos);
    return -1;
}

/* Is the certificate at its line bound? */
bool proof_full(const Writer *w) { return w->max_lines && w->st.lines == w->max_lines; }

int proof_line(Writer *w, Board b)
{
    w->st.lines++;
    return w->spill ? w->spill_line(w, b) : 0;
}

/* Closes b by a pairing (pairing.h) when one is found for its canonical
 * form canon, written in canon's frame: 0, else 1 (none found), or -1. */
static int pairing_line(Writer *w, Board b, Board canon)
{
    const Rules *r = w->r;
    PairSet ps;
    if (!pairing_find(r, canon, PROOF_PAIRING_BUDGET, &ps)) return 1;
    if (!pairing_holds(r, canon, &ps)) return proof_fail(w, "a pairing that does not hold (a solver bug)", b);
    if (proof_full(w)) return proof_fail(w, "the certificate would pass its line bound (--proof-max-lines)", b);
    char pos[NOTATION_POS_LEN], a[3], c[3];
    notation_format_position(canon, r->n, pos);
    if (fprintf(w->f, "%s lemma pairing", pos) < 0) return proof_fail(w, "write error", b);
    for (int j = 0; j < ps.n; j++) {
        notation_format_cell(ps.p[j].a, a);
        notation_format_cell(ps.p[j].b, c);
        if (fprintf(w->f, " %s:%s%c", a, c, ps.p[j].same ? '=' : '~') < 0) return proof_fail(w, "write error", b);
    }
    if (fputc('\n', w->f) == EOF) return proof_fail(w, "write error", b);
    if (proof_line(w, b) != 0) return -1;
    w->st.lemmas++;
    return 0;
}

/* Closes b by the ring lemma (centre_ring.h) when it holds at b's
 * canonical form canon, written in canon's frame, or else at b itself, in
 * b's (the lemma is symmetric, but its pair search is bounded and may
 * find pairs in one frame and not in another; the verifier takes a lemma
 * line in any frame): 0, else 1, or -1. */
static int ring_line(Writer *w, Board b, Board canon)
{
    CentreRing ring;
    Board at = canon;
    if (!centre_ring_chaos(w->centre, w->r, at, &ring, NULL, 0)) {
        at = b;
        if (!centre_ring_chaos(w->centre, w->r, at, &ring, NULL, 0)) return 1;
    }
    if (proof_full(w)) return proof_fail(w, "the certificate would pass its line bound (--proof-max-lines)", b);
    char pos[NOTATION_POS_LEN], a[3], c[3];
    notation_format_position(at, w->r->n, pos);
    if (fprintf(w->f, "%s lemma ring", pos) < 0) return proof_fail(w, "write error", b);
    for (int j = 0; j < ring.n; j++) {
        notation_format_cell(ring.a[j], a);
        notation_format_cell(ring.b[j], c);
        if (fprintf(w->f, " %s:%s~", a, c) < 0) return proof_fail(w, "write error", b);
    }
    if (fputc('\n', w->f) == EOF) return proof_fail(w, "write error", b);
    if (proof_line(w, b) != 0) return -1;
    w->st.lemmas++;
    return 0;
}

/* The loser's moves at a position (scan sc, empty cells empty) after
 * which Order wins at once, by masks: visit would close each of them with
 * no line written (Order completes a line, or the move made one), so they
 * are left out, which changes no byte of the certificate. Measured: 91 %
 * of the visits of an Order proof (13.4 M of 14.8 M, solve - Xc3 Xf1),
 * each a whole window scan. Under original only, where a line once
 * completable stays so whatever else is placed (a longer run counts), and
 * for Order's proofs only (Chaos to move):
 *   - a four on the board (a cell completing a line for S): a move on any
 *     other cell leaves it, so with two or more four cells every move, and
 *     with one every move elsewhere, leaves Order a line at once;
 *   - no four: a move (c, S) leaves one exactly when c is a maker of S (a
 *     cell of a live-for-S window holding k-2 of S, knowledge.h), and no
 *     move completes a line.
 * Elsewhere (exact: a four can be spoiled by overshooting it; exact-end:
 * nothing is won before the end; Chaos's proofs) nothing is left out. */
static void won_at_once(const Rules *r, Winner winner, const KnScan *sc, uint64_t empty, uint64_t skip[2])
{
    skip[0] = skip[1] = 0;
    if (winner != WINNER_ORDER || r->rules != RULES_ORIGINAL) return;
    uint64_t four = sc->win[0] | sc->win[1];
    if (four) {
        skip[0] = skip[1] = __builtin_popcountll(four) >= 2 ? empty : empty & ~four;
    } else {
        skip[0] = sc->maker[0] & empty;
        skip[1] = sc->maker[1] & empty;
    }
}

int proof_fewest_to_line(const Rules *r, Board b)
{
    const uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O], occ = x | o;
    const bool ends = r->rules != RULES_ORIGINAL; /* an exact run may not go on past its window */
    int fewest = INT_MAX;
    for (int i = 0; i < r->nwin; i++) {
        uint64_t w = r->win[i], e = ends ? r->ends[i] : 0;
        bool live = ((o & w) == 0 && (x & e) == 0) || ((x & w) == 0 && (o & e) == 0);
        int holes = __builtin_popcountll(w & ~occ);
        if (live && holes < fewest) fewest = holes;
    }
    /* exact-end: a line counts only once the board is full */
    if (r->rules == RULES_EXACT_END && fewest != INT_MAX) fewest = __builtin_popcountll(r->cells & ~occ);
    return fewest;
}


/* Does a position of this many pieces get a file of its own (ProofShare)? */
static bool in_share_window(const Writer *w, int pieces)
{
    return pieces > w->root_pieces && pieces >= w->share_lo && pieces <= w->share_hi;
}

/* The winner to move at b (canonical form canon, images im): the line of
 * its move, then the child. */
static int winner_line(Writer *w, Board b, Board canon, const Images *im)
{
    const Rules *r = w->r;
    if (proof_full(w)) return proof_fail(w, "the certificate would pass its line bound (--proof-max-lines)", b);
    const char *why = "no winning move found";
    Move wm = w->move(w->arg, b, &why);
    if (wm == MOVE_NONE) return proof_fail(w, why, b);
    int sym;
    sym_least(im->ix, im->io, &sym); /* the frame of canon, for the move */
    char pos[NOTATION_POS_LEN], mv[4];
    notation_format_position(canon, r->n, pos);
    notation_format_move(sym_move(wm, sym, r->n), mv);
    if (fprintf(w->f, "%s %s\n", pos, mv) < 0) return proof_fail(w, "write error", b);
    if (proof_line(w, b) != 0) return -1;
    board_place(&b, wm);
    Images ci;
    images_child(im, wm, sym_cell_map(r->n), &ci);
    return proof_visit(w, b, wm, &ci);
}

/* The loser to move at b: every move but those the masks skip leave out,
 * per symbol: by cell and symbol, as moves_generate orders them, with the
 * masks read directly. */
static int loser_children(Writer *w, Board b, const Images *im, uint64_t empty, const uint64_t skip[2])
{
    const SymCellMap *map = sym_cell_map(w->r->n);
    Images ci;
    for (uint64_t e = empty; e;) {
        int c = bb_pop(&e);
        for (int s = 0; s < 2; s++) {
            if (skip[s] >> c & 1) continue;
            Board cb = b;
            Move cm = move_make(s, c);
            board_place(&cb, cm);
            images_child(im, cm, map, &ci);
            if (proof_visit(w, cb, cm, &ci) != 0) return -1;
        }
    }
    return 0;
}

/* May the loser's position b be walked without the visited set? Where
 * Order's proof leaves the loser (Chaos) at most two moves (a four to
 * block, under original: won_at_once), and no line of its own can be
 * written at b (no centre lemma, no shared file), walking b again when it
 * is reached again writes nothing: each child is then in the set already
 * (or closed before it, the same way again), so the certificate is the
 * same byte for byte. It saves the set's probe, a cache miss, at about
 * half the positions of a threat-driven proof, for one probe per child at
 * the few positions reached twice. Measured (X c3 O f3, one worker, 6.88 M
 * lines, the same bytes): writing 6.0 -> 5.5 s (results/jobs/cert-share.md). */
static bool unseen_loser(const Writer *w, Board b, uint64_t empty, const uint64_t skip[2])
{
    if (w->winner != WINNER_ORDER || (w->centre && w->centre->on)) return false;
    if (w->share && in_share_window(w, board_count(b))) return false;
    return __builtin_popcountll(empty & ~skip[0]) + __builtin_popcountll(empty & ~skip[1]) <= 2;
}

/* A horizon certificate's last plies, which the verifier searches itself
 * (verify.h): Chaos to move at the ongoing b with h <= PROOF_SHORT_HORIZON
 * plies left needs no line where chaos_holds_short says Chaos has a move
 * that completes no line and after which Order cannot complete one
 * within h - 1 plies (order_fails_short). Measured on `--within 11` from
 * the empty board: the lines at h = 2 were 2 771 623 of 2 995 625, those
 * at h = 4 218 102 of the 224 002 left. Judged by the rules alone
 * (rules_winning_cells, rules_status_after), every move tried, not by the
 * search, so a branch closed here is one the verifier closes. */
enum { PROOF_SHORT_HORIZON = 4 };
static bool order_fails_short(const Rules *r, Board b, int h);

static bool chaos_holds_short(const Rules *r, Board b, int h)
{
    uint64_t win[2], empty = r->cells & ~board_occupied(b);
    rules_winning_cells(r, b, win);
    for (uint64_t e = empty; e;) {
        int c = bb_pop(&e);
        for (int s = 0; s < 2; s++) {
            if (win[s] >> c & 1) continue; /* it completes a line */
            Board cb = b;
            Move m = move_make(s, c);
            board_place(&cb, m);
            Winner st = rules_status_after(r, cb, m);
            if (st == WINNER_ORDER) continue;
            if (h < 2 || st != WINNER_NONE || order_fails_short(r, cb, h - 1)) return true; /* (or a full board) */
        }
    }
    return false;
}

static bool order_fails_short(const Rules *r, Board b, int h)
{
    uint64_t win[2], empty = r->cells & ~board_occupied(b);
    rules_winning_cells(r, b, win);
    if (win[0] | win[1]) return false;
    if (h < 2) return true;
    for (uint64_t e = empty; e;) {
        int c = bb_pop(&e);
        for (int s = 0; s < 2; s++) {
            Board cb = b;
            Move m = move_make(s, c);
            board_place(&cb, m);
            Winner st = rules_status_after(r, cb, m);
            if (st == WINNER_NONE && !chaos_holds_short(r, cb, h - 1)) return false;
        }
    }
    return true;
}

/* Order to move at the ongoing b, with no line to complete at once: has
 * Order a move after which every Chaos reply completes a line or leaves
 * one that Order completes at once? The verifier then finds such a move
 * itself and needs no line (verify.h); these were more than half of a win
 * certificate's lines (X a1 X e1 X c3: 519 589 of 912 789 Order lines).
 * Only moves that leave two winning cells, or one cell winning with
 * either symbol, are tried (a sufficient filter: leaving out fewer lines
 * than the verifier could find is always safe), each checked against
 * every reply by the rules alone, not the search. Such a move of S makes
 * a new four, so it is among sc's makers of S (no four stands, sc.win
 * being empty); under exact-end, where a line counts only on the full
 * board, none is tried. */
static bool order_wins_in_three(const Rules *r, Board b, const KnScan *sc)
{
    if (r->rules == RULES_EXACT_END) return false;
    uint64_t empty = r->cells & ~board_occupied(b);
    for (int s = 0; s < 2; s++)
        for (uint64_t e = sc->maker[s]; e;) {
            int c = bb_pop(&e);
            Board ob = b;
            Move o = move_make(s, c);
            board_place(&ob, o);
            if (rules_status_after(r, ob, o) != WINNER_NONE) continue;
            uint64_t w[2];
            rules_winning_cells(r, ob, w);
            if (!(w[0] & w[1]) && __builtin_popcountll(w[0] | w[1]) < 2) continue;
            bool all = true;
            for (uint64_t f = empty & ~(1ULL << c); f && all;) {
                int d = bb_pop(&f);
                for (int t = 0; t < 2 && all; t++) {
                    Board cb = ob;
                    Move m = move_make(t, d);
                    board_place(&cb, m);
                    Winner st = rules_status_after(r, cb, m);
                    if (st == WINNER_ORDER) continue;
                    uint64_t cw[2];
                    if (st == WINNER_NONE) rules_winning_cells(r, cb, cw);
                    all = st == WINNER_NONE && (cw[0] | cw[1]) != 0;
                }
            }
            if (all) return true;
        }
    return false;
}

/* b, its images im, reached by move m (MOVE_NONE at the root; the
 * position before m was ongoing, so only lines through m can have been
 * made). */
int proof_visit(Writer *w, Board b, Move m, const Images *im)
{
    const Rules *r = w->r;
    Winner st = m == MOVE_NONE ? rules_status(r, b) : rules_status_after(r, b, m);
    if (st != WINNER_NONE) {
        if ((st == WINNER_ORDER) != (w->winner == WINNER_ORDER)) return proof_fail(w, "proof reaches a loss", b);
        return 0;
    }
    /* a horizon certificate: no line can stand in the plies left (the verifier's rule, verify.h) */
    int left = w->bounded ? w->horizon - (board_count(b) - w->root_pieces) : 0;
    if (w->bounded && proof_fewest_to_line(r, b) > left) return 0;
    KnScan sc; /* masks only: the live list is not read here */
    kn_scan_masks(r, b, &sc);
    if (w->winner == WINNER_CHAOS && sc.relevant == 0) return 0; /* no line can be won any more */
    bool order = board_order_to_move(b);
    /* ... nor Chaos's moves in the last plies before it, which the verifier finds itself */
    if (w->bounded && !order && left <= PROOF_SHORT_HORIZON && chaos_holds_short(r, b, left)) return 0;
    if (w->winner == WINNER_ORDER && order && (sc.win[0] | sc.win[1])) return 0; /* Order completes a line */
    if (w->winner == WINNER_ORDER && order && order_wins_in_three(r, b, &sc)) return 0; /* ... or within three plies */
    /* exact-end: a run of exactly k with both ends taken stands for ever
     * (knowledge.h, "secured"; the verifier knows it too) */
    if (w->winner == WINNER_ORDER && kn_secured(r, b)) return 0;

    bool loser = order != (w->winner == WINNER_ORDER);
    uint64_t empty = r->cells & ~board_occupied(b), skip[2] = {0, 0};
    if (loser) {
        won_at_once(r, w->winner, &sc, empty, skip); /* the loser's moves only */
        if (unseen_loser(w, b, empty, skip)) {
            w->st.positions++;
            return loser_children(w, b, im, empty, skip);
        }
    }
    Board canon = sym_least_value(im->ix, im->io); /* sym_canonical's value */
    bool fresh;
    if (!seen_insert(&w->seen, canon, &fresh)) return proof_fail(w, "out of memory", b);
    if (!fresh) return 0;
    w->st.positions++;
    if (w->winner == WINNER_CHAOS && w->pairing) {
        int rc = pairing_line(w, b, canon);
        if (rc <= 0) return rc;
    }
    if (w->winner == WINNER_CHAOS && w->centre) {
        int rc = ring_line(w, b, canon);
        if (rc <= 0) return rc;
    }
    if (w->winner == WINNER_ORDER && w->centre && centre_win_with_half(w->centre, b, NULL, 0)) {
        /* Closed by the lemma (centre.h), which the verifier checks itself. */
        if (proof_full(w)) return proof_fail(w, "the certificate would pass its line bound (--proof-max-lines)", b);
        char pos[NOTATION_POS_LEN];
        notation_format_position(canon, r->n, pos);
        if (fprintf(w->f, "%s lemma centre\n", pos) < 0) return proof_fail(w, "write error", b);
        if (proof_line(w, b) != 0) return -1;
        w->st.lemmas++;
        return 0;
    }

    if (w->share && order != (w->winner == WINNER_ORDER) && in_share_window(w, board_count(b))) {
        int rc = w->share->subtree(w, b, canon, im);
        if (rc <= 0) return rc;
    }
    if (!loser) return winner_line(w, b, canon, im);
    return loser_children(w, b, im, empty, skip);
}

void proof_header(Writer *w, Board root, int version, const char *comment)
{
    const Rules *r = w->r;
    char pos[NOTATION_POS_LEN];
    notation_format_position(root, r->n, pos);
    fprintf(w->f, "ocproof %d\n# %s\nboard %d %d\nrules %s\nwinner %s\nroot %s\n", version, comment, r->n, r->k,
            rules_name(r->rules), winner_name(w->winner), pos);
    if (w->bounded) fprintf(w->f, "horizon %d\n", w->horizon);
}

int proof_walk(Writer *w, Board root, int version, const char *comment, ProofStats *st)
{
    proof_header(w, root, version, comment);
    w->root_pieces = board_count(root);
    if (w->share && !w->bounded && w->share->hi > 0) {
        w->share_lo = w->root_pieces + w->share->lo;
        w->share_hi = w->root_pieces + w->share->hi;
    } else {
        w->share = NULL;
    }
    Images im;
    images_of(root, w->r->n, &im);
    int rc = proof_visit(w, root, MOVE_NONE, &im);
    free(w->seen.slot);
    *st = w->st;
    if (rc == 0 && (fflush(w->f) != 0 || ferror(w->f))) {
        snprintf(w->err, (size_t)w->errlen, "write error");
        rc = -1;
    }
    return rc;
}

typedef struct {
    Dfpn *d;
    Winner winner;
} ValueSource;

static Move value_move(void *arg, Board b, const char **why)
{
    ValueSource *v = arg;
    Move m = dfpn_winning_move(v->d, b, v->winner);
    if (m == MOVE_NONE && v->d->stopped) *why = "a limit stopped the search";
    return m;
}

int proof_write(FILE *f, Dfpn *d, Board root, Winner winner, uint64_t max_lines, ProofStats *st, char *err,
                int errlen)
{
    return proof_write_shared(f, d, root, winner, max_lines, NULL, st, err, errlen);
}

int proof_write_shared(FILE *f, Dfpn *d, Board root, Winner winner, uint64_t max_lines, ProofShare *share,
                       ProofStats *st, char *err, int errlen)
{
    /* Version 2 where a lemma line may be written (README, certificates):
     * the centre for Order, a pairing for Chaos, each with its switch. */
    bool pairing = winner == WINNER_CHAOS && d->cfg.kn.pairing;
    bool v2 = pairing || (winner == WINNER_ORDER && d->centre.on) || (winner == WINNER_CHAOS && d->centre.ring) || share;
    ValueSource v = {d, winner};
    Writer w = {.f = f, .r = d->r, .move = value_move, .arg = &v, .centre = &d->centre, .winner = winner,
                .pairing = pairing, .max_lines = max_lines, .share = share, .err = err, .errlen = errlen};
    return proof_walk(&w, root, v2 ? 2 : 1, "written by ocsolve solve", st);
}
