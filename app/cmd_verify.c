/* cmd_verify.c - `ocsolve verify`: check a proof certificate with the
 * independent verifier (verify.h), which shares no rules or search code
 * with the solver. Exit 0 valid, 1 invalid, 2 malformed or unreadable.
 * Invariant: every exit but 0 writes exactly one line on stderr saying
 * why, with --json as without (the JSON object, or the text report, still
 * goes to stdout where there is one), so a script or a person watching
 * stderr sees each failure. */
#include <getopt.h>
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../engine/notation.h"
#include "cli.h"
#include "../solver/clock.h"
#include "commands.h"
#include "json.h"
#include "../verify/verify.h"
#include "../verify/verify_rules.h"

static const char verify_help[] =
    "usage: ocsolve verify [options] FILE\n"
    "Check the proof certificate FILE with the independent verifier: from the\n"
    "root, every move of the loser and the certificate's move of the winner are\n"
    "followed until each branch is won by the claimed winner.\n"
    "Exit code 0 valid, 1 invalid (the first failing position is printed),\n"
    "2 malformed or unreadable.\n"
    "For a valid Order certificate it also prints the longest game: the most\n"
    "plies a game lasts from the root when Order plays the certificate's moves\n"
    "(where a line is left out: a line completed at once, or the win within\n"
    "three plies the check finds) and Chaos plays anything, so an upper bound\n"
    "on the distance to win; a position won by a lemma counts as lasting\n"
    "until the board is full.\n"
    "  --json        print one JSON object instead of text\n"
    "  --root POS    require the certificate to be about POS (up to symmetry)\n"
    "  --rules R     require rules R (original, exact or exact-end)\n"
    "  --board N     require an N x N board (4 to 8)\n"
    "  --k K         require K in a row (3 to 8)\n"
    "  --winner W    require the claim that W (order or chaos) wins\n"
    "  --within D    require an Order certificate whose longest game is at most\n"
    "                D plies: Order wins within D (0 to 64); with --winner chaos,\n"
    "                that Order cannot (a horizon of D or more, or a Chaos win)\n"
    "  --threads T   check the certificates that see lines name on T threads,\n"
    "                each on its own, before the top one (1 to 256; default: all\n"
    "                cores; 1: one after another as the proof reaches them), with\n"
    "                at most T of them in memory at once. The result and the\n"
    "                positions checked do not depend on T\n"
    "  --max-bytes N refuse a certificate file of more than N bytes (each file\n"
    "                on its own: the top one and each one a see line names;\n"
    "                default 1073741824, 1 GiB)\n"
    "  --max-lines N refuse a certificate file of more than N lines, blank and\n"
    "                comment lines included (default 16000000)\n"
    "  --max-lemma-nodes N  refuse (exit 2) a certificate whose centre lemma\n"
    "                lines need more than N positions of the lemma's own\n"
    "                searches, all files together (default 2^32, about ten\n"
    "                minutes; each new set of allowed lines costs up to 3^16,\n"
    "                each new half pair or symbol up to 3^17, or 3^18 with\n"
    "                two half pairs; exact X b1 takes 2 x 10^7)\n"
    "  --progress-every S  on stderr, at most every S seconds, the files checked\n"
    "                so far, the files known (see lines found) and their\n"
    "                positions (with --threads 2 or more; 0: after every file;\n"
    "                default: none)\n"
    "  --help        this text\n"
    "Only regular files are read (not a directory, FIFO or device such as\n"
    "/dev/zero, also through a symlink); a line may have at most 65536 bytes\n"
    "and no NUL byte. A file refused so is malformed (exit 2); a file a see\n"
    "line names makes the certificate invalid (exit 1). Every exit but 0\n"
    "writes one line on stderr saying why, with --json too.\n"
    "Certificate format ('#' starts a comment; blank lines are ignored):\n"
    "  ocproof 1|2\n"
    "  board N K\n"
    "  rules original|exact|exact-end\n"
    "  winner order|chaos\n"
    "  root POSITION\n"
    "  horizon D          optional, winner chaos: all it claims is that Order\n"
    "                     cannot win within D plies (no win; 0 to 64)\n"
    "  POSITION MOVE      one line per position the proof reaches with the winner to\n"
    "                     move, in any of its 16 symmetric forms (8 of the square x\n"
    "                     swapping X and O), the move in the same frame; optional\n"
    "                     where Order, the winner, completes a line at once or\n"
    "                     wins within three plies, and where Chaos, with a\n"
    "                     horizon, has four plies or fewer left: the verifier\n"
    "                     searches those itself\n"
    "  POSITION lemma centre\n"
    "                     version 2 only: Order wins the position by the centre\n"
    "                     lemma (k = N-1, N 4 to 6, not exact-end; every ring pair\n"
    "                     empty or X and O; Order wins the small game on the\n"
    "                     inner (N-2)x(N-2) square), which the verifier checks\n"
    "  POSITION see FILE  version 2 only: the winner wins the position by the\n"
    "                     certificate FILE (relative to this one's folder), which\n"
    "                     the verifier checks on its own when the proof reaches it\n"
    "  POSITION lemma pairing A:B~ C:D= ...\n"
    "                     version 2 only: Chaos wins the position by a pairing:\n"
    "                     Chaos answers a move on A with the other symbol (~) or\n"
    "                     the same symbol (=, exact-end only) on B; every window\n"
    "                     that can still win must hold a ~ pair, or one cell of\n"
    "                     a = pair with the other on its end; with Order to move\n"
    "                     the empty cells are even (Chaos: odd)\n"
    "  POSITION lemma ring A:B~ C:D~ ...\n"
    "                     version 2 only: Chaos wins the position by the ring\n"
    "                     lemma (k = N-1, N 4 to 6, original or exact): the pairs\n"
    "                     hold every empty ring cell; every window that can still\n"
    "                     win holds a pair or a whole line of the inner square;\n"
    "                     Chaos wins that square's small game, each line won by\n"
    "                     the symbols its windows can still win for\n"
    "example: ocsolve verify --rules original --board 6 --k 5 --root empty proof.txt\n";

