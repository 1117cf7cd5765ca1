/* play_session.c - see play_session.h. */
#include "play_session.h"

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

#include "testlib.h"

#ifndef OCSOLVE_BIN
#error "OCSOLVE_BIN must name the ocsolve binary under test"
#endif

void ps_no_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

/* ------------------------------------------------------------------ */
/* A session with the binary: a strict GTP version 2 client            */
/* ------------------------------------------------------------------ */

/* How long a response may take to begin: genmove thinks at most a few
 * seconds in these tests (twice that with a symbol), the rest is for a
 * loaded machine; and how long its further lines may take, which the
 * engine has written with the first. A response that does not come or
 * does not end is a failure, not a hang. */
enum { RESPONSE_MS = 90000, REST_MS = 5000 };

void ps_start(Session *s, const char *const *args)
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

void ps_start_game(Session *s, RefPos *p, const char *rules, int rref, int n, int k, const char *think)
{
    char nstr[4], kstr[4];
    snprintf(nstr, sizeof nstr, "%d", n);
    snprintf(kstr, sizeof kstr, "%d", k);
    PS_START(s, "--protocol", "--think", think, "--rules", rules, "--board", nstr, "--k", kstr);
    ps_ref_empty(p, n, k, rref);
}

void ps_send(Session *s, const char *data, size_t len)
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

bool ps_response(Session *s, const char *cmd, const char *id, char *text, size_t size)
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

bool ps_gtp(Session *s, const char *cmd, char *text, size_t size)
{
    char id[16];
    snprintf(id, sizeof id, "%u", ++s->id);
    ps_send(s, id, strlen(id));
    ps_send(s, " ", 1);
    ps_send(s, cmd, strlen(cmd));
    ps_send(s, "\n", 1);
    return ps_response(s, cmd, id, text, size);
}

const char *ps_ask(Session *s, const char *cmd, char *text, size_t size)
{
    cr_assert(ps_gtp(s, cmd, text, size), "'%.60s' failed: [%s]", cmd, text);
    return text;
}

void ps_expect_error(Session *s, const char *cmd, const char *needle)
{
    char text[2048];
    bool ok = ps_gtp(s, cmd, text, sizeof text);
    cr_expect(!ok, "'%.60s' should be an error, got [= %s]", cmd, text);
    cr_expect(strstr(text, needle) != NULL, "'%.60s': the error should name '%s': [%s]", cmd, needle, text);
}

int ps_finish(Session *s, char *rest, size_t size)
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

void ps_ref_empty(RefPos *p, int n, int k, int rules)
{
    char s[65];
    memset(s, '.', (size_t)(n * n));
    s[n * n] = '\0';
    cr_assert(ref_parse(p, n, k, rules, s) == 0);
}

int ps_read_move(const RefPos *p, const char *mv, char *sym)
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

bool ps_order_to_move(const RefPos *p)
{
    int pieces = 0;
    for (int i = 0; i < p->n * p->n; i++) pieces += p->cell[i] != '.';
    return pieces % 2 == 0;
}

const char *ps_status_word(const RefPos *p)
{
    int st = ref_status(p);
    return st == REF_ORDER_WINS ? "order-won" : st == REF_CHAOS_WINS ? "chaos-won" : "ongoing";
}

int ps_empties(const RefPos *p)
{
    int e = 0;
    for (int i = 0; i < p->n * p->n; i++) e += p->cell[i] == '.';
    return e;
}

void ps_random_move(const RefPos *p, uint64_t *rng, char out[8])
{
    int empty[64], ne = 0;
    for (int i = 0; i < p->n * p->n; i++)
        if (p->cell[i] == '.') empty[ne++] = i;
    cr_assert(ne > 0);
    write_move(p, empty[tl_below(rng, ne)], tl_below(rng, 2) ? 'X' : 'O', out);
}

void ps_random_safe_move(const RefPos *p, uint64_t *rng, char out[8])
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
        ps_random_move(p, rng, out);
        return;
    }
    int pick = safe[tl_below(rng, ns)];
    write_move(p, pick / 2, pick % 2 ? 'O' : 'X', out);
}

void ps_play_both(Session *s, RefPos *p, const char *mv)
{
    char sym, cmd[32], buf[256];
    int cell = ps_read_move(p, mv, &sym);
    cr_assert(cell >= 0 && p->cell[cell] == '.', "bad test move %s", mv);
    snprintf(cmd, sizeof cmd, "play %s", mv);
    ps_ask(s, cmd, buf, sizeof buf);
    p->cell[cell] = sym;
    cr_assert(strcmp(buf, ps_status_word(p)) == 0, "'%s': expected [= %s], got [= %s]", cmd, ps_status_word(p), buf);
}

/* The advisor's kinds, then keeps-win (a move restricted to a symbol). */
const char *const ps_kinds[] = {"win-now", "centre-pair", "centre-small", "pairing", "store",
                                "search",  "lost",        "guess",        "keeps-win"};

void ps_genmove(Session *s, RefPos *p, PsGen *g, char *buf, size_t size, const char *sym)
{
    cr_assert(ref_status(p) == REF_ONGOING);
    char cmd[32];
    snprintf(cmd, sizeof cmd, "genmove%s%s", sym ? " " : "", sym ? sym : "");
    ps_ask(s, cmd, buf, size);
    int used = 0;
    cr_assert(sscanf(buf, "%7s %31s %15s %15s %n", g->move, g->kind, g->winner, g->dtw, &used) == 4 && used > 0,
              "'%s' answer not of the form '= MOVE KIND WINNER DTW REASON': [%s]", cmd, buf);
    cr_assert(strchr(buf, '\n') == NULL, "'%s' answer spans lines: [%s]", cmd, buf);
    g->reason = buf + used;
    cr_expect(strlen(g->reason) > 0, "genmove gave no reason: [%s]", buf);
    bool known = false;
    for (size_t i = 0; i < PS_NKINDS; i++) known |= strcmp(g->kind, ps_kinds[i]) == 0;
    cr_expect(known, "unknown kind '%s': [%s]", g->kind, buf);
    cr_expect(!strcmp(g->winner, "order") || !strcmp(g->winner, "chaos") || !strcmp(g->winner, "unknown"),
              "winner '%s': [%s]", g->winner, buf);
    g->cell = ps_read_move(p, g->move, &g->sym);
    cr_assert(g->cell >= 0, "genmove's move '%s' is not a move of this board: [%s]", g->move, buf);
    cr_assert(p->cell[g->cell] == '.', "genmove played on the occupied cell of %s: [%s]", g->move, buf);
    if (sym) cr_assert(g->sym == toupper((unsigned char)sym[0]), "'%s' placed the other symbol: [%s]", cmd, buf);
    p->cell[g->cell] = g->sym;
}

bool ps_has_line(const char *text, const char *word)
{
    size_t len = strlen(word);
    for (const char *q = text; (q = strstr(q, word)) != NULL; q++)
        if ((q == text || q[-1] == '\n') && (q[len] == '\0' || q[len] == '\n')) return true;
    return false;
}

void ps_expect_board(Session *s, const RefPos *p, int last)
{
    char text[2048], want[128], pos[70];
    ps_ask(s, "showboard", text, sizeof text);
    ref_format(p, pos);
    const char *tomove = ref_status(p) != REF_ONGOING ? "-" : ps_order_to_move(p) ? "order" : "chaos";
    snprintf(want, sizeof want, "%s %s %s", pos, tomove, ps_status_word(p));
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
