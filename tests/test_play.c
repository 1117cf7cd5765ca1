/* test_play.c - `ocsolve play`: the GTP version 2 engine (--protocol)
 * through a strict GTP client written here, games against a seeded random
 * opponent judged by the reference rules (ref.h), the engine's claims
 * checked against the brute force (brute.h) on small boards, bad input
 * that must not end a session, and the terminal mode through a pipe.
 *
 * The binary (OCSOLVE_BIN) runs as a child with both ends piped: the test
 * writes a command with an id, reads the response and checks its framing
 * (response(): '=' or '?', the id echoed, a space, the text, one empty
 * line at the end, nothing after it), and keeps its own copy of the board
 * (a RefPos), so nothing the engine says about the position is taken on
 * trust. Suite play: sessions, games, claims, the terminal; suite
 * play_gtp: GTP's framing, preprocessing and commands.
 */
#include <criterion/criterion.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../solver/pairing.h"
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
/* A session with the binary: a strict GTP version 2 client            */
/* ------------------------------------------------------------------ */

/* How long a response may take to begin: genmove thinks at most a few
 * seconds in these tests (twice that with a symbol), the rest is for a
 * loaded machine; and how long its further lines may take, which the
 * engine has written with the first. A response that does not come or
 * does not end is a failure, not a hang. */
enum { RESPONSE_MS = 90000, REST_MS = 5000 };

typedef struct {
    pid_t pid;
    int to, from;        /* the child's stdin and stdout */
    char buf[1 << 16];   /* read from `from`, not yet taken */
    size_t have;
    bool eof;
    unsigned id;         /* the last id sent */
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
    s->to = in[1];
    s->from = out[0];
    s->have = 0;
    s->eof = false;
    s->id = 0;
}
#define START(s, ...) start((s), (const char *const[]){__VA_ARGS__, NULL})

/* Writes len bytes of data to the session's stdin. */
static void send_bytes(Session *s, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t w = write(s->to, data, len);
        if (w < 0 && errno == EINTR) continue;
        cr_assert(w > 0, "could not write to the session: %s", strerror(errno));
        data += w, len -= (size_t)w;
    }
}

/* Reads more of the session's stdout into buf, waiting at most ms. false
 * on a timeout; sets eof at the end. */
static bool fill(Session *s, int ms)
{
    cr_assert(s->have < sizeof s->buf, "more than %zu bytes of output without a newline", sizeof s->buf);
    for (;;) {
        struct pollfd pf = {s->from, POLLIN, 0};
        int r = poll(&pf, 1, ms);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) return false;
        ssize_t got = read(s->from, s->buf + s->have, sizeof s->buf - s->have);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) s->eof = true;
        else s->have += (size_t)got;
        return true;
    }
}

/* One line of output (its newline removed) into line: 1; 0 at the end of
 * the output (nothing left); -1 when none came in ms. A last line without
 * its newline is a failure: GTP ends every response. */
static int read_line(Session *s, char *line, size_t size, int ms)
{
    for (;;) {
        char *nl = memchr(s->buf, '\n', s->have);
        if (nl) {
            size_t len = (size_t)(nl - s->buf);
            cr_assert(len < size, "an output line of %zu bytes", len);
            memcpy(line, s->buf, len);
            line[len] = '\0';
            s->have -= len + 1;
            memmove(s->buf, nl + 1, s->have);
            return 1;
        }
        if (s->eof) {
            cr_assert(s->have == 0, "output ends inside a line: [%.*s]", (int)s->have, s->buf);
            return 0;
        }
        if (!fill(s, ms)) return -1;
    }
}

/* Reads the response to cmd, sent with id ("" none), and checks its
 * framing: the first line is '=' or '?', the id, a space, the text; then
 * the text's further lines (an error has none), ended by one empty line,
 * with nothing after it. The text (lines joined by '\n') into text;
 * true for '='. */
static bool response(Session *s, const char *cmd, const char *id, char *text, size_t size)
{
    char line[8192];
    int r = read_line(s, line, sizeof line, RESPONSE_MS);
    cr_assert(r != -1, "no response to '%.60s' in %d s", cmd, RESPONSE_MS / 1000);
    cr_assert(r == 1, "the session ended without a response to '%.60s'", cmd);
    cr_assert(line[0] == '=' || line[0] == '?', "response to '%.60s' starts with neither '=' nor '?': [%s]", cmd,
              line);
    bool ok = line[0] == '=';
    size_t idlen = strspn(line + 1, "0123456789");
    cr_assert(idlen == strlen(id) && strncmp(line + 1, id, idlen) == 0,
              "response to '%.60s' does not echo its id '%s': [%s]", cmd, id, line);
    cr_assert(line[1 + idlen] == ' ', "response to '%.60s': no space after '%c%s': [%s]", cmd, line[0], id, line);
    cr_assert(strlen(line + 2 + idlen) < size);
    strcpy(text, line + 2 + idlen);
    for (;;) {
        r = read_line(s, line, sizeof line, REST_MS);
        cr_assert(r == 1, "response to '%.60s' is not ended by an empty line: [%s]", cmd, text);
        if (line[0] == '\0') break;
        cr_assert(ok, "the error response to '%.60s' has more than one line: [%s] [%s]", cmd, text, line);
        cr_assert(strlen(text) + strlen(line) + 2 <= size);
        strcat(text, "\n");
        strcat(text, line);
    }
    /* Nothing may follow until the next command: not even a second empty line. */
    if (s->have == 0) fill(s, 0);
    cr_assert(s->have == 0, "stray output after the response to '%.60s': [%.*s]", cmd, (int)s->have, s->buf);
    return ok;
}

