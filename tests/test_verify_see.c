/* test_verify_see.c - 'POSITION see FILE' lines: a certificate that hands a
 * position to a certificate of its own (how a job-level solve composes its
 * jobs' proofs), checked with one thread: composed certificates, valid and
 * spoilt, and malformed see lines. Certificates come from the tests' own
 * solver (certgen.h), never from the engine. Trees of see files checked
 * on several threads are test_verify_see_threads.c's. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../verify/verify.h"
#include "certgen.h"
#include "testlib.h"

TestSuite(verify_see, .timeout = 120);

static char dir[64];

static void write_file(const char *name, const char *text) { tl_write_text(dir, name, text); }

static int check_file(const char *name, VerifyResult *r)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return verify_file(path, r);
}

/* A whole certificate whose root line hands the root to another file, and
 * one whose line for a position deep in the proof does: both valid; the
 * same with the file proving another position, a missing file, a spoilt
 * file, a file naming itself: invalid, naming the see line. */
Test(verify_see, composed_certificates)
{
    tl_tmp_dir(dir, sizeof dir, "see");
    uint64_t rng = 31;
    for (int rules = 0; rules < 3; rules++) {
        for (int want = REF_ORDER_WINS; want <= REF_CHAOS_WINS; want++) {
            char root[26], other[26];
            cg_find_root(5, 4, rules, 9, want, &rng, root);
            cg_find_root(5, 4, rules, 9, want, &rng, other);
            const char *w = want == REF_ORDER_WINS ? "order" : "chaos";
            CgCert c;
            cg_make_cert(&c, 5, 4, rules, root, 1);
            char *sub = cg_plain(&c);
            write_file("sub.txt", sub);
            char line[128];
            snprintf(line, sizeof line, "%s see sub.txt\n", root);
            char *top = cg_v2_text(rules, w, root, line);
            write_file("top.txt", top);
            VerifyResult r;
            cr_expect_eq(check_file("top.txt", &r), VERIFY_VALID, "%s: %s", root, r.error);
            cr_expect_eq(r.lines_used, 1);

            /* A position deep in the proof: one of the certificate's own
             * lines (not the first) replaced by a see line to a
             * certificate of that position alone. */
            if (c.nlines >= 3) {
                char pos[26] = {0};
                memcpy(pos, c.line[c.nlines / 2], 25);
                CgCert d;
                RefPos q;
                cr_assert_eq(ref_parse(&q, 5, 4, rules, pos), 0);
                cg_make_cert(&d, 5, 4, rules, pos, 1);
                cr_assert_eq(d.winner, c.winner, "%s: a line's position with another winner", pos);
                char *deep = cg_plain(&d);
                write_file("deep.txt", deep);
                char *mid = cg_plain(&c);
                char from[64], to[64];
                snprintf(from, sizeof from, "%s", c.line[c.nlines / 2]);
                snprintf(to, sizeof to, "%s see deep.txt", pos);
                char *composed = cg_replace(mid, from, to);
                composed[8] = '2'; /* ocproof 1 -> 2 */
                write_file("composed.txt", composed);
                cr_expect_eq(check_file("composed.txt", &r), VERIFY_VALID, "%s: %s", root, r.error);
                free(deep), free(mid), free(composed);
                cg_free_cert(&d);
            }

            /* The file proves another position. */
            cg_free_cert(&c);
            cg_make_cert(&c, 5, 4, rules, other, 1);
            char *wrong = cg_plain(&c);
            write_file("sub.txt", wrong);
            cr_expect_eq(check_file("top.txt", &r), VERIFY_INVALID, "%s", r.error);
            cr_expect(strstr(r.error, "see ") && strstr(r.error, "is not the expected"), "%s", r.error);
            /* The file is missing. */
            snprintf(line, sizeof line, "%s see missing.txt\n", root);
            char *miss = cg_v2_text(rules, w, root, line);
            write_file("miss.txt", miss);
            cr_expect_eq(check_file("miss.txt", &r), VERIFY_INVALID, "%s", r.error);
            cr_expect(strstr(r.error, "cannot open"), "%s", r.error);
            /* The file names itself. */
            snprintf(line, sizeof line, "%s see self.txt\n", root);
            char *self = cg_v2_text(rules, w, root, line);
            write_file("self.txt", self);
            cr_expect_eq(check_file("self.txt", &r), VERIFY_INVALID, "%s", r.error);
            cr_expect(strstr(r.error, "nested deeper"), "%s", r.error);
            free(sub), free(top), free(wrong), free(miss), free(self);
            cg_free_cert(&c);
        }
    }
    tl_rm_dir(dir);
}

/* Malformed see lines: exit 2 with one line, through the library and the
 * command line. */
Test(verify_see, malformed_lines)
{
    const char *root = ".........................";
    char text[512];
    snprintf(text, sizeof text, "ocproof 1\nboard 5 4\nrules original\nwinner order\nroot %s\n%s see x.txt\n", root, root);
    cg_expect_malformed(text, "6: a see line needs 'ocproof 2'", "version 1");
    snprintf(text, sizeof text, "ocproof 2\nboard 5 4\nrules original\nwinner order\nroot %s\n%s see\n", root, root);
    cg_expect_malformed(text, "6: a see line is 'POSITION see FILE', not 2 words", "no file");
    snprintf(text, sizeof text, "ocproof 2\nboard 5 4\nrules original\nwinner order\nroot %s\n%s see a b\n", root, root);
    cg_expect_malformed(text, "6: a see line is 'POSITION see FILE', not 4 words", "two files");
    snprintf(text, sizeof text, "ocproof 2\nboard 5 4\nrules original\nwinner order\nroot %s\n%s Xc3\n%s see x.txt\n",
             root, root, root);
    cg_expect_malformed(text, "7: conflicts with line 6", "a move line too");
}
