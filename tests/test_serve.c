/* test_serve.c - `ocsolve serve` through a real HTTP client (curl) against
 * a server each test starts on a free loopback port and stops
 * (serve_client.h). The values the API shows are checked against the
 * brute force (brute.h, 4x4 boards: every move's winner and distance) and
 * against `ocsolve solve` (6x6 positions), never against what the server
 * itself computed; hostile input must get its status and a one-line
 * message; a flood must get 503s in bounded memory, never a crash. */
#include <criterion/criterion.h>

#include <arpa/inet.h>
#include <errno.h>
#include <time.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "jsoncheck.h"
#include "runbin.h"
#include "serve_client.h"
#include "testlib.h"

static void no_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

TestSuite(serve, .timeout = 240, .init = no_sigpipe);

static const char *const rule_names[] = {"original", "exact", "exact-end"};

/* app/serve.h's SERVE_QUEUE: jobs waiting or running at most. */
enum { SERVE_QUEUE_FOR_TEST = 8 };

/* The analysis of position (rules, n, k) and the moves after it (NULL:
 * none) when done: its JSON. */
static char *analysis_after(const Server *s, const char *rules, int n, int k, const char *position, const char *moves)
{
    char url[512], *body;
    snprintf(url, sizeof url, "%s/api/analyse?rules=%s&board=%d&k=%d&position=%s%s%s", s->url, rules, n, k, position,
             moves ? "&moves=" : "", moves ? moves : "");
    int code = http_until_done(url, NULL, &body);
    cr_assert_eq(code, 200, "GET %s: %d %s", url, code, body);
    size_t where;
    cr_assert(jc_valid(body, &where), "not JSON at byte %zu: %s", where, body);
    return body;
}

static char *analysis(const Server *s, const char *rules, int n, int k, const char *position)
{
    return analysis_after(s, rules, n, k, position, NULL);
}

/* Checks one move's shown value against the truth (winner "order" or
 * "chaos", Order's dtw or -1) for the mover; true when it was decided. */
static bool check_move(const char *json, const char *move, bool order_moves, const char *winner, int dtw)
{
    char value[16], w[16], d[16];
    cr_assert(move_field(json, move, "value", value, sizeof value), "no move %s in %s", move, json);
    move_field(json, move, "winner", w, sizeof w);
    move_field(json, move, "dtw", d, sizeof d);
    char step[32];
    move_field(json, move, "strategy", step, sizeof step);
    /* a move said to keep a proven strategy is a proved win for the mover */
    if (strcmp(step, "null") != 0) cr_assert_str_eq(value, "win", "%s keeps the %s strategy but shows %s", move, step, value);
    if (strcmp(value, "unknown") == 0) return false;
    const char *mover = order_moves ? "order" : "chaos";
    cr_assert_str_eq(w, winner, "%s: shown winner %s, the truth is %s", move, w, winner);
    cr_assert_str_eq(value, strcmp(winner, mover) == 0 ? "win" : "loss", "%s: shown %s", move, value);
    if (strcmp(d, "null") != 0) cr_assert_eq(atoi(d), dtw, "%s: shown dtw %s, the truth is %d", move, d, dtw);
    return true;
}

/* Every move of a 4x4 position: the server's values against the brute
 * force, all of them decided (a 4x4 board is easy for the engine). The
 * position is given as the one before its last occupied cell and that
 * move (either side may place either symbol), so that the pairing's
 * answers are named too. */