/* Sends cmd with the next id and reads its response (see response). */
static bool gtp(Session *s, const char *cmd, char *text, size_t size)
{
    char id[16];
    snprintf(id, sizeof id, "%u", ++s->id);
    send_bytes(s, id, strlen(id));
    send_bytes(s, " ", 1);
    send_bytes(s, cmd, strlen(cmd));
    send_bytes(s, "\n", 1);
    return response(s, cmd, id, text, size);
}

/* cmd must succeed: its result text. */
static const char *ask(Session *s, const char *cmd, char *text, size_t size)
{
    cr_assert(gtp(s, cmd, text, size), "'%.60s' failed: [%s]", cmd, text);
    return text;
}

/* cmd must fail with a message that contains needle. */
static void expect_error(Session *s, const char *cmd, const char *needle)
{
    char text[2048];
    bool ok = gtp(s, cmd, text, sizeof text);
    cr_expect(!ok, "'%.60s' should be an error, got [= %s]", cmd, text);
    cr_expect(strstr(text, needle) != NULL, "'%.60s': the error should name '%s': [%s]", cmd, needle, text);
}

/* Closes stdin (end of input), reads what is left of stdout into rest (if
 * not NULL), and returns the exit code (-1: killed by a signal). */
static int finish(Session *s, char *rest, size_t size)
{
    close(s->to);
    size_t got = 0;
    for (;;) {
        if (rest) {
            size_t room = size - 1 - got, take = s->have < room ? s->have : room;
            memcpy(rest + got, s->buf, take);
            got += take;
        }
        s->have = 0;
        if (s->eof || !fill(s, RESPONSE_MS)) break;
    }
    if (rest) rest[got] = '\0';
    close(s->from);
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
    cr_assert(strcmp(buf, status_word(p)) == 0, "'%s': expected [= %s], got [= %s]", cmd, status_word(p), buf);
}

/* One genmove answer, parsed: = MOVE KIND WINNER DTW REASON... */
typedef struct {
    char move[8], kind[32], winner[16], dtw[16];
    const char *reason;
    int cell;
    char sym;
} Gen;

/* The advisor's kinds, then keeps-win (a move restricted to a symbol). */
static const char *const kinds[] = {"win-now", "centre-pair", "centre-small", "pairing", "store",
                                    "search",  "lost",        "guess",        "keeps-win"};
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

/* Asks genmove (with the symbol sym, NULL: none), checks the answer's form
 * and that the move is legal in p (the game ongoing, the cell on the board
 * and empty, the symbol the one asked for), and plays it on p. */
static void genmove(Session *s, RefPos *p, Gen *g, char *buf, size_t size, const char *sym)
{
    cr_assert(ref_status(p) == REF_ONGOING);
    char cmd[32];
    snprintf(cmd, sizeof cmd, "genmove%s%s", sym ? " " : "", sym ? sym : "");
    ask(s, cmd, buf, size);
    int used = 0;
    cr_assert(sscanf(buf, "%7s %31s %15s %15s %n", g->move, g->kind, g->winner, g->dtw, &used) == 4 && used > 0,
              "'%s' answer not of the form '= MOVE KIND WINNER DTW REASON': [%s]", cmd, buf);
    cr_assert(strchr(buf, '\n') == NULL, "'%s' answer spans lines: [%s]", cmd, buf);
    g->reason = buf + used;
    cr_expect(strlen(g->reason) > 0, "genmove gave no reason: [%s]", buf);
    bool known = false;
    for (size_t i = 0; i < NKINDS; i++) known |= strcmp(g->kind, kinds[i]) == 0;
    cr_expect(known, "unknown kind '%s': [%s]", g->kind, buf);
    cr_expect(!strcmp(g->winner, "order") || !strcmp(g->winner, "chaos") || !strcmp(g->winner, "unknown"),
              "winner '%s': [%s]", g->winner, buf);
    g->cell = read_move(p, g->move, &g->sym);
    cr_assert(g->cell >= 0, "genmove's move '%s' is not a move of this board: [%s]", g->move, buf);
    cr_assert(p->cell[g->cell] == '.', "genmove played on the occupied cell of %s: [%s]", g->move, buf);
    if (sym) cr_assert(g->sym == toupper((unsigned char)sym[0]), "'%s' placed the other symbol: [%s]", cmd, buf);
    p->cell[g->cell] = g->sym;
}

/* Is word one whole line of text? */
static bool has_line(const char *text, const char *word)
{
    size_t len = strlen(word);
    for (const char *q = text; (q = strstr(q, word)) != NULL; q++)
        if ((q == text || q[-1] == '\n') && (q[len] == '\0' || q[len] == '\n')) return true;
    return false;
}

/* showboard must show p: the first line "POSITION TO-MOVE STATUS" by the
 * test's own reading of p, then the board drawn with the notation's
 * coordinates (a header of column letters, one line per row numbered from
 * 1, a cell at column 4 + 2c), and nothing else; last (a cell of p, -1
 * none) in brackets. */
