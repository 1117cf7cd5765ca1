/* cmd_solve.c - `ocsolve solve`: decide a position exactly with df-pn (or
 * alpha-beta), optionally with its distance to win and a certificate. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/notation.h"
#include "../solver/alphabeta.h"
#include "cli.h"
#include "../solver/clock.h"
#include "commands.h"
#include "../solver/dfpn.h"
#include "../solver/job.h"
#include "../solver/parallel.h"
#include "../solver/proof.h"

static const char solve_help[] =
    "usage: ocsolve solve [options] [POSITION [MOVE ...]]\n"
    "Decide POSITION (default: the empty board): who wins with perfect play.\n" CLI_GAME_HELP
    "  --tt-mb M          transposition table size in MiB (default 256)\n"
    "  --threads T        searching threads sharing the table (default: all cores)\n"
    "  --time-limit S     stop after S seconds (result unknown)\n"
    "  --node-limit N     stop after N nodes (result unknown)\n"
    "  --dtw              also the exact distance to win (plies; alpha-beta)\n"
    "  --proof FILE       write a proof certificate (check it with ocsolve verify)\n"
    "  --proof-max-lines N  give up (and remove FILE) past N lines (default 10000000)\n"
    "  --json             one JSON object on stdout\n"
    "  --search S         dfpn (default) or ab (full-depth alpha-beta)\n"
    "  --progress-every S progress on stderr every S seconds (default 5)\n"
    "  --quiet            no progress\n"
    "  --log FILE         the progress figures as CSV, for plotting (appended to\n"
    "                     with --resume; seconds and nodes count all runs)\n"
    "  --checkpoint FILE  save the search table to FILE every --checkpoint-every\n"
    "                     seconds (default 300), at the end and on SIGINT/SIGTERM\n"
    "  --resume FILE      continue from a checkpoint (same rules, board, position\n"
    "                     and key settings; anything else is refused)\n"
    "tuning (for comparing heuristics; the defaults are the measured best):\n"
    "  --epsilon E        1+epsilon threshold trick (default 0.5; 0 = plain df-pn)\n"
    "  --pn-init I        moves (default: a Chaos node starts at its number of safe\n"
    "                     moves) or one\n"
    "  --order O          move ordering among equal children: cells (default,\n"
    "                     by cell index) or center (nearest the centre first)\n"
    "  --no-threats       no four/zugzwang knowledge\n"
    "  --no-dead-cells    no dead-cell reduction\n"
    "  --sym-pieces P     canonical (symmetry-reduced) keys up to P pieces (default 8)\n"
    "  --pairing B        pairing search budget (default 32; 0 = no pairing)\n"
    "  --help             this text\n"
    "Exit 0 when the search ran (whatever the result), 1 when --proof or the last\n"
    "checkpoint could not be written (a proof file is removed), 2 on bad input,\n"
    "128+N when stopped by signal N (SIGINT, SIGTERM; the checkpoint is saved).\n"
    "example: ocsolve solve --dtw XXXX.O/O.O.../....../..X.../....../......\n";

typedef struct {
    bool tty, shown; /* stderr is a terminal; a line is waiting for its newline */
    FILE *log;
    bool quiet;
    int reports;
    double prev_seconds; /* a resumed job's earlier runs: the figures are totals */
    uint64_t prev_nodes;
} Progress;

static void show_progress(const SearchProgress *p, void *arg)
{
    Progress *pr = arg;
    pr->reports++;
    double nps = p->seconds > 0 ? (double)p->nodes / p->seconds : 0; /* this run's speed */
    double secs = pr->prev_seconds + p->seconds;
    unsigned long long nodes = pr->prev_nodes + p->nodes;
    if (!pr->quiet) {
        fprintf(stderr, "%s%8.1fs  nodes %llu (%.0f/s)  table %d.%d%%  root pn %u dn %u  moves %d: %d won, %d lost%s",
                pr->tty ? "\r" : "", secs, nodes, nps, p->tt_permille / 10,
                p->tt_permille % 10, p->pn, p->dn, p->moves, p->proven, p->disproven, pr->tty ? "\033[K" : "\n");
        pr->shown = pr->tty;
    }
    if (pr->log) {
        fprintf(pr->log, "%.3f,%llu,%.0f,%d,%u,%u,%d,%d,%d\n", secs, nodes, nps,
                p->tt_permille, p->pn, p->dn, p->moves, p->proven, p->disproven);
        fflush(pr->log);
    }
}

typedef struct {
    const char *search;
    long tt_mb;
    double time_limit;
    long long node_limit;
    bool dtw, json;
    const char *proof;
    long long proof_max;
    double progress_every;
    bool quiet;
    const char *log;
    int threads;
    JobOpts job;
} SolveOpts;

