/* test_verify_see_threads.c - certificates composed by 'POSITION see FILE'
 * lines checked on several threads (verify_file_threads): the result of
 * every thread count must be the one thread's, field for field. Trees of
 * see files in a job-level search's shape, valid for every rule set and
 * winner (files shared by transposition, nesting up to the bound), and
 * spoilt: files that the proof reaches (invalid, naming the file), ones it
 * never reaches (valid), cycles. Also the --threads and --progress-every
 * options of `ocsolve verify`. Certificates come from the tests' own
 * solver (certgen.h), never from the engine; see lines with one thread
 * are test_verify_see.c's. */
#include <criterion/criterion.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../verify/verify.h"
#include "certgen.h"
#include "runbin.h"
#include "testlib.h"

TestSuite(verify_see_threads, .timeout = 120);

static char dir[64];

static void write_file(const char *name, const char *text) { tl_write_text(dir, name, text); }

/* A job-level search's shape, in dir: top.txt for a root with the loser to
 * move hands each child to m<i>.txt; m<i>.txt gives the winner's move and
 * hands each reply of the loser to g<CANON>.txt, named by the position's
 * canonical form, so replies reached by transposition from several m
 * files share a g file; a g file is the test solver's certificate. */
enum { MAX_G = 400 };
typedef struct {
    int rules, want;
    char root[26];
    int nmid;          /* m0.txt ... */
    int ng;            /* g files */
    char g[MAX_G][26]; /* each one's canonical form */
    int glines[MAX_G]; /* its certificate's position lines */
    int shared;        /* see lines naming a g file that an earlier see line named */
} Tree;

static const char *wname(int want) { return want == REF_ORDER_WINS ? "order" : "chaos"; }

static FILE *open_in_dir(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    return f;
}

/* The least of the 16 images of p, as text. */
static void canon_text(const RefPos *p, char *out)
{
    RefPos best = *p;
    for (int s = 1; s < 16; s++) {
        RefPos q;
        ref_image(p, s, &q);
        if (memcmp(q.cell, best.cell, (size_t)(p->n * p->n)) < 0) best = q;
    }
    ref_format(&best, out);
}

/* False if p is, up to symmetry, one of seen[]; else adds it. */
static bool fresh_canon(char seen[][26], int *nseen, const RefPos *p)
{
    char c[26];
    canon_text(p, c);
    for (int i = 0; i < *nseen; i++)
        if (strcmp(seen[i], c) == 0) return false;
    snprintf(seen[(*nseen)++], 26, "%s", c);
    return true;
}

/* p: the loser to move. A see line in f for each reply (one for each up to symmetry). */
static void replies_write(Tree *t, FILE *f, const RefPos *p)
{
    char seen[64][26];
    int nseen = 0;
    for (int i = 0; i < 25; i++) {
        for (int s = 0; s < 2 && p->cell[i] == '.'; s++) {
            RefPos q = *p;
            q.cell[i] = "XO"[s];
            if (ref_status(&q) != REF_ONGOING || !fresh_canon(seen, &nseen, &q)) continue;
            char pos[26], canon[26], name[40];
            ref_format(&q, pos);
            canon_text(&q, canon);
            snprintf(name, sizeof name, "g%s.txt", canon);
            fprintf(f, "%s see %s\n", pos, name);
            int k = 0;
            while (k < t->ng && strcmp(t->g[k], canon) != 0) k++;
            if (k < t->ng) {
                t->shared++;
                continue;
            }
            cr_assert_lt(t->ng, MAX_G);
            CgCert c;
            cr_assert_eq(cg_make_cert(&c, 5, 4, t->rules, pos, 1), t->want, "%s: a reply with another winner", pos);
            char *text = cg_plain(&c);
            write_file(name, text);
            free(text);
            snprintf(t->g[t->ng], 26, "%s", canon);
            t->glines[t->ng++] = c.nlines;
            cg_free_cert(&c);
        }
    }
}

