/* centre_solve.c - see centre_solve.h. */
#include "centre_solve.h"

#include <stdio.h>
#include <string.h>

#include "../engine/notation.h"
#include "centre.h"

bool centre_solve_applies(const Rules *r, Board b)
{
    Rules sr;
    Board sb;
    return centre_small_game(r, b, &sr, &sb);
}

/* A small-board move carried to the big board: one row and one column in. */
static Move to_big(Move m)
{
    if (m == MOVE_NONE) return m;
    int c = move_cell(m);
    return move_make(move_piece(m), board_cell(cell_row(c) + 1, cell_col(c) + 1));
}

int centre_solve_run(const Rules *r, Board b, const SolveSpec *spec, SolveReport *big, SolveReport *small, char *err,
                     int errlen)
{
    Rules sr;
    Board sb;
    if (!centre_small_game(r, b, &sr, &sb)) {
        snprintf(err, (size_t)errlen, "the centre lemma's small game does not apply here");
        return -1;
    }
    SolveSpec s = *spec;
    s.dtw = false; /* the small game's distance is not the big game's */
    s.resumable.checkpoint = s.resumable.resume = NULL; /* a checkpoint is the big position's (the caller takes none) */
    if (solve_run(&sr, sb, &s, small, err, errlen) != 0) return -1;
    memset(big, 0, sizeof *big);
    big->value = small->value == WINNER_ORDER ? WINNER_ORDER : WINNER_NONE;
    big->best = big->value == WINNER_ORDER && board_order_to_move(b) ? to_big(small->best) : MOVE_NONE;
    big->dtw = -1;
    big->within = -1;
    big->nodes = small->nodes;
    big->seconds = small->seconds;
    big->pn = small->pn; /* the small game's root numbers: an Order win there is one here */
    big->dn = small->dn;
    big->resumable.signo = small->resumable.signo;
    return 0;
}

int centre_solve_write(FILE *f, const Rules *r, Board b, const char *small, ProofStats *st)
{
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, r->n, pos);
    *st = (ProofStats){.lines = 1, .positions = 1, .lemmas = 1};
    fprintf(f, "ocproof 2\n# written by ocsolve solve: the centre lemma, its small game by search\n"
               "board %d %d\nrules %s\nwinner order\nroot %s\n%s lemma centre see %s\n",
            r->n, r->k, rules_name(r->rules), pos, pos, small);
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
