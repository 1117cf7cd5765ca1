/* test_play.c - `ocsolve play`: the line protocol (answers parsed here),
 * games against a seeded random opponent judged by the reference rules
 * (ref.h), the engine's claims checked against the brute force (brute.h)
 * on small boards, bad input that must not end a session, and the
 * terminal mode through a pipe.
 *
 * The binary (OCSOLVE_BIN) runs as a child with both ends piped: the test
 * writes a command, reads the one answer line, and keeps its own copy of
 * the board (a RefPos), so nothing the engine says about the position is
 * taken on trust.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "brute.h"
#include "ref.h"
#include "runbin.h"
#include "testlib.h"

#ifndef OCSOLVE_BIN
#error "OCSOLVE_BIN must name the ocsolve binary under test"
#endif

static void no_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

TestSuite(play, .timeout = 300, .init = no_sigpipe);

/* ------------------------------------------------------------------ */
/* A session with the binary                                          */
/* ------------------------------------------------------------------ */

typedef struct {
    pid_t pid;
    FILE *to, *from;
} Session;

/* Starts `ocsolve play ARGS...` with stdin and stdout piped (stderr to
 * /dev/null) and an alarm, so that a hang becomes a failure. */
static void start(Session *s, const char *const *args)
{
    int in[2], out[2];
    cr_assert(pipe(in) == 0 && pipe(out) == 0, "pipe: %s", strerror(errno));
    const char *argv[32] = {"ocsolve", "play"};
    int n = 2;
    while (*args && n < 31) argv[n++] = *args++;
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    s->pid = fork();
    cr_assert(s->pid >= 0);
    if (s->pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || null < 0 || dup2(null, 2) < 0) _exit(126);
        close(in[1]);
        close(out[0]);
        signal(SIGPIPE, SIG_DFL);
        alarm(240);
        execv(OCSOLVE_BIN, (char *const *)argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    s->to = fdopen(in[1], "w");
    s->from = fdopen(out[0], "r");
    cr_assert(s->to && s->from);
}
#define START(s, ...) start((s), (const char *const[]){__VA_ARGS__, NULL})

/* Sends one line; reads the one answer line into buf (newline removed). */
static const char *ask(Session *s, const char *cmd, char *buf, size_t size)
{
    cr_assert(fprintf(s->to, "%s\n", cmd) > 0 && fflush(s->to) == 0, "could not send '%s'", cmd);
    cr_assert(fgets(buf, (int)size, s->from) != NULL, "no answer to '%s' (the session ended)", cmd);
    size_t len = strlen(buf);
    cr_assert(len > 0 && buf[len - 1] == '\n', "answer to '%s' is not one whole line: [%s]", cmd, buf);
    buf[len - 1] = '\0';
    cr_assert(buf[0] == '=' || buf[0] == '?', "answer to '%s' starts with neither '=' nor '?': [%s]", cmd, buf);
    cr_assert(buf[1] == '\0' || buf[1] == ' ', "answer to '%s': no space after '%c': [%s]", cmd, buf[0], buf);
    return buf;
}

static void expect_error(Session *s, const char *cmd, const char *needle)
{
    char buf[1024];
    ask(s, cmd, buf, sizeof buf);
    cr_expect(buf[0] == '?', "'%s' should be an error, got [%s]", cmd, buf);
    cr_expect(strstr(buf, needle) != NULL, "'%s': the error should name '%s': [%s]", cmd, needle, buf);
}

/* Closes stdin (end of input), reads what is left of stdout into rest (if
 * not NULL), and returns the exit code (-1: killed by a signal). */
static int finish(Session *s, char *rest, size_t size)
{
    fclose(s->to);
    size_t got = 0;
    int c;
    while ((c = fgetc(s->from)) != EOF)
        if (rest && got + 1 < size) rest[got++] = (char)c;
    if (rest) rest[got] = '\0';
    fclose(s->from);
    int status;
    pid_t w;
    do w = waitpid(s->pid, &status, 0);
    while (w < 0 && errno == EINTR);
    cr_assert(w == s->pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ------------------------------------------------------------------ */
/* The test's own board                                                 */
/* ------------------------------------------------------------------ */

static void ref_empty(RefPos *p, int n, int k, int rules)
{
    char s[65];
    memset(s, '.', (size_t)(n * n));
    s[n * n] = '\0';
    cr_assert(ref_parse(p, n, k, rules, s) == 0);
}

/* Reads a move such as "Xc3" with the test's own reading of the notation:
 * the symbol, the column letter (a = 0), the row number from the top (1 =
 * row 0). The cell index in p, or -1. */
static int read_move(const RefPos *p, const char *mv, char *sym)
{
    if ((mv[0] != 'X' && mv[0] != 'O') || mv[1] < 'a' || mv[1] >= 'a' + p->n) return -1;
    int row = atoi(mv + 2);
    if (row < 1 || row > p->n || strlen(mv) != (row >= 10 ? 4u : 3u)) return -1;
    *sym = mv[0];
    return (row - 1) * p->n + (mv[1] - 'a');
}

static void write_move(const RefPos *p, int cell, char sym, char out[8])
{
    out[0] = sym;
    out[1] = (char)('a' + cell % p->n);
    out[2] = (char)('1' + cell / p->n); /* n <= 8: one digit */
    out[3] = '\0';
}

static bool order_to_move(const RefPos *p)
{
    int pieces = 0;
    for (int i = 0; i < p->n * p->n; i++) pieces += p->cell[i] != '.';
    return pieces % 2 == 0;
}

static const char *status_word(const RefPos *p)
{
    int st = ref_status(p);
    return st == REF_ORDER_WINS ? "order-won" : st == REF_CHAOS_WINS ? "chaos-won" : "ongoing";
}

/* A uniformly random move of p (ongoing). */
static void random_move(const RefPos *p, uint64_t *rng, char out[8])
{
    int empty[64], ne = 0;
    for (int i = 0; i < p->n * p->n; i++)
        if (p->cell[i] == '.') empty[ne++] = i;
    cr_assert(ne > 0);
    write_move(p, empty[tl_below(rng, ne)], tl_below(rng, 2) ? 'X' : 'O', out);
}

/* A random move of p (ongoing) that does not complete a line, if there
 * is one: a random Chaos that does not throw the game away. */
static void random_safe_move(const RefPos *p, uint64_t *rng, char out[8])
{
    int safe[128], ns = 0;
    RefPos q = *p;
    for (int i = 0; i < p->n * p->n; i++)
        for (int s = 0; s < 2 && p->cell[i] == '.'; s++) {
            q.cell[i] = s ? 'O' : 'X';
            if (ref_status(&q) != REF_ORDER_WINS) safe[ns++] = 2 * i + s;
            q.cell[i] = '.';
        }
    if (ns == 0) {
        random_move(p, rng, out);
        return;
    }
    int pick = safe[tl_below(rng, ns)];
    write_move(p, pick / 2, pick % 2 ? 'O' : 'X', out);
}

/* Plays mv on both boards: the session's (must answer "= STATUS", the
 * status the reference rules give) and p. */
static void play_both(Session *s, RefPos *p, const char *mv)
{
    char sym, cmd[32], buf[256];
    int cell = read_move(p, mv, &sym);
    cr_assert(cell >= 0 && p->cell[cell] == '.', "bad test move %s", mv);
    snprintf(cmd, sizeof cmd, "play %s", mv);
    ask(s, cmd, buf, sizeof buf);
    p->cell[cell] = sym;
    char want[32];
    snprintf(want, sizeof want, "= %s", status_word(p));
    cr_assert(strcmp(buf, want) == 0, "'%s': expected [%s], got [%s]", cmd, want, buf);
}

/* One genmove answer, parsed: = MOVE KIND WINNER DTW REASON... */
typedef struct {
    char move[8], kind[32], winner[16], dtw[16];
    const char *reason;
    int cell;
    char sym;
} Gen;

static const char *const kinds[] = {"win-now", "centre-pair", "centre-small", "pairing",
                                    "store",   "search",      "lost",         "guess"};

/* Asks genmove, checks the answer's form and that the move is legal in p
 * (the game ongoing, the cell on the board and empty), and plays it on p. */
static void genmove(Session *s, RefPos *p, Gen *g, char *buf, size_t size)
{
    cr_assert(ref_status(p) == REF_ONGOING);
    ask(s, "genmove", buf, size);
    cr_assert(buf[0] == '=', "genmove failed: [%s]", buf);
    int used = 0;
    cr_assert(sscanf(buf, "= %7s %31s %15s %15s %n", g->move, g->kind, g->winner, g->dtw, &used) == 4 && used > 0,
              "genmove answer not of the form '= MOVE KIND WINNER DTW REASON': [%s]", buf);
    g->reason = buf + used;
    cr_expect(strlen(g->reason) > 0, "genmove gave no reason: [%s]", buf);
    bool known = false;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) known |= strcmp(g->kind, kinds[i]) == 0;
    cr_expect(known, "unknown kind '%s': [%s]", g->kind, buf);
    cr_expect(!strcmp(g->winner, "order") || !strcmp(g->winner, "chaos") || !strcmp(g->winner, "unknown"),
              "winner '%s': [%s]", g->winner, buf);
    g->cell = read_move(p, g->move, &g->sym);
    cr_assert(g->cell >= 0, "genmove's move '%s' is not a move of this board: [%s]", g->move, buf);
    cr_assert(p->cell[g->cell] == '.', "genmove played on the occupied cell of %s: [%s]", g->move, buf);
    p->cell[g->cell] = g->sym;
}

/* ------------------------------------------------------------------ */
/* The protocol                                                         */
/* ------------------------------------------------------------------ */

Test(play, protocol_session)
{
    Session s;
    START(&s, "--protocol", "--think", "1");
    char buf[1024];
    ask(&s, "list_commands", buf, sizeof buf);
    for (const char *c = "newgame play genmove showboard solve quit"; *c;) {
        char word[32];
        int len = (int)strcspn(c, " ");
        snprintf(word, sizeof word, "%.*s", len, c);
        cr_expect(strstr(buf, word) != NULL, "list_commands lacks %s: [%s]", word, buf);
        c += len + (c[len] == ' ');
    }
    ask(&s, "showboard", buf, sizeof buf);
    char empty[40];
    memset(empty, '.', 36);
    empty[36] = '\0';
    char want[128];
    snprintf(want, sizeof want, "= %s order ongoing", empty);
    cr_expect_str_eq(buf, want);
    RefPos p;
    ref_empty(&p, 6, 5, REF_ORIGINAL);
    play_both(&s, &p, "Xc3");
    ask(&s, "showboard", buf, sizeof buf);
    char pos[40];
    ref_format(&p, pos);
    snprintf(want, sizeof want, "= %s chaos ongoing", pos);
    cr_expect_str_eq(buf, want);
    Gen g;
    char gb[1024];
    genmove(&s, &p, &g, gb, sizeof gb); /* Chaos's move */
    ask(&s, "showboard", buf, sizeof buf);
    ref_format(&p, pos);
    snprintf(want, sizeof want, "= %s order ongoing", pos);
    cr_expect_str_eq(buf, want, "the board after genmove %s", g.move);
    /* undo takes back one ply each */
    ask(&s, "undo", buf, sizeof buf);
    cr_expect_str_eq(buf, "= ongoing");
    ask(&s, "undo", buf, sizeof buf);
    cr_expect_str_eq(buf, "= ongoing");
    expect_error(&s, "undo", "nothing to undo");
    snprintf(want, sizeof want, "= %s order ongoing", empty);
    ask(&s, "showboard", buf, sizeof buf);
    cr_expect_str_eq(buf, want);
    ask(&s, "newgame exact 5 4", buf, sizeof buf);
    cr_expect_str_eq(buf, "= exact 5 4");
    ask(&s, "showboard", buf, sizeof buf);
    cr_expect(strncmp(buf, "= ......................... order ongoing", 41) == 0, "[%s]", buf);
    ask(&s, "newgame", buf, sizeof buf); /* the same game again */
    cr_expect_str_eq(buf, "= exact 5 4");
    ask(&s, "solve", buf, sizeof buf);
    char w[16], d[16], by[16];
    cr_expect(sscanf(buf, "= %15s %15s %15s", w, d, by) == 3, "solve: [%s]", buf);
    ask(&s, "quit", buf, sizeof buf);
    cr_expect_str_eq(buf, "=");
    char rest[256];
    cr_expect(finish(&s, rest, sizeof rest) == 0, "exit code after quit");
    cr_expect_str_eq(rest, "", "output after quit: [%s]", rest);
}

Test(play, bad_input_keeps_the_session)
{
    Session s;
    START(&s, "--protocol", "--think", "0.5");
    char buf[1024];
    expect_error(&s, "frobnicate", "unknown command");
    expect_error(&s, "play", "usage");
    expect_error(&s, "play Zc3", "Zc3");
    expect_error(&s, "play Xg1", "g1");  /* off a 6x6 board */
    expect_error(&s, "play Xa0", "a0");
    expect_error(&s, "play Xc3 Od4", "usage");
    expect_error(&s, "newgame bogus", "bogus");
    expect_error(&s, "newgame original 9 5", "9");
    expect_error(&s, "newgame original 6", "usage");
    expect_error(&s, "think -1", "think");
    expect_error(&s, "genmove now", "usage");
    char longline[5000];
    memset(longline, 'z', sizeof longline - 1);
    longline[sizeof longline - 1] = '\0';
    expect_error(&s, longline, "unknown command");
    /* Empty lines and comments get no answer: the next answer is showboard's. */
    cr_assert(fprintf(s.to, "\n   \n# a comment\n") > 0);
    ask(&s, "showboard", buf, sizeof buf);
    cr_expect(strstr(buf, " order ongoing") != NULL, "[%s]", buf);
    RefPos p;
    ref_empty(&p, 6, 5, REF_ORIGINAL);
    play_both(&s, &p, "Xc3");
    expect_error(&s, "play Oc3", "occupied");
    /* A game that ends: 4x4, k = 3, Order's line a1-c1. */
    ask(&s, "newgame original 4 3", buf, sizeof buf);
    cr_expect_str_eq(buf, "= original 4 3");
    ref_empty(&p, 4, 3, REF_ORIGINAL);
    play_both(&s, &p, "Xa1");
    play_both(&s, &p, "Od4");
    play_both(&s, &p, "Xb1");
    play_both(&s, &p, "Od3");
    play_both(&s, &p, "Xc1");
    cr_assert_eq(ref_status(&p), REF_ORDER_WINS);
    expect_error(&s, "play Oa4", "over");
    expect_error(&s, "genmove", "over");
    ask(&s, "showboard", buf, sizeof buf);
    cr_expect(strstr(buf, " - order-won") != NULL, "[%s]", buf);
    ask(&s, "undo", buf, sizeof buf); /* the game goes on after an undo */
    cr_expect_str_eq(buf, "= ongoing");
    p.cell[2] = '.';
    Gen g;
    char gb[1024];
    genmove(&s, &p, &g, gb, sizeof gb);
    cr_expect(ref_status(&p) == REF_ORDER_WINS, "Order had a line to complete; genmove played %s: [%s]", g.move, gb);
    cr_expect_str_eq(g.kind, "win-now", "[%s]", gb);
    /* End of input ends the session cleanly, with nothing more said. */
    char rest[256];
    cr_expect(finish(&s, rest, sizeof rest) == 0, "exit code at end of input");
    cr_expect_str_eq(rest, "", "output at end of input: [%s]", rest);
}

/* ------------------------------------------------------------------ */
/* Games                                                                */
/* ------------------------------------------------------------------ */

/* The engine as Order from the empty 6x6 board (original) against a
 * random Chaos: the reference rules must find Order's line at the end,
 * and every engine move must be explained by the proved strategy. */
Test(play, order_beats_random_chaos_6x6)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        Session s;
        START(&s, "--protocol", "--think", "2");
        RefPos p;
        ref_empty(&p, 6, 5, REF_ORIGINAL);
        uint64_t rng = seed * 7919;
        int engine_moves = 0;
        while (ref_status(&p) == REF_ONGOING) {
            if (order_to_move(&p)) {
                Gen g;
                char gb[1024];
                genmove(&s, &p, &g, gb, sizeof gb);
                engine_moves++;
                cr_expect(!strcmp(g.kind, "centre-small") || !strcmp(g.kind, "centre-pair") ||
                              !strcmp(g.kind, "win-now"),
                          "seed %llu: not the proved strategy: [%s]", (unsigned long long)seed, gb);
                cr_expect_str_eq(g.winner, "order", "seed %llu: [%s]", (unsigned long long)seed, gb);
            } else {
                char mv[8];
                random_safe_move(&p, &rng, mv);
                play_both(&s, &p, mv);
            }
        }
        char pos[70];
        ref_format(&p, pos);
        cr_expect_eq(ref_status(&p), REF_ORDER_WINS, "seed %llu: the game ended %s: %s", (unsigned long long)seed,
                     status_word(&p), pos);
        cr_expect(engine_moves >= 5, "seed %llu", (unsigned long long)seed);
        cr_expect(finish(&s, NULL, 0) == 0);
    }
}

