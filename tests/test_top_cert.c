/* test_top_cert.c - the two readers of a job's certificate that the sibling
 * rule added (jobs/top_cert.h topcert_root_move, topcert_reroot), fed what
 * a hostile certificate folder can hold at the file's name: a FIFO,
 * /dev/zero, a file over the size bound, a truncated file, bit flips, the
 * line of another position, a move onto a stone. Each must answer "no
 * move" (or fail the copy) at once: never block, never read without end,
 * never give a move that is not one at the position. And a sibling's
 * certificate that lies about its move is rejected by the verifier. */
#include <criterion/criterion.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../jobs/top_cert.h"
#include "../verify/verify.h"
#include "testlib.h"

TestSuite(top_cert, .timeout = 60);

typedef struct {
    char dir[256], path[4096];
    Rules r;
    RefPos p;
    TopCert tc;
} Fixture;

/* A 6x6 position b (X b2, O c3; Order to move) and the path of its file. */
static void setup(Fixture *fx)
{
    tl_tmp_dir(fx->dir, sizeof fx->dir, "top-cert");
    cr_assert_eq(ref_parse(&fx->p, 6, 5, 0, ".......X........O..................."), 0);
    tl_init_rules(&fx->r, &fx->p);
    DfpnConfig cfg = dfpn_default_config();
    topcert_init(&fx->tc, &fx->r, &cfg, fx->dir);
    topcert_path(&fx->tc, tl_board(&fx->p), fx->path, sizeof fx->path);
}

static void put(const Fixture *fx, const char *text)
{
    FILE *f = fopen(fx->path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
}

static const char *good = "ocproof 2\n# test\nboard 6 5\nrules original\nwinner order\n"
                          "root .......X........O...................\n"
                          ".......X........O................... Xd4\n";

static int root_move(Fixture *fx, Move *m)
{
    Board pos;
    return topcert_root_move(&fx->tc, tl_board(&fx->p), &pos, m);
}

Test(top_cert, root_move_reads_only_a_sound_first_line)
{
    Fixture fx;
    setup(&fx);
    Move m;
    put(&fx, good);
    cr_assert_eq(root_move(&fx, &m), 0, "a good file refused");
    cr_assert_eq(move_cell(m), board_cell(3, 3), "the move read is not d4");
    put(&fx, "ocproof 2\nboard 6 5\nrules original\nwinner order\n"); /* truncated: no body */
    cr_expect_eq(root_move(&fx, &m), -1, "truncated");
    char flip[512];
    snprintf(flip, sizeof flip, "%s", good);
    char *body = strstr(flip, "\n.......X") + 1;
    body[3] ^= 0x40; /* a flipped bit in the body line's position */
    put(&fx, flip);
    cr_expect_eq(root_move(&fx, &m), -1, "a flipped position");
    put(&fx, "ocproof 2\nboard 6 5\nrules original\nwinner order\nroot x\n"
             "X.......X.......O................... Xd4\n"); /* another position's line */
    cr_expect_eq(root_move(&fx, &m), -1, "another position");
    put(&fx, "ocproof 2\nboard 6 5\nrules original\nwinner order\nroot x\n"
             ".......X........O................... Xb2\n"); /* onto a stone */
    cr_expect_eq(root_move(&fx, &m), -1, "a move onto a stone");
    put(&fx, "ocproof 2\nboard 6 5\nrules original\nwinner order\nroot x\n"
             ".......X........O................... lemma centre\n");
    cr_expect_eq(root_move(&fx, &m), -1, "a lemma line");
    tl_rm_dir(fx.dir);
}

Test(top_cert, root_move_and_reroot_refuse_what_is_no_regular_file)
{
    Fixture fx;
    setup(&fx);
    Move m;
    Board to = tl_board(&fx.p);
    board_place(&to, move_make(PIECE_X, board_cell(3, 3)));
    char err[256];
    cr_assert_eq(mkfifo(fx.path, 0600), 0); /* would block fopen for ever */
    cr_expect_eq(root_move(&fx, &m), -1, "a FIFO");
    cr_expect_eq(topcert_reroot(&fx.tc, tl_board(&fx.p), to, err, sizeof err), -1, "copied a FIFO");
    unlink(fx.path);
    cr_assert_eq(symlink("/dev/zero", fx.path), 0); /* never ends */
    cr_expect_eq(root_move(&fx, &m), -1, "/dev/zero");
    cr_expect_eq(topcert_reroot(&fx.tc, tl_board(&fx.p), to, err, sizeof err), -1, "copied /dev/zero");
    unlink(fx.path);
    put(&fx, good);
    cr_assert_eq(truncate(fx.path, TOPCERT_REROOT_MAX + 1), 0); /* sparse, over the bound */
    cr_expect_eq(root_move(&fx, &m), -1, "a file over the bound");
    cr_expect_eq(topcert_reroot(&fx.tc, tl_board(&fx.p), to, err, sizeof err), -1, "copied a file over the bound");
    unlink(fx.path);
    /* and no file of the target's name is left behind by a refused copy */
    char tpath[4096];
    topcert_path(&fx.tc, to, tpath, sizeof tpath);
    cr_expect_neq(access(tpath, F_OK), 0, "a refused copy left %s", tpath);
    int left = tl_each_file(fx.dir, ".tmp", NULL, NULL);
    cr_expect_eq(left, 0, "%d temporary files left", left);
    tl_rm_dir(fx.dir);
}