/* m<t->nmid>.txt for the child c (the winner to move). */
static void mid_write(Tree *t, const RefPos *c)
{
    char name[32], pos[26];
    snprintf(name, sizeof name, "m%d.txt", t->nmid);
    ref_format(c, pos);
    FILE *f = open_in_dir(name);
    fprintf(f, "ocproof 2\nboard 5 4\nrules %s\nwinner %s\nroot %s\n", CG_RULES[t->rules], wname(t->want), pos);
    CgCert cert;
    cr_assert_eq(cg_make_cert(&cert, 5, 4, t->rules, pos, 1), t->want, "%s: a child with another winner", pos);
    if (cert.nlines > 0) { /* else Order wins at once: no line, no file below */
        fprintf(f, "%s\n", cert.line[0]); /* the root's line (the test solver writes it first) */
        char lpos[32], mv[8];
        RefPos p;
        cr_assert_eq(sscanf(cert.line[0], "%31s %7s", lpos, mv), 2);
        cr_assert_eq(ref_parse(&p, 5, 4, t->rules, lpos), 0);
        p.cell[(mv[2] - '1') * 5 + (mv[1] - 'a')] = mv[0];
        if (ref_status(&p) == REF_ONGOING) replies_write(t, f, &p);
    }
    fclose(f);
    cg_free_cert(&cert);
}

/* A tree for a random root that `want` wins with the other side to move. */
static void tree_try(Tree *t, int rules, int want, uint64_t *rng)
{
    memset(t, 0, sizeof *t);
    t->rules = rules;
    t->want = want;
    cg_find_root(5, 4, rules, want == REF_ORDER_WINS ? 8 : 9, want, rng, t->root);
    RefPos r;
    cr_assert_eq(ref_parse(&r, 5, 4, rules, t->root), 0);
    FILE *top = open_in_dir("top.txt");
    fprintf(top, "ocproof 2\nboard 5 4\nrules %s\nwinner %s\nroot %s\n", CG_RULES[rules], wname(want), t->root);
    char seen[64][26];
    int nseen = 0;
    for (int i = 0; i < 25; i++) {
        for (int s = 0; s < 2 && r.cell[i] == '.'; s++) {
            RefPos c = r;
            c.cell[i] = "XO"[s];
            if (ref_status(&c) != REF_ONGOING || !fresh_canon(seen, &nseen, &c)) continue;
            char pos[26];
            ref_format(&c, pos);
            fprintf(top, "%s see m%d.txt\n", pos, t->nmid);
            mid_write(t, &c);
            t->nmid++;
        }
    }
    fclose(top);
}

/* tree_try until the tree has at least 4 g files, 2 of them with lines
 * (many roots are won at once in most lines: no g file below), in a
 * fresh dir each time. */
static void tree_write(Tree *t, int rules, int want, uint64_t *rng)
{
    for (int tries = 0; tries < 200; tries++) {
        tl_tmp_dir(dir, sizeof dir, "seepar");
        tree_try(t, rules, want, rng);
        int with = 0;
        for (int k = 0; k < t->ng; k++) with += t->glines[k] > 0;
        if (t->ng >= 4 && with >= 2) return;
        tl_rm_dir(dir);
    }
    cr_assert_fail("no root with a tree of 4 g files, 2 with lines");
}

/* The file checked with one thread and with `threads`: the two results
 * must agree in every field. Returns the status; *r gets the threaded result. */
static int check_threads(const char *name, int threads, VerifyResult *r)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    VerifyResult one;
    int rc1 = verify_file_threads(path, NULL, 1, &one), rc = verify_file_threads(path, NULL, threads, r);
    cr_expect_eq(rc1, one.status);
    cr_expect_eq(rc, r->status);
    cr_expect_eq(rc, rc1, "%s, %d threads: status %d [%s], one thread %d [%s]", name, threads, rc, r->error, rc1,
                 one.error);
    cr_expect_str_eq(r->error, one.error, "%s, %d threads", name, threads);
    cr_expect_eq(r->positions_checked, one.positions_checked, "%s, %d threads: positions %llu, one thread %llu", name,
                 threads, (unsigned long long)r->positions_checked, (unsigned long long)one.positions_checked);
    cr_expect(r->lines == one.lines && r->lines_used == one.lines_used, "%s, %d threads: lines", name, threads);
    cr_expect(r->n == one.n && r->k == one.k && r->rules == one.rules && r->winner == one.winner, "%s: header", name);
    cr_expect_str_eq(r->root, one.root, "%s, %d threads", name, threads);
    return rc;
}