static void expect_board(Session *s, const RefPos *p, int last)
{
    char text[2048], want[128], pos[70];
    ask(s, "showboard", text, sizeof text);
    ref_format(p, pos);
    const char *tomove = ref_status(p) != REF_ONGOING ? "-" : order_to_move(p) ? "order" : "chaos";
    snprintf(want, sizeof want, "%s %s %s", pos, tomove, status_word(p));
    char *line = strtok(text, "\n");
    cr_assert(line && strcmp(line, want) == 0, "showboard's first line: expected [%s], got [%s]", want, line);
    char header[32] = "   ";
    for (int c = 0; c < p->n; c++) snprintf(header + strlen(header), sizeof header - strlen(header), " %c", 'a' + c);
    line = strtok(NULL, "\n");
    cr_assert(line && strcmp(line, header) == 0, "showboard's header: [%s]", line ? line : "(none)");
    for (int row = 0; row < p->n; row++) {
        line = strtok(NULL, "\n");
        cr_assert(line && atoi(line) == row + 1 && strlen(line) >= (size_t)(4 + 2 * p->n - 1),
                  "showboard's row %d: [%s]", row + 1, line ? line : "(none)");
        for (int c = 0; c < p->n; c++) {
            int cell = row * p->n + c;
            cr_expect(line[4 + 2 * c] == p->cell[cell], "showboard's %c%d is '%c', the test's '%c': [%s]", 'a' + c,
                      row + 1, line[4 + 2 * c], p->cell[cell], line);
            if (cell == last) cr_expect(line[3 + 2 * c] == '[', "the last move %c%d is not in brackets: [%s]",
                                        'a' + c, row + 1, line);
        }
    }
    cr_expect(strtok(NULL, "\n") == NULL, "showboard says more than the board");
}

/* ------------------------------------------------------------------ */
/* The protocol                                                         */
/* ------------------------------------------------------------------ */

Test(play, protocol_session)
{
    Session s;
    START(&s, "--protocol", "--think", "1");
    char buf[2048];
    ask(&s, "list_commands", buf, sizeof buf);
    for (const char *c = "newgame play genmove showboard solve undo think quit"; *c;) {
        char word[32];
        int len = (int)strcspn(c, " ");
        snprintf(word, sizeof word, "%.*s", len, c);
        cr_expect(has_line(buf, word), "list_commands lacks %s: [%s]", word, buf);
        c += len + (c[len] == ' ');
    }
    RefPos p, empty6;
    ref_empty(&p, 6, 5, REF_ORIGINAL);
    empty6 = p;
    expect_board(&s, &p, -1);
    play_both(&s, &p, "Xc3");
    expect_board(&s, &p, 14);
    Gen g;
    char gb[1024];
    genmove(&s, &p, &g, gb, sizeof gb, NULL); /* Chaos's move */
    expect_board(&s, &p, g.cell);
    /* undo takes back one ply each */
    cr_expect_str_eq(ask(&s, "undo", buf, sizeof buf), "ongoing");
    cr_expect_str_eq(ask(&s, "undo", buf, sizeof buf), "ongoing");
    expect_error(&s, "undo", "nothing to undo");
    expect_board(&s, &empty6, -1);
    cr_expect_str_eq(ask(&s, "newgame exact 5 4", buf, sizeof buf), "exact 5 4");
    ref_empty(&p, 5, 4, REF_EXACT);
    expect_board(&s, &p, -1);
    cr_expect_str_eq(ask(&s, "newgame", buf, sizeof buf), "exact 5 4"); /* the same game again */
    ask(&s, "solve", buf, sizeof buf);
    char w[16], d[16], by[16];
    cr_expect(sscanf(buf, "%15s %15s %15s", w, d, by) == 3, "solve: [%s]", buf);
    cr_expect_str_eq(ask(&s, "quit", buf, sizeof buf), "");
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
    expect_error(&s, "play", "syntax error");
    expect_error(&s, "play Zc3", "Zc3");
    expect_error(&s, "play Xg1", "g1"); /* off a 6x6 board */
    expect_error(&s, "play Xa0", "a0");
    expect_error(&s, "play Xc3 Od4", "Xc3");
    expect_error(&s, "newgame bogus", "bogus");
    expect_error(&s, "newgame original 9 5", "9");
    expect_error(&s, "newgame original 6", "syntax error");
    expect_error(&s, "think -1", "think");
    expect_error(&s, "genmove now", "now");
    /* Empty lines and comments get no response: the next is showboard's,
     * with its id. */
    send_bytes(&s, "\n   \n# a comment\n", 17);
    RefPos p;
    ref_empty(&p, 6, 5, REF_ORIGINAL);
    expect_board(&s, &p, -1);
    play_both(&s, &p, "Xc3");
    expect_error(&s, "play Oc3", "occupied");
    /* A game that ends: 4x4, k = 3, Order's line a1-c1. */
    cr_expect_str_eq(ask(&s, "newgame original 4 3", buf, sizeof buf), "original 4 3");
    ref_empty(&p, 4, 3, REF_ORIGINAL);
    play_both(&s, &p, "Xa1");
    play_both(&s, &p, "Od4");
    play_both(&s, &p, "Xb1");
    play_both(&s, &p, "Od3");
    play_both(&s, &p, "Xc1");
    cr_assert_eq(ref_status(&p), REF_ORDER_WINS);
    expect_error(&s, "play Oa4", "over");
    expect_error(&s, "genmove", "over");
    expect_board(&s, &p, 2);
    cr_expect_str_eq(ask(&s, "undo", buf, sizeof buf), "ongoing"); /* the game goes on after an undo */
    p.cell[2] = '.';
    Gen g;
    char gb[1024];
    genmove(&s, &p, &g, gb, sizeof gb, NULL);
    cr_expect(ref_status(&p) == REF_ORDER_WINS, "Order had a line to complete; genmove played %s: [%s]", g.move, gb);
    cr_expect_str_eq(g.kind, "win-now", "[%s]", gb);
    /* End of input ends the session cleanly, with nothing more said. */
    char rest[256];
    cr_expect(finish(&s, rest, sizeof rest) == 0, "exit code at end of input");
    cr_expect_str_eq(rest, "", "output at end of input: [%s]", rest);
}