static const char *claim_name(int w)
{
    return w == VERIFY_WINNER_ORDER ? "order" : w == VERIFY_WINNER_CHAOS ? "chaos" : NULL;
}

static void print_json(const char *file, const VerifyResult *r, int threads, double seconds)
{
    static const char *const STATUS[3] = {"valid", "invalid", "malformed"};
    Json j;
    json_begin(&j, stdout);
    json_object(&j, NULL);
    json_str(&j, "file", file);
    json_bool(&j, "valid", r->status == VERIFY_VALID);
    json_str(&j, "result", STATUS[r->status]);
    json_str(&j, "winner", claim_name(r->winner));
    json_str(&j, "rules", r->rules >= 0 ? vr_rules_name(r->rules) : NULL);
    json_int(&j, "board", r->n);
    json_int(&j, "k", r->k);
    json_str(&j, "root", r->root[0] ? r->root : NULL);
    if (r->horizon >= 0) json_int(&j, "horizon", r->horizon);
    else json_null(&j, "horizon");
    json_uint(&j, "positions_checked", r->positions_checked);
    json_uint(&j, "lines", r->lines);
    json_uint(&j, "lines_used", r->lines_used);
    if (r->longest >= 0) json_int(&j, "longest_plies", r->longest);
    else json_null(&j, "longest_plies");
    json_int(&j, "threads", threads);
    json_real(&j, "seconds", seconds, 3);
    json_str(&j, "error", r->status == VERIFY_VALID ? NULL : r->error);
    json_close(&j);
    json_end(&j);
}