static const int THREADS[] = {2, 3, 8};
enum { NTHREADS = sizeof THREADS / sizeof THREADS[0] };

/* Every thread count's result against one thread's, and the expected status. */
static void expect_all(const char *name, int status, const char *needle, const char *tag)
{
    for (int i = 0; i < NTHREADS; i++) {
        VerifyResult r;
        cr_expect_eq(check_threads(name, THREADS[i], &r), status, "%s, %d threads: %s", tag, THREADS[i], r.error);
        if (needle) cr_expect(strstr(r.error, needle), "%s, %d threads: '%s' not in: %s", tag, THREADS[i], needle, r.error);
    }
}

/* A chain c0.txt -> ... -> c<len-1>.txt -> top.txt, each file handing the root to the next. */
static void chain_write(const Tree *t, int len)
{
    for (int i = 0; i < len; i++) {
        char name[32], next[32], line[64];
        snprintf(name, sizeof name, "c%d.txt", i);
        if (i + 1 < len) snprintf(next, sizeof next, "c%d.txt", i + 1);
        else snprintf(next, sizeof next, "top.txt");
        snprintf(line, sizeof line, "%s see %s\n", t->root, next);
        char *text = cg_v2_text(t->rules, wname(t->want), t->root, line);
        write_file(name, text);
        free(text);
    }
}

/* Valid composed certificates, for every rule set and winner: the same
 * result on every thread count as on one; g files shared by see lines in
 * several files are proved once (the positions agree). Where Order wins
 * (original, exact: no position is left early, so every g file is
 * reached): nested 64 deep (the bound) still valid, 65 deep not, with
 * threads as without. */
Test(verify_see_threads, threads_valid_trees)
{
    uint64_t rng = 7;
    int shared = 0;
    for (int rules = 0; rules < 3; rules++) {
        for (int want = REF_ORDER_WINS; want <= REF_CHAOS_WINS; want++) {
            Tree *t = malloc(sizeof *t);
            tree_write(t, rules, want, &rng); /* in a fresh dir */
            shared += t->shared;
            expect_all("top.txt", VERIFY_VALID, NULL, t->root);
            if (rules < 2 && want == REF_ORDER_WINS) { /* every g file is reached: the tree is 2 levels deep */
                /* c0 is depth 0, top.txt depth 62, its m files 63, g files 64 */
                chain_write(t, 62);
                expect_all("c0.txt", VERIFY_VALID, NULL, "62 links");
                chain_write(t, 63);
                expect_all("c0.txt", VERIFY_INVALID, "nested deeper than 64", "63 links");
            }
            free(t);
            tl_rm_dir(dir);
        }
    }
    cr_expect_gt(shared, 0, "no g file named twice: sharing is not tested");
}

static char *read_in_dir(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot read %s", path);
    char *text = NULL;
    size_t cap = 0;
    ssize_t len = getdelim(&text, &cap, '\0', f);
    fclose(f);
    cr_assert_geq(len, 0);
    return text;
}

/* The text of the file's first line after the header (its root's line), newline included. */
static void first_line(const char *text, char *out, size_t size)
{
    const char *root = strstr(text, "\nroot ");
    cr_assert(root);
    const char *line = strchr(root + 1, '\n') + 1, *end = strchr(line, '\n');
    cr_assert(end, "no line after the header");
    snprintf(out, size, "%.*s", (int)(end - line + 1), line);
}