/* The engine as Chaos under exact-end (a pairing wins from the empty
 * board) against a random Order: the full board must hold no line of
 * exactly five. */
Test(play, chaos_pairs_against_random_order_exact_end)
{
    for (uint64_t seed = 1; seed <= 2; seed++) {
        Session s;
        START(&s, "--protocol", "--think", "2", "--rules", "exact-end");
        RefPos p;
        ref_empty(&p, 6, 5, REF_EXACT_END);
        uint64_t rng = seed * 104729;
        while (ref_status(&p) == REF_ONGOING) {
            if (!order_to_move(&p)) {
                Gen g;
                char gb[1024];
                genmove(&s, &p, &g, gb, sizeof gb);
                cr_expect(!strcmp(g.kind, "pairing") || !strcmp(g.kind, "win-now"),
                          "seed %llu: not the pairing strategy: [%s]", (unsigned long long)seed, gb);
            } else {
                char mv[8];
                random_move(&p, &rng, mv);
                play_both(&s, &p, mv);
            }
        }
        char pos[70];
        ref_format(&p, pos);
        cr_expect_eq(ref_status(&p), REF_CHAOS_WINS, "seed %llu: %s", (unsigned long long)seed, pos);
        cr_expect(finish(&s, NULL, 0) == 0);
    }
}

