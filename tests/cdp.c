/* cdp.c - see cdp.h. */
#include "cdp.h"

#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jsoncheck.h"
#include "testlib.h"

/* How long one answer may take (a page load, a screenshot): a hang guard,
 * not a timing assertion. */
enum { ANSWER_MS = 60000 };

bool browser_find(char *path, size_t size)
{
    const char *env = getenv("PATH");
    static const char *const names[] = {"chromium", "chromium-browser"};
    for (size_t i = 0; i < 2; i++) {
        char dirs[4096];
        snprintf(dirs, sizeof dirs, "%s", env ? env : "/usr/bin:/bin");
        for (char *d = strtok(dirs, ":"); d; d = strtok(NULL, ":")) {
            snprintf(path, size, "%s/%s", d, names[i]);
            if (access(path, X_OK) == 0) return true;
        }
    }
    return false;
}

void browser_start(Browser *b, const char *exe)
{
    memset(b, 0, sizeof *b);
    int in[2], out[2];
    cr_assert(pipe(in) == 0 && pipe(out) == 0);
    tl_tmp_dir(b->dir, sizeof b->dir, "chromium");
    char udd[128];
    snprintf(udd, sizeof udd, "--user-data-dir=%s", b->dir);
    fflush(stdout);
    fflush(stderr);
    b->pid = fork();
    cr_assert(b->pid >= 0);
    if (b->pid == 0) {
        /* its fd 3 reads our commands, its fd 4 writes to us */
        int r = dup(in[0]), w = dup(out[1]);
        dup2(r, 3);
        dup2(w, 4);
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0), dup2(null, 1), dup2(null, 2);
        setpgid(0, 0); /* its helper processes go with it */
        execl(exe, exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
              "--remote-debugging-pipe", "--hide-scrollbars", "--window-size=1160,820", udd, "about:blank", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    b->to = in[1];
    b->from = out[0];
}

void browser_stop(Browser *b)
{
    if (b->pid > 0) {
        kill(-b->pid, SIGKILL);
        kill(b->pid, SIGKILL);
        while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR) {}
    }
    close(b->to);
    close(b->from);
    free(b->buf);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "%s", b->dir);
    const char *argv[] = {"rm", "-rf", cmd, NULL};
    if (fork() == 0) {
        execvp("rm", (char *const *)argv);
        _exit(127);
    }
    wait(NULL);
}

/* The next message (malloc'd), waiting at most ANSWER_MS. */
static char *next_message(Browser *b)
{
    for (;;) {
        char *nul = b->have ? memchr(b->buf, '\0', b->have) : NULL;
        if (nul) {
            size_t len = (size_t)(nul - b->buf);
            char *msg = malloc(len + 1);
            memcpy(msg, b->buf, len + 1);
            memmove(b->buf, nul + 1, b->have - len - 1);
            b->have -= len + 1;
            return msg;
        }
        struct pollfd p = {b->from, POLLIN, 0};
        cr_assert(poll(&p, 1, ANSWER_MS) == 1, "chromium did not answer");
        if (b->cap - b->have < 65536) {
            b->cap = b->cap * 2 + 65536;
            b->buf = realloc(b->buf, b->cap);
            cr_assert(b->buf);
        }
        ssize_t r = read(b->from, b->buf + b->have, b->cap - b->have);
        cr_assert(r > 0, "chromium closed the pipe");
        b->have += (size_t)r;
    }
}

char *cdp_call(Browser *b, const char *method, const char *params, bool on_page)
{
    char head[400], want[32];
    int id = ++b->id;
    snprintf(head, sizeof head, "{\"id\":%d,\"method\":\"%s\"%s%s%s,\"params\":", id, method,
             on_page ? ",\"sessionId\":\"" : "", on_page ? b->session : "", on_page ? "\"" : "");
    const char *p = params ? params : "{}";
    size_t hl = strlen(head), pl = strlen(p);
    char *msg = malloc(hl + pl + 2);
    memcpy(msg, head, hl);
    memcpy(msg + hl, p, pl);
    msg[hl + pl] = '}';
    msg[hl + pl + 1] = '\0';
    for (size_t off = 0; off < hl + pl + 2;) { /* the NUL too: it ends the message */
        ssize_t w = write(b->to, msg + off, hl + pl + 2 - off);
        cr_assert(w > 0, "cannot write to chromium");
        off += (size_t)w;
    }
    free(msg);
    snprintf(want, sizeof want, "{\"id\":%d,", id);
    for (;;) {
        char *m = next_message(b);
        if (strncmp(m, want, strlen(want)) == 0) {
            cr_assert(!strstr(m, "\"error\":{"), "%s: %s", method, m);
            return m;
        }
        free(m); /* an event, or another command's answer */
    }
}

