/* test_browser.c - the page of `ocsolve serve` in a real browser: Debian's
 * headless chromium (cdp.h) loads it from a server the test starts
 * (serve_client.h), two moves are made by mouse clicks on the page's own
 * controls (the symbol button, then a cell; twice), the values the page
 * shows are read from the DOM as text and each decided one is checked
 * against `ocsolve solve --dtw` on the position after that move. Then the
 * empty board's lemmas, as drawn: the centre strategy's ring pairs (and a
 * ring answer marked as such) under original, the pairing under
 * exact-end; screenshots of both go to OCS_SCREENSHOT_DIR (make
 * serve-screenshot: results/serve/) or the build folder.
 * Without chromium the test says so and is skipped. */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdp.h"
#include "runbin.h"
#include "serve_client.h"

#ifndef OCS_SCREENSHOT_DIR_DEFAULT
#define OCS_SCREENSHOT_DIR_DEFAULT "/tmp"
#endif

static void no_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }

TestSuite(browser, .timeout = 300, .init = no_sigpipe);

/* The page has finished analysing the position its URL names. */
static const char done_expr[] =
    "document.getElementById('status') !== null && document.getElementById('status').dataset.state === 'done'";

/* A move of `sym` the page shows as not ending the game at once (not W1
 * or L1), so the second click still has a game to play in. */
static char *pick_move(Browser *b, char sym)
{
    char e[400];
    snprintf(e, sizeof e,
             "[...document.querySelectorAll('text.val')].map(t => [t.dataset.move, t.textContent])"
             ".filter(([m, t]) => m[0] === '%c' && !/[WL]1$/.test(t)).map(([m]) => m)[0] || ''", sym);
    char *m = browser_eval(b, e);
    cr_assert(strlen(m) == 3, "no move of %c to click", sym);
    return m;
}

/* Clicks the symbol's button, then the cell of move (the page's own
 * controls), and waits for the new position's analysis. */
static void play_by_clicks(Browser *b, const char *move)
{
    char id[16];
    snprintf(id, sizeof id, "sym-%c", move[0]);
    browser_click(b, id);
    snprintf(id, sizeof id, "cell-%s", move + 1);
    browser_click(b, id);
    char e[200];
    snprintf(e, sizeof e, "location.search.includes('%s') && %s", move, done_expr);
    cr_assert(browser_wait(b, e), "the page did not play %s", move);
}

/* Every value shown ("Xc3=X W5;..."): each W or L against the solver. */
static int check_shown(const char *rules, const char *pos, bool order_moves, char *shown)
{
    int checked = 0;
    for (char *item = strtok(shown, ";"); item; item = strtok(NULL, ";")) {
        char move[4], sym, mark, rest[16] = "";
        cr_assert(sscanf(item, "%3[XOa-h1-8]=%c %c%15s", move, &sym, &mark, rest) >= 3, "shown: '%s'", item);
        cr_assert(mark == 'W' || mark == 'L' || mark == '?', "%s: still pending on a finished analysis", item);
        if (mark == '?') continue;
        SolverSays t;
        solver_says(rules, 6, 5, pos, move, 60, true, &t);
        cr_assert_str_neq(t.winner, "unknown", "the solver could not check %s %s", pos, move);
        bool mover_wins = strcmp(t.winner, order_moves ? "order" : "chaos") == 0;
        cr_assert_eq(mark == 'W', mover_wins, "%s after %s: the page shows %c, the solver says %s wins", move, pos,
                     mark, t.winner);
        if (rest[0]) cr_assert_eq(atoi(rest), t.dtw + 1, "%s: the page shows %s plies, the solver's dtw is %d", move,
                                  rest, t.dtw);
        checked++;
    }
    return checked;
}

static void screenshot_path(char *out, size_t size, const char *name)
{
    const char *dir = getenv("OCS_SCREENSHOT_DIR");
    snprintf(out, size, "%s/%s", dir && *dir ? dir : OCS_SCREENSHOT_DIR_DEFAULT, name);
}