/* ------------------------------------------------------------------ */
/* The claims against the brute force                                   */
/* ------------------------------------------------------------------ */

/* The brute force's winner of p: 'o' Order, 'c' Chaos; and the distance. */
static const char *brute_winner(BruteMemo *m, RefPos *p, int *dtw)
{
    *dtw = brute_dtw(m, p);
    return *dtw >= 0 ? "order" : "chaos";
}

/* Checks one genmove answer against the brute force: a claimed winner is
 * the true winner of the position before the move, a claimed distance the
 * true distance, and a move of a side claimed to win keeps the win. */
static void check_claim(BruteMemo *m, RefPos *before, RefPos *after, const Gen *g, const char *ans)
{
    int dtw_before, dtw_after;
    const char *truth = brute_winner(m, before, &dtw_before);
    if (strcmp(g->winner, "unknown") != 0)
        cr_expect_str_eq(g->winner, truth, "claimed winner wrong: [%s]", ans);
    if (strcmp(g->dtw, "-") != 0)
        cr_expect_eq(atoi(g->dtw), dtw_before, "claimed distance %s, true %d: [%s]", g->dtw, dtw_before, ans);
    const char *mover = order_to_move(before) ? "order" : "chaos";
    const char *now = brute_winner(m, after, &dtw_after);
    if (strcmp(g->winner, mover) == 0)
        cr_expect_str_eq(now, mover, "a proved win was thrown away by %s: [%s]", g->move, ans);
    if (strcmp(g->kind, "lost") == 0) cr_expect_str_neq(g->winner, mover, "[%s]", ans);
}

