/* proof_share.c - the shared subtrees of job certificates (proof.h
 * ProofShare, argued there): a loser-to-move position's file of its own,
 * found in the folder or written now, and the see line that names it.
 *
 * Invariants: a file is named only after it is complete (written to a
 * temporary file and renamed) or found with a usable header
 * (share_usable); a file's positions all have more pieces than its root.
 */
#include "proof_writer.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/notation.h"

/* Is the file at path a certificate this writer may name for canon: the
 * header of this game and winner, no horizon, its root canon up to
 * symmetry? Reads at most its first 9 lines (ProofShare says why the
 * header is all that is trusted). */
static bool share_usable(const Writer *w, const char *path, Board canon)
{
    struct stat st; /* a FIFO or device there would block or never end: only a regular file is read */
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return false;
    FILE *f = fopen(path, "r");
    if (!f) return false;
    const Rules *r = w->r;
    char line[256], want_board[32], want_rules[32], want_winner[32];
    snprintf(want_board, sizeof want_board, "board %d %d", r->n, r->k);
    snprintf(want_rules, sizeof want_rules, "rules %s", rules_name(r->rules));
    snprintf(want_winner, sizeof want_winner, "winner %s", winner_name(w->winner));
    int seen = 0; /* bits: board, rules, winner, root */
    bool ok = true;
    for (int i = 0; i < 8 && ok && seen != 15 && fgets(line, sizeof line, f); i++) {
        line[strcspn(line, "\r\n")] = 0;
        if (i == 0) ok = strcmp(line, "ocproof 1") == 0 || strcmp(line, "ocproof 2") == 0;
        else if (strcmp(line, want_board) == 0) seen |= 1;
        else if (strcmp(line, want_rules) == 0) seen |= 2;
        else if (strcmp(line, want_winner) == 0) seen |= 4;
        else if (strncmp(line, "root ", 5) == 0) {
            Board rb;
            int n_out;
            char err[80];
            ok = notation_parse_position(line + 5, r->n, &rb, &n_out, err, (int)sizeof err) == 0 && n_out == r->n &&
                 board_equal(sym_canonical(rb, r->n, NULL), canon);
            seen |= 8;
        } else ok = line[0] == '#';
    }
    /* a horizon line would follow the four fields: one more line read */
    if (ok && seen == 15 && fgets(line, sizeof line, f)) ok = strncmp(line, "horizon", 7) != 0;
    fclose(f);
    return ok && seen == 15;
}

/* A shared subtree's lines while they are fewer than `at`: in memory
 * (mem, buf, len); then in the temporary file tmp, renamed onto path when
 * the subtree is complete. */
struct ShareSpill {
    FILE *mem;
    char *buf;
    size_t len;
    uint64_t at;
    const char *path;
    char tmp[4200];
    bool spilled; /* the lines are in the temporary file */
};

/* The temporary file for sp->path: 0 and *f, or -1 (w->err). */
static int spill_open(Writer *w, struct ShareSpill *sp, Board b, FILE **f)
{
    if (snprintf(sp->tmp, sizeof sp->tmp, "%s.tmp.XXXXXX", sp->path) >= (int)sizeof sp->tmp)
        return proof_fail(w, "path too long", b);
    int fd = mkstemp(sp->tmp);
    *f = fd >= 0 && fchmod(fd, 0644) == 0 ? fdopen(fd, "w") : NULL;
    if (!*f) {
        if (fd >= 0) close(fd), remove(sp->tmp);
        return proof_fail(w, "write error (a shared subtree's file)", b);
    }
    sp->spilled = true;
    return 0;
}

/* proof_line's step for a writer with a spill (Writer.spill): at the
 * subtree's size bound, its lines so far go to a temporary file, and the
 * rest follow them there. 0, or -1 (w->err). */