/* ------------------------------------------------------------------ */
/* GTP version 2: framing, preprocessing, the standard commands         */
/* ------------------------------------------------------------------ */

TestSuite(play_gtp, .timeout = 300, .init = no_sigpipe);

/* Sends line (len bytes, its newline included) as it is, and reads the
 * response with id ("" none). */
static bool raw(Session *s, const char *line, size_t len, const char *id, char *text, size_t size)
{
    send_bytes(s, line, len);
    return response(s, line, id, text, size);
}
#define RAW(s, lit, id, text) raw((s), (lit), sizeof(lit) - 1, (id), (text), sizeof(text))

/* Commands without ids: "= " or "? ", the text, and an empty line after
 * every one (response() reads exactly one); quit answers "= " and the
 * empty line, and nothing follows. */
Test(play_gtp, every_response_ends_with_an_empty_line)
{
    Session s;
    START(&s, "--protocol", "--think", "0.5");
    static const char *const cmds[] = {"showboard", "play Xc3", "frobnicate", "play Xc3", "list_commands",
                                       "genmove",   "undo",     "protocol_version", "name"};
    char text[4096], line[64];
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        snprintf(line, sizeof line, "%s\n", cmds[i]);
        raw(&s, line, strlen(line), "", text, sizeof text);
    }
    send_bytes(&s, "quit\nshowboard\n", 15);
    char rest[256];
    cr_expect_eq(finish(&s, rest, sizeof rest), 0, "exit code after quit");
    cr_expect_str_eq(rest, "= \n\n", "quit's response is '= ' and an empty line, then nothing");
}

/* quit with an id: "=ID " and the empty line; the session ends there. */
Test(play_gtp, quit_with_an_id)
{
    Session s;
    START(&s, "--protocol");
    send_bytes(&s, "8 quit\nshowboard\n", 17);
    char rest[256];
    cr_expect_eq(finish(&s, rest, sizeof rest), 0, "exit code after quit");
    cr_expect_str_eq(rest, "=8 \n\n");
}

/* A numeric id before the command is echoed after '=' or '?', for every
 * kind of response, also ids of odd shape (0, leading zeros, large). */
Test(play_gtp, ids_are_echoed)
{
    Session s;
    START(&s, "--protocol", "--think", "0.5");
    char text[2048];
    cr_expect(RAW(&s, "1 protocol_version\n", "1", text));
    cr_expect_str_eq(text, "2");
    cr_expect(RAW(&s, "0 name\n", "0", text));
    cr_expect(RAW(&s, "007 known_command play\n", "007", text));
    cr_expect_str_eq(text, "true");
    cr_expect(RAW(&s, "4294967295 showboard\n", "4294967295", text));
    cr_expect(!RAW(&s, "12 frobnicate\n", "12", text));
    cr_expect(strstr(text, "unknown command") != NULL, "[%s]", text);
    cr_expect(!RAW(&s, "13\n", "13", text), "an id alone is no command");
    cr_expect(!RAW(&s, "14 play Xz9\n", "14", text));
    cr_expect(RAW(&s, "15 play Xc3\n", "15", text));
    cr_expect_str_eq(text, "ongoing");
    cr_expect(!RAW(&s, "16 play Oc3\n", "16", text));
    cr_expect(RAW(&s, "17 genmove\n", "17", text));
    cr_expect(RAW(&s, "18 undo\n", "18", text));
    cr_expect(!RAW(&s, "19 showboard now\n", "19", text));
    cr_expect(RAW(&s, "20 quit\n", "20", text));
    cr_expect_eq(finish(&s, NULL, 0), 0);
}

/* The administrative commands every GTP engine has, and komi (GTP lists
 * it among them; Order and Chaos has none, so it is accepted only). */
