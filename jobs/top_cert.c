/* top_cert.c - certificates of a job-level search (top_cert.h). */
#include "top_cert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/moves.h"
#include "../engine/notation.h"
#include "../engine/symmetry.h"
#include "../solver/clock.h"


void topcert_init(TopCert *tc, const Rules *r, const DfpnConfig *cfg, const char *dir)
{
    memset(tc, 0, sizeof *tc);
    tc->r = r;
    tc->cfg = *cfg;
    tc->dir = dir;
}

bool topcert_stopped(TopCert *tc, Board b, const JobOutcome *out, char *err, int errlen)
{
    if (!tc->interrupt || !atomic_load(tc->interrupt)) return false;
    if (out && out->value != WINNER_NONE && out->cert == JOBRUN_CERT_WRITTEN) return false; /* finished first */
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, tc->r->n, pos);
    snprintf(err, (size_t)errlen,
             "stopped by a signal while proving %s again for its certificate (the files made so far stay in %s: "
             "run again to finish)",
             pos, tc->dir);
    tc->stopped = true;
    return true;
}

int topcert_runners(TopCert *tc, int threads, char *err, int errlen)
{
    size_t bytes = tc->mini_bytes ? tc->mini_bytes : (size_t)TOPCERT_MINI_MB << 20;
    if (!tc->mini_ready && jobrun_init(&tc->mini, tc->r, &tc->cfg, bytes, 1, tc->dir) == 0) tc->mini_ready = true;
    while (tc->mini_ready && tc->more_ready < threads - 1 &&
           jobrun_init(&tc->more[tc->more_ready], tc->r, &tc->cfg, bytes, 1, tc->dir) == 0)
        tc->more_ready++;
    if (tc->mini_ready && tc->more_ready >= threads - 1) return 0;
    snprintf(err, (size_t)errlen, "cannot allocate the certificate writer's table");
    return -1;
}

int topcert_outcome(const TopCert *tc, Board b, Winner w, const JobOutcome *out, char *err, int errlen)
{
    if (out->value == (uint8_t)w && out->cert == JOBRUN_CERT_WRITTEN) return 0;
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, tc->r->n, pos);
    if (out->value != (uint8_t)w && out->value != WINNER_NONE)
        snprintf(err, (size_t)errlen, "certificate of %s: the re-search found %s, the top tree %s", pos,
                 winner_name((Winner)out->value), winner_name(w));
    else snprintf(err, (size_t)errlen, "certificate of %s could not be written in %s", pos, tc->dir);
    return -1;
}

void topcert_tick(TopCert *tc, uint64_t pending)
{
    if (!tc->progress) return;
    double now = clock_seconds();
    if (now < tc->progress_next) return;
    tc->progress_next = now + tc->progress_every;
    tc->progress(tc->written + pending, tc->listed, tc->progress_arg);
}

void topcert_free(TopCert *tc)
{
    if (tc->mini_ready) jobrun_free(&tc->mini);
    tc->mini_ready = false;
    for (int i = 0; i < tc->more_ready; i++) jobrun_free(&tc->more[i]);
    tc->more_ready = 0;
    free(tc->probed);
    tc->probed = NULL;
    tc->nprobed = tc->capprobed = 0;
}

void topcert_path(const TopCert *tc, Board b, char *path, size_t len)
{
    char name[JOBRUN_NAME_MAX];
    jobrun_cert_name(tc->r, b, name);
    snprintf(path, len, "%s/%s", tc->dir, name);
}

bool topcert_trivial(const TopCert *tc, Board b)
{
    if (rules_status(tc->r, b) != WINNER_NONE) return true;
    if (!board_order_to_move(b)) return false;
    MoveList ml;
    moves_generate(b, tc->r->cells, &ml);
    for (int i = 0; i < ml.count; i++) {
        Board cb = b;
        board_place(&cb, ml.m[i]);
        if (rules_status(tc->r, cb) == WINNER_ORDER) return true;
    }
    return false;
}

bool topcert_have(const TopCert *tc, Board b)
{
    if (topcert_trivial(tc, b)) return true;
    char path[4096];
    topcert_path(tc, b, path, sizeof path);
    return access(path, R_OK) == 0;
}