static int share_spill(Writer *w, Board b)
{
    struct ShareSpill *sp = w->spill;
    if (w->st.lines < sp->at) return 0;
    FILE *f;
    if (fflush(sp->mem) != 0) return proof_fail(w, "out of memory", b);
    if (spill_open(w, sp, b, &f) != 0) return -1;
    bool ok = fwrite(sp->buf, 1, sp->len, f) == sp->len;
    fclose(sp->mem);
    free(sp->buf);
    sp->mem = NULL;
    sp->buf = NULL;
    w->f = f;
    w->spill = NULL; /* from here on, straight to the file */
    return ok ? 0 : proof_fail(w, "write error", b);
}

/* b's file written at path through a temporary file, held in memory until
 * it reaches ProofShare.min_lines lines: 0; 1 when it stays under them (no
 * file; nothing written); -1 (w->err). */
static int share_write(Writer *w, Board b, Board canon, const Images *im, const char *path)
{
    struct ShareSpill sp = {.at = w->share->min_lines, .path = path};
    Writer sub = *w;
    sub.seen = (Seen){0};
    sub.st = (ProofStats){0};
    sub.root_pieces = board_count(b);
    sub.spill = NULL;
    if (sp.at > 1) {
        if (!(sp.mem = open_memstream(&sp.buf, &sp.len))) return proof_fail(w, "out of memory", b);
        sub.f = sp.mem;
        sub.spill = &sp;
        sub.spill_line = share_spill;
    } else if (spill_open(w, &sp, b, &sub.f) != 0) {
        return -1;
    }
    proof_header(&sub, canon, 2, "written by ocsolve: a subtree shared by the jobs' certificates");
    int rc = proof_visit(&sub, b, MOVE_NONE, im);
    free(sub.seen.slot); /* a failure's message is in w->err already: sub shares the buffer */
    if (!sp.spilled) { /* small (or failed before its file): nothing kept */
        fclose(sp.mem);
        free(sp.buf);
        return rc == 0 ? 1 : -1;
    }
    if (sp.mem) fclose(sp.mem), free(sp.buf); /* the spill failed after its file was made */
    FILE *f = sub.f;
    if (rc == 0 && (fflush(f) != 0 || ferror(f))) rc = proof_fail(w, "write error", b);
    if (fclose(f) != 0 && rc == 0) rc = proof_fail(w, "write error", b);
    if (rc == 0 && rename(sp.tmp, path) != 0) rc = proof_fail(w, "write error (renaming a shared subtree's file)", b);
    if (rc != 0) {
        remove(sp.tmp);
        return -1;
    }
    w->share->files++;
    w->share->lines += sub.st.lines;
    w->st.positions += sub.st.positions;
    w->st.lemmas += sub.st.lemmas;
    return 0;
}

static int share_subtree(Writer *w, Board b, Board canon, const Images *im)
{
    ProofShare *sh = w->share;
    char name[128], path[4096], pos[NOTATION_POS_LEN];
    sh->name(w->r, canon, name, sizeof name);
    if (snprintf(path, sizeof path, "%s/%s", sh->dir, name) >= (int)sizeof path) return proof_fail(w, "path too long", b);
    if (share_usable(w, path, canon)) {
        sh->shared++;
    } else {
        int rc = share_write(w, b, canon, im, path);
        if (rc != 0) return rc; /* 1: small, written in place by the caller */
    }
    if (proof_full(w)) return proof_fail(w, "the certificate would pass its line bound (--proof-max-lines)", b);
    notation_format_position(canon, w->r->n, pos);
    if (fprintf(w->f, "%s see %s\n", pos, name) < 0) return proof_fail(w, "write error", b);
    return proof_line(w, b);
}

void proof_share_init(ProofShare *sh, const char *dir, int lo, int hi,
                      void (*name)(const Rules *r, Board b, char *name, size_t len), uint64_t min_lines)
{
    *sh = (ProofShare){.dir = dir, .lo = lo, .hi = hi, .name = name, .min_lines = min_lines, .subtree = share_subtree};
}
