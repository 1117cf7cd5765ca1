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

/* Children of an ongoing position b, counted to depth-1 plies below. */
static uint64_t perft_children(Perft *p, Board b, int depth)
{
    const Rules *r = p->r;
    uint64_t empty = moves_empty_cells(b, r->cells);
    if (depth == 1 && p->mode != PERFT_FULL) return 2 * (uint64_t)__builtin_popcountll(empty);
    uint64_t total = 0;
    while (empty) {
        int c = bb_pop(&empty);
        for (int s = 0; s < 2; s++) {
            Move m = move_make(s, c);
            board_place(&b, m);
            p->nodes++;
            Winner st = rules_status_after(r, b, m);
            if (depth == 1) {
                total++;
                p->leaf_ends += st != WINNER_NONE;
            } else if (st == WINNER_NONE) {
                total += perft_rec(p, b, depth - 1);
            }
            board_undo(&b, m);
        }
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
