/* within_cert.c - the certificates of the job-level search's bounded mode
 * (within.h, Certificates): each file Order's within a depth ("-wP") or
 * Chaos's to a horizon ("-hP"), a top-tree node's composed from its
 * children's files by see lines. Every file is written to a temporary file
 * of a unique name and renamed (jobrun_open_tmp), so a killed run leaves
 * no partial certificate under a real name. A missing file is made by
 * within_regen.c (within_ensure). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/moves.h"
#include "../engine/notation.h"
#include "../solver/proof.h"
#include "within.h"

bool within_trivial(const TopCert *tc, Board b, Winner w, int d)
{
    Winner st = rules_status(tc->r, b);
    if (st != WINNER_NONE) return st == w;
    if (w == WINNER_ORDER) return topcert_trivial(tc, b); /* Order to move completes a line at once */
    return proof_fewest_to_line(tc->r, b) > d;            /* no line can stand in the plies left */
}

int within_agrees(const TopCert *tc, Board b, Winner w, int plies, const char *name, char *err, int errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", tc->dir, name);
    Winner cw;
    int horizon;
    bool same;
    if (topcert_header_of(tc, path, b, &cw, &horizon, &same) != 0) return -1;
    int want = w == WINNER_CHAOS ? plies : -1;
    if (cw == w && same && horizon == want) return 1;
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, tc->r->n, pos);
    snprintf(err, (size_t)errlen, "the store says %s for %s, its certificate %s %s", w == WINNER_ORDER ? "yes" : "no",
             pos, path,
             !same ? "is of another position" : cw != w ? "says the other side" : "states another horizon");
    return 0;
}

/* The header of a bounded certificate of b: Order's (yes), or Chaos's to
 * the horizon d (no). */
static void header(const TopCert *tc, FILE *f, Board b, Winner w, int d, const char *comment)
{
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, tc->r->n, pos);
    fprintf(f, "ocproof 2\n# written by ocsolve jobs --within: %s\nboard %d %d\nrules %s\nwinner %s\nroot %s\n",
            comment, tc->r->n, tc->r->k, rules_name(tc->r->rules), winner_name(w), pos);
    if (w == WINNER_CHAOS) fprintf(f, "horizon %d\n", d);
}

/* A see line for position b and its file `name` ("": none needed). */
static void see_line(const TopCert *tc, FILE *f, Board b, const char *prefix, const char *name)
{
    if (!name[0]) return;
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, tc->r->n, pos);
    fprintf(f, "%s see %s%s\n", pos, prefix, name);
}

/* Closes the temporary file f (written from `tmp`) and renames it onto
 * path; 0, or -1 with a message (nothing left behind). */
static int finish(FILE *f, const char *tmp, const char *path, char *err, int errlen)
{
    int rc = fflush(f) != 0 || ferror(f) ? -1 : 0;
    if (fclose(f) != 0) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    if (rc != 0) {
        remove(tmp);
        snprintf(err, (size_t)errlen, "cannot write the certificate %s", path);
    }
    return rc;
}

int within_node(TopCert *tc, Board b, Winner w, int wdepth, int d, const Board kids[], const Move moves[],
                const int kid_wdepth[], int nk, const char *path, const char *prefix, char *err, int errlen)
{
    char (*names)[JOBRUN_NAME_MAX] = malloc((size_t)(nk > 0 ? nk : 1) * sizeof *names);
    if (!names) return snprintf(err, (size_t)errlen, "out of memory"), -1;
    for (int k = 0; k < nk; k++)
        if (within_ensure(tc, kids[k], w, kid_wdepth[k], d - 1, names[k], err, errlen) != 0) return free(names), -1;
    if (tc->plan) { /* a dry run (within_prepare): b's file will be this node's */
        free(names);
        topcert_planned(tc, b, true, false);
        return 0;
    }
    char own[4200], tmp[4300], name[JOBRUN_NAME_MAX];
    if (!path) {
        jobrun_within_name(tc->r, b, w == WINNER_ORDER, wdepth, name);
        snprintf(own, sizeof own, "%s/%s", tc->dir, name);
        path = own;
        prefix = "";
    }
    FILE *f = jobrun_open_tmp(path, tmp, sizeof tmp);
    if (!f) return free(names), snprintf(err, (size_t)errlen, "cannot write the certificate %s", path), -1;
    header(tc, f, b, w, d, "a top-tree node");
    if (board_order_to_move(b) == (w == WINNER_ORDER) && nk > 0) { /* the winner's move */
        char pos[NOTATION_POS_LEN], mv[4];
        notation_format_position(b, tc->r->n, pos);
        notation_format_move(moves[0], mv);
        fprintf(f, "%s %s\n", pos, mv);
    }
    for (int k = 0; k < nk; k++) see_line(tc, f, kids[k], prefix, names[k]);
    free(names);
    if (finish(f, tmp, path, err, errlen) != 0) return -1;
    tc->written++;
    topcert_tick(tc, 0);
    return 0;
}

int within_see_root(TopCert *tc, Board b, Winner w, int plies, int D, const char *path, const char *prefix, char *err,
                    int errlen)
{
    char name[JOBRUN_NAME_MAX], tmp[4300];
    if (within_ensure(tc, b, w, plies, D, name, err, errlen) != 0) return -1;
    FILE *f = jobrun_open_tmp(path, tmp, sizeof tmp);
    if (!f) {
        snprintf(err, (size_t)errlen, "cannot write the certificate %s", path);
        return -1;
    }
    header(tc, f, b, w, D, "the root, decided as a whole");
    see_line(tc, f, b, prefix, name);
    return finish(f, tmp, path, err, errlen);
}