/* The first line after the header that an Order certificate of t's game
 * cannot do without (certgen.h cg_line_needed: not a position where Order
 * wins within three plies, which the check finds itself), into out;
 * false if none. */
static bool needed_line(const Tree *t, const char *text, char *out, size_t size)
{
    const char *root = strstr(text, "\nroot ");
    cr_assert(root);
    for (const char *line = strchr(root + 1, '\n') + 1, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        cr_assert(end, "a line without its end");
        snprintf(out, size, "%.*s", (int)(end - line + 1), line);
        if (t->want != REF_ORDER_WINS || cg_line_needed(out, 5, 4, t->rules)) return true;
    }
    return false;
}

/* Spoils the file by a cg_replace on its text, checks that top.txt is
 * invalid naming it (and `needle`) on every thread count, and puts it back. */
static void spoil(const char *name, const char *from, const char *to, const char *needle)
{
    char *good = read_in_dir(name), *bad = cg_replace(good, from, to);
    write_file(name, bad);
    expect_all("top.txt", VERIFY_INVALID, needle, name);
    expect_all("top.txt", VERIFY_INVALID, name, name); /* the message names the spoilt file */
    write_file(name, good);
    free(good), free(bad);
}

/* g files with lines: the first, the middle and the last one, spoilt in
 * turn: a line the check needs left out (needed_line; none where Order wins
 * every position of the file within three plies), the other winner, other
 * rules. */
static void spoil_g_files(const Tree *t)
{
    int with[MAX_G], n = 0;
    for (int k = 0; k < t->ng; k++)
        if (t->glines[k] > 0) with[n++] = k;
    cr_assert_gt(n, 0, "%s: no g file with lines", t->root);
    int pick[3] = {with[0], with[n / 2], with[n - 1]};
    for (int i = 0; i < 3; i++) {
        char name[40], line[64];
        snprintf(name, sizeof name, "g%s.txt", t->g[pick[i]]);
        char *text = read_in_dir(name);
        bool needed = needed_line(t, text, line, sizeof line);
        free(text);
        if (needed) spoil(name, line, "", "no certificate line");
        spoil(name, "winner order", "winner chaos", "claims chaos wins, not order");
        RefPos gr; /* under the other rules the file's root may have ended already (a run of five under exact) */
        cr_assert_eq(ref_parse(&gr, 5, 4, 1 - t->rules, t->g[pick[i]]), 0);
        spoil(name, t->rules == 0 ? "rules original" : "rules exact", t->rules == 0 ? "rules exact" : "rules original",
              ref_status(&gr) == REF_ONGOING ? "the certificate is for rules" : "the root position has already ended");
    }
}

/* Another g file's certificate (another root), and a missing g file. */
static void swap_and_remove_g(const Tree *t)
{
    char a[40], b[40], path[128];
    snprintf(a, sizeof a, "g%s.txt", t->g[0]);
    snprintf(b, sizeof b, "g%s.txt", t->g[t->ng - 1]);
    char *good = read_in_dir(a), *other = read_in_dir(b);
    write_file(a, other);
    expect_all("top.txt", VERIFY_INVALID, "is not the expected", a);
    snprintf(path, sizeof path, "%s/%s", dir, a);
    cr_assert_eq(unlink(path), 0);
    expect_all("top.txt", VERIFY_INVALID, "cannot open", a);
    write_file(a, good);
    free(good), free(other);
}

/* The first m file with the winner's move line, one the check needs
 * (needed_line), its line into line; -1 if none. */
static int needed_m_file(const Tree *t, char *line, size_t size)
{
    for (int i = 0; i < t->nmid; i++) {
        char name[32];
        snprintf(name, sizeof name, "m%d.txt", i);
        char *text = read_in_dir(name);
        bool has_move = strstr(text, "\nroot ") && strchr(strstr(text, "\nroot ") + 1, '\n')[1] != '\0';
        if (has_move) first_line(text, line, size);
        has_move = has_move && !strstr(line, " see ") && (t->want != REF_ORDER_WINS || cg_line_needed(line, 5, 4, t->rules));
        free(text);
        if (has_move) return i;
    }
    return -1;
}