static int empties(const RefPos *p)
{
    int e = 0;
    for (int i = 0; i < p->n * p->n; i++) e += p->cell[i] == '.';
    return e;
}

/* Random games on a small board, every claim checked. opening >= 0:
 * `opening` random plies, then each ply either genmove or a random move.
 * opening < 0: genmove plays Order from the empty board, a random Chaos
 * the other side, and the claims are checked once at most 12 cells are
 * empty (the brute force's reach). */
static void claims_game(const char *rules, int rref, int n, int k, int opening, uint64_t seed, int *seen)
{
    Session s;
    char nstr[4], kstr[4];
    snprintf(nstr, sizeof nstr, "%d", n);
    snprintf(kstr, sizeof kstr, "%d", k);
    START(&s, "--protocol", "--think", "1", "--rules", rules, "--board", nstr, "--k", kstr);
    RefPos p;
    ref_empty(&p, n, k, rref);
    uint64_t rng = seed;
    BruteMemo *m = brute_new();
    cr_assert(m);
    for (int ply = 0; ref_status(&p) == REF_ONGOING; ply++) {
        char mv[8];
        if (opening < 0 ? !order_to_move(&p) : ply < opening || tl_below(&rng, 2)) {
            random_move(&p, &rng, mv);
            play_both(&s, &p, mv);
            continue;
        }
        RefPos before = p;
        Gen g;
        char gb[1024];
        genmove(&s, &p, &g, gb, sizeof gb);
        if (empties(&before) <= 12) check_claim(m, &before, &p, &g, gb);
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) seen[i] += strcmp(g.kind, kinds[i]) == 0;
    }
    brute_free(m);
    cr_expect(finish(&s, NULL, 0) == 0);
}