static double parse_seconds(const char *s, const char *what)
{
    char *end;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || !(v > 0) || v > 1e9) cli_fail("bad %s '%s': seconds > 0", what, s);
    return v;
}


static void print_num(uint32_t v, bool json)
{
    if (v == DFPN_INF)
        printf(json ? "null" : "inf");
    else
        printf("%u", v);
}

int cmd_solve(int argc, char **argv)
{
    enum { O_TT = 1000, O_TIME, O_NODES, O_DTW, O_PROOF, O_JSON, O_SEARCH, O_PMAX, O_EPS, O_PNINIT, O_NOTHREAT, O_NODEAD, O_SYM, O_PAIR, O_EVERY, O_QUIET, O_LOG, O_THREADS, O_CKPT, O_CKPT_EVERY, O_RESUME, O_ORDER };
    static const struct option longopts[] = {CLI_GAME_LONGOPTS,
                                             {"tt-mb", required_argument, NULL, O_TT},
                                             {"time-limit", required_argument, NULL, O_TIME},
                                             {"node-limit", required_argument, NULL, O_NODES},
                                             {"dtw", no_argument, NULL, O_DTW},
                                             {"proof", required_argument, NULL, O_PROOF},
                                             {"json", no_argument, NULL, O_JSON},
                                             {"search", required_argument, NULL, O_SEARCH},
                                             {"proof-max-lines", required_argument, NULL, O_PMAX},
                                             {"epsilon", required_argument, NULL, O_EPS},
                                             {"pn-init", required_argument, NULL, O_PNINIT},
                                             {"no-threats", no_argument, NULL, O_NOTHREAT},
                                             {"no-dead-cells", no_argument, NULL, O_NODEAD},
                                             {"sym-pieces", required_argument, NULL, O_SYM},
                                             {"pairing", required_argument, NULL, O_PAIR},
                                             {"progress-every", required_argument, NULL, O_EVERY},
                                             {"quiet", no_argument, NULL, O_QUIET},
                                             {"log", required_argument, NULL, O_LOG},
                                             {"threads", required_argument, NULL, O_THREADS},
                                             {"checkpoint", required_argument, NULL, O_CKPT},
                                             {"checkpoint-every", required_argument, NULL, O_CKPT_EVERY},
                                             {"resume", required_argument, NULL, O_RESUME},
                                             {"order", required_argument, NULL, O_ORDER},
                                             {"help", no_argument, NULL, 'h'},
                                             {0, 0, 0, 0}};
    GameOpts g = {0, 0, RULES_ORIGINAL};
    SolveOpts o = {"dfpn", 256, 0, 0, false, false, NULL, 10000000, 5, false, NULL, par_cores(), {.every = 300}};
    DfpnConfig cfg = dfpn_default_config();
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(solve_help, stdout); return 0;
        case O_TT: o.tt_mb = cli_number(optarg, "--tt-mb", 1, 1L << 22); break;
        case O_TIME: o.time_limit = parse_seconds(optarg, "--time-limit"); break;
        case O_EVERY: o.progress_every = parse_seconds(optarg, "--progress-every"); break;
        case O_QUIET: o.quiet = true; break;
        case O_LOG: o.log = optarg; break;
        case O_CKPT: o.job.checkpoint = optarg; break;
        case O_CKPT_EVERY: o.job.every = parse_seconds(optarg, "--checkpoint-every"); break;
        case O_RESUME: o.job.resume = optarg; break;
        case O_THREADS: o.threads = (int)cli_number(optarg, "--threads", 1, DFPN_MAX_THREADS); break;
        case O_NODES: o.node_limit = cli_number(optarg, "--node-limit", 1, 0x7FFFFFFFFFFFFFFFL); break;
        case O_DTW: o.dtw = true; break;
        case O_PROOF: o.proof = optarg; break;
        case O_JSON: o.json = true; break;
        case O_PMAX: o.proof_max = cli_number(optarg, "--proof-max-lines", 1, 0x7FFFFFFFFFFFFFFFL); break;
        case O_SEARCH:
            if (strcmp(optarg, "dfpn") != 0 && strcmp(optarg, "ab") != 0)
                cli_fail("unknown --search '%s' (dfpn or ab)", optarg);
            o.search = optarg;
            break;
        case O_EPS: {
            char *end;
            cfg.epsilon = strtod(optarg, &end);
            if (*optarg == '\0' || *end != '\0' || !(cfg.epsilon >= 0 && cfg.epsilon <= 10))
                cli_fail("bad --epsilon '%s': a number from 0 to 10", optarg);
            break;
        }
        case O_PNINIT:
            if (strcmp(optarg, "moves") == 0) cfg.chaos_pn_moves = true;
            else if (strcmp(optarg, "one") == 0) cfg.chaos_pn_moves = false;
            else cli_fail("unknown --pn-init '%s' (moves or one)", optarg);
            break;
        case O_ORDER:
            if (strcmp(optarg, "cells") == 0) cfg.center_first = false;
            else if (strcmp(optarg, "center") == 0) cfg.center_first = true;
            else cli_fail("unknown --order '%s' (cells or center)", optarg);
            break;
        case O_NOTHREAT: cfg.kn.threats = false; break;
        case O_NODEAD: cfg.kn.dead_cells = false; break;
        case O_SYM: cfg.kn.sym_pieces = (int)cli_number(optarg, "--sym-pieces", 0, 64); break;
        case O_PAIR: cfg.kn.pairing = (int)cli_number(optarg, "--pairing", 0, 1000000); break;
        default:
            if (!cli_game_option(opt, optarg, &g)) cli_bad_option(argv, opt);
        }
    }
    const char *pos = optind < argc ? argv[optind] : NULL;
    int nmoves = optind + 1 < argc ? argc - optind - 1 : 0;
    Rules r;
    Board b;
    cli_position(&g, pos, argv + optind + 1, nmoves, &r, &b);
    FILE *proof = NULL;
    if (o.proof && !(proof = fopen(o.proof, "w"))) cli_fail("cannot write proof file '%s'", o.proof);
    Progress prog = {isatty(STDERR_FILENO) != 0, false, NULL, o.quiet, 0, 0, 0};
    if (o.log) {
        /* A resumed job adds to its log; a fresh one starts it anew. */
        if (!(prog.log = fopen(o.log, o.job.resume ? "a" : "w"))) cli_fail("cannot write log file '%s'", o.log);
        if (ftell(prog.log) == 0)
            fprintf(prog.log, "seconds,nodes,nodes_per_second,table_permille,root_pn,root_dn,root_moves,proven,disproven\n");
    }

    bool ab_search = strcmp(o.search, "ab") == 0;
    if (ab_search && (o.job.checkpoint || o.job.resume))
        cli_fail("--checkpoint and --resume need --search dfpn");
    char jerr[512];
    if (job_check(&o.job, jerr, sizeof jerr) != 0) cli_fail("%s", jerr); /* before minutes of table allocation, not after */

    /* With --dtw a quarter of the memory goes to alpha-beta's own table. */
    size_t bytes = (size_t)o.tt_mb << 20;
    size_t ab_bytes = o.dtw || ab_search ? bytes / 4 : 0;
    TT tt, abtt;
    if (tt_init(&tt, bytes - ab_bytes, o.threads > 1) != 0 || (ab_bytes && tt_init(&abtt, ab_bytes, false) != 0))
        cli_fail("cannot allocate a %ld MiB table (use --tt-mb)", o.tt_mb);

    double t0 = clock_seconds();
    double deadline = o.time_limit > 0 ? t0 + o.time_limit : 0;
    Dfpn d;
    dfpn_init(&d, &r, &cfg, &tt);
    d.lim.node_limit = (uint64_t)o.node_limit;
    d.lim.deadline = deadline;
    d.threads = o.threads;
    if (!o.quiet || prog.log) {
        d.lim.report_every = o.progress_every;
        d.lim.report = show_progress;
        d.lim.report_arg = &prog;
    }
    o.job.deadline = deadline;
    o.job.quiet = o.quiet;
    JobResult jr = {0};
    if (!ab_search && job_prepare(&d, b, &o.job, &jr, jerr, sizeof jerr) != 0) cli_fail("%s", jerr);
    prog.prev_seconds = jr.prev_seconds;
    prog.prev_nodes = jr.prev_nodes;
    AlphaBeta ab;
    if (ab_bytes) {
        ab_init(&ab, &r, &cfg.kn, &abtt);
        ab.lim.node_limit = (uint64_t)o.node_limit;
        ab.lim.deadline = deadline;
    }
    uint32_t pn = 0, dn = 0;
    Winner v;
    if (ab_search) {
        v = ab_solve(&ab, b);
        pn = v == WINNER_ORDER ? 0 : v == WINNER_CHAOS ? DFPN_INF : 1;
        dn = v == WINNER_CHAOS ? 0 : v == WINNER_ORDER ? DFPN_INF : 1;
    } else {
        v = job_run(&d, b, &o.job, &pn, &dn, &jr);
        /* The final figures: in the log, and on stderr if a report was shown. */
        if (prog.reports == 0) prog.quiet = true;
        if (d.lim.report && d.nodes > 0) dfpn_report(&d);
        d.lim.report = NULL; /* later searches (moves, certificates) report nothing */
    }
    if (prog.shown) fputc('\n', stderr);
    if (prog.log && fclose(prog.log) != 0) fprintf(stderr, "ocsolve: could not finish writing '%s'\n", o.log);
    int dtw = -1;
    if (o.dtw && v == WINNER_ORDER) dtw = ab_dtw(&ab, b);
    bool order_moves = board_order_to_move(b);
    Move best = MOVE_NONE;
    if (v != WINNER_NONE && rules_status(&r, b) == WINNER_NONE) {
        if ((v == WINNER_ORDER) == order_moves)
            best = dfpn_winning_move(&d, b, v);
        else if (v == WINNER_ORDER && dtw >= 0)
            best = ab_best_move(&ab, b); /* Chaos loses: the longest resistance */
    }
    double dt = clock_seconds() - t0;
    uint64_t nodes = d.nodes + (ab_bytes ? ab.nodes : 0);

    ProofStats ps = {0, 0};
    const char *proof_error = NULL;
    char perr[200];
    if (proof) {
        if (v == WINNER_NONE)
            proof_error = "no certificate: the result is unknown";
        else if (proof_write(proof, &d, b, v, (uint64_t)o.proof_max, &ps, perr, sizeof perr) != 0)
            proof_error = perr;
        if (fclose(proof) != 0 && !proof_error) proof_error = "cannot finish writing the proof file";
    }

    char posbuf[NOTATION_POS_LEN], mv[4] = "";
    notation_format_position(b, r.n, posbuf);
    if (best != MOVE_NONE) notation_format_move(best, mv);
    double nps = dt > 0 ? (double)nodes / dt : 0;
    if (o.json) {
        printf("{\"position\":\"%s\",\"rules\":\"%s\",\"board\":%d,\"k\":%d,\"to_move\":\"%s\",\"result\":\"%s\","
               "\"best_move\":",
               posbuf, rules_name(r.rules), r.n, r.k, order_moves ? "order" : "chaos", winner_name(v));
        printf(best != MOVE_NONE ? "\"%s\"" : "null", mv);
        printf(",\"nodes\":%llu,\"seconds\":%.6f,\"nodes_per_second\":%.0f,\"root_pn\":", (unsigned long long)nodes, dt,
               nps);
        print_num(pn, true);
        printf(",\"root_dn\":");
        print_num(dn, true);
        if (o.dtw) printf(dtw >= 0 ? ",\"dtw\":%d" : ",\"dtw\":null", dtw);
        if (o.job.resume || o.job.checkpoint)
            printf(",\"total_nodes\":%llu,\"total_seconds\":%.3f,\"checkpoints\":%d",
                   (unsigned long long)(jr.prev_nodes + nodes), jr.prev_seconds + dt, jr.checkpoints);
        if (jr.signo) printf(",\"signal\":%d", jr.signo);
        if (o.proof)
            printf(",\"proof\":{\"file\":\"%s\",\"lines\":%llu,\"error\":%s%s%s}", o.proof, (unsigned long long)ps.lines,
                   proof_error ? "\"" : "", proof_error ? proof_error : "null", proof_error ? "\"" : "");
        printf("}\n");
    } else {
        printf("position: %s (%s rules, %dx%d, k=%d, %s to move)\n", posbuf, rules_name(r.rules), r.n, r.n, r.k,
               order_moves ? "Order" : "Chaos");
        printf("result: %s%s\n", winner_name(v), v == WINNER_NONE ? " (a limit stopped the search)" : " wins");
        printf("best move: %s\n", best != MOVE_NONE ? mv : "none");
        if (o.dtw) {
            if (dtw >= 0) printf("dtw: %d\n", dtw);
            else printf("dtw: none%s\n", dtw == -2 ? " (a limit stopped the search)" : "");
        }
        printf("nodes: %llu\nseconds: %.3f\nnodes/s: %.0f\nroot pn/dn: ", (unsigned long long)nodes, dt, nps);
        print_num(pn, false);
        printf(" / ");
        print_num(dn, false);
        printf("\n");
        if (o.job.resume || o.job.checkpoint)
            printf("all runs: %llu nodes, %.1f s; checkpoints saved: %d\n",
                   (unsigned long long)(jr.prev_nodes + nodes), jr.prev_seconds + dt, jr.checkpoints);
        if (jr.signo) printf("stopped by signal %d\n", jr.signo);
        if (o.proof && !proof_error)
            printf("proof: %s (%llu lines, %llu positions)\n", o.proof, (unsigned long long)ps.lines,
                   (unsigned long long)ps.positions);
    }
    if (proof_error) {
        /* A partial certificate must not be mistaken for one. */
        remove(o.proof);
        fprintf(stderr, "ocsolve: proof not written: %s\n", proof_error);
    }
    tt_free(&tt);
    if (ab_bytes) tt_free(&abtt);
    if (jr.signo) return 128 + jr.signo;
    return proof_error || jr.save_failed ? 1 : 0;
}