/* An m file (needed_m_file) without its move line. */
static void spoil_m_file(const Tree *t)
{
    char name[32], line[64];
    int i = needed_m_file(t, line, sizeof line);
    cr_assert_geq(i, 0, "%s: no m file with a move line the check needs", t->root);
    snprintf(name, sizeof name, "m%d.txt", i);
    spoil(name, line, "", "no certificate line");
}

/* See lines the proof never reaches (positions with fewer pieces than the
 * root) to a malformed file, a missing one and a spoilt one, in top.txt
 * and in an m file: valid on every thread count, as with one thread. */
static void unreached_see_lines(const Tree *t)
{
    char g0[40], line[64];
    int k = 0;
    while (k < t->ng && t->glines[k] == 0) k++;
    cr_assert_lt(k, t->ng, "%s: no g file with lines", t->root);
    snprintf(g0, sizeof g0, "g%s.txt", t->g[k]);
    char *g = read_in_dir(g0);
    first_line(g, line, sizeof line);
    char *spoilt = cg_replace(g, line, ""); /* invalid where it is reached: its root has no line */
    write_file("spoilt.txt", spoilt);
    write_file("junk.txt", "not a certificate\n");
    /* 0, 1 and 2 pieces: never reached from a root with 15 or more */
    const char *extra = "......................... see junk.txt\nX........................ see nowhere.txt\n"
                        "XO....................... see spoilt.txt\n";
    char *top = read_in_dir("top.txt"), *m0 = read_in_dir("m0.txt");
    char *top2 = malloc(strlen(top) + strlen(extra) + 1), *m02 = malloc(strlen(m0) + 64);
    sprintf(top2, "%s%s", top, extra);
    sprintf(m02, "%sXX....................... see spoilt.txt\n", m0);
    write_file("top.txt", top2);
    write_file("m0.txt", m02);
    expect_all("top.txt", VERIFY_VALID, NULL, "unreached see lines");
    write_file("top.txt", top), write_file("m0.txt", m0);
    free(g), free(spoilt), free(top), free(m0), free(top2), free(m02);
}

/* Files that name themselves, directly or through another. */
static void cycles(const Tree *t)
{
    char line[64];
    snprintf(line, sizeof line, "%s see loop.txt\n", t->root);
    char *loop = cg_v2_text(t->rules, wname(t->want), t->root, line);
    write_file("loop.txt", loop);
    expect_all("loop.txt", VERIFY_INVALID, "nested deeper", "a file naming itself");
    snprintf(line, sizeof line, "%s see b.txt\n", t->root);
    char *a = cg_v2_text(t->rules, wname(t->want), t->root, line);
    snprintf(line, sizeof line, "%s see a.txt\n", t->root);
    char *b = cg_v2_text(t->rules, wname(t->want), t->root, line);
    write_file("a.txt", a);
    write_file("b.txt", b);
    expect_all("a.txt", VERIFY_INVALID, "nested deeper", "two files naming each other");
    free(loop), free(a), free(b);
}

/* Spoilt certificates that the proof reaches: invalid on every thread
 * count, with the one-thread error; spoilt ones it does not reach: valid. */
Test(verify_see_threads, threads_spoilt_trees)
{
    uint64_t rng = 11;
    for (int rules = 0; rules < 2; rules++) { /* Order wins: every g file is reached (no secured lines, no dead positions) */
        Tree *t = malloc(sizeof *t);
        char line[64];
        for (int tries = 0;; tries++) { /* a tree with an m file whose line the check needs (needed_m_file) */
            tree_write(t, rules, REF_ORDER_WINS, &rng); /* in a fresh dir */
            if (needed_m_file(t, line, sizeof line) >= 0) break;
            cr_assert_lt(tries, 20, "no tree with a needed m line");
            tl_rm_dir(dir);
        }
        expect_all("top.txt", VERIFY_VALID, NULL, t->root);
        spoil_g_files(t);
        swap_and_remove_g(t);
        spoil_m_file(t);
        expect_all("top.txt", VERIFY_VALID, NULL, "all put back");
        unreached_see_lines(t);
        cycles(t);
        free(t);
        tl_rm_dir(dir);
    }
}