Test(play_gtp, administrative_commands)
{
    Session s;
    START(&s, "--protocol");
    char text[2048], list[2048], cmd[64];
    cr_expect_str_eq(ask(&s, "protocol_version", text, sizeof text), "2");
    cr_expect_str_eq(ask(&s, "name", text, sizeof text), "ocsolve");
    ask(&s, "version", text, sizeof text);
    cr_expect(text[0] != '\0' && strchr(text, '\n') == NULL, "version: [%s]", text);
    ask(&s, "list_commands", list, sizeof list);
    static const char *const need[] = {"protocol_version", "name", "version", "known_command", "list_commands",
                                       "quit", "boardsize", "clear_board", "komi", "play", "genmove",
                                       "showboard", "undo", "newgame", "solve", "think"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        cr_expect(has_line(list, need[i]), "list_commands lacks %s (one command per line): [%s]", need[i], list);
    /* Every line one command, none twice, each known. */
    const char *names[64];
    int lines = 0;
    for (char *l = strtok(list, "\n"); l && lines < 64; l = strtok(NULL, "\n"), lines++) {
        cr_expect(strchr(l, ' ') == NULL, "list_commands line [%s] is not one command", l);
        for (int i = 0; i < lines; i++) cr_expect(strcmp(names[i], l) != 0, "list_commands lists %s twice", l);
        names[lines] = l;
        snprintf(cmd, sizeof cmd, "known_command %s", l);
        cr_expect_str_eq(ask(&s, cmd, text, sizeof text), "true", "%s", cmd);
    }
    cr_expect_eq(lines, (int)(sizeof need / sizeof need[0]), "list_commands lists %d commands", lines);
    cr_expect_str_eq(ask(&s, "known_command frobnicate", text, sizeof text), "false");
    cr_expect_str_eq(ask(&s, "known_command PLAY", text, sizeof text), "false", "command names are case sensitive");
    expect_error(&s, "known_command", "syntax error");
    cr_expect_str_eq(ask(&s, "komi 6.5", text, sizeof text), "");
    cr_expect_str_eq(ask(&s, "komi -2", text, sizeof text), "");
    expect_error(&s, "komi lots", "syntax error");
    cr_expect_eq(finish(&s, NULL, 0), 0);
}

/* boardsize N: the empty N x N board under the same rules, the k asked
 * for (--k, newgame) where it fits and else N; "unacceptable size" off
 * 4..8; clear_board: the empty board. The test's own board (RefPos)
 * checks the game's k by where a line first wins. */
Test(play_gtp, boardsize_and_clear_board)
{
    Session s;
    START(&s, "--protocol", "--rules", "exact", "--think", "0.5");
    char text[2048];
    RefPos p;
    cr_expect_str_eq(ask(&s, "boardsize 5", text, sizeof text), "");
    ref_empty(&p, 5, 5, REF_EXACT);
    expect_board(&s, &p, -1);
    cr_expect_str_eq(ask(&s, "newgame", text, sizeof text), "exact 5 5", "the rules and k = 5 are kept");
    cr_expect_str_eq(ask(&s, "boardsize 4", text, sizeof text), "");
    ref_empty(&p, 4, 4, REF_EXACT);
    expect_board(&s, &p, -1);
    /* k is now 4: Order's line a1-d1 wins on its fourth X, not its third. */
    play_both(&s, &p, "Xa1");
    play_both(&s, &p, "Oa4");
    play_both(&s, &p, "Xb1");
    play_both(&s, &p, "Ob4");
    play_both(&s, &p, "Xc1");
    play_both(&s, &p, "Oa3");
    play_both(&s, &p, "Xd1");
    cr_expect_eq(ref_status(&p), REF_ORDER_WINS);
    static const char *const sizes[] = {"boardsize 3", "boardsize 9", "boardsize 0", "boardsize 100",
                                        "boardsize 99999999999"};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) expect_error(&s, sizes[i], "unacceptable size");
    expect_error(&s, "boardsize six", "syntax error");
    expect_error(&s, "boardsize -6", "syntax error");
    expect_board(&s, &p, 3); /* the failures changed nothing */
    cr_expect_str_eq(ask(&s, "clear_board", text, sizeof text), "");
    ref_empty(&p, 4, 4, REF_EXACT);
    expect_board(&s, &p, -1);
    expect_error(&s, "undo", "cannot undo");
    /* boardsize 4 cut k to 4 but did not forget the 5 asked for. */
    cr_expect_str_eq(ask(&s, "boardsize 8", text, sizeof text), "");
    ref_empty(&p, 8, 5, REF_EXACT);
    expect_board(&s, &p, -1);
    play_both(&s, &p, "Xh8");
    expect_board(&s, &p, 63);
    cr_expect_str_eq(ask(&s, "newgame", text, sizeof text), "exact 8 5");
    /* newgame's k is the one asked for from then on. */
    cr_expect_str_eq(ask(&s, "newgame original 7 3", text, sizeof text), "original 7 3");
    cr_expect_str_eq(ask(&s, "boardsize 5", text, sizeof text), "");
    cr_expect_str_eq(ask(&s, "newgame", text, sizeof text), "original 5 3");
    cr_expect_eq(finish(&s, NULL, 0), 0);
}

/* GTP's play COLOR VERTEX as play SYMBOL CELL, the compact play MOVE, the
 * vertex in either case; a bad symbol or cell is a syntax error, an
 * occupied cell or a finished game an illegal move. */
Test(play_gtp, play_forms)
{
    Session s;
    START(&s, "--protocol", "--board", "4", "--k", "3");
    RefPos p;
    ref_empty(&p, 4, 3, REF_ORIGINAL);
    char text[2048];
    cr_expect_str_eq(ask(&s, "play X c3", text, sizeof text), "ongoing");
    p.cell[2 * 4 + 2] = 'X';
    cr_expect_str_eq(ask(&s, "play o D4", text, sizeof text), "ongoing");
    p.cell[3 * 4 + 3] = 'O';
    cr_expect_str_eq(ask(&s, "play xA1", text, sizeof text), "ongoing");
    p.cell[0] = 'X';
    expect_board(&s, &p, 0);
    expect_error(&s, "play black c2", "syntax error");
    expect_error(&s, "play b c2", "syntax error");
    expect_error(&s, "play X z9", "syntax error");
    expect_error(&s, "play X pass", "syntax error");
    expect_error(&s, "play O c3", "illegal move");
    expect_error(&s, "play Oc3", "illegal move");
    play_both(&s, &p, "Ob1");
    play_both(&s, &p, "Xb2");
    cr_assert_eq(ref_status(&p), REF_ORDER_WINS); /* a1 b2 c3 */
    expect_error(&s, "play O d1", "illegal move");
    expect_board(&s, &p, 5);
    cr_expect_eq(finish(&s, NULL, 0), 0);
}

