/* cmd_solve.c - `ocsolve solve`: the options, the progress display, then
 * solve_run (solver/solve.h) and one of the two printers (solve_print.h). */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <string.h>
#include <unistd.h>

#include "../solver/centre_solve.h"
#include "../solver/parallel.h"
#include "../solver/solve.h"
#include "../solver/subboard_solve.h"
#include "cli.h"
#include "cli_run.h"
#include "commands.h"
#include "signals.h"
#include "solve_print.h"

static const char solve_help[] =
    "usage: ocsolve solve [options] [POSITION [MOVE ...]]\n"
    "Decide POSITION (default: the empty board): who wins with perfect play.\n" CLI_GAME_HELP
    "  --tt-mb M          transposition table size in MiB (default 256)\n"
    "  --threads T        searching threads sharing the table (default: all cores)\n"
    "  --time-limit S     stop after S seconds (result unknown)\n"
    "  --node-limit N     stop after N nodes (result unknown)\n"
    "  --dtw              also the exact distance to win (plies)\n"
    "  --dtw-method M     dfpn (default: depth-bounded df-pn, iterative depth) or ab\n"
    "                     (iterative-deepening alpha-beta)\n"
    "  --within D         only ask: does Order force a line within D plies? Prints\n"
    "                     yes, no or unknown (a limit stopped it); no value search,\n"
    "                     one thread, the whole table for the bounded df-pn\n"
    "  --proof FILE       write a proof certificate (check it with ocsolve verify);\n"
    "                     with --within D, Order's for a yes, Chaos's to the\n"
    "                     horizon D for a no (verify --within D --winner chaos)\n"
    "  --proof-max-lines N  give up (and remove FILE) past N lines (default 10000000)\n"
    "  --json             one JSON object on stdout\n"
    "  --search S         dfpn (default) or ab (full-depth alpha-beta)\n"
    "  --progress-every S progress on stderr every S seconds (default 5)\n"
    "  --quiet            no progress\n"
    "  --log FILE         the progress figures as CSV, for plotting (appended to\n"
    "                     with --resume; seconds and nodes count all runs)\n"
    "  --checkpoint FILE  save the search table to FILE every --checkpoint-every\n"
    "                     seconds (default 300), at the end and on SIGINT/SIGTERM;\n"
    "                     one solve per FILE (locked with FILE.lock): a second\n"
    "                     one is refused (exit 2)\n"
    "  --resume FILE      continue from a checkpoint (same rules, board, position\n"
    "                     and key settings; anything else is refused)\n"
    "tuning (for comparing heuristics; the defaults are the measured best):\n"
    "  --epsilon E        1+epsilon threshold trick (default 0.5; 0 = plain df-pn)\n"
    "  --pn-init I        moves (default: a Chaos node starts at its number of safe\n"
    "                     moves) or one\n"
    "  --order O          move ordering among equal children: center (default:\n"
    "                     nearest the centre first) or cells (by cell index);\n"
    "                     --epsilon and --order tune the bounded search of\n"
    "                     --within and --dtw too, whose default order is cells\n"
    "  --no-threats       no four/zugzwang knowledge\n"
    "  --no-dead-cells    no dead-cell reduction\n"
    "  --sym-pieces P     canonical (symmetry-reduced) keys up to P pieces (default 8)\n"
    "  --pairing B        pairing search budget (default 32; 0 = no pairing)\n"
    "  --no-pairing-lines no lines gate before the pairing search (pairing.h; it\n"
    "                     changes no result and no node count, only the time)\n"
    "  --witness-slack N  odd boards: pairs with witnesses in the search's nodes\n"
    "                     only where N empty cells are spare beyond the ones\n"
    "                     their lines need (default: 0 on 5x5, 7 on 7x7; 0 =\n"
    "                     wherever they may hold; a heuristic: it changes no\n"
    "                     value, only the nodes)\n"
    "  --no-witness       odd boards: no pairs with witnesses in the search's\n"
    "                     nodes (pairing.h; the root still looks for them)\n"
    "  --no-centre        no centre-strategy lemma (Order's static wins, centre.h;\n"
    "                     on 7x7 and 8x8 its small game is otherwise solved first,\n"
    "                     and --proof F also writes F-centre.ocproof)\n"
    CLI_RUN_HELP_CENTRE_HALF
    "  --no-subboard      no sub-board lemma (original: a window of the board,\n"
    "                     with an even number of empty cells outside it, solved\n"
    "                     first as a game of its own; --proof F also writes\n"
    "                     F-subboard.ocproof)\n"
    "  --threats-depth N  Order's forcing sequences (fours answered by Chaos's\n"
    "                     safe moves, threats.h) as static Order wins: at most N\n"
    "                     plies (default 21; 0 = off)\n"
    "  --threats-nodes N  ... looking at most N positions per search (default 5000)\n"
    "  --help             this text\n"
    "Exit 0 when the search ran (whatever the result), 1 when --proof or the last\n"
    "checkpoint could not be written (a proof file is removed), 2 on bad input,\n"
    "128+N when stopped by signal N (SIGINT, SIGTERM; the checkpoint is saved).\n"
    "example: ocsolve solve --dtw XXXX.O/O.O.../....../..X.../....../......\n";

