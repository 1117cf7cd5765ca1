/* certgen.h - for the verifier's tests: a small exhaustive solver over the
 * naive reference rules (ref.c) that writes ocproof certificates, with
 * canonical frames from ref_image, so the verifier is tested on
 * certificates that no solver code of the engine produced. */
#ifndef OCS_CERTGEN_H
#define OCS_CERTGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../verify/verify.h"
#include "ref.h"

typedef struct { uint64_t x, o; int v; } CgMapE;
typedef struct { CgMapE *e; size_t cap, count; } CgMap;

typedef struct {
    int winner, omit; /* omit: leave out Order's lines where Order wins at once */
    CgMap seen;
    char **line;
    int nlines;
    char header[256];
} CgCert;

extern CgMap cg_solved;                 /* positions solved so far (canonical) */
extern const char *const CG_RULES[3];
extern const char *const CG_EMPTY44;

void cg_masks(const RefPos *p, uint64_t *x, uint64_t *o);
int cg_map_get(CgMap *m, uint64_t x, uint64_t o); /* 0: absent (values are never 0) */
void cg_map_put(CgMap *m, uint64_t x, uint64_t o, int v);
int cg_pieces(const RefPos *p);
void cg_canon(const RefPos *p, RefPos *out); /* the least of the 16 images, by the cell characters */
int cg_solve(RefPos *p); /* REF_ORDER_WINS or REF_CHAOS_WINS */
/* Solves root (a position string) and writes the certificate for the true winner. */
int cg_make_cert(CgCert *c, int n, int k, int rules, const char *root, int omit);
/* The certificate text; line `skip` left out, line `swap` given the move `move`. */
char *cg_cert_text(const CgCert *c, int skip, int swap, const char *move);
char *cg_plain(const CgCert *c);
/* An ocproof 2 certificate on 5x5, k = 4 (rules: a REF_ rule set; winner
 * "order" or "chaos"): its header for root, then lines; malloc'd. */
char *cg_v2_text(int rules, const char *winner, const char *root, const char *lines);
char *cg_replace(const char *text, const char *from, const char *to);
int cg_check(const char *text, VerifyResult *r);
/* Does Order, to move at the ongoing p, win within three plies: some move
 * that completes a line, or after which every Chaos reply completes one
 * or leaves one that Order completes at once? By the reference rules
 * alone (the verifier finds such a win itself, verify.h). */
bool cg_order_wins_in_three(const RefPos *p);
/* Is an Order certificate's line "POSITION MOVE" (n x n, k, rules) one the
 * check cannot do without: its position not one where Order, to move,
 * wins within three plies? (Lines of any other form: true.) */
bool cg_line_needed(const char *line, int n, int k, int rules);
/* A random ongoing n x n position with `empties` empty cells that `want`
 * (REF_ORDER_WINS or REF_CHAOS_WINS) wins, per the test solver, into out. */
void cg_find_root(int n, int k, int rules, int empties, int want, uint64_t *rng, char *out);
/* text must be malformed with this error (after "SOURCE:"), both through
 * the library and through `ocsolve verify FILE` (exit 2, one line); tag
 * names the case in messages. */
void cg_expect_malformed(const char *text, const char *error, const char *tag);
void cg_free_cert(CgCert *c);

#endif
