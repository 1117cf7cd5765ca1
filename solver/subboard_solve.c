/* subboard_solve.c - see subboard_solve.h. */
#include "subboard_solve.h"

#include <stdio.h>
#include <string.h>

#include "../engine/notation.h"

/* The window's cells, as a mask of b's layout. */
static uint64_t window_mask(SubboardWindow w)
{
    uint64_t row = w.m == 8 ? 0xFFu : (1u << w.m) - 1u, mask = 0;
    for (int i = 0; i < w.m; i++) mask |= row << (8 * (w.r0 + i) + w.c0);
    return mask;
}

/* Conditions (a) and (b) of the lemma (subboard_solve.h), and the window's
 * game ongoing. */
static bool window_ok(const Rules *r, Board b, SubboardWindow w)
{
    uint64_t in = window_mask(w), occ = board_occupied(b);
    int empty_out = __builtin_popcountll(r->cells & ~in & ~occ);
    if (empty_out % 2 != 0 || board_count(b) % 2 != __builtin_popcountll(occ & in) % 2) return false;
    Rules sr;
    Board sb;
    subboard_small_game(r, b, w, &sr, &sb);
    return rules_status(&sr, sb) == WINNER_NONE;
}

/* How far the window's centre is from the board's (the square of the
 * distance in half cells): windows of one size are tried nearest first
 * (ties: by row, then column). */
static int off_centre(int n, SubboardWindow w)
{
    int dr = 2 * w.r0 + w.m - n, dc = 2 * w.c0 + w.m - n;
    return dr * dr + dc * dc;
}

int subboard_windows(const Rules *r, Board b, SubboardWindow *out, int max)
{
    int n = r->n, count = 0;
    if (r->rules != RULES_ORIGINAL || rules_status(r, b) != WINNER_NONE) return 0;
    for (int m = n - 1; m >= r->k && m >= BOARD_MIN_N && count < max; m--) {
        SubboardWindow cand[BOARD_MAX_N * BOARD_MAX_N];
        int nc = 0;
        for (int r0 = 0; r0 + m <= n; r0++)
            for (int c0 = 0; c0 + m <= n; c0++) {
                SubboardWindow w = {r0, c0, m};
                if (!window_ok(r, b, w)) continue;
                int at = nc++; /* insertion by off_centre, stable: row-major among ties */
                while (at > 0 && off_centre(n, cand[at - 1]) > off_centre(n, w)) cand[at] = cand[at - 1], at--;
                cand[at] = w;
            }
        for (int i = 0; i < nc && count < max; i++) out[count++] = cand[i];
    }
    return count;
}

void subboard_small_game(const Rules *r, Board b, SubboardWindow w, Rules *sr, Board *sb)
{
    char err[64];
    rules_init(sr, w.m, r->k, RULES_ORIGINAL, err, (int)sizeof err); /* 4 <= m <= 8, 3 <= k <= m: cannot fail */
    *sb = board_empty();
    uint64_t row = w.m == 8 ? 0xFFu : (1u << w.m) - 1u;
    for (int p = PIECE_X; p <= PIECE_O; p++)
        for (int i = 0; i < w.m; i++) /* window row i is board row r0+i from column c0 */
            sb->s[p] |= (b.s[p] >> (8 * (w.r0 + i) + w.c0) & row) << (8 * i);
}

/* A window move carried to the board. */
static Move window_move_to_board(SubboardWindow w, Move m)
{
    if (m == MOVE_NONE) return m;
    int c = move_cell(m);
    return move_make(move_piece(m), board_cell(cell_row(c) + w.r0, cell_col(c) + w.c0));
}

int subboard_solve_run(const Rules *r, Board b, SubboardWindow w, const SolveSpec *spec, SolveReport *big,
                       SolveReport *small, char *err, int errlen)
{
    Rules sr;
    Board sb;
    subboard_small_game(r, b, w, &sr, &sb);
    SolveSpec s = *spec;
    s.dtw = false; /* the window's distance is not the position's */
    s.resumable.checkpoint = s.resumable.resume = NULL; /* a checkpoint is the position's (the caller takes none) */
    if (solve_run(&sr, sb, &s, small, err, errlen) != 0) return -1;
    memset(big, 0, sizeof *big);
    big->value = small->value == WINNER_ORDER ? WINNER_ORDER : WINNER_NONE;
    big->best = big->value == WINNER_ORDER && board_order_to_move(b) ? window_move_to_board(w, small->best) : MOVE_NONE;
    big->dtw = -1;
    big->within = -1;
    big->nodes = small->nodes;
    big->seconds = small->seconds;
    big->pn = small->pn; /* the window's root numbers: an Order win there is one here */
    big->dn = small->dn;
    big->resumable.signo = small->resumable.signo;
    return 0;
}

void subboard_window_name(SubboardWindow w, char out[8])
{
    char a[3], z[3];
    notation_format_cell(board_cell(w.r0, w.c0), a);
    notation_format_cell(board_cell(w.r0 + w.m - 1, w.c0 + w.m - 1), z);
    snprintf(out, 8, "%s-%s", a, z);
}

int subboard_solve_write(FILE *f, const Rules *r, Board b, SubboardWindow w, const char *small, ProofStats *st)
{
    char pos[NOTATION_POS_LEN], corner[3];
    notation_format_position(b, r->n, pos);
    notation_format_cell(board_cell(w.r0, w.c0), corner);
    *st = (ProofStats){.lines = 1, .positions = 1, .lemmas = 1};
    fprintf(f, "ocproof 2\n# written by ocsolve solve: the sub-board lemma, the window's game by search\n"
               "board %d %d\nrules %s\nwinner order\nroot %s\n%s lemma subboard %s %d see %s\n",
            r->n, r->k, rules_name(r->rules), pos, pos, corner, w.m, small);
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