/* Progress on stderr (rewritten in place on a terminal) and in the CSV log.
 * A deepening search (alpha-beta, --within) shows its depth where df-pn
 * shows its root's numbers and moves; in the log its root_pn and root_dn
 * are empty and its moves 0. */
typedef struct {
    bool tty, shown; /* stderr is a terminal; a line is waiting for its newline */
    FILE *log;
    bool quiet;
    int reports;
} Progress;

static void show_solve_progress(const SearchProgress *p, void *arg)
{
    Progress *pr = arg;
    double nps = p->seconds > 0 ? (double)p->nodes / p->seconds : 0; /* this run's speed */
    double secs = p->prev_seconds + p->seconds; /* a resumed job's figures are totals */
    unsigned long long nodes = p->prev_nodes + p->nodes;
    /* The final figures go to stderr only if a report was shown before. */
    if (!pr->quiet && !(p->final && pr->reports == 0)) {
        char pn[CLI_PN_LEN], dn[CLI_PN_LEN], root[96];
        if (p->depth > 0) snprintf(root, sizeof root, "depth %d", p->depth);
        else
            snprintf(root, sizeof root, "root pn %s dn %s  moves %d: %d won, %d lost", cli_pn(p->pn, pn), cli_pn(p->dn, dn),
                     p->moves, p->proven, p->disproven);
        fprintf(stderr, "%s%8.1fs  nodes %llu (%.0f/s)  table %d.%d%%  %s%s", pr->tty ? "\r" : "", secs, nodes, nps,
                p->tt_permille / 10, p->tt_permille % 10, root, pr->tty ? "\033[K" : "\n");
        pr->shown = pr->tty;
    }
    pr->reports++;
    if (pr->log) {
        char pn[16] = "", dn[16] = "";
        if (p->depth == 0) {
            snprintf(pn, sizeof pn, "%u", p->pn);
            snprintf(dn, sizeof dn, "%u", p->dn);
        }
        fprintf(pr->log, "%.3f,%llu,%.0f,%d,%s,%s,%d,%d,%d\n", secs, nodes, nps, p->tt_permille, pn, dn, p->moves,
                p->proven, p->disproven);
        fflush(pr->log);
    }
}

static void show_note(const char *line, bool error, void *arg)
{
    Progress *pr = arg;
    if (pr->quiet && !error) return;
    if (pr->shown) fputc('\n', stderr);
    pr->shown = false;
    fprintf(stderr, "%s%s\n", error ? "ocsolve: " : "", line);
}

/* What the command line says besides the solve spec. */
typedef struct {
    bool json;
    bool no_subboard; /* --no-subboard */
    CliRun run; /* --time-limit, --proof, --log, --quiet, --progress-every, --within */
    bool order_given; /* --order (the bounded search's default order differs) */
} SolveCli;

enum { O_TT = 1000, O_NODES, O_DTW, O_JSON, O_SEARCH, O_PMAX, O_EPS, O_PNINIT, O_NOTHREAT, O_NODEAD, O_SYM, O_PAIR,
       O_THREADS, O_CKPT, O_CKPT_EVERY, O_RESUME, O_ORDER, O_DTW_METHOD, O_NOSUBBOARD, O_NOLINES, O_NOWITNESS, O_WSLACK };

