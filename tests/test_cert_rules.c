/* test_cert_rules.c - scripts/cert-rules: a certificate restated for
 * another rule set where its proof carries over (Chaos's wins from
 * original to exact to exact-end, Order's the other way; the script's
 * header argues it). Certificates come from the test solver (certgen.h,
 * no engine code); the claim is checked against that solver's own value
 * under the new rules, and the restated file by the verifier under them.
 * The other direction is refused by the script, and the same restatement
 * made by hand is rejected by the verifier where the value differs. */
#include <criterion/criterion.h>

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../verify/verify.h"
#include "certgen.h"
#include "ref.h"
#include "testlib.h"

#ifdef OCS_SANITIZE
TestSuite(cert_rules, .timeout = 600); /* the test solver's brute force runs 4-5x slower */
#else
TestSuite(cert_rules, .timeout = 180);
#endif

static void script(char *out, size_t len)
{
    char sig[1024];
    snprintf(sig, sizeof sig, "%s", OCS_SIGNATURE_FILE);
    snprintf(out, len, "%s/scripts/cert-rules", dirname(dirname(sig)));
}

/* The test solver's value of root (5x5, k 4) under rules. */
static int value_under(const char *root, int rules)
{
    RefPos p;
    cr_assert_eq(ref_parse(&p, 5, 4, rules, root), 0);
    if (ref_status(&p) != REF_ONGOING) return ref_status(&p);
    free(cg_solved.e);
    cg_solved = (CgMap){0};
    return cg_solve(&p);
}

/* The certificate of root under `from`, in dir/top.ocproof (dir/certs
 * made, empty: the folder the script is handed). */
static void write_cert(const char *dir, int from, const char *root, char *path, size_t len)
{
    CgCert c;
    cg_make_cert(&c, 5, 4, from, root, 1);
    char *t = cg_cert_text(&c, -1, -1, NULL);
    tl_write_text(dir, "top.ocproof", t);
    free(t);
    cg_free_cert(&c);
    snprintf(path, len, "%s/top.ocproof", dir);
    char certs[400];
    snprintf(certs, sizeof certs, "%s/certs", dir);
    cr_assert_eq(mkdir(certs, 0777), 0);
}

static int run_script(const char *dir, const char *to)
{
    char sc[1200], top[400], certs[400];
    script(sc, sizeof sc);
    snprintf(top, sizeof top, "%s/top.ocproof", dir);
    snprintf(certs, sizeof certs, "%s/certs", dir);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
        execl(sc, sc, top, certs, to, (char *)NULL);
        _exit(127);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) != 126 && WEXITSTATUS(status) != 127, "%s did not run", sc);
    return WEXITSTATUS(status);
}

/* Every allowed restatement, on random 5x5 k = 4 positions the winner
 * wins under `from`: the test solver gives the same winner under `to`
 * (the argument, held against a brute force), and the restated file
 * verifies under `to` for that winner. */
Test(cert_rules, carries_over_and_verifies)
{
    static const struct { int from, to, want; } kinds[] = {
        {REF_ORIGINAL, REF_EXACT, REF_CHAOS_WINS},    {REF_ORIGINAL, REF_EXACT_END, REF_CHAOS_WINS},
        {REF_EXACT, REF_EXACT_END, REF_CHAOS_WINS},   {REF_EXACT_END, REF_EXACT, REF_ORDER_WINS},
        {REF_EXACT_END, REF_ORIGINAL, REF_ORDER_WINS}, {REF_EXACT, REF_ORIGINAL, REF_ORDER_WINS},
    };
    uint64_t rng = 5122029;
    int checked = 0;
    for (int i = 0; i < 6; i++)
        for (int round = 0; round < 4; round++) {
            char root[65], dir[256], path[400];
            cg_find_root(5, 4, kinds[i].from, 9 + round % 2, kinds[i].want, &rng, root);
            RefPos p;
            ref_parse(&p, 5, 4, kinds[i].to, root);
            if (ref_status(&p) != REF_ONGOING) continue; /* won already there: no certificate to check */
            cr_assert_eq(value_under(root, kinds[i].to), kinds[i].want, "%s: %s under %s, not under %s", root,
                         kinds[i].want == REF_ORDER_WINS ? "order" : "chaos", CG_RULES[kinds[i].from],
                         CG_RULES[kinds[i].to]);
            tl_tmp_dir(dir, sizeof dir, "cert-rules");
            write_cert(dir, kinds[i].from, root, path, sizeof path);
            cr_assert_eq(run_script(dir, CG_RULES[kinds[i].to]), 0, "%s: %s to %s", root, CG_RULES[kinds[i].from],
                         CG_RULES[kinds[i].to]);
            VerifyExpect x = {5, 4, kinds[i].to,
                              kinds[i].want == REF_ORDER_WINS ? VERIFY_WINNER_ORDER : VERIFY_WINNER_CHAOS, root};
            VerifyResult v;
            cr_assert_eq(verify_file_ex(path, &x, &v), VERIFY_VALID, "%s restated %s to %s: %s", root,
                         CG_RULES[kinds[i].from], CG_RULES[kinds[i].to], v.error);
            checked++;
            char certs[400];
            snprintf(certs, sizeof certs, "%s/certs", dir);
            tl_rm_dir(certs);
            tl_rm_dir(dir);
        }
    cr_log_info("%d restated certificates verified", checked);
    cr_assert_geq(checked, 18);
}

/* The other direction: the script refuses it (exit 2, the file
 * unchanged); made by hand on a position whose value differs between the
 * two rule sets, the verifier rejects it. */
