/* dfpn_kernel.h - the one df-pn kernel of the two df-pn searches: the
 * value search (dfpn.c: does Order win?) and the bounded search
 * (dfpn_depth.c: does Order win within d plies?). Both expand a node the
 * same way (dfpn_kernel_expand): its children in kn_node's order (X cells, O
 * cells, then the tempo move), each evaluated first without the table
 * (dfpn_kernel_static: the rules, kn_node, the knowledge the search may use)
 * and then, once every child's table lines are on their way, with it
 * (dfpn_kernel_table); symmetric twins merged (dedupe.h). Both choose the child
 * to descend into the same way (dfpn_kernel_pick, dfpn_child_thresholds), and
 * both ask Order's forcing sequences where they expand an Order node
 * (dfpn_kernel_threat; the value search also at every Order-to-move child it
 * generates, dfpn_kernel_static says why only it). What differs is a
 * parameter, `bounded`:
 *   - the question: the value search asks "does Order win?" at any depth;
 *     the bounded search asks "within d plies?", so its children carry
 *     their question d - 1 in normal form (bounded.h), a decided child the
 *     depth of its proof, and it uses bounded.h's answers near the leaves;
 *     the centre lemma decides a value, not a distance, so only the value
 *     search uses it; an Order win that knowledge finds counts for the
 *     bounded search only within the child's question (kn_node's dtw is
 *     exact; a threat search's plies, an upper bound on the distance to
 *     win, threats.h, are kept within the question by its bound);
 *   - the table keying: the value search keeps proof numbers under the
 *     plain key (kn_key), prefetching fingerprints first (most of its
 *     probes miss: tt.h); the bounded search keeps facts (depth bounds)
 *     under the plain key and an open question's numbers under the key
 *     tagged with its d (dfpn_kernel_tagged; dfpn_depth.h argues they never
 *     meet), and may read a value search's disproofs.
 * `bounded` is a constant at every call and the hot functions are always
 * inlined, so each search is compiled with the other's branches gone.
 *
 * Knowledge used, each argued where it is defined: fours, safe moves,
 * zugzwang, dead cells and keys (knowledge.h); pairing (pairing.h); the
 * centre lemma (centre.h); Order's forcing sequences (threats.h: the full
 * bound where an Order node is expanded, and in the value search the
 * short bound THREATS_CHILD_PLIES at every Order-to-move child it
 * generates); the bounded question's
 * normal form and leaves (bounded.h, dfpn_depth.h).
 *
 * Invariants: a child is decided (pn 0 or dn 0) only by a fact: the rules,
 * sound knowledge or a decided table entry. Every child's static half runs
 * before any child's table half, and the table halves run in the
 * children's order, so a search's sequence of probes and stores (and with
 * it every number) depends on its settings and the table alone; the memos
 * (pairing failures, threat results: dfpn_kernel_memo_new) remember pure
 * functions of the board, so they change work, never a number.
 */
#ifndef OCS_DFPN_KERNEL_H
#define OCS_DFPN_KERNEL_H

#include <stdatomic.h>
#include <string.h>

#include "../tables/tt.h"
#include "bounded.h"
#include "centre.h"
#include "centre_half.h"
#include "centre_ring.h"
#include "dedupe.h"
#include "dfpn_numbers.h"
#include "knowledge.h"
#include "threats.h"

/* A child as its parent sees it. */
typedef struct {
    Board key;     /* kn_key (open children): the value search's numbers, the bounded one's facts */
    uint64_t h;    /* tt_hash(key) */
    uint64_t ht;   /* bounded, open: tt_hash of its tagged key (its numbers), 0 at a 4-ply leaf; value search: unset */
    Move move;
    bool exact;    /* decided without the table's numbers */
    int8_t d;      /* bounded: the child's question in normal form (open children) */
    int8_t depth;  /* bounded: a yes, Order wins within this many plies */
    uint32_t pn, dn;
    uint32_t work; /* the table's effort for it; 0 when decided without search */
} DfpnChild;

/* What a search hands the kernel: its settings and where its memos and
 * counts are. Built by each search from its own state (a view, no copy of
 * any state). */