static void against_brute(const Server *s, BruteMemo *memo, RefPos *p)
{
    char pos[65], prev[65], last[4] = "";
    ref_format(p, pos);
    snprintf(prev, sizeof prev, "%s", pos);
    for (int c = p->n * p->n - 1; c >= 0 && !last[0]; c--)
        if (pos[c] != '.') snprintf(last, sizeof last, "%c%c%c", pos[c], 'a' + c % p->n, '1' + c / p->n), prev[c] = '.';
    char *json = analysis_after(s, rule_names[p->rules], p->n, p->k, prev, last);
    int pieces = 0;
    for (int c = 0; c < p->n * p->n; c++) pieces += p->cell[c] != '.';
    for (int c = 0; c < p->n * p->n; c++) {
        if (p->cell[c] != '.') continue;
        for (int sym = 0; sym < 2; sym++) {
            char move[4] = {sym ? 'O' : 'X', (char)('a' + c % p->n), (char)('1' + c / p->n), 0};
            p->cell[c] = move[0];
            int dtw = brute_dtw(memo, p);
            p->cell[c] = '.';
            cr_assert(check_move(json, move, pieces % 2 == 0, dtw >= 0 ? "order" : "chaos", dtw),
                      "%s after %s: not decided on a 4x4 board", move, pos);
        }
    }
    int dtw = brute_dtw(memo, p);
    char w[16], d[16];
    cr_assert(json_field(json, "winner", w, sizeof w)); /* the first winner is the position's value */
    cr_assert_str_eq(w, dtw >= 0 ? "order" : "chaos", "position %s: shown %s", pos, w);
    if (json_field(json, "dtw", d, sizeof d) && strcmp(d, "null") != 0) cr_assert_eq(atoi(d), dtw, "%s", pos);
    free(json);
}

Test(serve, analyse_4x4_against_brute_force)
{
    Server s;
    server_start(&s, ARGS("--think", "2", "--tt-mb", "16"));
    BruteMemo *memo = brute_new();
    uint64_t rng = 40;
    int checked = 0;
    for (int rules = 0; rules < 3; rules++)
        for (int k = 3; k <= 4; k++)
            for (int i = 0; i < 2; i++) {
                RefPos p;
                if (tl_random_ongoing(&p, 4, k, rules, 4 + 2 * i + (k == 3), &rng) != 0) continue;
                against_brute(&s, memo, &p);
                checked++;
            }
    cr_assert_geq(checked, 8);
    brute_free(memo);
    cr_assert_eq(server_stop(&s), 128 + SIGTERM);
}

/* 6x6 positions with 12 empty cells: every decided move against `ocsolve
 * solve --dtw` on the position after it. */
Test(serve, analyse_6x6_against_solve)
{
    Server s;
    server_start(&s, ARGS("--think", "3", "--tt-mb", "32"));
    int decided = 0;
    for (int rules = 0; rules < 3; rules++) {
        char *pos;
        const char *argv[] = {OCSOLVE_BIN, "random", "--rules", rule_names[rules], "--seed", "7", "12", "1", NULL};
        cr_assert_eq(run_prog(argv, &pos), 0);
        pos[strcspn(pos, " \n")] = '\0';
        char *json = analysis(&s, rule_names[rules], 6, 5, pos);
        int pieces = 0;
        for (const char *c = pos; *c; c++) pieces += *c == 'X' || *c == 'O';
        for (int c = 0; c < 36; c++) {
            if (pos[c] != '.') continue;
            for (int sym = 0; sym < 2; sym++) {
                char move[4] = {sym ? 'O' : 'X', (char)('a' + c % 6), (char)('1' + c / 6), 0}, value[16];
                cr_assert(move_field(json, move, "value", value, sizeof value), "no %s", move);
                if (strcmp(value, "unknown") == 0) continue;
                SolverSays t;
                solver_says(rule_names[rules], 6, 5, pos, move, 60, true, &t);
                cr_assert_str_neq(t.winner, "unknown", "the solver could not check %s %s", pos, move);
                decided += check_move(json, move, pieces % 2 == 0, t.winner, t.dtw);
            }
        }
        free(json);
        free(pos);
    }
    cr_assert_geq(decided, 36, "only %d moves decided", decided);
    cr_assert_eq(server_stop(&s), 128 + SIGTERM);
}