/* The report of a valid or invalid certificate, on stdout. */
static void print_text(const char *file, const VerifyResult *r, int within, double seconds)
{
    printf("certificate: %s\n", file);
    if (r->horizon >= 0)
        printf("claim: Order cannot win within %d plies (chaos's certificate to that horizon), %dx%d k=%d, rules %s, "
               "root %s\n",
               r->horizon, r->n, r->n, r->k, vr_rules_name(r->rules), r->root);
    else
        printf("claim: %s wins, %dx%d k=%d, rules %s, root %s\n", claim_name(r->winner), r->n, r->n, r->k,
               vr_rules_name(r->rules), r->root);
    printf("lines: %llu (used %llu)\n", (unsigned long long)r->lines, (unsigned long long)r->lines_used);
    printf("positions checked: %llu in %.3f s (%.0f/s)\n", (unsigned long long)r->positions_checked, seconds,
           seconds > 0 ? (double)r->positions_checked / seconds : 0.0);
    if (r->status == VERIFY_VALID && r->longest >= 0)
        printf("longest game: %d plies (Order, playing the certificate's moves, wins within %d plies)\n", r->longest,
               r->longest);
    if (r->status == VERIFY_VALID && within >= 0 && r->winner == VERIFY_WINNER_CHAOS)
        printf("within %d: no (Order cannot win within %d plies%s)\n", within, within,
               r->horizon >= 0 ? "" : ": Chaos wins");
    if (r->status == VERIFY_VALID) printf("valid\n");
    else printf("invalid: %s\n", r->error);
}

/* --within D: a valid certificate whose longest game is over D plies (or
 * a Chaos one, which has none) does not show what was asked: invalid.
 * With --winner chaos (no_win), the other answer: a valid Chaos
 * certificate whose horizon is D or more, or which has none (Chaos wins,
 * so Order wins within no D). */
static void within_check(VerifyResult *res, int d, bool no_win)
{
    if (no_win) {
        if (res->winner != VERIFY_WINNER_CHAOS) {
            res->status = VERIFY_INVALID;
            snprintf(res->error, sizeof res->error, "--within %d --winner chaos: the certificate claims order wins", d);
        } else if (res->horizon >= 0 && res->horizon < d) {
            res->status = VERIFY_INVALID;
            snprintf(res->error, sizeof res->error,
                     "--within %d --winner chaos: its horizon is %d plies, so it shows only that Order cannot win "
                     "within %d",
                     d, res->horizon, res->horizon);
        }
    } else if (res->winner != VERIFY_WINNER_ORDER) {
        res->status = VERIFY_INVALID;
        snprintf(res->error, sizeof res->error, "--within %d: the certificate claims chaos wins", d);
    } else if (res->longest > d) {
        res->status = VERIFY_INVALID;
        snprintf(res->error, sizeof res->error, "--within %d: its longest game is %d plies", d, res->longest);
    }
}

/* The one stderr line of a failure (the invariant above): the error with
 * control characters made '?', as it may quote the certificate's words. */
static void failure_line(int rc, const char *error)
{
    char msg[VERIFY_ERR_LEN];
    snprintf(msg, sizeof msg, "%s", error[0] ? error : "(no message)");
    cli_one_line(msg);
    fprintf(stderr, "ocsolve: %s%s\n", rc == VERIFY_INVALID ? "invalid: " : "", msg);
}

/* VerifyLimits.progress: one line on stderr (arg: the start's clock). */
static void show_progress(uint64_t checked, uint64_t known, uint64_t positions, void *arg)
{
    fprintf(stderr, "%8.1fs  files checked %llu of %llu known, %llu positions\n", clock_seconds() - *(double *)arg,
            (unsigned long long)checked, (unsigned long long)known, (unsigned long long)positions);
}

/* Line numbers are kept in 32 bits (verify_cert.h): --max-lines fits them. */
#define MAX_LINES_MAX 4294967295L
#define MAX_BYTES_MAX (1L << 50)