void browser_open(Browser *b, const char *url)
{
    char params[1200], id[128];
    snprintf(params, sizeof params, "{\"url\":\"%s\"}", url);
    char *r = cdp_call(b, "Target.createTarget", params, false);
    cr_assert(jc_string(r, "targetId", id, sizeof id), "%s", r);
    free(r);
    snprintf(params, sizeof params, "{\"targetId\":\"%s\",\"flatten\":true}", id);
    r = cdp_call(b, "Target.attachToTarget", params, false);
    cr_assert(jc_string(r, "sessionId", b->session, sizeof b->session), "%s", r);
    free(r);
}

/* expr as a JSON string literal (the test's expressions need only quotes
 * and backslashes escaped). */
static void quote(const char *s, char *out, size_t size)
{
    size_t o = 0;
    out[o++] = '"';
    for (; *s && o + 3 < size; s++) {
        if (*s == '"' || *s == '\\') out[o++] = '\\';
        out[o++] = *s;
    }
    out[o++] = '"';
    out[o] = '\0';
}

char *browser_eval(Browser *b, const char *expr)
{
    char q[8192], params[8400];
    quote(expr, q, sizeof q);
    snprintf(params, sizeof params, "{\"expression\":%s,\"returnByValue\":true}", q);
    char *r = cdp_call(b, "Runtime.evaluate", params, true);
    cr_assert(!strstr(r, "\"exceptionDetails\""), "%s threw: %s", expr, r);
    size_t size = strlen(r) + 1;
    char *v = malloc(size);
    cr_assert(jc_string(r, "value", v, size), "%s gave no string: %s", expr, r);
    free(r);
    return v;
}

bool browser_wait(Browser *b, const char *expr)
{
    char e[4096];
    snprintf(e, sizeof e, "String(!!(%s))", expr);
    for (int i = 0; i < 400; i++) {
        char *v = browser_eval(b, e);
        bool ok = strcmp(v, "true") == 0;
        free(v);
        if (ok) return true;
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return false;
}

void browser_click(Browser *b, const char *id)
{
    char e[300], params[300];
    snprintf(e, sizeof e,
             "(() => { const r = document.getElementById('%s').getBoundingClientRect();"
             " return (r.left + r.width / 2) + ' ' + (r.top + r.height / 2); })()", id);
    char *v = browser_eval(b, e);
    double x, y;
    cr_assert(sscanf(v, "%lf %lf", &x, &y) == 2, "no element %s: %s", id, v);
    free(v);
    static const char *const types[] = {"mouseMoved", "mousePressed", "mouseReleased"};
    for (int i = 0; i < 3; i++) {
        snprintf(params, sizeof params, "{\"type\":\"%s\",\"x\":%.1f,\"y\":%.1f,\"button\":\"%s\",\"clickCount\":%d}",
                 types[i], x, y, i ? "left" : "none", i ? 1 : 0);
        free(cdp_call(b, "Input.dispatchMouseEvent", params, true));
    }
}

static int b64(int c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

void browser_screenshot(Browser *b, const char *path)
{
    char *r = cdp_call(b, "Page.captureScreenshot", "{\"format\":\"png\"}", true);
    size_t size = strlen(r) + 1;
    char *data = malloc(size);
    cr_assert(jc_string(r, "data", data, size), "no screenshot");
    free(r);
    FILE *f = fopen(path, "wb");
    cr_assert(f, "cannot write %s", path);
    unsigned acc = 0;
    int bits = 0;
    for (const char *p = data; *p; p++) {
        int v = b64((unsigned char)*p);
        if (v < 0) continue; /* '=' padding */
        acc = acc << 6 | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            fputc((int)(acc >> bits & 0xFF), f);
        }
    }
    cr_assert(fclose(f) == 0);
    free(data);
}