Test(play, claims_against_brute_force)
{
    int seen[8] = {0};
    for (uint64_t seed = 1; seed <= 4; seed++) {
        claims_game("original", REF_ORIGINAL, 4, 3, 3, seed, seen);
        claims_game("exact", REF_EXACT, 4, 3, 3, seed + 100, seen);
        claims_game("exact-end", REF_EXACT_END, 4, 4, 3, seed + 200, seen);
        claims_game("original", REF_ORIGINAL, 5, 4, 12, seed + 300, seen);
        claims_game("exact", REF_EXACT, 5, 4, 12, seed + 400, seen);
        claims_game("original", REF_ORIGINAL, 4, 3, -1, seed + 500, seen);
        claims_game("exact", REF_EXACT, 5, 4, -1, seed + 600, seen);
    }
    char tally[256] = "";
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        snprintf(tally + strlen(tally), sizeof tally - strlen(tally), " %s %d", kinds[i], seen[i]);
    cr_log_info("genmove kinds:%s", tally);
    cr_expect(seen[0] > 0 && seen[1] + seen[2] > 0 && seen[5] > 0 && seen[6] > 0, "some reasons never came up:%s",
              tally);
}

/* ------------------------------------------------------------------ */
/* The terminal mode                                                    */
/* ------------------------------------------------------------------ */