/* showboard: the position line, then the board drawn, the last move in
 * brackets, all within the one response. */
Test(play_gtp, showboard_draws_the_board)
{
    Session s;
    START(&s, "--protocol", "--think", "0.5");
    RefPos p;
    ref_empty(&p, 6, 5, REF_ORIGINAL);
    expect_board(&s, &p, -1);
    play_both(&s, &p, "Xf6");
    expect_board(&s, &p, 35);
    play_both(&s, &p, "Oa1");
    expect_board(&s, &p, 0);
    Gen g;
    char gb[1024];
    genmove(&s, &p, &g, gb, sizeof gb, NULL);
    expect_board(&s, &p, g.cell);
    cr_expect_eq(finish(&s, NULL, 0), 0);
}

/* GTP's preprocessing: control characters other than HT and LF are
 * removed (NUL, CR, DEL and the rest), HT is a space, '#' starts a
 * comment, and lines left empty get no response (the next response's id
 * shows none came between). */
Test(play_gtp, control_characters_and_comments)
{
    Session s;
    START(&s, "--protocol");
    RefPos p;
    ref_empty(&p, 6, 5, REF_ORIGINAL);
    char text[2048];
    cr_expect(RAW(&s, "\0play Xc3\n", "", text), "a NUL before the command");
    cr_expect_str_eq(text, "ongoing");
    p.cell[14] = 'X';
    cr_expect(RAW(&s, "2 play O\0d4\r\n", "2", text), "a NUL inside a word, CR LF");
    p.cell[21] = 'O';
    cr_expect(RAW(&s, "3\tplay\tX\x01" "a1\x7f\t\n", "3", text), "tabs, SOH, DEL");
    p.cell[0] = 'X';
    static const char blank[] = "\0\n\r\n   \n\t\t\n# only a comment\n#\n \x02 # x\n";
    send_bytes(&s, blank, sizeof blank - 1);
    cr_expect(RAW(&s, "4 showboard # what is there?\n", "4", text));
    cr_expect(RAW(&s, "5 protocol_version#no space before the comment\n", "5", text));
    cr_expect_str_eq(text, "2");
    expect_board(&s, &p, 0);
    cr_expect_eq(finish(&s, NULL, 0), 0);
}

/* The peak memory of the session's process in KiB (/proc: VmHWM). */
static long peak_kib(const Session *s)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)s->pid);
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot read %s", path);
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld", &kib) == 1) break;
    fclose(f);
    cr_assert(kib > 0, "no VmHWM in %s", path);
    return kib;
}

/* A line longer than the limit gets "? line too long" (with its id), the
 * session goes on, and a very long line costs no memory to speak of;
 * long comments and long runs of spaces are no commands at all. */
Test(play_gtp, long_lines)
{
    Session s;
    START(&s, "--protocol", "--tt-mb", "1");
    char text[2048];
    static char line[10002];
    memset(line, 'z', 10000);
    line[10000] = '\n';
    raw(&s, line, 10001, "", text, sizeof text);
    cr_expect(strstr(text, "line too long") != NULL, "[%s]", text);
    memcpy(line, "31 ", 3);
    cr_expect(!raw(&s, line, 10001, "31", text, sizeof text));
    cr_expect(strstr(text, "line too long") != NULL, "[%s]", text);
    memset(line, ' ', 10000);
    line[0] = '#';
    send_bytes(&s, line, 10001); /* a long comment */
    line[0] = ' ';
    memcpy(line + 5000, "\t\t", 2);
    send_bytes(&s, line, 10001); /* a long white line */
    memcpy(line + 9980, "protocol_version", 16); /* spaces, then a command */
    cr_expect(raw(&s, line, 10001, "", text, sizeof text));
    cr_expect_str_eq(text, "2");
    /* 32 MiB in one line, sent in pieces while the engine reads. */
    long before = peak_kib(&s);
    static char chunk[1 << 16];
    memset(chunk, 'y', sizeof chunk);
    for (int i = 0; i < 512; i++) send_bytes(&s, chunk, sizeof chunk);
    raw(&s, "\n", 1, "", text, sizeof text);
    cr_expect(strstr(text, "line too long") != NULL, "[%.80s]", text);
    long after = peak_kib(&s);
    cr_expect(after - before < 4096, "a 32 MiB line raised the peak memory from %ld to %ld KiB", before, after);
    cr_expect_str_eq(ask(&s, "protocol_version", text, sizeof text), "2");
    cr_expect_eq(finish(&s, NULL, 0), 0);
}

/* Extra words, and missing ones, are errors for every command: '?' and one
 * line, nothing changed (quit with extra words does not quit). */
