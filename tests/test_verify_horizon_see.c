/* test_verify_horizon_see.c - see lines in horizon certificates
 * (verify/verify.h, Horizon certificates): such a line may name a file
 * that is itself a horizon certificate, and then only one whose horizon
 * is at least the plies left where the line stands. Composed certificates
 * of positions whose distance to win the brute force gives (tests/brute.h)
 * verify; the same composition with one file's horizon one too short is
 * refused, with one thread and with two alike, and where the composed
 * claim is a lie (its horizon reaches the brute force's dtw) it is
 * refused too. The files are written by the solver's certificate writer
 * (solver/proof.h), whose claims the brute force confirms. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/moves.h"
#include "../engine/notation.h"
#include "../engine/symmetry.h"
#include "../solver/dfpn.h"
#include "../solver/dfpn_depth.h"
#include "../solver/proof.h"
#include "../verify/verify.h"
#include "brute.h"
#include "testlib.h"

#ifdef OCS_SANITIZE
TestSuite(verify_horizon_see, .timeout = 480);
enum { PER_RULES = 1 };
#else
TestSuite(verify_horizon_see, .timeout = 120);
enum { PER_RULES = 2 };
#endif

typedef struct {
    Rules r;
    Knowledge kn;
    TT tt;
    char dir[64];
    int files;
} Env;

/* Writes the solver's horizon certificate of b to d plies as dir/name
 * (the search must say no: asserted). */
static void write_no(Env *e, Board b, int d, const char *name)
{
    DfpnDepth dd;
    dfpn_depth_init(&dd, &e->r, &e->kn, &e->tt, NULL);
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, e->r.n, pos);
    cr_assert_eq(dfpn_depth_within(&dd, b, d, NULL), 0, "%s: the search says Order wins within %d", pos, d);
    char path[200], err[200] = "";
    snprintf(path, sizeof path, "%s/%s", e->dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    ProofStats st;
    cr_assert_eq(proof_write_not_within(f, &dd, b, d, 0, &st, err, sizeof err), 0, "%s: %s", pos, err);
    fclose(f);
    e->files++;
}

/* The header of a composed horizon certificate of b at d plies. */
static void header(const Env *e, FILE *f, Board b, int d)
{
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, e->r.n, pos);
    fprintf(f, "ocproof 2\nboard %d %d\nrules %s\nwinner chaos\nroot %s\nhorizon %d\n", e->r.n, e->r.k,
            rules_name(e->r.rules), pos, d);
}

static void see(const Env *e, FILE *f, Board b, const char *name)
{
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, e->r.n, pos);
    fprintf(f, "%s see %s\n", pos, name);
}

/* The verifier's answer for dir/top.ocproof on `threads` threads, with
 * any claim accepted (a horizon then reads in the result). */
static int check(const Env *e, int threads, VerifyResult *v)
{
    char path[200];
    snprintf(path, sizeof path, "%s/top.ocproof", e->dir);
    return verify_file_threads(path, NULL, threads, v);
}

/* Valid on one and two threads, to the horizon d. */
static void expect_valid(const Env *e, int d, const char *what)
{
    for (int th = 1; th <= 2; th++) {
        VerifyResult v;
        cr_assert_eq(check(e, th, &v), VERIFY_VALID, "%s (%d threads): %s", what, th, v.error);
        cr_assert_eq(v.horizon, d, "%s", what);
    }
}

/* Refused on one and two threads alike, for a short horizon. */
static void expect_short(const Env *e, const char *what)
{
    char first[VERIFY_ERR_LEN] = "";
    for (int th = 1; th <= 2; th++) {
        VerifyResult v;
        cr_assert_eq(check(e, th, &v), VERIFY_INVALID, "%s (%d threads): accepted", what, th);
        cr_assert(strstr(v.error, "see ") && strstr(v.error, "is short of the"), "%s: %s", what, v.error);
        if (th == 1) snprintf(first, sizeof first, "%s", v.error);
        else cr_assert_str_eq(v.error, first, "%s: the threads' message differs", what);
    }
}

/* The distinct children of b up to symmetry that the verifier would not
 * close by itself with h plies left (it closes where no line can stand
 * in time, verify.h): their count, into kids. */