/* Writes all of input, then reads all of the output into out; the exit code. */
static int converse(const char *const *args, const char *input, char *out, size_t size)
{
    Session s;
    start(&s, args);
    cr_assert(fputs(input, s.to) >= 0);
    return finish(&s, out, size);
}

/* The last board drawn in out (n rows after the last column header),
 * into p; false if there is none. */
static bool last_board(const char *out, int n, int k, int rules, RefPos *p)
{
    char header[32] = "   ";
    for (int c = 0; c < n; c++) snprintf(header + strlen(header), sizeof header - strlen(header), " %c", 'a' + c);
    const char *at = NULL;
    for (const char *q = strstr(out, header); q; q = strstr(q + 1, header)) at = q;
    if (!at) return false;
    char cells[65];
    const char *line = strchr(at, '\n');
    for (int row = 0; row < n; row++) {
        if (!line) return false;
        line++;
        for (int c = 0; c < n; c++) cells[row * n + c] = line[4 + 2 * c];
        line = strchr(line, '\n');
    }
    cells[n * n] = '\0';
    return ref_parse(p, n, k, rules, cells) == 0;
}

/* A person playing Chaos through the terminal, typing every cell of the
 * board in a random order (the occupied ones are refused and the game goes
 * on, so no answer needs reading): ocsolve wins with Order's line on the
 * last board drawn, and every ocsolve move is explained. */