/* The empty 6x6 board under each rule set: the value and the lemma that
 * decides it, as `ocsolve solve` says. */
Test(serve, empty_boards_and_their_lemmas)
{
    Server s;
    server_start(&s, ARGS("--think", "1", "--tt-mb", "16"));
    for (int rules = 0; rules < 3; rules++) {
        char *json = analysis(&s, rule_names[rules], 6, 5, "-");
        SolverSays t;
        solver_says(rule_names[rules], 6, 5, "-", NULL, 60, false, &t);
        char w[16], by[16];
        cr_assert(json_field(json, "winner", w, sizeof w) && json_field(json, "by", by, sizeof by));
        cr_assert_str_eq(w, t.winner, "%s: shown %s, solve says %s", rule_names[rules], w, t.winner);
        if (rules < 2) {
            cr_assert_str_eq(by, "centre");
            cr_assert(strstr(json, "\"centre\":{\"holds\":true"), "%s: the centre lemma is not drawn", rule_names[rules]);
        } else {
            cr_assert_str_eq(by, "pairing");
            cr_assert(strstr(json, "\"pairing\":{\"pairs\":["), "exact-end: no pairing");
            cr_assert(strstr(json, "\"centre\":null"));
        }
        free(json);
    }
    cr_assert_eq(server_stop(&s), 128 + SIGTERM);
}

/* GET /api/solve and POST /api/play on 4x4 positions: the value against
 * the brute force, and the engine's move keeps a proved win. */
Test(serve, solve_and_play_against_brute_force)
{
    Server s;
    server_start(&s, ARGS("--think", "1", "--tt-mb", "16"));
    BruteMemo *memo = brute_new();
    uint64_t rng = 99;
    for (int i = 0; i < 6; i++) {
        RefPos p;
        int rules = i % 3;
        if (tl_random_ongoing(&p, 4, 3 + (i & 1), rules, 5 + (i & 1), &rng) != 0) continue;
        char pos[65], url[300], form[300], *body, w[16];
        ref_format(&p, pos);
        int dtw = brute_dtw(memo, &p);
        snprintf(url, sizeof url, "%s/api/solve?rules=%s&k=%d&position=%s", s.url, rule_names[rules], p.k, pos);
        cr_assert_eq(http_until_done(url, NULL, &body), 200, "%s", body);
        cr_assert(json_field(body, "winner", w, sizeof w));
        cr_assert_str_eq(w, dtw >= 0 ? "order" : "chaos", "%s: solve shows %s", pos, w);
        free(body);
        snprintf(url, sizeof url, "%s/api/play", s.url);
        snprintf(form, sizeof form, "rules=%s&k=%d&position=%s", rule_names[rules], p.k, pos);
        cr_assert_eq(http_until_done(url, form, &body), 200, "%s", body);
        char move[8], reason[300];
        cr_assert(json_field(body, "move", move, sizeof move) && json_field(body, "reason", reason, sizeof reason));
        int c = (move[1] - 'a') + (move[2] - '1') * 4;
        cr_assert_eq(p.cell[c], '.', "%s: the engine played on an occupied cell", move);
        p.cell[c] = move[0];
        int after = brute_dtw(memo, &p);
        bool order_moved = (p.n * p.n - 1 - (int)count_char(p.cell, 16, '.')) % 2 == 0;
        if ((dtw >= 0) == order_moved) /* the mover was winning: the move must keep it */
            cr_assert((after >= 0) == order_moved, "%s then %s gave the win away (%s)", pos, move, reason);
        free(body);
    }
    brute_free(memo);
    cr_assert_eq(server_stop(&s), 128 + SIGTERM);
}