static int open_children(const Env *e, Board b, int h, Board *kids)
{
    MoveList ml;
    moves_generate(b, e->r.cells, &ml);
    int nk = 0;
    for (int i = 0; i < ml.count; i++) {
        Board c = b;
        board_place(&c, ml.m[i]);
        Board cf = sym_canonical(c, e->r.n, NULL);
        bool dup = false;
        for (int j = 0; j < nk && !dup; j++) dup = board_equal(sym_canonical(kids[j], e->r.n, NULL), cf);
        if (dup || rules_status(&e->r, c) != WINNER_NONE || proof_fewest_to_line(&e->r, c) > h) continue;
        kids[nk++] = c;
    }
    return nk;
}

/* Writes dir/top.ocproof: b to the horizon d, with Chaos's move to kids[0]
 * when Chaos is to move, and a see line for each kid to the file of its
 * name. */
static void write_top(const Env *e, Board b, int d, const Board *kids, const Move *moves, char names[][48], int nk)
{
    char path[200], pos[NOTATION_POS_LEN], mv[4];
    snprintf(path, sizeof path, "%s/top.ocproof", e->dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    header(e, f, b, d);
    if (!board_order_to_move(b) && nk > 0) {
        notation_format_position(b, e->r.n, pos);
        notation_format_move(moves[0], mv);
        fprintf(f, "%s %s\n", pos, mv);
    }
    for (int i = 0; i < nk; i++) see(e, f, kids[i], names[i]);
    fclose(f);
}

/* The children the top file hands on: with Order to move every one the
 * verifier would not close by itself; with Chaos to move the first whose
 * answer at d - 1 is no (the search's: it must exist when b is no at d). */
static int hand_on(Env *e, Board b, int d, Board *kids, Move *moves)
{
    if (board_order_to_move(b)) return open_children(e, b, d - 1, kids);
    MoveList ml;
    moves_generate(b, e->r.cells, &ml);
    for (int i = 0; i < ml.count; i++) {
        Board c = b;
        board_place(&c, ml.m[i]);
        DfpnDepth dd;
        dfpn_depth_init(&dd, &e->r, &e->kn, &e->tt, NULL);
        if (rules_status(&e->r, c) != WINNER_NONE || proof_fewest_to_line(&e->r, c) > d - 1) continue;
        if (dfpn_depth_within(&dd, c, d - 1, NULL) != 0) continue;
        kids[0] = c;
        moves[0] = ml.m[i];
        return 1;
    }
    return 0; /* every move that keeps the no is closed at once: nothing to hand on */
}

/* b is no at d (dtw(b) > d by the brute force), and the verifier does not
 * close b by itself at d. Its children that the proof follows are no at
 * d - 1: the top file hands each to its own file of horizon d - 1 (valid),
 * then one of them to a file of horizon d - 2 (refused); b handed whole
 * to its own file of horizon d (valid), and the top file at a horizon of
 * d + 1 handing b to it (refused; a lie where dtw(b) = d + 1). The short
 * files tried, or -1 when there is no child to hand on. */
static int compose(Env *e, Board b, int d)
{
    Board kids[MOVES_MAX];
    Move moves[1] = {MOVE_NONE};
    char names[MOVES_MAX][48];
    int nk = hand_on(e, b, d, kids, moves), tried = 0;
    if (nk == 0) return -1;
    for (int bad = -1; bad < nk && bad < 3; bad++) {
        if (bad >= 0 && d - 2 < 0) break;
        for (int i = 0; i < nk; i++) {
            snprintf(names[i], sizeof names[i], "kid%d-%d.ocproof", i, i == bad ? d - 2 : d - 1);
            if (bad < 0 || i == bad) write_no(e, kids[i], i == bad ? d - 2 : d - 1, names[i]);
        }
        write_top(e, b, d, kids, moves, names, nk);
        if (bad < 0) expect_valid(e, d, "children handed to files of horizon d - 1");
        else expect_short(e, "a child handed to a file of horizon d - 2"), tried++;
    }
    write_no(e, b, d, "whole.ocproof");
    snprintf(names[0], sizeof names[0], "whole.ocproof");
    for (int more = 0; more <= 1; more++) {
        char path[200];
        snprintf(path, sizeof path, "%s/top.ocproof", e->dir);
        FILE *f = fopen(path, "w");
        header(e, f, b, d + more);
        see(e, f, b, names[0]);
        fclose(f);
        if (!more) expect_valid(e, d, "the root handed to a file of its horizon");
        else expect_short(e, "a horizon one past its file's");
    }
    return tried;
}

/* Random positions of every rule set, 4x4 (k 3), 5x5 (k 4) and 6x6 (k
 * 5), either side to move, with the brute force's dtw t: asked d = t - 1
 * (the greatest no) for an Order win, d = the empty cells for a Chaos
 * win. */
Test(verify_horizon_see, composed_horizons)
{
    static const struct {
        int n, k, empty;
    } games[] = {{4, 3, 10}, {5, 4, 12}, {6, 5, 12}};
    BruteMemo *m = brute_new();
    uint64_t rng = 91;
    int positions = 0, short_kids = 0, files = 0, chaos_to_move = 0;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++)
        for (int rs = 0; rs < 3; rs++)
            for (int tries = 0, found = 0; tries < 80 && found < PER_RULES; tries++) {
                RefPos p;
                int n = games[g].n, empty = games[g].empty - tries % 2;
                if (tl_random_ongoing(&p, n, games[g].k, rs, n * n - empty, &rng) != 0) continue;
                int t = brute_dtw(m, &p), d = t < 0 ? empty : t - 1;
                Env e = {.kn = dfpn_default_config().kn};
                tl_init_rules(&e.r, &p);
                Board b = tl_board(&p);
                if ((t >= 0 && t < 3) || proof_fewest_to_line(&e.r, b) > d) continue; /* closed at once */
                cr_assert_eq(tt_init(&e.tt, (size_t)1 << 20, false), 0);
                tl_tmp_dir(e.dir, sizeof e.dir, "horizon-see");
                int tried = compose(&e, b, d);
                files += e.files;
                tl_rm_dir(e.dir);
                tt_free(&e.tt);
                if (tried < 0) continue;
                short_kids += tried;
                chaos_to_move += !board_order_to_move(b);
                positions++;
                found++;
            }
    brute_free(m);
    cr_log_info("%d positions (%d Chaos to move), %d short files refused, %d files", positions, chaos_to_move,
                short_kids, files);
    cr_assert_geq(positions, 5 * PER_RULES, "only %d positions", positions);
    cr_assert_geq(chaos_to_move, PER_RULES, "only %d with Chaos to move", chaos_to_move);
    cr_assert_geq(short_kids, 3 * PER_RULES, "only %d short files tried", short_kids);
}