Winner topcert_header(FILE *f, int n, Board *root, bool *has_root, int *horizon)
{
    char line[256];
    Winner w = WINNER_NONE;
    *has_root = false;
    if (horizon) *horizon = -1;
    for (int i = 0; i < 16 && fgets(line, sizeof line, f); i++) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strcmp(line, "winner order") == 0) w = WINNER_ORDER;
        else if (strcmp(line, "winner chaos") == 0) w = WINNER_CHAOS;
        else if (horizon && strncmp(line, "horizon ", 8) == 0) *horizon = atoi(line + 8);
        else if (strncmp(line, "root ", 5) == 0) {
            char e[NOTATION_ERR_LEN];
            int size;
            *has_root = notation_parse_position(line + 5, n, root, &size, e, sizeof e) == 0;
        }
    }
    return w;
}

int topcert_header_of(const TopCert *tc, const char *path, Board b, Winner *cw, int *horizon, bool *same)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    Board root;
    bool has_root;
    *cw = topcert_header(f, tc->r->n, &root, &has_root, horizon);
    fclose(f);
    *same = has_root && board_equal(sym_canonical(root, tc->r->n, NULL), sym_canonical(b, tc->r->n, NULL));
    return 0;
}

int topcert_agrees(const TopCert *tc, Board b, Winner w, char *err, int errlen)
{
    if (topcert_trivial(tc, b)) return 1;
    char path[4096];
    topcert_path(tc, b, path, sizeof path);
    Winner cw;
    int horizon;
    bool same;
    if (topcert_header_of(tc, path, b, &cw, &horizon, &same) != 0) return -1;
    if (cw == w && same && horizon < 0) return 1;
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, tc->r->n, pos);
    snprintf(err, (size_t)errlen, "the store says %s wins %s, its certificate %s %s", winner_name(w), pos, path,
             !same                ? "is of another position"
             : cw == WINNER_NONE  ? "names no winner"
             : cw != w            ? "says the other side"
                                  : "claims only a horizon (Order cannot win within some plies), not a win");
    return 0;
}

static int node_lines(const TopCert *tc, FILE *f, Board b, Winner w, const Board *kids, const Move *moves, int nkids,
                      const char *prefix)
{
    int n = tc->r->n;
    char pos[NOTATION_POS_LEN], mv[4];
    notation_format_position(b, n, pos);
    fprintf(f, "ocproof 2\n# written by ocsolve jobs: a top-tree node\nboard %d %d\nrules %s\nwinner %s\nroot %s\n", n,
            tc->r->k, rules_name(tc->r->rules), winner_name(w), pos);
    bool mover = board_order_to_move(b) == (w == WINNER_ORDER);
    if (mover && nkids > 0) {
        notation_format_move(moves[0], mv);
        fprintf(f, "%s %s\n", pos, mv);
        nkids = 1;
    }
    for (int i = 0; i < nkids; i++) {
        if (topcert_trivial(tc, kids[i])) continue;
        char name[JOBRUN_NAME_MAX];
        jobrun_cert_name(tc->r, kids[i], name);
        notation_format_position(kids[i], n, pos);
        fprintf(f, "%s see %s%s\n", pos, prefix, name);
    }
    return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

int topcert_node(TopCert *tc, Board b, Winner w, const Board *kids, const Move *moves, int nkids, const char *path,
                 const char *prefix, char *err, int errlen)
{
    char own[4096], tmp[4200];
    if (!path) {
        topcert_path(tc, b, own, sizeof own);
        path = own;
        prefix = "";
    }
    FILE *f = jobrun_open_tmp(path, tmp, sizeof tmp);
    int rc = f ? node_lines(tc, f, b, w, kids, moves, nkids, prefix) : -1;
    if (f && fclose(f) != 0) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    if (rc != 0) {
        if (f) remove(tmp);
        snprintf(err, (size_t)errlen, "cannot write the certificate %s", path);
        return -1;
    }
    tc->written++;
    topcert_tick(tc, 0);
    return 0;
}

int topcert_see_root(TopCert *tc, Board b, Winner w, const char *path, const char *prefix, char *err, int errlen)
{
    char tmp[4200];
    FILE *f = jobrun_open_tmp(path, tmp, sizeof tmp);
    int rc = f ? 0 : -1;
    if (f) {
        int n = tc->r->n;
        char pos[NOTATION_POS_LEN], name[JOBRUN_NAME_MAX];
        notation_format_position(b, n, pos);
        fprintf(f, "ocproof 2\n# written by ocsolve jobs: the root, decided as a whole\nboard %d %d\nrules %s\n"
                   "winner %s\nroot %s\n",
                n, tc->r->k, rules_name(tc->r->rules), winner_name(w), pos);
        if (!topcert_trivial(tc, b)) {
            jobrun_cert_name(tc->r, b, name);
            fprintf(f, "%s see %s%s\n", pos, prefix, name);
        }
        if (fflush(f) != 0 || ferror(f)) rc = -1;
        if (fclose(f) != 0) rc = -1;
        if (rc == 0 && rename(tmp, path) != 0) rc = -1;
        if (rc != 0) remove(tmp);
    }
    if (rc != 0) snprintf(err, (size_t)errlen, "cannot write the certificate %s", path);
    return rc;
}

/* The file at path for reading, if it is a regular file of at most
 * max_bytes: the folder is outside input, and a FIFO put at a certificate's
 * name would block fopen, /dev/zero or a huge file never end a copy
 * (O_NONBLOCK, then fstat on what was opened). NULL otherwise. */
static FILE *open_regular(const char *path, off_t max_bytes)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return NULL;
    struct stat st;
    FILE *f = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= max_bytes ? fdopen(fd, "r") : NULL;
    if (!f) close(fd);
    return f;
}