typedef struct {
    const Rules *r;
    const Knowledge *kn;
    TT *tt;                       /* the search's table */
    const TT *value;              /* bounded: a value search's table, for its disproofs; NULL: none */
    const Centre *centre;         /* the value search's centre lemma (centre.on: in use); NULL: none */
    const atomic_bool *interrupt; /* stops the centre's table build */
    double deadline;              /* ... and so does the clock past this (monotonic seconds; 0: none; the run's, limits_lemma_deadline) */
    Board *memo;                  /* dfpn_kernel_memo_new's memos; NULL: none */
    ThreatStats *threats;         /* where the threat searches are counted */
    bool chaos_pn_moves;          /* initial pn of a Chaos node = its number of safe moves */
    bool order_dn_moves;          /* initial dn of an Order node = its number of moves */
    const int *cells_first;       /* the order of the children's cells (the board's
                                   * cells, dfpn_kernel_center_order); NULL: by index */
    bool read_only;               /* never store: a pairing found is not recorded in tt
                                   * (the certificate writer's view of a search's table,
                                   * which it leaves as the search left it: dfpn.c) */
    bool settle_early;            /* value search: an expansion stops at the first child
                                   * that decides the node for its mover
                                   * (dfpn_kernel_expand); on odd boards only, and
                                   * off at the root, whose every move is counted
                                   * (dfpn_search.c) */
} DfpnKernel;

/* An nlive for dfpn_kernel_table meaning "no pairing test": for a caller that
 * wants Order's wins only, which pairing (a Chaos win) never gives; and
 * dfpn_kernel_static's answer where kn_node's lines gate showed that no
 * pairing exists (KnNode.no_pairing). */
enum { KERNEL_NLIVE_SKIP_PAIRING = -2 };

/* The pairing memo and the threat memo of one thread (kernel.c); NULL when
 * there is no memory for them, which only costs repeated tests. */
Board *dfpn_kernel_memo_new(void);

static inline Board *dfpn_kernel_pairing_slot(Board *memo, Board b)
{
    enum { MEMO_BITS = 14 };
    uint64_t h = b.s[0] * 0x9E3779B97F4A7C15ULL ^ b.s[1] * 0xC2B2AE3D27D4EB4FULL;
    return &memo[h >> (64 - MEMO_BITS)];
}

/* Does pairing show a Chaos win at the open b (key, h: its table key and
 * hash)? A win is stored, so that the test is not made again there: as
 * the value search's disproof, or (bounded) as the fact "no at every
 * depth", alpha-beta's entry. A failure goes to the memo. */
bool dfpn_kernel_chaos_pairs(const DfpnKernel *k, Board b, Board key, uint64_t h, bool bounded);

/* Order's forcing sequences (threats.h) at an open position with Order to
 * move (kn its kn_node), within plies: true, with *plies_won the proof's
 * depth (an upper bound on the distance to win, <= plies). memo: remember
 * the result (where a node is expanded, which df-pn enters again and
 * again; not at generated children, where the memo's cache miss would
 * cost as much as the short search). */
bool dfpn_kernel_threat_search(const DfpnKernel *k, Board b, const KnNode *kn, int plies, bool memo, int *plies_won);

static inline bool dfpn_kernel_threat(const DfpnKernel *k, Board b, const KnNode *kn, int plies, bool memo, int *plies_won)
{
    return threats_may(k->r, k->kn, kn->maker) && dfpn_kernel_threat_search(k, b, kn, plies, memo, plies_won);
}

/* The short bound at generated children (threats.h). */
static inline int dfpn_kernel_child_plies(const Knowledge *kn)
{
    return kn->threat_plies < THREATS_CHILD_PLIES ? kn->threat_plies : THREATS_CHILD_PLIES;
}

/* Order's move at an ongoing position b with Order to move that a threat
 * search wins within plies (or a node of such a proof), for the
 * certificate writers; MOVE_NONE when none is found (threats_move:
 * complete within its budget). The move's child is won within the plies
 * found - 1 (threats.h). */
Move dfpn_kernel_threat_move(const DfpnKernel *k, Board b, int plies);

/* The board's cells, nearest the centre first (ties by cell index): the
 * --order center move ordering. Returns how many. */
int dfpn_kernel_center_order(int n, int *cells);

