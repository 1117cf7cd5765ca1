/* cdp.h - a tiny client of the Chrome DevTools Protocol for the browser
 * test: Debian's headless chromium started with --remote-debugging-pipe
 * (commands on its fd 3, answers and events on its fd 4, each message a
 * JSON text ended by a NUL byte; no WebSocket needed), one page attached
 * in flat mode (its sessionId on every command), and the few commands
 * the test needs: evaluate an expression, click at an element by real
 * mouse events (so the page's own click handlers run), take a
 * screenshot. Every wait has a hang guard; a failure is an assertion. */
#ifndef OCS_CDP_H
#define OCS_CDP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
    pid_t pid;
    int to, from;        /* our ends: its fd 3, its fd 4 */
    int id;              /* the last command's id */
    char *buf;           /* read, not yet taken */
    size_t have, cap;
    char session[128];   /* the page's sessionId */
    char dir[64];        /* its --user-data-dir */
} Browser;

/* The chromium executable in PATH (chromium, chromium-browser) into
 * path; false when there is none. */
bool browser_find(char *path, size_t size);
void browser_start(Browser *b, const char *exe);
void browser_stop(Browser *b);

/* Sends a command (params: a JSON object's text, or NULL) to the page
 * (on_page) or the browser, and returns its answer (malloc'd). */
char *cdp_call(Browser *b, const char *method, const char *params, bool on_page);
/* Opens url in a new page and attaches to it. */
void browser_open(Browser *b, const char *url);
/* The string value of a JavaScript expression in the page (it must
 * evaluate to a string), malloc'd. */
char *browser_eval(Browser *b, const char *expr);
/* Waits until expr (a boolean expression) is true; false after the hang
 * guard (about 80 s). */
bool browser_wait(Browser *b, const char *expr);
/* A left click by mouse events at the centre of the element with this id. */
void browser_click(Browser *b, const char *id);
/* Writes a PNG screenshot of the page to path. */
void browser_screenshot(Browser *b, const char *path);

#endif