Test(cert_rules, the_other_way_is_refused_and_rejected)
{
    uint64_t rng = 5122030;
    int rejected = 0;
    for (int t = 0; t < 400 && rejected < 4; t++) {
        bool order = t % 2 == 0; /* an Order win under original, Chaos's under exact; or the reverse way */
        int from = order ? REF_ORIGINAL : REF_EXACT_END, to = REF_EXACT;
        char root[65], dir[256], path[400];
        cg_find_root(5, 4, from, 10, order ? REF_ORDER_WINS : REF_CHAOS_WINS, &rng, root);
        if (value_under(root, to) != (order ? REF_CHAOS_WINS : REF_ORDER_WINS)) continue;
        RefPos p;
        ref_parse(&p, 5, 4, to, root);
        if (ref_status(&p) != REF_ONGOING) continue;
        tl_tmp_dir(dir, sizeof dir, "cert-rules-back");
        write_cert(dir, from, root, path, sizeof path);
        FILE *f = fopen(path, "r");
        cr_assert(f);
        char before[1 << 16];
        size_t nb = fread(before, 1, sizeof before - 1, f);
        before[nb] = '\0';
        fclose(f);
        cr_assert_eq(run_script(dir, CG_RULES[to]), 2, "%s: %s to %s was not refused", root, CG_RULES[from],
                     CG_RULES[to]);
        f = fopen(path, "r");
        char after[1 << 16];
        size_t na = fread(after, 1, sizeof after - 1, f);
        after[na] = '\0';
        fclose(f);
        cr_assert_str_eq(before, after, "the refused file was changed");
        char from_line[64], to_line[64];
        snprintf(from_line, sizeof from_line, "rules %s\n", CG_RULES[from]);
        snprintf(to_line, sizeof to_line, "rules %s\n", CG_RULES[to]);
        char *forced = cg_replace(before, from_line, to_line);
        VerifyResult v;
        cr_assert_neq(verify_text(forced, &v), VERIFY_VALID, "%s: a %s win under %s accepted under %s", root,
                      order ? "order" : "chaos", CG_RULES[from], CG_RULES[to]);
        free(forced);
        rejected++;
        char certs[400];
        snprintf(certs, sizeof certs, "%s/certs", dir);
        tl_rm_dir(certs);
        tl_rm_dir(dir);
    }
    cr_assert_geq(rejected, 4);
}

/* scripts/claims-variants --check refuses a variants table that breaks
 * the order above (an Order win under a weaker rule set beside a Chaos
 * win under a stronger one for the same board), on a copy of the
 * committed table with one value turned; the committed one passes. */
Test(cert_rules, the_table_keeps_the_order)
{
    char sc[1200], dir[256], cmd[6000];
    script(sc, sizeof sc);
    char *repo = dirname(dirname(sc)); /* scripts/cert-rules -> the repository */
    tl_tmp_dir(dir, sizeof dir, "claims-order");
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/scripts %s/results/claims && cp %s/scripts/claims-variants %s/scripts/ && "
             "cp %s/results/claims/variants.csv %s/results/claims/variants-long.csv %s/results/claims/ && "
             "cp %s/results/CLAIMS.md %s/results/",
             dir, dir, repo, dir, repo, repo, dir, repo, dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "%s/scripts/claims-variants --check >/dev/null 2>&1", dir);
    cr_assert_eq(system(cmd), 0, "the committed table fails its own check");
    /* 7x7 k = 7 is a Chaos win under every rule set: call it Order's under exact-end */
    snprintf(cmd, sizeof cmd, "sed -i 's/^7,7,exact-end,chaos,/7,7,exact-end,order,/' %s/results/claims/variants.csv",
             dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/scripts/claims-variants --check 2>&1 | grep -q 'breaks the order'", dir);
    cr_assert_eq(system(cmd), 0, "a table with an Order win under exact-end and Chaos's under exact passed");
    /* The runs replaced by one run of an open board (a quoted method
     * with commas, as the script writes them), whatever runs the
     * committed file holds: the open boards' table is stale, refused. */
    snprintf(cmd, sizeof cmd,
             "cp %s/results/claims/variants.csv %s/results/claims/ && "
             "sed -i 1q %s/results/claims/variants-long.csv && "
             "echo '8,6,exact,-,\"jobs (workers: 2, 512 MiB table, --certs-later; exit 0)\",60.0,1000,3,0,unknown,5,6,"
             "Xd4=5/6,1.0-1.0,2026-12-07T00:00,build/ocsolve jobs' >> %s/results/claims/variants-long.csv && "
             "%s/scripts/claims-variants --check 2>&1 | grep -q 'not the CSVs'",
             repo, dir, dir, dir, dir);
    cr_assert_eq(system(cmd), 0, "a stale open-boards table passed");
    /* Rewritten, the board's row adds that run to the first short one
     * (variants.csv: 0.46 M nodes in 60.1 s, pn 52 738, dn 71 240), the
     * quoted method's commas notwithstanding: worked out by hand. */
    snprintf(cmd, sizeof cmd,
             "%s/scripts/claims-variants && grep -qxF '| 8 | 6 | exact | 60 | 60 | 2 | 0.5 M | 5 / 6 | 2026-12-07T00:00 |' "
             "%s/results/CLAIMS.md",
             dir, dir);
    cr_assert_eq(system(cmd), 0, "the open boards' row of 8x8 k6 exact is not the one worked out by hand");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