static const struct option solve_longopts[] = {
    CLI_GAME_LONGOPTS,
    CLI_RUN_LONGOPTS,
    {"tt-mb", required_argument, NULL, O_TT},           {"node-limit", required_argument, NULL, O_NODES},
    {"dtw", no_argument, NULL, O_DTW},                  {"json", no_argument, NULL, O_JSON},
    {"search", required_argument, NULL, O_SEARCH},      {"proof-max-lines", required_argument, NULL, O_PMAX},
    {"epsilon", required_argument, NULL, O_EPS},        {"pn-init", required_argument, NULL, O_PNINIT},
    {"no-threats", no_argument, NULL, O_NOTHREAT},      {"no-dead-cells", no_argument, NULL, O_NODEAD},
    {"sym-pieces", required_argument, NULL, O_SYM},     {"pairing", required_argument, NULL, O_PAIR},
    {"threads", required_argument, NULL, O_THREADS},    {"checkpoint", required_argument, NULL, O_CKPT},
    {"checkpoint-every", required_argument, NULL, O_CKPT_EVERY}, {"resume", required_argument, NULL, O_RESUME},
    {"order", required_argument, NULL, O_ORDER},        {"dtw-method", required_argument, NULL, O_DTW_METHOD},
    {"no-subboard", no_argument, NULL, O_NOSUBBOARD},  {"no-pairing-lines", no_argument, NULL, O_NOLINES},
    {"no-witness", no_argument, NULL, O_NOWITNESS},     {"witness-slack", required_argument, NULL, O_WSLACK},
    {"help", no_argument, NULL, 'h'},
    {0, 0, 0, 0}};

/* The tuning switches (dfpn.h, knowledge.h); false if opt is not one. */
static bool tuning_option(int opt, const char *arg, DfpnConfig *cfg)
{
    switch (opt) {
    case O_EPS: cfg->epsilon = cli_real(arg, "--epsilon", 0, 10); return true;
    case O_PNINIT:
        if (strcmp(arg, "moves") != 0 && strcmp(arg, "one") != 0) cli_fail("unknown --pn-init '%s' (moves or one)", arg);
        cfg->chaos_pn_moves = strcmp(arg, "moves") == 0;
        return true;
    case O_ORDER: cfg->center_first = cli_center_first(arg); return true;
    case O_NOTHREAT: cfg->kn.threats = false; return true;
    case O_NODEAD: cfg->kn.dead_cells = false; return true;
    case O_SYM: cfg->kn.sym_pieces = (int)cli_number(arg, "--sym-pieces", 0, 64); return true;
    case O_PAIR: cfg->kn.pairing = (int)cli_number(arg, "--pairing", 0, 1000000); return true;
    case O_NOLINES: cfg->kn.pairing_lines = false; return true;
    case O_NOWITNESS: cfg->kn.pairing_witness = false; return true;
    case O_WSLACK: cfg->kn.pairing_witness_slack = (int)cli_number(arg, "--witness-slack", 0, 64); return true;
    default: return false;
    }
}