/* The key of an open bounded question's numbers: d + 1 in the O word's
 * row 7 (dfpn_depth.h: never a plain key, nor one of another d). */
static inline Board dfpn_kernel_tagged(Board key, int d)
{
    key.s[PIECE_O] |= (uint64_t)(d + 1) << 56;
    return key;
}

/* A child decided: yes (an Order win, within its question when bounded;
 * depth: its proof's depth) or no. */
static inline void dfpn_kernel_decided(DfpnChild *c, bool yes, int depth)
{
    c->d = 0;
    c->exact = true;
    c->depth = (int8_t)depth;
    dfpn_numbers(yes ? WINNER_ORDER : WINNER_CHAOS, &c->pn, &c->dn);
}

/* A 4-ply bounded question with Chaos to move (bounded_leaf4) is no as soon as
 * one Chaos move's child is no: tried first, statically, on the first move
 * dfpn_kernel_expand would try (the one its expansion would stop at if it is
 * no). Most such questions end there, without a node or a table entry. */
bool dfpn_kernel_refuted_at_once(const DfpnKernel *k, Board b, const KnNode *kn);

/* What the bounded search's facts, or the value search's table, say of an
 * open position with key `key` asked q: 1 yes (*depth set), 0 no, -1
 * nothing (dfpn_depth.h: a yes at d holds at every d' >= d, a no at every
 * d' <= d; a value disproof is no at every d). */
static inline int dfpn_kernel_facts(const DfpnKernel *k, Board key, int q, int *depth)
{
    TTBounds f;
    if (tt_probe_bounds(k->tt, key, &f)) {
        if (f.win <= (uint32_t)q) {
            *depth = (int)f.win;
            return 1;
        }
        if (f.nowin >= (uint32_t)q) return 0;
    }
    TTData v;
    if (k->value && tt_probe((TT *)k->value, key, &v) && v.dn == 0) return 0; /* Chaos wins */
    return -1;
}

#define KERNEL_HOT static inline __attribute__((always_inline))

/* A child's first half, without the table: the position cb after move m,
 * asked d plies (bounded; the value search passes any d). Decided by the
 * rules, kn_node, the centre lemma (value), the question's normal form
 * and leaves (bounded), or the short threat bound (value); else open, with its
 * key and question, its table lines prefetched so that the children's
 * cache misses overlap. Returns an open child's number of moves (for its
 * initial numbers), with its live windows in *nlive. */
