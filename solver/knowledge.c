/* knowledge.c - see knowledge.h for what is known and why it is sound. */
#include "knowledge.h"

#include <stddef.h>

#include "../engine/symmetry.h"

void kn_scan(const Rules *r, Board b, KnScan *out)
{
    uint64_t rel = 0, win[2] = {0, 0}, maker[2] = {0, 0}, occ = board_occupied(b);
    bool ends_matter = r->rules != RULES_ORIGINAL;
    int k = r->k, nlive = 0;
    for (int i = 0; i < r->nwin; i++) {
        uint64_t w = r->win[i], e = r->ends[i];
        bool live = false;
        for (int s = 0; s < 2; s++) {
            if (b.s[s ^ 1] & w) continue;
            if (ends_matter && (b.s[s] & e)) continue;
            live = true;
            rel |= ends_matter ? (w | e) : w;
            int own = __builtin_popcountll(b.s[s] & w);
            if (own == k - 1) win[s] |= w & ~b.s[s];
            else if (own == k - 2) maker[s] |= w & ~b.s[s];
        }
        if (live) out->live[nlive++] = w & ~occ;
    }
    out->nlive = nlive;
    out->relevant = rel;
    if (r->rules == RULES_EXACT_END) {
        /* Nothing is won before the board is full: only the last cell. */
        rules_winning_cells(r, b, out->win);
        maker[0] = maker[1] = 0;
    } else {
        out->win[0] = win[0];
        out->win[1] = win[1];
    }
    out->maker[0] = maker[0];
    out->maker[1] = maker[1];
}

/* Does Chaos's move m leave Order without a win at once (and not end the
 * game in Order's favour itself)? Checked by playing it. */
static bool safe_by_play(const Rules *r, Board b, Move m)
{
    board_place(&b, m);
    Status st = rules_status_after(r, b, m);
    if (st == STATUS_ORDER_WINS) return false;
    if (st == STATUS_CHAOS_WINS) return true;
    uint64_t w[2];
    rules_winning_cells(r, b, w);
    return (w[0] | w[1]) == 0;
}

/* Chaos's plies to defeat when no move is safe: one if every move
 * completes a line, else two. */
static int zugzwang_dtw(const Rules *r, Board b, uint64_t empty)
{
    for (uint64_t e = empty; e;) {
        int c = bb_pop(&e);
        for (int s = 0; s < 2; s++) {
            Board t = b;
            Move m = move_make(s, c);
            board_place(&t, m);
            if (rules_status_after(r, t, m) != STATUS_ORDER_WINS) return 2;
        }
    }
    return 1;
}

void kn_node(const Rules *r, const Knowledge *kn, Board b, KnNode *out)
{
    uint64_t empty = r->cells & ~board_occupied(b);
    out->value = KN_OPEN;
    out->dtw = 0;
    out->pass = 0;
    out->dead = 0;
    out->nlive = -1;
    out->moves[0] = out->moves[1] = empty;
    if (!kn->threats && !kn->dead_cells) {
        out->nmoves = 2 * __builtin_popcountll(empty);
        return;
    }
    KnScan sc;
    kn_scan(r, b, &sc);
    out->nlive = sc.nlive;
    uint64_t cand = empty;
    if (kn->dead_cells) {
        cand = empty & sc.relevant;
        if (cand == 0) {
            /* Nothing can change any more. Under original and exact a
             * standing line would already have ended the game. */
            bool line = rules_has_line(r, b);
            out->value = line ? KN_ORDER : KN_CHAOS;
            out->dtw = __builtin_popcountll(empty); /* exact-end: judged on the full board */
            out->nmoves = 0;
            return;
        }
        out->dead = empty & ~sc.relevant;
        out->pass = out->dead != 0;
    }
    out->moves[0] = out->moves[1] = cand;
    if (kn->threats) {
        uint64_t four = sc.win[0] | sc.win[1];
        if (board_order_to_move(b)) {
            if (four) {
                out->value = KN_ORDER;
                out->dtw = 1;
                out->nmoves = 0;
                return;
            }
        } else if (four || (r->rules == RULES_EXACT_END && __builtin_popcountll(empty) <= 2)) {
            /* Play each candidate: under original only the single four cell
             * can be safe, and two or more four cells leave nothing. */
            if (r->rules == RULES_ORIGINAL) cand &= __builtin_popcountll(four) == 1 ? four : 0;
            uint64_t safe[2] = {0, 0};
            for (uint64_t e = cand; e;) {
                int c = bb_pop(&e);
                for (int s = 0; s < 2; s++)
                    if (safe_by_play(r, b, move_make(s, c))) safe[s] |= 1ULL << c;
            }
            out->moves[0] = safe[0];
            out->moves[1] = safe[1];
            /* A dead cell neither is nor spoils a four (it lies in no live
             * window and on no live window's end). Under exact-end with two
             * empty cells, play it too. */
            if (out->pass && four) out->pass = 0;
            if (out->pass && !four)
                out->pass = safe_by_play(r, b, move_make(SYM_X, __builtin_ctzll(out->dead)));
            if ((safe[0] | safe[1]) == 0 && !out->pass) {
                out->value = KN_ORDER;
                out->dtw = zugzwang_dtw(r, b, empty);
                out->nmoves = 0;
                return;
            }
        } else {
            out->moves[0] = cand & ~sc.maker[0];
            out->moves[1] = cand & ~sc.maker[1];
            if ((out->moves[0] | out->moves[1]) == 0 && !out->pass) {
                out->value = KN_ORDER;
                out->dtw = 2; /* no four on the board: no move completes a line */
                out->nmoves = 0;
                return;
            }
        }
    }
    out->nmoves = __builtin_popcountll(out->moves[0]) + __builtin_popcountll(out->moves[1]) + out->pass;
}