Test(play_gtp, extra_words_are_errors)
{
    Session s;
    START(&s, "--protocol", "--think", "0.5");
    RefPos p;
    ref_empty(&p, 6, 5, REF_ORIGINAL);
    play_both(&s, &p, "Xc3");
    static const char *const bad[] = {
        "solve 1e99 1e99", "showboard extra",   "undo now",        "list_commands all", "protocol_version 2",
        "name x",          "version x",         "known_command play genmove",           "clear_board now",
        "genmove X O",     "genmove O now",     "play O d4 now",   "play Od4 Oe5",      "think 1 2",
        "newgame original 6 5 9",               "boardsize 6 6",   "komi 0 0",          "quit now",
        "play",            "known_command",     "boardsize",       "think",             "komi"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) expect_error(&s, bad[i], "syntax error");
    expect_board(&s, &p, 14);
    char text[256];
    cr_expect_str_eq(ask(&s, "undo", text, sizeof text), "ongoing", "the move is still there to take back");
    expect_error(&s, "undo", "cannot undo");
    cr_expect_eq(finish(&s, NULL, 0), 0);
}

/* think: a plain number of seconds, more than 0 and at most 1e9 (as
 * --think); the error names the limits. */
Test(play_gtp, think_limits)
{
    Session s;
    START(&s, "--protocol");
    static const char *const bad[] = {"1e99", "1e10", "1000000001", "0", "-1", "nan", "inf", "0x10", "1e", "1,5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "think %s", bad[i]);
        expect_error(&s, cmd, bad[i]);
        expect_error(&s, cmd, "at most 1e9");
    }
    char text[256];
    cr_expect(strtod(ask(&s, "think 1e9", text, sizeof text), NULL) == 1e9, "[%s]", text);
    cr_expect(strtod(ask(&s, "think 0.25", text, sizeof text), NULL) == 0.25, "[%s]", text);
    cr_expect_eq(finish(&s, NULL, 0), 0);
}

/* genmove X / genmove O: the side to move places that symbol, legally,
 * from the empty 6x6 board on, whatever the advisor would rather play;
 * a word that is no symbol is a syntax error. */
Test(play_gtp, genmove_with_a_symbol)
{
    Session s;
    START(&s, "--protocol", "--think", "0.5");
    RefPos p;
    ref_empty(&p, 6, 5, REF_ORIGINAL);
    expect_error(&s, "genmove black", "syntax error");
    expect_error(&s, "genmove w", "syntax error");
    static const char *const syms[] = {"X", "O", "o", "x", "O", "O", "X", "X"};
    Gen g;
    char gb[1024];
    for (size_t i = 0; i < sizeof syms / sizeof syms[0] && ref_status(&p) == REF_ONGOING; i++) {
        genmove(&s, &p, &g, gb, sizeof gb, syms[i]);
        expect_board(&s, &p, g.cell);
    }
    cr_expect_eq(finish(&s, NULL, 0), 0);
}

/* ------------------------------------------------------------------ */
/* Games                                                                */
/* ------------------------------------------------------------------ */

/* A "pairing answer on A to B" must answer a piece: B is occupied (the
 * move on A is already on p) and is not A. */
static void expect_answered_cell(const RefPos *p, const Gen *g, const char *gb)
{
    const char *to = strstr(g->reason, "pairing answer on ");
    if (!to || !(to = strstr(to, " to "))) return;
    int col = to[4] - 'a', row = to[5] - '1';
    cr_assert(col >= 0 && col < p->n && row >= 0 && row < p->n, "no cell after ' to ': [%s]", gb);
    int cell = row * p->n + col;
    cr_expect(cell != g->cell && p->cell[cell] != '.', "answers the empty cell %.2s: [%s]", to + 4, gb);
}

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
                genmove(&s, &p, &g, gb, sizeof gb, NULL);
                engine_moves++;
                cr_expect(!strcmp(g.kind, "centre-small") || !strcmp(g.kind, "centre-pair") ||
                              !strcmp(g.kind, "win-now"),
                          "seed %llu: not the proved strategy: [%s]", (unsigned long long)seed, gb);
                cr_expect_str_eq(g.winner, "order", "seed %llu: [%s]", (unsigned long long)seed, gb);
                expect_answered_cell(&p, &g, gb);
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
                genmove(&s, &p, &g, gb, sizeof gb, NULL);
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

/* The breakable form on an odd board (pairing.h): random games of 5x5
 * with k = 5, both sides random, until Chaos is to move at a position
 * where pairing_find finds a breakable pairing (5x5 has no classic one:
 * the parity fails); from there Chaos plays the advice and Order stays
 * random. Chaos's advice must be the pairing strategy at every turn
 * (partner, free cell or a broken pair, never a search), and Chaos must
 * win; the brute force confirms the position was a Chaos win. */
static int empties(const RefPos *p);