KERNEL_HOT int dfpn_kernel_static(const DfpnKernel *k, const KnKeyBase *base, Board cb, Move m, int d, DfpnChild *c,
                             int *nlive, bool bounded)
{
    c->move = m;
    c->work = 0;
    Winner st = rules_status_after(k->r, cb, m);
    if (st != WINNER_NONE) {
        dfpn_kernel_decided(c, st == WINNER_ORDER && (!bounded || d >= 0), 0);
        return 0;
    }
    KnNode kn;
    kn_node(k->r, k->kn, cb, &kn);
    int q = d, depth = kn.dtw;
    if (kn.value == WINNER_NONE) {
        bool order = board_order_to_move(cb);
        if (!bounded) {
            if (centre_win_with_half(k->centre, cb, k->interrupt, k->deadline)) kn.value = WINNER_ORDER;
            else if (k->centre && centre_ring_chaos(k->centre, k->r, cb, NULL, k->interrupt, k->deadline))
                kn.value = WINNER_CHAOS;
        } else if ((q = bounded_question(k->r, k->kn, cb, d)) < 0) {
            dfpn_kernel_decided(c, false, 0);
            return 0;
        } else if (q == 3 && order && bounded_leaf3(k->r, k->kn)) {
            depth = 0;
            bool yes = bounded_wins_in_3(k->r, k->kn, cb, &kn, &depth);
            dfpn_kernel_decided(c, yes, depth);
            return 0;
        } else if (bounded_leaf4(k->r, k->kn, cb, q) && dfpn_kernel_refuted_at_once(k, cb, &kn)) {
            dfpn_kernel_decided(c, false, 0);
            return 0;
        }
        /* The short threat bound at generated children: the value search
         * only. The bounded search's work is mostly disproofs (the "no" at
         * distance - 2), where every child would pay the check and few
         * are ever searched: measured (results/dtw/dtw.md) it cost 23 % more
         * time on hard original positions and 2.5x under exact, for up to
         * half the nodes on easy ones; its 3-ply questions have their own
         * exact answer (bounded_wins_in_3) anyway. */
        int p;
        if (!bounded && kn.value == WINNER_NONE && order &&
            dfpn_kernel_threat(k, cb, &kn, dfpn_kernel_child_plies(k->kn), false, &p)) {
            kn.value = WINNER_ORDER;
            depth = p;
        }
    }
    if (kn.value != WINNER_NONE) {
        dfpn_kernel_decided(c, kn.value == WINNER_ORDER && (!bounded || depth <= d), depth);
        return 0;
    }
    c->exact = false;
    c->d = (int8_t)q;
    c->key = base ? kn_key_child(k->kn, base, cb, kn.dead) : kn_key(k->r, k->kn, cb, kn.dead);
    c->h = tt_hash(c->key);
    bool leaf = bounded && bounded_leaf4(k->r, k->kn, cb, q);
    if (!bounded) {
        /* Most probes miss: the fingerprints first, the bucket later
         * (dfpn_kernel_expand), only where a fingerprint matches (tt.h). */
        tt_prefetch_fp(k->tt, c->h);
    } else {
        /* The same two steps for the bounded search's three probes (its
         * facts, its numbers, the value table): a child's nine cache lines
         * asked at once stalled the prefetches themselves (perf: 68 % of a
         * --within run in tt_prefetch*). */
        c->ht = leaf ? 0 : tt_hash(dfpn_kernel_tagged(c->key, q));
        tt_prefetch_fp(k->tt, c->h);
        if (!leaf) tt_prefetch_fp(k->tt, c->ht);
        if (k->value) tt_prefetch_fp(k->value, c->h);
    }
    /* kn.no_pairing: the lines gate (pairing.h) says no pairing exists */
    if (!leaf && k->memo && !kn.no_pairing && kn_pairs_may(k->r, k->kn, kn.nlive))
        __builtin_prefetch(dfpn_kernel_pairing_slot(k->memo, cb));
    *nlive = kn.no_pairing ? KERNEL_NLIVE_SKIP_PAIRING : kn.nlive;
    return kn.nmoves;
}

/* A child's second half, for an open one: the table, else a pairing, else
 * the initial numbers from its number of moves (dfpn.h). Bounded: the
 * facts first (and the value table's disproofs), then the question's
 * numbers; a 4-ply Chaos question (bounded_leaf4) has neither numbers nor a
 * pairing test. Table operations happen here only (see the invariants). */
KERNEL_HOT void dfpn_kernel_table(const DfpnKernel *k, Board bin, int nmoves, int nlive, DfpnChild *c, bool bounded)
{
    Board b = board_regs(bin); /* see board_regs: a stall otherwise */
    TTData e;
    bool leaf = false, probed;
    if (bounded) {
        int depth = 0, known = dfpn_kernel_facts(k, c->key, c->d, &depth);
        if (known >= 0) {
            dfpn_kernel_decided(c, known == 1, depth);
            return;
        }
        leaf = bounded_leaf4(k->r, k->kn, b, c->d);
        Board tagged = dfpn_kernel_tagged(c->key, c->d);
        probed = !leaf && tt_probe_hashed(k->tt, tagged, c->ht ? c->ht : tt_hash(tagged), &e);
    } else {
        probed = tt_probe_hashed(k->tt, c->key, c->h, &e);
    }
    if (probed) {
        c->pn = e.pn;
        c->dn = e.dn;
        c->work = e.work;
    } else if (!leaf && nlive != KERNEL_NLIVE_SKIP_PAIRING && kn_pairs_may(k->r, k->kn, nlive) &&
               dfpn_kernel_chaos_pairs(k, b, c->key, c->h, bounded)) {
        if (bounded) dfpn_kernel_decided(c, false, 0);
        else dfpn_numbers(WINNER_CHAOS, &c->pn, &c->dn);
    } else if (board_order_to_move(b)) {
        c->pn = 1;
        c->dn = k->order_dn_moves ? (uint32_t)nmoves : 1;
    } else {
        c->pn = k->chaos_pn_moves ? (uint32_t)nmoves : 1;
        c->dn = 1;
    }
}

