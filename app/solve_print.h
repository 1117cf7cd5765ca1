/* solve_print.h - what `ocsolve solve` prints of a SolveReport: one
 * printer for people (text) and one for programs (JSON, through json.h).
 * Both print the same facts; the JSON keys are listed in the README.
 * With --within the report is the bounded question's: its answer, the
 * depth of the proof found, a move keeping it (Order to move), and the
 * figures; nothing of the value search, which did not run. */
#ifndef OCS_SOLVE_PRINT_H
#define OCS_SOLVE_PRINT_H

#include <stdio.h>

#include "../solver/solve.h"
#include "../solver/subboard_solve.h"

/* What the printers need besides the report: the question asked. */
typedef struct {
    const Rules *r;
    Board b;
    bool dtw;              /* --dtw was asked */
    bool resumable;        /* --checkpoint or --resume: print the totals of all runs */
    const char *proof;     /* --proof FILE, or NULL */
    bool within;           /* --within D was asked (only the bounded question) */
    int within_d;          /* D */
    /* The centre lemma's small game was solved first (7x7, 8x8:
     * solver/centre_solve.h): its report, and its certificate's file (NULL:
     * none); NULL when that route was not taken. */
    const SolveReport *centre;
    const char *centre_proof;
    /* The sub-board lemma's windows were solved first
     * (solver/subboard_solve.h): the last one's report, the window, how
     * many were tried, and its certificate's file (NULL: none); subboard
     * NULL when that route was not taken. */
    const SolveReport *subboard;
    SubboardWindow subboard_window;
    int subboard_tries;
    const char *subboard_proof;
} SolveAsked;

void solve_print_text(FILE *f, const SolveAsked *q, const SolveReport *rep);
void solve_print_json(FILE *f, const SolveAsked *q, const SolveReport *rep);

#endif