Test(play, chaos_breakable_pairs_5x5)
{
    static const char *names[] = {"original", "exact", "exact-end"};
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    for (int rs = 0; rs < 3; rs++) {
        int games = 0;
        for (uint64_t seed = 1; seed <= 200 && games < 3; seed++) {
            Session s;
            START(&s, "--protocol", "--think", "2", "--rules", names[rs], "--board", "5", "--k", "5");
            RefPos p;
            ref_empty(&p, 5, 5, rs);
            uint64_t rng = seed * 7919 + (uint64_t)rs;
            bool pairs = false;
            while (ref_status(&p) == REF_ONGOING) {
                if (!pairs && !order_to_move(&p) && empties(&p) <= 12) {
                    Rules r;
                    tl_init_rules(&r, &p);
                    if ((pairs = pairing_find(&r, tl_board(&p), 100000, NULL))) {
                        char pos[70];
                        ref_format(&p, pos);
                        cr_expect(brute_dtw(memo, &p) < 0, "%s: a pairing, but Order wins: %s", names[rs], pos);
                        games++;
                    }
                }
                if (pairs && !order_to_move(&p)) {
                    Gen g;
                    char gb[1024];
                    genmove(&s, &p, &g, gb, sizeof gb, NULL);
                    cr_expect(!strcmp(g.kind, "pairing"), "%s seed %llu: not the pairing strategy: [%s]", names[rs],
                              (unsigned long long)seed, gb);
                } else {
                    char mv[8];
                    random_move(&p, &rng, mv);
                    play_both(&s, &p, mv);
                }
            }
            if (pairs) {
                char pos[70];
                ref_format(&p, pos);
                cr_expect_eq(ref_status(&p), REF_CHAOS_WINS, "%s seed %llu: %s", names[rs], (unsigned long long)seed,
                             pos);
            }
            cr_expect(finish(&s, NULL, 0) == 0);
        }
        cr_expect_eq(games, 3, "%s: only %d games reached a breakable pairing", names[rs], games);
    }
    brute_free(memo);
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
        genmove(&s, &p, &g, gb, sizeof gb, NULL);
        if (empties(&before) <= 12) check_claim(m, &before, &p, &g, gb);
        for (size_t i = 0; i < NKINDS; i++) seen[i] += strcmp(g.kind, kinds[i]) == 0;
    }
    brute_free(m);
    cr_expect(finish(&s, NULL, 0) == 0);
}

Test(play, claims_against_brute_force)
{
    int seen[NKINDS] = {0};
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

/* genmove with a symbol on small boards against the brute force: the
 * claimed winner of the position is the true one; a move said to win or
 * keep the win keeps it; "lost" only when every move of the symbol loses;
 * and where some move of the symbol keeps the mover's win, the engine's
 * does (these positions are decided in milliseconds; the think time of 3 s
 * only leaves room for a loaded machine). */
static void check_symbol_claim(BruteMemo *m, const RefPos *before, const Gen *g, const char *ans)
{
    RefPos q = *before;
    int dtw;
    const char *truth = brute_winner(m, &q, &dtw);
    if (strcmp(g->winner, "unknown") != 0) cr_expect_str_eq(g->winner, truth, "claimed winner wrong: [%s]", ans);
    const char *mover = order_to_move(before) ? "order" : "chaos";
    bool can_keep = false;
    for (int i = 0; i < q.n * q.n; i++) {
        if (q.cell[i] != '.') continue;
        q.cell[i] = g->sym;
        can_keep |= strcmp(brute_winner(m, &q, &dtw), mover) == 0;
        q.cell[i] = '.';
    }
    q.cell[g->cell] = g->sym;
    bool keeps = strcmp(brute_winner(m, &q, &dtw), mover) == 0;
    if (!strcmp(g->kind, "keeps-win") || !strcmp(g->kind, "win-now"))
        cr_expect(keeps, "%s does not keep %s's win: [%s]", g->move, mover, ans);
    if (!strcmp(g->kind, "lost"))
        cr_expect(!can_keep, "said lost, but a move of %c keeps %s's win: [%s]", g->sym, mover, ans);
    if (can_keep) cr_expect(keeps, "a move of %c keeps %s's win, %s does not: [%s]", g->sym, mover, g->move, ans);
}

static void symbol_game(const char *rules, int rref, int n, int k, int opening, uint64_t seed, int *kept)
{
    Session s;
    char nstr[4], kstr[4];
    snprintf(nstr, sizeof nstr, "%d", n);
    snprintf(kstr, sizeof kstr, "%d", k);
    START(&s, "--protocol", "--think", "3", "--rules", rules, "--board", nstr, "--k", kstr);
    RefPos p;
    ref_empty(&p, n, k, rref);
    uint64_t rng = seed;
    BruteMemo *m = brute_new();
    cr_assert(m);
    for (int ply = 0; ref_status(&p) == REF_ONGOING; ply++) {
        char mv[8];
        if (ply < opening || tl_below(&rng, 3) == 0) {
            random_move(&p, &rng, mv);
            play_both(&s, &p, mv);
            continue;
        }
        RefPos before = p;
        Gen g;
        char gb[1024];
        genmove(&s, &p, &g, gb, sizeof gb, tl_below(&rng, 2) ? "X" : "O");
        check_symbol_claim(m, &before, &g, gb);
        *kept += strcmp(g.kind, "keeps-win") == 0;
    }
    brute_free(m);
    cr_expect_eq(finish(&s, NULL, 0), 0);
}

Test(play_gtp, genmove_with_a_symbol_against_brute_force)
{
    int kept = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        symbol_game("original", REF_ORIGINAL, 4, 3, 4, seed, &kept);
        symbol_game("exact", REF_EXACT, 4, 3, 4, seed + 100, &kept);
        symbol_game("exact-end", REF_EXACT_END, 4, 4, 4, seed + 200, &kept);
        symbol_game("original", REF_ORIGINAL, 5, 4, 13, seed + 300, &kept);
    }
    cr_expect(kept > 0, "no move restricted to a symbol was proved to keep a win: the case went untested");
}

/* ------------------------------------------------------------------ */
/* The terminal mode                                                    */
/* ------------------------------------------------------------------ */

/* Writes all of input, then reads all of the output into out; the exit code. */
static int converse(const char *const *args, const char *input, char *out, size_t size)
{
    Session s;
    start(&s, args);
    send_bytes(&s, input, strlen(input));
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