/* Does the decided child c settle its bounded parent (Order to move:
 * order) with nothing left to learn from the other children? A Chaos node
 * with a disproved child is disproved whatever the others are; an Order
 * node with a child proven at the least depth any proof of the node can
 * have (`least`, bounded_least_dtw) is proven, at the depth the full expansion
 * would find. */
static inline bool dfpn_kernel_settles(const DfpnChild *c, bool order, int least)
{
    return c->exact && (order ? c->pn == 0 && c->depth + 1 <= least : c->dn == 0);
}

/* The children of the open b (kn its kn_node; bounded: its question d,
 * each child asked d - 1) into ch, in kn_node's order (cells ascending, or
 * in k->cells_first order when set; X, then O, then the tempo move). A child
 * symmetric to one already there is left out: where keys are canonical,
 * equal keys are equal values and distances, and counting one twice would
 * only inflate an AND node's proof number (or an OR node's disproof
 * number). A twin of a child the table then decided is dropped too: a
 * decided child adds nothing to its parent's sum, is never the least
 * unless the parent is decided, and its twin would be decided the same
 * way. Bounded, the expansion stops at a child that settles the node
 * (dfpn_kernel_settles; then it is the only child), and Order's quiet moves at
 * a 5-ply question enter as no (bounded_quiet_moves). Returns how many.
 *   The value search (k->settle_early) stops likewise at the first child,
 * in the order above, that the table or a pairing shows won for the mover
 * (pn 0 at an Order node, dn 0 at a Chaos node). Why it is sound: such a
 * child makes the node's value the mover's whatever the others are, and
 * the numbers the node gets from it alone are the ones the whole list
 * gives (an OR node's pn = min = 0 and dn = sum, which that child's
 * DFPN_INF saturates; dually at an AND node); the pick would choose it
 * too, the first least phi (dfpn_numbers.h). What changes is only the work
 * left undone: the later children's table probes and pairing tests, and
 * the pairings those tests would have stored. Those stored pairings are
 * worth much more than their tests cost where the tests are cheap: a
 * pairing is stored under the child's key, which other positions share
 * (symmetric images, other dead cells) whose own budgeted test, walking
 * the cells in another order, can fail. So the search (dfpn_search.c)
 * stops early on odd boards only, where every test is the dear search
 * with witnesses. Measured (2026-12-05, one thread, the machine loaded by
 * two nice-19 searches):
 *   - 7x7 k = 6 `original` after X b2, X c3, X d4 (all Chaos wins; the
 *     pairing test ran 18 times a node and took 70 % of the time): 9.0 /
 *     10.6 / 8.2 s -> 4.1 / 8.9 / 3.8 s, nodes 66 076 / 84 947 / 47 758 ->
 *     64 919 / 111 671 / 51 767;
 *   - on every board (the first try) the opening tier (bench --opening,
 *     6x6) went from 29.0 M to 72.3 M nodes: X c3 O d4 alone from 4.7 M
 *     to 51.3 M, one position of nine; hence odd boards only. */