typedef struct {
    const uint64_t *live;
    int nlive;
    uint64_t pair[32];
    int npairs;
    int budget;
} Pairing;

/* Cover windows from index i on, given the pairs chosen so far (their cells in used). */
static bool pair_from(Pairing *p, int i, uint64_t used)
{
    for (; i < p->nlive; i++) {
        uint64_t w = p->live[i];
        bool covered = false;
        for (int j = 0; j < p->npairs && !covered; j++) covered = (p->pair[j] & w) == p->pair[j];
        if (covered) continue;
        uint64_t free = w & ~used;
        if (__builtin_popcountll(free) < 2 || --p->budget < 0) return false;
        for (uint64_t a = free; a;) {
            uint64_t abit = a & -a;
            a ^= abit;
            for (uint64_t rest = a; rest;) {
                uint64_t bbit = rest & -rest;
                rest ^= bbit;
                p->pair[p->npairs++] = abit | bbit;
                if (pair_from(p, i + 1, used | abit | bbit)) return true;
                p->npairs--;
                if (p->budget < 0) return false;
            }
        }
        return false;
    }
    return true;
}

bool kn_pairing(const KnScan *sc, int budget)
{
    /* Most constrained windows first: a window with fewer empty cells has
     * fewer pairs to choose from and fails soonest. */
    uint64_t live[RULES_MAX_WINDOWS];
    int n = 0;
    for (int want = 2; want <= 8; want++)
        for (int i = 0; i < sc->nlive; i++) {
            int c = __builtin_popcountll(sc->live[i]);
            if (c < 2) return false;
            if (c == want || (want == 8 && c > 8)) live[n++] = sc->live[i];
        }
    Pairing p = {live, n, {0}, 0, budget};
    return pair_from(&p, 0, 0);
}

bool kn_chaos_pairs(const Rules *r, const Knowledge *kn, Board b)
{
    /* Pairing needs Order to move on an even number of empty cells or Chaos
     * on an odd one: on an even board that is every position. */
    if (!kn->pairing || (r->n & 1)) return false;
    KnScan sc;
    kn_scan(r, b, &sc);
    return sc.nlive <= kn->pairing_live && kn_pairing(&sc, kn->pairing);
}

Board kn_key(const Rules *r, const Knowledge *kn, Board b, uint64_t dead)
{
    bool fill = kn->dead_cells && r->n <= 7;
    Board k = b;
    if (fill) k.s[SYM_X] |= dead;
    if (board_count(b) <= kn->sym_pieces) k = sym_canonical(k, r->n, NULL);
    if (fill) k.s[SYM_X] |= (uint64_t)__builtin_popcountll(dead) << 56;
    return k;
}
