/* perft.c - see perft.h. The memo table is perft's own: a direct-mapped
 * array of exact (canonical position, depth) keys, always replaced. */
#include "perft.h"

#include <stdlib.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "moves.h"
#include "symmetry.h"

typedef struct {
    uint64_t s[2];
    uint64_t count;
    uint32_t depth; /* 0 = unused slot (depth-0 counts are never stored) */
    uint32_t pad;
} MemoEntry;

typedef struct {
    const Rules *r;
    PerftMode mode;
    MemoEntry *memo;
    uint64_t memo_mask;
    uint64_t nodes, hits, leaf_ends;
} Perft;

static uint64_t perft_rec(Perft *p, Board b, int depth);

/* Does move m, made on b, end the game? */
static inline __attribute__((always_inline)) bool perft_leaf_ends(const Rules *r, Board b, Move m, RuleSet rs,
                                                                  int width)
{
    board_place(&b, m);
    return rules_status_after_as(r, b, m, rs, width) != WINNER_NONE;
}

/* The last ply of a full visit, where nearly all the work is: every move
 * made and judged by rules_status_after (its body, for the rule set and
 * row width given as constants), as the searches judge theirs. Its own
 * loop so that the counters stay in registers and nothing but the
 * judgement is between one leaf and the next. */
static inline __attribute__((always_inline)) uint64_t perft_leaves_as(Perft *p, Board b, RuleSet rs, int width)
{
    const Rules *r = p->r;
    uint64_t empty = moves_empty_cells(b, r->cells), ends = 0;
    uint64_t total = 2 * (uint64_t)__builtin_popcountll(empty);
    while (empty) {
        int c = bb_pop(&empty);
        ends += perft_leaf_ends(r, b, move_make(PIECE_X, c), rs, width);
        ends += perft_leaf_ends(r, b, move_make(PIECE_O, c), rs, width);
    }
    p->nodes += total;
    p->leaf_ends += ends;
    return total;
}

/* perft_leaves_as, compiled once for each rule set and row width. */
static uint64_t perft_leaves(Perft *p, Board b)
{
    RuleSet rs = p->r->rules;
    bool narrow = p->r->cell_pad == 8;
    if (rs == RULES_EXACT_END) return perft_leaves_as(p, b, RULES_EXACT_END, 0);
    if (rs == RULES_ORIGINAL)
        return narrow ? perft_leaves_as(p, b, RULES_ORIGINAL, 8) : perft_leaves_as(p, b, RULES_ORIGINAL, 16);
    return narrow ? perft_leaves_as(p, b, RULES_EXACT, 8) : perft_leaves_as(p, b, RULES_EXACT, 16);
}

/* Move m made on b, judged, and counted to depth-1 plies below (depth >= 2). */
static inline uint64_t perft_child(Perft *p, Board b, Move m, int depth)
{
    board_place(&b, m);
    p->nodes++;
    return rules_status_after(p->r, b, m) == WINNER_NONE ? perft_rec(p, b, depth - 1) : 0;
}

/* Children of an ongoing position b, counted to depth-1 plies below. The
 * two pieces are written out (not a loop over them) so that each place
 * is on a known half of the board, which then stays in registers. */
static uint64_t perft_children(Perft *p, Board b, int depth)
{
    uint64_t empty = moves_empty_cells(b, p->r->cells);
    if (depth == 1) return p->mode == PERFT_FULL ? perft_leaves(p, b) : 2 * (uint64_t)__builtin_popcountll(empty);
    uint64_t total = 0;
    while (empty) {
        int c = bb_pop(&empty);
        total += perft_child(p, b, move_make(PIECE_X, c), depth);
        total += perft_child(p, b, move_make(PIECE_O, c), depth);
    }
    return total;
}

static uint64_t perft_rec(Perft *p, Board b, int depth)
{
    if (p->memo == NULL || depth < 2) return perft_children(p, b, depth);
    Board key = sym_canonical(b, p->r->n, NULL);
    uint64_t h = XXH3_64bits_withSeed(key.s, sizeof key.s, (uint64_t)depth);
    MemoEntry *e = &p->memo[h & p->memo_mask];
    if (e->depth == (uint32_t)depth && e->s[0] == key.s[0] && e->s[1] == key.s[1]) {
        p->hits++;
        return e->count;
    }
    uint64_t count = perft_children(p, b, depth);
    *e = (MemoEntry){{key.s[0], key.s[1]}, count, (uint32_t)depth, 0};
    return count;
}

int perft_run(const Rules *r, Board b, int depth, PerftMode mode, size_t memo_bytes, PerftResult *out)
{
    Perft p = {r, mode, NULL, 0, 0, 0, 0};
    if (mode == PERFT_MEMO) {
        size_t n = 1;
        while (n * 2 * sizeof(MemoEntry) <= memo_bytes) n *= 2;
        p.memo = calloc(n, sizeof(MemoEntry));
        if (!p.memo) return -1;
        p.memo_mask = n - 1;
    }
    if (depth == 0)
        out->count = 1;
    else if (rules_status(r, b) != WINNER_NONE)
        out->count = 0;
    else
        out->count = perft_rec(&p, b, depth);
    out->nodes = p.nodes;
    out->memo_hits = p.hits;
    out->leaf_ends = p.leaf_ends;
    free(p.memo);
    return 0;
}