/* --threads: a bad value is one line on stderr and exit 2; 1 and 2 check a file. */
Test(verify_see_threads, threads_option)
{
    tl_tmp_dir(dir, sizeof dir, "seeopt");
    CgCert c;
    cg_make_cert(&c, 4, 3, 0, CG_EMPTY44, 1);
    char *text = cg_plain(&c), path[128];
    write_file("p.txt", text);
    snprintf(path, sizeof path, "%s/p.txt", dir);
    expect_reject("--threads", "verify", "--threads", "0", path);
    expect_reject("--threads", "verify", "--threads", "257", path);
    expect_reject("--threads", "verify", "--threads", "-1", path);
    expect_reject("--threads", "verify", "--threads", "two", path);
    expect_reject("--threads", "verify", "--threads", "", path);
    expect_reject("--threads", "verify", "--threads=2x", path);
    expect_reject("--threads", "verify", path, "--threads");
    for (int i = 0; i < 2; i++) {
        Run r;
        expect_ok(&r, "verify", "--threads", i == 0 ? "1" : "2", path);
        cr_expect(strstr(r.out, "\nvalid\n"), "%s", r.out);
        run_free(&r);
    }
    free(text);
    cg_free_cert(&c);
    tl_rm_dir(dir);
}

/* --progress-every: a bad value is one line on stderr and exit 2. With 0,
 * on two threads, a line after every file's own check: the files checked
 * never count back nor pass the files known, the last line has every file
 * checked, and its positions are the total the report prints (each file
 * is checked on its own once); without the option, stderr stays empty. */
Test(verify_see_threads, progress_option)
{
    uint64_t rng = 11;
    Tree *t = malloc(sizeof *t);
    tree_write(t, 0, REF_CHAOS_WINS, &rng);
    char path[128];
    snprintf(path, sizeof path, "%s/top.txt", dir);
    expect_reject("--progress-every", "verify", "--progress-every", "x", path);
    expect_reject("--progress-every", "verify", "--progress-every", "-1", path);
    expect_reject("--progress-every", "verify", "--progress-every", "86401", path);
    Run r;
    expect_ok(&r, "verify", "--threads", "2", path);
    cr_expect_eq(r.errlen, 0, "stderr without --progress-every: %s", r.err);
    run_free(&r);
    expect_ok(&r, "verify", "--threads", "2", "--progress-every", "0", path);
    unsigned long long checked = 0, known = 0, positions = 0, total = 0;
    int lines = 0;
    for (const char *q = r.err; q && *q; q = strchr(q, '\n') ? strchr(q, '\n') + 1 : NULL) {
        unsigned long long a, b, p;
        double s;
        cr_assert_eq(sscanf(q, "%lfs files checked %llu of %llu known, %llu positions", &s, &a, &b, &p), 4,
                     "a progress line: [%.80s]", q);
        cr_expect(a >= checked && a <= b && p >= positions, "[%.80s] after %llu of %llu, %llu", q, checked, known,
                  positions);
        checked = a, known = b, positions = p, lines++;
    }
    const char *pc = strstr(r.out, "positions checked: ");
    cr_assert(pc && sscanf(pc, "positions checked: %llu", &total) == 1, "%s", r.out);
    cr_expect_geq(lines, 2, "%d progress lines for a tree of files", lines);
    cr_expect_eq(checked, known, "the last line: %llu of %llu files", checked, known);
    cr_expect_eq(positions, total, "the last line's positions, the report's");
    cr_expect(strstr(r.out, "\nvalid\n"), "%s", r.out);
    run_free(&r);
    free(t);
    tl_rm_dir(dir);
}