/* Parses the options into s, c and g; returns 1 after --help, else 0. */
static int parse_solve_options(int argc, char **argv, SolveSpec *s, SolveCli *c, GameOpts *g)
{
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", solve_longopts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(solve_help, stdout); return 1;
        case O_TT: s->tt_bytes = (size_t)cli_number(optarg, "--tt-mb", 1, 1L << 22) << 20; break;
        case O_CKPT: s->resumable.checkpoint = optarg; break;
        case O_CKPT_EVERY: s->resumable.every = cli_seconds(optarg, "--checkpoint-every"); break;
        case O_RESUME: s->resumable.resume = optarg; break;
        case O_THREADS: s->threads = (int)cli_number(optarg, "--threads", 1, DFPN_MAX_THREADS); break;
        case O_NODES: s->lim.node_limit = (uint64_t)cli_number(optarg, "--node-limit", 1, 0x7FFFFFFFFFFFFFFFL); break;
        case O_DTW: s->dtw = true; break;
        case O_DTW_METHOD:
            if (strcmp(optarg, "dfpn") != 0 && strcmp(optarg, "ab") != 0)
                cli_fail("unknown --dtw-method '%s' (dfpn or ab)", optarg);
            s->dtw_ab = strcmp(optarg, "ab") == 0;
            break;
        case O_JSON: c->json = true; break;
        case O_NOSUBBOARD: c->no_subboard = true; break;
        case O_PMAX: s->proof_max_lines = (uint64_t)cli_number(optarg, "--proof-max-lines", 1, 0x7FFFFFFFFFFFFFFFL); break;
        case O_SEARCH:
            if (strcmp(optarg, "dfpn") != 0 && strcmp(optarg, "ab") != 0)
                cli_fail("unknown --search '%s' (dfpn or ab)", optarg);
            s->alphabeta = strcmp(optarg, "ab") == 0;
            break;
        default:
            c->order_given |= opt == O_ORDER;
            if (!cli_run_option(opt, optarg, &c->run, &s->cfg.kn) && !tuning_option(opt, optarg, &s->cfg) &&
                !cli_game_option(opt, optarg, g))
                cli_bad_option(argv, opt);
        }
    }
    s->time_limit = c->run.time_limit;
    s->within_asked = c->run.within_asked;
    s->within = c->run.within;
    /* The bounded question is a search of its own: it writes no certificate
     * or checkpoint and has no value search to add a distance to. */
    if (s->within_asked && (s->resumable.checkpoint || s->resumable.resume || s->dtw || s->alphabeta))
        cli_fail("--within cannot be combined with --checkpoint, --resume, --dtw or --search ab");
    /* The bounded search (--within, and --dtw's distances) takes --epsilon
     * and --order (its default order is by cell: dfpn_depth.h) but has its
     * own initial numbers. */
    if (s->within_asked && !s->cfg.chaos_pn_moves)
        cli_fail("--pn-init one tunes the value search, not --within's bounded search");
    if (c->order_given) s->cfg.bounded_center_first = s->cfg.center_first;
    return 0;
}

/* Releases the checkpoint's lock, then fails (one line, exit 2): the lock
 * would go with the process anyway, but its file would stay behind. */