int topcert_root_move(const TopCert *tc, Board b, Board *pos, Move *m)
{
    char path[4096], line[256];
    topcert_path(tc, b, path, sizeof path);
    FILE *f = open_regular(path, TOPCERT_REROOT_MAX);
    if (!f) return -1;
    int rc = -1;
    /* the header's five lines (and comments), then the root's own line */
    for (int i = 0; i < 24 && fgets(line, sizeof line, f); i++) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || strncmp(line, "ocproof ", 8) == 0 || strncmp(line, "board ", 6) == 0 ||
            strncmp(line, "rules ", 6) == 0 || strncmp(line, "winner ", 7) == 0 || strncmp(line, "root ", 5) == 0)
            continue;
        char *sp = strchr(line, ' '), e[NOTATION_ERR_LEN];
        int size;
        if (!sp) break;
        *sp = '\0';
        if (notation_parse_position(line, tc->r->n, pos, &size, e, sizeof e) == 0 &&
            notation_parse_move(sp + 1, tc->r->n, m, e, sizeof e) == 0)
            rc = 0;
        break;
    }
    fclose(f);
    if (rc == 0 && (!board_equal(sym_canonical(*pos, tc->r->n, NULL), sym_canonical(b, tc->r->n, NULL)) ||
                    (board_occupied(*pos) >> move_cell(*m) & 1) || !(tc->r->cells >> move_cell(*m) & 1)))
        rc = -1; /* not b's line, or not a move there */
    return rc;
}

int topcert_reroot(TopCert *tc, Board from, Board to, char *err, int errlen)
{
    char src[4096], path[4096], tmp[4200], line[4300], pos[NOTATION_POS_LEN];
    topcert_path(tc, from, src, sizeof src);
    topcert_path(tc, to, path, sizeof path);
    notation_format_position(to, tc->r->n, pos);
    FILE *in = open_regular(src, TOPCERT_REROOT_MAX);
    FILE *f = in ? jobrun_open_tmp(path, tmp, sizeof tmp) : NULL;
    int rc = f ? 0 : -1;
    bool rooted = false;
    while (rc == 0 && fgets(line, sizeof line, in)) {
        if (!rooted && strncmp(line, "root ", 5) == 0) {
            rooted = true;
            if (fprintf(f, "root %s\n", pos) < 0) rc = -1;
        } else if (fputs(line, f) == EOF) {
            rc = -1;
        }
    }
    if (in && ferror(in)) rc = -1;
    if (!rooted) rc = -1;
    if (in) fclose(in);
    if (f && (fflush(f) != 0 || ferror(f))) rc = -1;
    if (f && fclose(f) != 0) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    if (rc != 0) {
        if (f) remove(tmp);
        snprintf(err, (size_t)errlen, "cannot write the certificate %s (from %s)", path, src);
        return -1;
    }
    tc->written++;
    topcert_tick(tc, 0);
    return 0;
}