int cmd_verify(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},         {"root", required_argument, NULL, 'R'},
        {"rules", required_argument, NULL, 'r'},  {"board", required_argument, NULL, 'b'},
        {"k", required_argument, NULL, 'k'},      {"winner", required_argument, NULL, 'w'},
        {"threads", required_argument, NULL, 't'}, {"within", required_argument, NULL, 'W'},
        {"max-bytes", required_argument, NULL, 'B'}, {"max-lines", required_argument, NULL, 'L'},
        {"progress-every", required_argument, NULL, 'P'}, {"help", no_argument, NULL, 'h'},
        {"max-lemma-nodes", required_argument, NULL, 'N'},
        {0, 0, 0, 0}};
    VerifyExpect exp = {0, 0, -1, 0, NULL};
    double t0 = clock_seconds();
    VerifyLimits lim = {VERIFY_DEFAULT_MAX_BYTES, VERIFY_DEFAULT_MAX_LINES, NULL, &t0, 0, VERIFY_DEFAULT_MAX_LEMMA_NODES};
    int json = 0, opt, procs = omp_get_num_procs(), within = -1;
    int threads = procs < 1 ? 1 : procs > VERIFY_MAX_THREADS ? VERIFY_MAX_THREADS : procs;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(verify_help, stdout); return 0;
        case 'j': json = 1; break;
        case 'R': exp.root = optarg; break;
        case 'b': exp.n = (int)cli_number(optarg, "board size", BOARD_MIN_N, BOARD_MAX_N); break;
        case 'k': exp.k = (int)cli_number(optarg, "k", 3, BOARD_MAX_N); break;
        case 't': threads = (int)cli_number(optarg, "--threads", 1, VERIFY_MAX_THREADS); break;
        case 'W': within = (int)cli_number(optarg, "--within", 0, 64); break;
        case 'B': lim.max_bytes = (uint64_t)cli_number(optarg, "--max-bytes", 1, MAX_BYTES_MAX); break;
        case 'L': lim.max_lines = (uint64_t)cli_number(optarg, "--max-lines", 1, MAX_LINES_MAX); break;
        case 'N': lim.max_lemma_nodes = (uint64_t)cli_number(optarg, "--max-lemma-nodes", 1, INT64_MAX); break;
        case 'P':
            lim.progress_every = (double)cli_number(optarg, "--progress-every", 0, 86400);
            lim.progress = show_progress;
            break;
        case 'r':
            if ((exp.rules = vr_rules_parse(optarg)) < 0)
                cli_fail("unknown rules '%s' (original, exact or exact-end)", optarg);
            break;
        case 'w':
            if (strcmp(optarg, "order") == 0) exp.winner = VERIFY_WINNER_ORDER;
            else if (strcmp(optarg, "chaos") == 0) exp.winner = VERIFY_WINNER_CHAOS;
            else cli_fail("bad winner '%s' (order or chaos)", optarg);
            break;
        default: cli_bad_option(argv, opt);
        }
    }
    if (optind >= argc) cli_fail("verify needs a certificate FILE (try 'ocsolve verify --help')");
    if (argc - optind > 1) cli_fail("verify takes one FILE, not %d", argc - optind);
    if (exp.n && exp.k > exp.n) cli_fail("k=%d is larger than the %dx%d board", exp.k, exp.n, exp.n);
    if (exp.root) { /* reject a bad --root now; its length fixes the board unless it is the empty board */
        Board b;
        int n;
        char err[NOTATION_ERR_LEN];
        bool sized = strcmp(exp.root, "-") != 0 && strcmp(exp.root, "empty") != 0;
        if (notation_parse_position(exp.root, sized ? exp.n : 0, &b, &n, err, sizeof err) != 0)
            cli_fail("--root: %s", err);
        if (sized) exp.n = n;
    }
    const char *file = argv[optind];
    /* --within D --winner chaos asks for a no, which a certificate to a
     * horizon shows: the library is asked for any claim (a winner asked
     * for must win, verify.h), within_check for the rest */
    bool no_win = within >= 0 && exp.winner == VERIFY_WINNER_CHAOS;
    if (no_win) exp.winner = 0;

    VerifyResult res;
    t0 = clock_seconds();
    int rc = verify_file_limits(file, &exp, threads, &lim, &res);
    double seconds = clock_seconds() - t0;
    if (rc == VERIFY_VALID && within >= 0) within_check(&res, within, no_win);
    rc = res.status;
    if (json) print_json(file, &res, threads, seconds);
    else if (rc == VERIFY_MALFORMED) cli_fail("%s", res.error); /* its one line; no report */
    else print_text(file, &res, within, seconds);
    if (rc != VERIFY_VALID) {
        fflush(stdout); /* the report first, then the line, where both go to one place */
        failure_line(rc, res.error);
    }
    return rc;
}