/* In a certificate that claims a Chaos win (no horizon), a see line to a
 * horizon certificate is refused, whatever its horizon: only a horizon
 * certificate's see lines take one. */
Test(verify_horizon_see, win_certificate_refuses_horizon_files)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 17;
    RefPos p;
    do
        cr_assert_eq(tl_random_ongoing(&p, 5, 4, REF_ORIGINAL, 25 - 10, &rng), 0);
    while (brute_dtw(m, &p) >= 0);
    brute_free(m);
    Env e = {.kn = dfpn_default_config().kn};
    tl_init_rules(&e.r, &p);
    cr_assert_eq(tt_init(&e.tt, (size_t)1 << 20, false), 0);
    tl_tmp_dir(e.dir, sizeof e.dir, "horizon-see");
    Board b = tl_board(&p);
    int empties = 25 - board_count(b);
    write_no(&e, b, empties, "h.ocproof"); /* the whole game: true, a Chaos win */
    char path[200], pos[NOTATION_POS_LEN];
    snprintf(path, sizeof path, "%s/top.ocproof", e.dir);
    notation_format_position(b, 5, pos);
    FILE *f = fopen(path, "w");
    fprintf(f, "ocproof 2\nboard 5 4\nrules original\nwinner chaos\nroot %s\n%s see h.ocproof\n", pos, pos);
    fclose(f);
    for (int th = 1; th <= 2; th++) {
        VerifyResult v;
        cr_assert_eq(check(&e, th, &v), VERIFY_INVALID, "a win rests on a horizon (%d threads)", th);
        cr_assert(strstr(v.error, "not that chaos wins"), "%s", v.error);
    }
    tl_rm_dir(e.dir);
    tt_free(&e.tt);
}