static noreturn void fail_unlocking(ResumableOpts *job, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static noreturn void fail_unlocking(ResumableOpts *job, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    resumable_unlock(job);
    cli_fail("%s", msg);
}

/* Opens the log (a resumed job adds to its log; a fresh one starts anew);
 * NULL if it cannot be written. */
static FILE *open_solve_log(const char *path, bool resume)
{
    FILE *f = fopen(path, resume ? "a" : "w");
    if (!f) return NULL;
    if (ftell(f) == 0)
        fprintf(f, "seconds,nodes,nodes_per_second,table_permille,root_pn,root_dn,root_moves,proven,disproven\n");
    return f;
}

/* A lemma route's small certificate beside FILE: FILE without a trailing
 * ".ocproof", then "-SUFFIX.ocproof" (original-7x7-k6.ocproof ->
 * original-7x7-k6-centre.ocproof). false when it would not fit. */
static bool lemma_proof_path(const char *proof, const char *suffix, char *out, size_t len)
{
    size_t n = strlen(proof), ext = strlen(".ocproof");
    if (n > ext && strcmp(proof + n - ext, ".ocproof") == 0) n -= ext;
    return (size_t)snprintf(out, len, "%.*s-%s.ocproof", (int)n, proof, suffix) < len;
}

/* What a lemma route's small solve came to (*rep the position's report,
 * *small the small game's, its certificate at path with --proof): false
 * when it settled nothing (an undecided or Chaos-win small game), its
 * certificate removed; true when it settled the run (an Order win, or a
 * signal), rep->proof_error set where the position's certificate cannot
 * be written (a signal; the small certificate failed: `what` names it),
 * which the caller writes otherwise. */
static bool route_settles(const SolveSpec *s, const SolveCli *c, SolveReport *rep, const SolveReport *small,
                          const char *path, const char *what)
{
    bool settled = rep->value == WINNER_ORDER || rep->resumable.signo;
    if (!settled || small->proof_error[0] || rep->resumable.signo) {
        if (c->run.proof) remove(path); /* no certificate of a small game that decided nothing */
        if (!settled) return false;
    }
    if (rep->resumable.signo && s->proof)
        snprintf(rep->proof_error, sizeof rep->proof_error, "stopped by signal %d", rep->resumable.signo);
    else if (small->proof_error[0] && s->proof)
        snprintf(rep->proof_error, sizeof rep->proof_error, "%s: %.170s", what, small->proof_error);
    return true;
}

/* The small certificate's name as the position's certificate names it:
 * from the big file's folder, which is the small one's. */
static const char *beside(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The centre lemma on 7x7 and 8x8 (solver/centre_solve.h): where it
 * applies, the small game is solved first (its certificate beside the
 * --proof FILE, which gets the one line naming it). true when that
 * settled the run (an Order win, or a signal): *rep is the report to
 * print. false otherwise (the small game a Chaos win or undecided; its
 * certificate removed): the caller searches the position itself, with
 * the same limits again. Not with --within, --dtw, --checkpoint or
 * --resume, which ask about the position's own search. *tried: the small
 * game was solved (its report in *small). */
static bool solve_by_centre(const Rules *r, Board b, const SolveSpec *s, const SolveCli *c, SolveReport *rep,
                            SolveReport *small, char *path, size_t len, bool *tried)
{
    if (s->within_asked || s->dtw || s->resumable.checkpoint || s->resumable.resume || !s->cfg.kn.centre ||
        !centre_solve_applies(r, b))
        return false;
    *tried = true;
    SolveSpec cs = *s;
    cs.proof = NULL;
    if (c->run.proof && !lemma_proof_path(c->run.proof, "centre", path, len))
        cli_fail("--proof '%s': the path is too long", c->run.proof);
    if (c->run.proof && !(cs.proof = fopen(path, "w"))) cli_fail("cannot write proof file '%s'", path);
    char err[512];
    if (centre_solve_run(r, b, &cs, rep, small, err, sizeof err) != 0) cli_fail("%s", err);
    if (cs.proof && fclose(cs.proof) != 0 && !small->proof_error[0])
        snprintf(small->proof_error, sizeof small->proof_error, "cannot finish writing it");
    if (!route_settles(s, c, rep, small, path, "the centre's certificate")) return false;
    if (s->proof && !rep->proof_error[0] && centre_solve_write(s->proof, r, b, beside(path), &rep->proof) != 0)
        snprintf(rep->proof_error, sizeof rep->proof_error, "write error");
    return true;
}

/* The sub-board lemma's route (solver/subboard_solve.h): its state. */
typedef struct {
    int tries;        /* windows solved (0: the route was not taken) */
    SubboardWindow w; /* the last one */
    SolveReport small; /* its report */
    char path[4200];  /* its certificate (with --proof) */
} SubboardRoute;

/* The sub-board lemma (rules original): the windows subboard_windows
 * gives, each solved in turn under what the earlier ones left of the
 * limits (they share one --time-limit and --node-limit), until one is an
 * Order win, which settles the run as the centre route's small game does
 * (its certificate F-subboard.ocproof beside the --proof F, which gets the
 * one line naming it), or one is undecided (the limits are spent). false
 * when no window settled it: the caller searches the position itself,
 * with the same limits again. Not with --within, --dtw, --checkpoint,
 * --resume or --no-subboard. */
static bool solve_by_subboard(const Rules *r, Board b, const SolveSpec *s, const SolveCli *c, SolveReport *rep,
                              SubboardRoute *route)
{
    SubboardWindow win[SUBBOARD_MAX_TRIES];
    if (s->within_asked || s->dtw || s->resumable.checkpoint || s->resumable.resume || c->no_subboard) return false;
    int nw = subboard_windows(r, b, win, SUBBOARD_MAX_TRIES);
    double seconds = 0;
    uint64_t nodes = 0;
    if (c->run.proof && !lemma_proof_path(c->run.proof, "subboard", route->path, sizeof route->path))
        cli_fail("--proof '%s': the path is too long", c->run.proof);
    for (int i = 0; i < nw; i++) {
        SolveSpec cs = *s;
        cs.proof = NULL;
        if (s->time_limit > 0 && (cs.time_limit = s->time_limit - seconds) <= 0) break;
        if (s->lim.node_limit && (cs.lim.node_limit = s->lim.node_limit > nodes ? s->lim.node_limit - nodes : 0) == 0)
            break;
        if (c->run.proof && !(cs.proof = fopen(route->path, "w"))) cli_fail("cannot write proof file '%s'", route->path);
        char err[512];
        route->tries++, route->w = win[i];
        if (subboard_solve_run(r, b, win[i], &cs, rep, &route->small, err, sizeof err) != 0) cli_fail("%s", err);
        if (cs.proof && fclose(cs.proof) != 0 && !route->small.proof_error[0])
            snprintf(route->small.proof_error, sizeof route->small.proof_error, "cannot finish writing it");
        seconds += route->small.seconds, nodes += route->small.nodes;
        if (route_settles(s, c, rep, &route->small, route->path, "the window's certificate")) {
            if (s->proof && !rep->proof_error[0] &&
                subboard_solve_write(s->proof, r, b, win[i], beside(route->path), &rep->proof) != 0)
                snprintf(rep->proof_error, sizeof rep->proof_error, "write error");
            return true;
        }
        if (route->small.value == WINNER_NONE) break; /* a limit stopped it: no time for another window */
    }
    return false;
}

int cmd_solve(int argc, char **argv)
{
    SolveSpec s = solve_default_spec();
    s.threads = parallel_cores();
    s.proof_max_lines = 10000000;
    SolveCli c = {.run = {.progress_every = 5}};
    GameOpts g = {0, 0, RULES_ORIGINAL};
    if (parse_solve_options(argc, argv, &s, &c, &g)) return 0;
    Rules r;
    Board b;
    cli_position_args(&g, argc, argv, &r, &b);
    /* One writer per checkpoint (solver/resumable.h), held until the solve is
     * over: taken before the proof and log files are opened, so that a
     * refused second solve truncates neither. */
    FileLock lock;
    char err[512];
    if (resumable_lock(&s.resumable, &lock, err, sizeof err) != 0) cli_fail("%s", err);
    if (c.run.proof && !(s.proof = fopen(c.run.proof, "w")))
        fail_unlocking(&s.resumable, "cannot write proof file '%s'", c.run.proof);
    Progress prog = {.tty = isatty(STDERR_FILENO) != 0, .quiet = c.run.quiet};
    if (c.run.log && !(prog.log = open_solve_log(c.run.log, s.resumable.resume != NULL)))
        fail_unlocking(&s.resumable, "cannot write log file '%s'", c.run.log);
    if (!c.run.quiet || prog.log) {
        s.lim.report_every = c.run.progress_every;
        s.lim.report = show_solve_progress;
        s.lim.report_arg = &prog;
    }
    s.resumable.note = show_note;
    s.resumable.note_arg = &prog;
    SolveReport rep, small;
    static SubboardRoute sub; /* large (the path): not on the stack */
    char small_path[4200];
    signals_stop_on_interrupt(); /* a signal from here on stops the solve cleanly */
    bool tried_centre = false, by_centre = solve_by_centre(&r, b, &s, &c, &rep, &small, small_path,
                                                           sizeof small_path, &tried_centre);
    bool by_subboard = !by_centre && solve_by_subboard(&r, b, &s, &c, &rep, &sub);
    if (!by_centre && !by_subboard && solve_run(&r, b, &s, &rep, err, sizeof err) != 0) {
        if (s.proof) {
            fclose(s.proof);
            remove(c.run.proof);
        }
        fail_unlocking(&s.resumable, "%s", err);
    }
    resumable_unlock(&s.resumable); /* the job's last save is behind us */
    if (prog.shown) fputc('\n', stderr);
    if (prog.log && fclose(prog.log) != 0) fprintf(stderr, "ocsolve: could not finish writing '%s'\n", c.run.log);
    if (s.proof && fclose(s.proof) != 0 && !rep.proof_error[0])
        snprintf(rep.proof_error, sizeof rep.proof_error, "cannot finish writing the proof file");
    SolveAsked q = {.r = &r, .b = b, .dtw = s.dtw, .resumable = s.resumable.resume || s.resumable.checkpoint,
                    .proof = c.run.proof, .within = s.within_asked, .within_d = s.within,
                    .centre = tried_centre ? &small : NULL, .centre_proof = c.run.proof && by_centre ? small_path : NULL,
                    .subboard = sub.tries ? &sub.small : NULL, .subboard_window = sub.w, .subboard_tries = sub.tries,
                    .subboard_proof = c.run.proof && by_subboard ? sub.path : NULL};
    if (c.json) solve_print_json(stdout, &q, &rep);
    else solve_print_text(stdout, &q, &rep);
    if (rep.proof_error[0]) {
        remove(c.run.proof); /* a partial certificate must not be mistaken for one */
        fprintf(stderr, "ocsolve: proof not written: %s\n", rep.proof_error);
    }
    if (rep.resumable.signo) return 128 + rep.resumable.signo;
    return rep.proof_error[0] || rep.resumable.save_failed ? 1 : 0;
}