/* Status and a one-line {"error": ...} naming the problem. */
static void expect_refusal(const char *url, const char *form, const char *host, int want, const char *needle)
{
    char *body;
    int code = http_call(url, form, host, &body);
    cr_assert_eq(code, want, "%s: %d, not %d: %s", url, code, want, body);
    size_t where;
    cr_assert(jc_valid(body, &where), "%s: not JSON: %s", url, body);
    char msg[400];
    cr_assert(jc_string(body, "error", msg, sizeof msg), "%s: no error: %s", url, body);
    cr_assert(strstr(msg, needle), "%s: '%s' does not say '%s'", url, msg, needle);
    size_t len = strlen(body);
    cr_assert(len > 0 && body[len - 1] == '\n' && count_char(body, len, '\n') == 1, "%s: not one line: %s", url, body);
    free(body);
}

Test(serve, hostile_input_is_refused_with_one_line)
{
    Server s;
    server_start(&s, ARGS("--think", "1", "--tt-mb", "16"));
    char u[70000];
    const struct { const char *query; const char *needle; } bad[] = {
        {"position=XX", "bad position"},
        {"position=-&rules=chaos", "unknown rules 'chaos'"},
        {"position=-&board=9", "bad board size"},
        {"position=....................&k=5", "not a board"},
        {"position=................&k=5", "larger than the 4x4 board"},
        {"position=-&moves=Xz9", "bad"},
        {"position=-&moves=Xa1,Oa1", "occupied"},
        {"position=XXXXX.10&moves=Oa2", "bad position"},
        {"position=-&foo=1", "unknown parameter 'foo'"},
        {"position=-&position=-", "given twice"},
        {"position=-&moves=X%01a1", "control character"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(u, sizeof u, "%s/api/analyse?%s", s.url, bad[i].query);
        expect_refusal(u, NULL, NULL, 400, bad[i].needle);
    }
    char won[37];
    memset(won, '.', 36);
    memcpy(won, "XXXXX.O", 7);
    won[36] = '\0';
    snprintf(u, sizeof u, "%s/api/analyse?position=%s&moves=Ob2", s.url, won);
    expect_refusal(u, NULL, NULL, 400, "already over");
    snprintf(u, sizeof u, "%s/api/play", s.url);
    expect_refusal(u, "position=-&symbol=Z", NULL, 400, "bad symbol");
    expect_refusal(u, NULL, NULL, 405, "POST");
    snprintf(u, sizeof u, "%s/api/nothing", s.url);
    expect_refusal(u, NULL, NULL, 404, "no such page");
    snprintf(u, sizeof u, "%s/api/solve", s.url);
    expect_refusal(u, "position=-", NULL, 405, "GET");
    expect_refusal(u, NULL, "evil.example:80", 403, "Host");
    /* a body over 4096 bytes: 413 */
    static char big[6000];
    memset(big, 'a', sizeof big - 1);
    memcpy(big, "position=", 9);
    snprintf(u, sizeof u, "%s/api/play", s.url);
    expect_refusal(u, big, NULL, 413, "too large");
    /* a URL longer than the connection's memory: libmicrohttpd's own 414, no crash */
    size_t len = (size_t)snprintf(u, sizeof u, "%s/api/analyse?position=", s.url);
    memset(u + len, '.', 60000);
    u[len + 60000] = '\0';
    char *body;
    int code = http_call(u, NULL, NULL, &body);
    cr_assert(code == 414 || code == 431, "a 60 KB URL: %d", code);
    free(body);
    cr_assert(server_alive(&s));
    cr_assert_eq(server_stop(&s), 128 + SIGTERM);
}

/* Many connections held open at once, then many distinct analyses at
 * once: the excess is refused (503 for jobs), memory stays bounded, the
 * server answers afterwards and ends cleanly. Loopback only. */
Test(serve, flood_gets_503_in_bounded_memory)
{
    Server s;
    server_start(&s, ARGS("--think", "2", "--tt-mb", "16"));
    char *body, url[200];
    snprintf(url, sizeof url, "%s/", s.url);
    cr_assert_eq(http_call(url, NULL, NULL, &body), 200);
    free(body);
    long rss0 = proc_kib(s.pid, "VmRSS");
    /* 300 idle connections: more than the server's limit of 64 */
    int fds[300];
    for (int i = 0; i < 300; i++) {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)s.port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        /* non-blocking: past the listen backlog a connect would wait for the SYN retries */
        fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        if (fds[i] >= 0 && connect(fds[i], (struct sockaddr *)&a, sizeof a) != 0 && errno != EINPROGRESS)
            close(fds[i]), fds[i] = -1;
    }
    struct timespec settle = {0, 500 * 1000 * 1000};
    nanosleep(&settle, NULL);
    cr_assert(server_alive(&s), "the server died under 300 connections");
    for (int i = 0; i < 300; i++)
        if (fds[i] >= 0) close(fds[i]);
    /* 400 distinct analyses (exact-end: no lemma tables, so any growth
     * would be the flood's), 50 at a time, through one curl */
    char cfg[] = "/tmp/ocsolve-test-flood-XXXXXX";
    int cfd = mkstemp(cfg);
    cr_assert(cfd >= 0);
    FILE *cf = fdopen(cfd, "w");
    for (int i = 0; i < 400; i++) {
        char pos[37];
        memset(pos, '.', 36);
        pos[36] = '\0';
        pos[i % 36] = 'X', pos[(i / 36 + i % 36 + 1) % 36] = 'O', pos[(i / 7 + 2 * (i % 36) + 3) % 36] = 'X';
        fprintf(cf, "url = \"%s/api/analyse?rules=exact-end&position=%s\"\noutput = \"/dev/null\"\n", s.url, pos);
    }
    fclose(cf);
    const char *argv[] = {"curl", "-s", "-g", "--parallel", "--parallel-max", "50", "-w", "%{http_code}\n", "-K", cfg, NULL};
    char *codes;
    run_prog(argv, &codes);
    unlink(cfg);
    int c202 = 0, c503 = 0, c400 = 0, other = 0;
    for (char *l = strtok(codes, "\n"); l; l = strtok(NULL, "\n")) {
        int c = atoi(l);
        c202 += c == 202 || c == 200, c503 += c == 503, c400 += c == 400, other += c != 202 && c != 200 && c != 503 && c != 400;
    }
    free(codes);
    long rss1 = proc_kib(s.pid, "VmRSS"), hwm = proc_kib(s.pid, "VmHWM");
    fprintf(stderr, "serve flood: %d accepted, %d busy (503), %d bad, %d other; VmRSS %ld -> %ld KiB, VmHWM %ld KiB\n",
            c202, c503, c400, other, rss0, rss1, hwm);
    cr_assert(server_alive(&s), "the server died in the flood");
    cr_assert_gt(c503, 0, "no 503 in a flood of distinct jobs");
    cr_assert_leq(c202, SERVE_QUEUE_FOR_TEST + 8, "more jobs accepted (%d) than the queue holds", c202);
    cr_assert_lt(hwm - rss0, 64 * 1024, "the flood grew memory by %ld KiB", hwm - rss0);
    cr_assert_eq(http_call(url, NULL, NULL, &body), 200, "no page after the flood");
    free(body);
    cr_assert_eq(server_stop(&s), 128 + SIGTERM);
}

Test(serve, command_line_errors_exit_2)
{
    expect_reject("--port", "serve", "--port", "65536");
    expect_reject("unexpected argument", "serve", "extra");
    expect_reject("--think", "serve", "--think", "0");
    expect_reject("unknown option", "serve", "--bogus");
    Server s;
    server_start(&s, ARGS("--think", "1", "--tt-mb", "16"));
    char port[16];
    snprintf(port, sizeof port, "%d", s.port);
    expect_reject("cannot listen on 127.0.0.1", "serve", "--port", port);
    cr_assert_eq(server_stop(&s), 128 + SIGTERM);
}