Test(browser, two_clicks_and_the_values_shown_agree_with_the_solver)
{
    char exe[512];
    if (!browser_find(exe, sizeof exe)) {
        fprintf(stderr, "browser test SKIPPED: chromium is not installed (make deps installs it)\n");
        cr_skip_test("chromium is not installed (make deps installs it)");
    }
    Server s;
    server_start(&s, ARGS("--think", "2", "--tt-mb", "32"));
    char *pos;
    const char *argv[] = {OCSOLVE_BIN, "random", "--seed", "11", "14", "1", NULL};
    cr_assert_eq(run_prog(argv, &pos), 0);
    pos[strcspn(pos, " \n")] = '\0';
    Browser b;
    browser_start(&b, exe);
    char url[300];
    snprintf(url, sizeof url, "%s/?rules=original&position=%s", s.url, pos);
    browser_open(&b, url);
    cr_assert(browser_wait(&b, done_expr), "the page did not analyse %s", pos);
    /* two moves by the page's own controls: O first (the symbol toggle), then X */
    char *m1 = pick_move(&b, 'O');
    play_by_clicks(&b, m1);
    char *m2 = pick_move(&b, 'X');
    play_by_clicks(&b, m2);
    char *pieces = browser_eval(&b, "String(document.querySelectorAll('text.piece').length)");
    int before = 0;
    for (const char *c = pos; *c; c++) before += *c == 'X' || *c == 'O';
    cr_assert_eq(atoi(pieces), before + 2, "the board shows %s pieces", pieces);
    /* what the page shows, as text, against the solver on the same positions */
    char after[64];
    snprintf(after, sizeof after, "%s", pos);
    after[(m1[1] - 'a') + 6 * (m1[2] - '1')] = m1[0];
    after[(m2[1] - 'a') + 6 * (m2[2] - '1')] = m2[0];
    char *shown = browser_eval(&b, "[...document.querySelectorAll('text.val')]"
                                   ".map(t => t.dataset.move + '=' + t.textContent).join(';')");
    int checked = check_shown("original", after, (before + 2) % 2 == 0, shown);
    fprintf(stderr, "browser: %s then %s, %s: %d shown values agree with ocsolve solve\n", m1, m2, after, checked);
    cr_assert_geq(checked, 10, "only %d values shown decided", checked);
    free(shown), free(pieces), free(m1), free(m2), free(pos);
    browser_stop(&b);
    cr_assert_eq(server_stop(&s), 128 + SIGTERM);
}

Test(browser, the_lemmas_drawn_on_the_empty_board)
{
    char exe[512], path[600], url[300];
    if (!browser_find(exe, sizeof exe)) {
        fprintf(stderr, "browser test SKIPPED: chromium is not installed (make deps installs it)\n");
        cr_skip_test("chromium is not installed (make deps installs it)");
    }
    Server s;
    server_start(&s, ARGS("--think", "2", "--tt-mb", "32"));
    Browser b;
    browser_start(&b, exe);
    /* original, after X c3 and O a1: the ring answer X f6 */
    snprintf(url, sizeof url, "%s/?rules=original&position=-&moves=Xc3,Oa1", s.url);
    browser_open(&b, url);
    cr_assert(browser_wait(&b, done_expr), "the page did not analyse the position");
    char *rings = browser_eval(&b, "String(document.querySelectorAll('line.ring').length)");
    cr_assert_eq(atoi(rings), 10, "%s ring pairs drawn, not 10", rings);
    char *title = browser_eval(&b, "(document.querySelector(\"text[data-move='Xf6'] title\") || {}).textContent || ''");
    cr_assert(strstr(title, "answer to a1"), "X f6 is not shown as the answer to a1: '%s'", title);
    char *xf6 = browser_eval(&b, "document.querySelector(\"text[data-move='Xf6']\").textContent");
    cr_assert_eq(xf6[2], 'W', "X f6 shown as '%s'", xf6);
    const char *argv[] = {OCSOLVE_BIN, "solve", "--json", "--quiet", "--tt-mb", "32", "--time-limit", "60", "-",
                          "Xc3", "Oa1", "Xf6", NULL};
    char *json;
    cr_assert_eq(run_prog(argv, &json), 0);
    cr_assert(strstr(json, "\"result\":\"order\""), "the solver on - Xc3 Oa1 Xf6: %s", json);
    free(json);
    screenshot_path(path, sizeof path, "board.png");
    browser_screenshot(&b, path);
    /* exact-end: the pairing, 18 pairs */
    snprintf(url, sizeof url, "%s/?rules=exact-end&position=-", s.url);
    browser_open(&b, url);
    cr_assert(browser_wait(&b, done_expr), "the page did not analyse the exact-end board");
    char *pairs = browser_eval(&b, "String(document.querySelectorAll('line.opp, line.same').length)");
    cr_assert_eq(atoi(pairs), 18, "%s pairs drawn, not 18", pairs);
    char *value = browser_eval(&b, "document.getElementById('value').textContent");
    cr_assert(strstr(value, "Chaos wins"), "exact-end: '%s'", value);
    SolverSays t;
    solver_says("exact-end", 6, 5, "-", NULL, 60, false, &t);
    cr_assert_str_eq(t.winner, "chaos", "the solver on the exact-end board: %s", t.winner);
    screenshot_path(path, sizeof path, "pairing.png");
    browser_screenshot(&b, path);
    free(rings), free(title), free(xf6), free(pairs), free(value);
    browser_stop(&b);
    cr_assert_eq(server_stop(&s), 128 + SIGTERM);
}