KERNEL_HOT int dfpn_kernel_expand(const DfpnKernel *k, Board b, const KnNode *kn, int d, DfpnChild *ch, bool bounded)
{
    bool order = board_order_to_move(b), dedupe = board_count(b) + 1 <= k->kn->sym_pieces;
    int least = bounded ? bounded_least_dtw(k->r, k->kn, b) : 0;
    uint64_t skip[2] = {0, 0};
    if (bounded && order && d == 5) bounded_quiet_moves(k->r, k->kn, b, kn, skip);
    KnKeyBase base; /* the children's keys, incrementally (knowledge.h) */
    kn_key_base(k->r, k->kn, b, kn->dead, &base);
    int16_t nmoves[MOVES_MAX + 1], nlive[MOVES_MAX + 1];
    int all = 0;
    const int *cells_first = k->cells_first; /* the bounded search's is NULL unless asked */
    for (int s = 0; s < 3; s++) {
        uint64_t cells = s < 2 ? kn->moves[s] : (kn->tempo ? kn->dead & -kn->dead : 0);
        int piece = s < 2 ? s : PIECE_X;
        for (int i = 0; cells; all++) {
            int cell;
            if (cells_first && s < 2) {
                while (!(cells >> cells_first[i] & 1)) i++;
                cell = cells_first[i++];
                cells &= ~(1ULL << cell);
            } else {
                cell = bb_pop(&cells);
            }
            Move m = move_make(piece, cell);
            if (bounded && (skip[piece] >> cell & 1)) {
                ch[all].move = m;
                ch[all].work = 0;
                dfpn_kernel_decided(&ch[all], false, 0);
                continue;
            }
            Board cb = b;
            board_place(&cb, m);
            int nl = -1;
            nmoves[all] = (int16_t)dfpn_kernel_static(k, &base, cb, m, d - 1, &ch[all], &nl, bounded);
            nlive[all] = (int16_t)nl;
            if (bounded && dfpn_kernel_settles(&ch[all], order, least)) {
                ch[0] = ch[all];
                return 1;
            }
        }
    }
    /* The buckets of the children the table may hold, now that their
     * fingerprints are in (dfpn_kernel_static asked for them). Measured: the
     * same speed as asking a few children later inside the loop above. */
    for (int i = 0; i < all; i++) {
        if (ch[i].exact) continue;
        tt_prefetch_held(k->tt, ch[i].h);
        if (bounded && ch[i].ht) tt_prefetch_held(k->tt, ch[i].ht);
        if (bounded && k->value) tt_prefetch_held(k->value, ch[i].h);
    }
    int n = 0;
    uint8_t seen[DEDUPE_SLOTS];
    if (dedupe) memset(seen, 0, sizeof seen);
    for (int i = 0; i < all; i++) {
        DfpnChild *c = &ch[i];
        if (dedupe && !c->exact && dedupe_listed(seen, ch, sizeof *ch, offsetof(DfpnChild, key), n, c->key)) continue;
        if (!c->exact) {
            Board cb = b;
            board_place(&cb, c->move);
            dfpn_kernel_table(k, cb, nmoves[i], nlive[i], c, bounded);
        }
        if (bounded ? dfpn_kernel_settles(c, order, least) : k->settle_early && (order ? c->pn : c->dn) == 0) {
            ch[0] = *c;
            return 1;
        }
        /* n <= i: compacts in place. Copying only when a duplicate has left
         * a gap matters: the child was just written field by field, and
         * reading it back whole at once stalls on store forwarding. */
        if (n != i) ch[n] = *c;
        n++;
    }
    return n;
}

/* The phi number another thread's presence makes a child look like: one
 * more per thread inside it (Kaneko's virtual numbers). Measured on 8
 * positions of bench/speedup-positions.txt, 2 threads: +1 per thread took
 * 1.06x one thread's nodes, doubling per thread 1.12x. Decided numbers
 * stay as they are. */
static inline uint32_t dfpn_kernel_virtual_phi(uint32_t phi, unsigned busy)
{
    if (phi == 0 || phi == DFPN_INF || busy == 0) return phi;
    uint64_t v = (uint64_t)phi + busy;
    return v >= DFPN_INF ? DFPN_INF - 1 : (uint32_t)v;
}

/* The choice at an open node (dfpn.h): phi is the number the mover
 * minimises (Order: pn, Chaos: dn), delta the other, summed. With virtual
 * (parallel value search), a child other threads are in looks harder
 * (dfpn_kernel_virtual_phi); delta is always the real sum. */
static inline DfpnPick dfpn_kernel_pick(const TT *tt, const DfpnChild *ch, int n, bool order, bool virtual)
{
    DfpnPick p = dfpn_pick_start();
    for (int i = 0; i < n; i++) {
        const DfpnChild *c = &ch[i];
        uint32_t phi = order ? c->pn : c->dn;
        if (virtual && !c->exact) phi = dfpn_kernel_virtual_phi(phi, tt_busy(tt, c->key));
        dfpn_pick_add(&p, i, phi, order ? c->dn : c->pn);
    }
    dfpn_pick_end(&p, n); /* unreachable for open nodes */
    return p;
}

#endif