Test(play, terminal_full_game_as_chaos)
{
    uint64_t rng = 2718;
    int cells[36];
    for (int i = 0; i < 36; i++) cells[i] = i;
    for (int i = 35; i > 0; i--) {
        int j = tl_below(&rng, i + 1), t = cells[i];
        cells[i] = cells[j], cells[j] = t;
    }
    char input[1024] = "help\nshow\nhint\n";
    for (int i = 0; i < 36; i++)
        snprintf(input + strlen(input), sizeof input - strlen(input), "%c%c%d\n", tl_below(&rng, 2) ? 'X' : 'o',
                 'a' + cells[i] % 6, cells[i] / 6 + 1);
    strcat(input, "bogus\nquit\n");
    static char out[1 << 17];
    int rc = converse((const char *const[]){"--think", "2", NULL}, input, out, sizeof out);
    cr_expect_eq(rc, 0, "exit code");
    RefPos p;
    cr_assert(last_board(out, 6, 5, REF_ORIGINAL, &p), "no board in the output:\n%s", out);
    cr_expect_eq(ref_status(&p), REF_ORDER_WINS, "the last board has no line of Order's:\n%s", out);
    cr_expect(strstr(out, "Order wins: a line of 5") != NULL, "no result line:\n%s", out);
    cr_expect(strstr(out, "ocsolve wins.") != NULL);
    cr_expect(strstr(out, "hint: ") != NULL);
    cr_expect(strstr(out, "error: ") != NULL, "the occupied cells and 'bogus' should be refused");
    /* Every ocsolve move with its reason, and only the proved strategy. */
    int moves = 0;
    for (const char *q = strstr(out, "ocsolve (Order) plays "); q; q = strstr(q + 1, "ocsolve (Order) plays ")) {
        const char *why = q + strlen("ocsolve (Order) plays Xc3: ");
        cr_expect(!strncmp(why, "centre strategy: ", 17) || !strncmp(why, "completes a line", 16), "%.120s", q);
        moves++;
    }
    cr_expect(moves >= 5, "only %d ocsolve moves:\n%s", moves, out);
}

/* Undo, occupied cells and bad words in the terminal; end of input without
 * quit ends the game cleanly. */
Test(play, terminal_undo_and_errors)
{
    static char out[1 << 16];
    int rc = converse((const char *const[]){"--as", "order", "--board", "4", "--k", "3", "--think", "1", NULL},
                      "undo\nXa1\nXa1\nundo\nXz9\nfoo\nXb2\nshow\n", out, sizeof out);
    cr_expect_eq(rc, 0, "exit code at end of input");
    cr_expect(strstr(out, "error: nothing to undo") != NULL, "%s", out);
    cr_expect(strstr(out, "cell a1 is occupied") != NULL, "%s", out);
    cr_expect(strstr(out, "took back 2 moves") != NULL, "%s", out);
    cr_expect(strstr(out, "error: ") != NULL && strstr(out, "z9") != NULL, "%s", out);
    cr_expect(strstr(out, "ocsolve (Chaos) plays ") != NULL, "%s", out);
}

/* Bad options are refused like every command's (one line, exit 2). */
Test(play, options)
{
    expect_reject("--as", "play", "--as", "both");
    expect_reject("--think", "play", "--think", "0");
    expect_reject("--tt-mb", "play", "--tt-mb", "x");
    expect_reject("/nonexistent-dir/st", "play", "--store", "/nonexistent-dir/st");
    expect_reject("--bogus", "play", "--bogus");
    expect_reject("occupied", "play", "-", "Xa1", "Oa1");
    Run r;
    expect_ok(&r, "play", "--help");
    cr_expect(strstr(r.out, "--protocol") != NULL, "%s", r.out);
    run_free(&r);
}
