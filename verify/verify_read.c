/* verify_read.c - reading a certificate (verify_cert.h): its header, and
 * its position lines into the table of positions, keyed by the exact
 * canonical position; conflicting lines for one position are refused
 * here, and pairing lines are checked as they are read. What the lines
 * prove is checked afterwards (verify.c). Lines are read within the
 * limits of verify.h (bounded length, no NUL byte, at most so many lines
 * and bytes; vr_limits gives their defaults), and reading stops at the
 * first fault. Also a result's initial state (vr_result_init). */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "verify_cert.h"
#include "verify_nest.h"
#include "verify_pairing.h"

/* --- the table of positions: growable, open addressing --- */

#define EMPTY_WORD UINT64_MAX
static bool is_free(const Entry *e) { return e->x == EMPTY_WORD && e->o == EMPTY_WORD; }

static size_t slot_of(uint64_t x, uint64_t o, size_t cap)
{
    uint64_t h = x * 0x9E3779B97F4A7C15ULL ^ (o + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h = (h ^ (h >> 31)) * 0xBF58476D1CE4E5B9ULL;
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

/* The slot holding k, else the free slot where k would go (the table must not be full). */
static Entry *table_slot(const Table *t, VrKey k)
{
    size_t i = slot_of(k.x, k.o, t->cap);
    while (!is_free(&t->e[i]) && !(t->e[i].x == k.x && t->e[i].o == k.o)) i = (i + 1) & (t->cap - 1);
    return &t->e[i];
}

Entry *vc_table_find(const Table *t, VrKey k)
{
    Entry *e = t->cap ? table_slot(t, k) : NULL;
    return e && !is_free(e) ? e : NULL;
}

void vc_table_prefetch(const Table *t, VrKey k)
{
    if (t->cap) __builtin_prefetch(&t->e[slot_of(k.x, k.o, t->cap)]);
}

Entry *vc_table_add(Table *t, VrKey k, bool *fresh)
{
    Entry *e = vc_table_find(t, k);
    if ((*fresh = !e) == false) return e;
    if ((t->count + 1) * 10 > t->cap * 7) { /* grow to keep the load under 70% */
        Table big = {malloc((t->cap ? 2 * t->cap : 1024) * sizeof(Entry)), t->cap ? 2 * t->cap : 1024, t->count};
        if (!big.e) return NULL;
        memset(big.e, 0xFF, big.cap * sizeof(Entry));
        for (size_t i = 0; i < t->cap; i++)
            if (!is_free(&t->e[i])) *table_slot(&big, (VrKey){t->e[i].x, t->e[i].o}) = t->e[i];
        free(t->e);
        *t = big;
    }
    e = table_slot(t, k);
    *e = (Entry){k.x, k.o, 0, 0, 0};
    t->count++;
    return e;
}

int vc_error(VerifyResult *res, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->error, sizeof res->error, fmt, ap);
    va_end(ap);
    return res->status = status;
}

void vc_board_to_cells(Board b, int n, uint8_t *cells)
{
    memset(cells, VR_EMPTY, VR_MAX_CELLS);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            char ch = board_at(b, board_cell(r, c));
            cells[r * n + c] = ch == 'X' ? VR_X : ch == 'O' ? VR_O : VR_EMPTY;
        }
}

void vc_format_pos(const uint8_t *cells, int n, char out[NOTATION_POS_LEN])
{
    Board b = board_empty();
    for (int i = 0; i < n * n; i++)
        if (cells[i] != VR_EMPTY) b.s[cells[i] == VR_X ? PIECE_X : PIECE_O] |= 1ULL << board_cell(i / n, i % n);
    notation_format_position(b, n, out);
}

/* --- reading the certificate --- */

#define MALFORMED(line, ...) malformed(v, line, __VA_ARGS__)
static int malformed(Verifier *v, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int malformed(Verifier *v, long line, const char *fmt, ...)
{
    char msg[VERIFY_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0) return vc_error(v->res, VERIFY_MALFORMED, "%s:%ld: %s", v->name, line, msg);
    return vc_error(v->res, VERIFY_MALFORMED, "%s: %s", v->name, msg);
}

/* The next line (without its newline) into src->buf: 1; 0 at the end; -1
 * with the error set on a read error or a refusal (verify.h): more lines
 * or bytes than the limits, a NUL byte, a line over VERIFY_LINE_MAX. It
 * reads a byte at a time into a buffer of fixed size and stops at the
 * byte refused, so that no file (/dev/zero, one endless line) can make
 * it read on or grow; getc_unlocked: each thread reads its own FILE. */
static int next_line(Verifier *v, Source *src)
{
    long ln = src->line + 1;
    int c = getc_unlocked(src->f);
    if (c == EOF) return ferror(src->f) ? MALFORMED(ln, "read error: %s", strerror(errno)), -1 : 0;
    if ((uint64_t)ln > src->lim.max_lines)
        return MALFORMED(ln, "more than %llu lines, the limit for a file (--max-lines)",
                         (unsigned long long)src->lim.max_lines), -1;
    size_t len = 0;
    for (; c != EOF && c != '\n'; c = getc_unlocked(src->f)) {
        if (c == '\0') return MALFORMED(ln, "NUL byte at column %zu: not a text file", len + 1), -1;
        if (len == VERIFY_LINE_MAX)
            return MALFORMED(ln, "line longer than %d bytes, the limit for a line", VERIFY_LINE_MAX), -1;
        src->buf[len++] = (char)c;
    }
    if (c == EOF && ferror(src->f)) return MALFORMED(ln, "read error: %s", strerror(errno)), -1;
    src->buf[len] = '\0';
    src->bytes += len + (c == '\n');
    if (src->bytes > src->lim.max_bytes) /* the size was checked at open: the file grew since */
        return MALFORMED(ln, "more than %llu bytes, the limit for a file (--max-bytes)",
                         (unsigned long long)src->lim.max_bytes), -1;
    src->line = ln;
    return 1;
}

/* Splits at whitespace after cutting the comment; returns the word count (words past max are counted, not kept). */
static int split_words(char *s, char **w, int max)
{
    char *hash = strchr(s, '#');
    if (hash) *hash = '\0';
    int count = 0;
    char *save; /* strtok_r: other threads split their own lines */
    for (char *tok = strtok_r(s, " \t\r\v\f", &save); tok; tok = strtok_r(NULL, " \t\r\v\f", &save))
        if (count++ < max) w[count - 1] = tok;
    return count;
}

static bool whole_number(const char *s, int *out)
{
    if (*s < '0' || *s > '9' || strlen(s) > 3) return false;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9') return false;
    *out = atoi(s);
    return true;
}

static int parse_position(Verifier *v, long line, const char *what, const char *word, uint8_t *cells)
{
    Board b;
    int n;
    char err[NOTATION_ERR_LEN];
    if (notation_parse_position(word, v->g.n, &b, &n, err, sizeof err) != 0) return MALFORMED(line, "%s%s", what, err);
    vc_board_to_cells(b, v->g.n, cells);
    return 0;
}

/* Do the canonical images of (image(cells, sym) + move a) and (... + move b) agree? */
static bool same_outcome(const Verifier *v, const uint8_t *cells, int sym, uint8_t a, uint8_t b)
{
    uint8_t c[VR_MAX_CELLS] = {0};
    vr_image(v->g.n, sym, cells, c);
    if (c[a & 63] != VR_EMPTY || c[b & 63] != VR_EMPTY) return false;
    c[a & 63] = (a & 64) ? VR_O : VR_X;
    VrKey ka = vr_canonical(&v->sym, c, NULL);
    c[a & 63] = VR_EMPTY;
    c[b & 63] = (b & 64) ? VR_O : VR_X;
    return vr_key_equal(ka, vr_canonical(&v->sym, c, NULL));
}

static int add_see(Verifier *v, long line, char **w, int nw);

static const char BOTH_KINDS[] = "the same position (up to symmetry) with a move line and a lemma line";
static const char SEE_AND_MORE[] = "the same position (up to symmetry) with a see line and another line";

static int add_line(Verifier *v, long line, const char *pos_word, const char *move_word)
{
    uint8_t cells[VR_MAX_CELLS];
    int rc = parse_position(v, line, "", pos_word, cells), n = v->g.n;
    if (rc) return rc;
    Move m;
    char err[NOTATION_ERR_LEN];
    if (notation_parse_move(move_word, n, &m, err, sizeof err) != 0) return MALFORMED(line, "%s", err);
    int cell = cell_row(move_cell(m)) * n + cell_col(move_cell(m));
    uint8_t s = move_piece(m) == PIECE_X ? VR_X : VR_O;
    int sym;
    VrKey key = vr_canonical(&v->sym, cells, &sym);
    if (sym & 8) s = vr_swap(s);
    uint8_t cmove = (uint8_t)(v->sym.perm[sym & 7][cell] | (s == VR_O ? 64 : 0));
    v->res->lines++;
    bool fresh;
    Entry *e = vc_table_add(&v->tab, key, &fresh);
    if (!e) return vc_error(v->res, VERIFY_MALFORMED, "out of memory");
    if (e->flags & E_SEE) return MALFORMED(line, "conflicts with line %u: %s", e->line, SEE_AND_MORE);
    if (e->flags & E_LEMMA) return MALFORMED(line, "conflicts with line %u: %s", e->line, BOTH_KINDS);
    if (!(e->flags & E_LINE)) {
        e->flags |= E_LINE;
        e->move = cmove;
        e->line = line > (long)UINT32_MAX ? UINT32_MAX : (uint32_t)line;
    } else if (e->move != cmove && !same_outcome(v, cells, sym, e->move, cmove)) {
        return MALFORMED(line, "conflicts with line %u: the same position (up to symmetry) with another move", e->line);
    }
    return 0;
}

/* A ring line (verify_pairing.h, vr_ring_lemma), checked as it is read, as
 * a pairing line is: a failure is kept in v->bad_lemma; its small game's
 * search is charged to the verification's lemma budget (a hostile file of
 * many ring lines in ever other restrictions is refused, not searched for
 * days: verify_centre.h). 0, or an error. */
static int check_ring(Verifier *v, long line, const uint8_t *cells, const VrPair *pairs, int npairs)
{
    char why[VERIFY_ERR_LEN / 2], pos[NOTATION_POS_LEN];
    VrLemmaBudget budget = {v->nest ? v->nest->lemma_nodes : NULL, v->nest ? v->nest->lim->max_lemma_nodes : 0};
    int held = vr_ring_lemma(&v->g, v->winner == VERIFY_WINNER_CHAOS, cells, pairs, npairs,
                             budget.spent ? &budget : NULL, why, sizeof why);
    if (held == -1) return vc_error(v->res, VERIFY_MALFORMED, "out of memory");
    if (held == 1) return 0;
    vc_format_pos(cells, v->g.n, pos);
    if (held == -2) {
        v->res->refused = true;
        return vc_error(v->res, VERIFY_MALFORMED, "lemma ring at %s: %s (line %ld)", pos, why, line);
    }
    snprintf(v->bad_lemma, sizeof v->bad_lemma, "lemma ring at %s: %s (line %ld)", pos, why, line);
    return 0;
}

/* 'POSITION lemma NAME ...' (w[1] is "lemma"), nw words (all kept: nw <= W_MAX).
 * A pairing line is checked here, on the position as written and with its
 * pairs in that frame (the rules are symmetric, so it then holds for every
 * symmetric image the proof may reach); the first one that fails is kept in
 * v->bad_lemma and makes the certificate invalid once it has been read. */
static int add_lemma(Verifier *v, long line, char **w, int nw)
{
    if (v->version < 2) return MALFORMED(line, "a lemma line needs 'ocproof 2' (this certificate is 'ocproof 1')");
    if (nw == 2)
        return MALFORMED(line, "'lemma' needs a name, as in 'POSITION lemma centre' or 'POSITION lemma pairing PAIRS'");
    bool ring = strcmp(w[2], "ring") == 0, pairing = ring || strcmp(w[2], "pairing") == 0;
    if (strcmp(w[2], "subboard") == 0) return add_see(v, line, w, nw);
    if (!pairing && strcmp(w[2], "centre") != 0)
        return MALFORMED(line, "unknown lemma '%s' (centre, pairing, ring) or subboard", w[2]);
    if (!pairing && nw > 3 && strcmp(w[3], "see") == 0) return add_see(v, line, w, nw);
    if (!pairing && nw > 3)
        return MALFORMED(line, "a lemma line is 'POSITION lemma centre' or 'POSITION lemma centre see FILE', not %d words",
                         nw);
    uint8_t cells[VR_MAX_CELLS];
    int rc = parse_position(v, line, "", w[0], cells);
    if (rc) return rc;
    VrPair pairs[VR_MAX_PAIRS];
    int npairs = nw - 3;
    if (pairing) {
        char err[VERIFY_ERR_LEN / 2];
        if (vr_pairs_parse(w + 3, npairs, v->g.n, pairs, err, sizeof err) != 0) return MALFORMED(line, "%s", err);
    }
    v->res->lines++;
    bool fresh;
    Entry *e = vc_table_add(&v->tab, vr_canonical(&v->sym, cells, NULL), &fresh);
    if (!e) return vc_error(v->res, VERIFY_MALFORMED, "out of memory");
    if (e->flags & E_SEE) return MALFORMED(line, "conflicts with line %u: %s", e->line, SEE_AND_MORE);
    if (e->flags & E_LINE) return MALFORMED(line, "conflicts with line %u: %s", e->line, BOTH_KINDS);
    if ((e->flags & E_LEMMA) && !(e->flags & E_PAIRING) != !pairing)
        return MALFORMED(line, "conflicts with line %u: %s", e->line,
                         "the same position (up to symmetry) with a centre and a pairing or ring lemma line");
    if (!(e->flags & E_LEMMA)) { /* a repeated lemma line says nothing new (a pairing line is still checked) */
        e->flags |= E_LEMMA | (pairing ? E_PAIRING : 0);
        e->line = line > (long)UINT32_MAX ? UINT32_MAX : (uint32_t)line;
    }
    if (ring && !v->bad_lemma[0]) return check_ring(v, line, cells, pairs, npairs);
    if (pairing && !v->bad_lemma[0]) {
        char why[VERIFY_ERR_LEN * 5 / 8], pos[NOTATION_POS_LEN]; /* room for a pair not breakable, named */
        if (!vr_pairing_lemma(&v->g, v->winner == VERIFY_WINNER_CHAOS, cells, pairs, npairs, why, sizeof why)) {
            vc_format_pos(cells, v->g.n, pos);
            snprintf(v->bad_lemma, sizeof v->bad_lemma, "lemma pairing at %s: %s (line %ld)", pos, why, line);
        }
    }
    return 0;
}

/* A sub-board line's window, 'CELL M' (w[3], w[4]): its top-left cell
 * and side, read as written; whether the window fits the board and the
 * game is a condition of the lemma, checked where the proof reaches the
 * line (verify_subboard.h). 0, or malformed. */
static int parse_window(Verifier *v, long line, char **w, VrWindow *win)
{
    int cell, m;
    char err[NOTATION_ERR_LEN];
    if (notation_parse_cell(w[3], v->g.n, &cell, err, sizeof err) != 0)
        return MALFORMED(line, "the window's corner: %s", err);
    if (!whole_number(w[4], &m) || m < BOARD_MIN_N || m > BOARD_MAX_N)
        return MALFORMED(line, "bad window size '%s' (%d to %d)", w[4], BOARD_MIN_N, BOARD_MAX_N);
    *win = (VrWindow){cell_row(cell), cell_col(cell), m};
    return 0;
}

/* 'POSITION see FILE' (w[1] is "see", nw words), 'POSITION lemma centre
 * see FILE' (w[1] "lemma", w[3] "see"; the version checked by add_lemma)
 * or 'POSITION lemma subboard CELL M see FILE' (w[2] "subboard"). */
static int add_see(Verifier *v, long line, char **w, int nw)
{
    bool centre = strcmp(w[1], "lemma") == 0 && strcmp(w[2], "centre") == 0;
    bool subboard = strcmp(w[1], "lemma") == 0 && strcmp(w[2], "subboard") == 0;
    VrWindow win = {0, 0, 0};
    if (centre) {
        if (nw != 5) return MALFORMED(line, "a centre see line is 'POSITION lemma centre see FILE', not %d words", nw);
        w[2] = w[4]; /* the file, where a see line has it */
    }
    if (subboard) {
        if (nw != 7) return MALFORMED(line, "a sub-board line is 'POSITION lemma subboard CELL M see FILE', not %d words", nw);
        if (strcmp(w[5], "see") != 0)
            return MALFORMED(line, "a sub-board line is 'POSITION lemma subboard CELL M see FILE', not '%s' before the file",
                             w[5]);
        int rc = parse_window(v, line, w, &win);
        if (rc) return rc;
        w[2] = w[6];
    }
    if (v->version < 2) return MALFORMED(line, "a see line needs 'ocproof 2' (this certificate is 'ocproof 1')");
    if (!centre && !subboard && nw != 3) return MALFORMED(line, "a see line is 'POSITION see FILE', not %d words", nw);
    uint8_t cells[VR_MAX_CELLS];
    int rc = parse_position(v, line, "", w[0], cells);
    if (rc) return rc;
    v->res->lines++;
    bool fresh;
    Entry *e = vc_table_add(&v->tab, vr_canonical(&v->sym, cells, NULL), &fresh);
    if (!e) return vc_error(v->res, VERIFY_MALFORMED, "out of memory");
    if (e->flags & (E_LINE | E_LEMMA | E_SEE)) return MALFORMED(line, "conflicts with line %u: %s", e->line, SEE_AND_MORE);
    if (v->nsee == v->capsee) {
        size_t cap = v->capsee ? 2 * v->capsee : 16;
        See *big = realloc(v->see, cap * sizeof *big);
        if (!big) return vc_error(v->res, VERIFY_MALFORMED, "out of memory");
        v->see = big;
        v->capsee = cap;
    }
    See *s = &v->see[v->nsee];
    size_t len = strlen(v->dir) + strlen(w[2]) + 1;
    if (!(s->path = malloc(len))) return vc_error(v->res, VERIFY_MALFORMED, "out of memory");
    snprintf(s->path, len, "%s%s", w[2][0] == '/' ? "" : v->dir, w[2]);
    memcpy(s->cells, cells, sizeof s->cells);
    s->window = win;
    s->line = line > (long)UINT32_MAX ? UINT32_MAX : (uint32_t)line;
    v->nsee++;
    e->flags |= E_SEE | (centre || subboard ? E_LEMMA : 0) | (subboard ? E_SUBBOARD : 0);
    e->line = s->line;
    return 0;
}

/* The header fields; the first F_REQUIRED must all be there. 'horizon D'
 * is optional: without it a certificate claims a win, as before (verify.h). */
enum { F_BOARD, F_RULES, F_WINNER, F_ROOT, F_HORIZON, F_COUNT, F_REQUIRED = F_HORIZON };
static const char *const FIELD[F_COUNT] = {"board", "rules", "winner", "root", "horizon"};

typedef struct {
    bool magic, have[F_COUNT], done;
    long root_line;
    char *root_text;
} Header;

static int header_field(Verifier *v, Header *h, long line, int f, char **w, int nw)
{
    VerifyResult *res = v->res;
    if (h->have[f]) return MALFORMED(line, "duplicate header field '%s'", FIELD[f]);
    h->have[f] = true;
    if (nw != (f == F_BOARD ? 3 : 2))
        return MALFORMED(line, "'%s' needs %s", FIELD[f],
                         f == F_BOARD     ? "N and K, as in 'board 6 5'"
                         : f == F_RULES   ? "original, exact or exact-end"
                         : f == F_WINNER  ? "order or chaos"
                         : f == F_HORIZON ? "a number of plies, as in 'horizon 12'"
                                          : "one POSITION");
    if (f == F_BOARD) {
        int n, k;
        if (!whole_number(w[1], &n) || n < BOARD_MIN_N || n > BOARD_MAX_N)
            return MALFORMED(line, "bad board size '%s' (4 to 8)", w[1]);
        if (!whole_number(w[2], &k) || k < 3) return MALFORMED(line, "bad k '%s' (3 to N)", w[2]);
        if (k > n) return MALFORMED(line, "k=%d is larger than the %dx%d board", k, n, n);
        res->n = v->g.n = n;
        res->k = v->g.k = k;
    } else if (f == F_RULES) {
        if ((v->g.rules = vr_rules_parse(w[1])) < 0)
            return MALFORMED(line, "unknown rules '%s' (original, exact or exact-end)", w[1]);
        res->rules = v->g.rules;
    } else if (f == F_WINNER) {
        if (strcmp(w[1], "order") && strcmp(w[1], "chaos")) return MALFORMED(line, "bad winner '%s' (order or chaos)", w[1]);
        res->winner = v->winner = strcmp(w[1], "order") == 0 ? VERIFY_WINNER_ORDER : VERIFY_WINNER_CHAOS;
    } else if (f == F_HORIZON) {
        int d;
        if (!whole_number(w[1], &d) || d > VERIFY_HORIZON_MAX)
            return MALFORMED(line, "bad horizon '%s' (0 to %d plies)", w[1], VERIFY_HORIZON_MAX);
        res->horizon = v->horizon = d;
    } else {
        if (!(h->root_text = strdup(w[1]))) return vc_error(res, VERIFY_MALFORMED, "out of memory");
        h->root_line = line;
    }
    return 0;
}

/* All fields read (before the first position line, or at the end): check the root. */
static int finish_header(Verifier *v, Header *h, long line)
{
    char missing[64] = "";
    for (int f = 0; f < F_REQUIRED; f++)
        if (!h->have[f]) snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " %s", FIELD[f]);
    if (missing[0]) return MALFORMED(line, "missing header field(s):%s", missing);
    if (h->have[F_HORIZON] && v->winner != VERIFY_WINNER_CHAOS) /* Order's bound is its longest game */
        return MALFORMED(line, "'horizon' needs 'winner chaos' (it bounds the plies Chaos keeps every line off "
                               "the board)");
    h->done = true;
    vr_sym_init(&v->sym, v->g.n);
    vr_lines_init(&v->g, &v->lines);
    int rc = parse_position(v, h->root_line, "bad root: ", h->root_text, v->root);
    if (rc) return rc;
    vc_format_pos(v->root, v->g.n, v->res->root);
    int st = vr_status(&v->g, v->root);
    if (st != VR_ONGOING)
        return MALFORMED(h->root_line, "the root position has already ended (%s has won)",
                         st == VR_ORDER_WINS ? "Order" : "Chaos");
    return 0;
}

static bool looks_like_position(const char *w)
{
    if (strcmp(w, "-") == 0 || strcmp(w, "empty") == 0) return true;
    return strspn(w, "XO./") == strlen(w);
}

/* The most words a line may have: a pairing line with a pair for every two cells. */
enum { W_MAX = 3 + VR_MAX_PAIRS };

int vc_read_cert(Verifier *v, Source *src)
{
    Header h = {0};
    char *w[W_MAX];
    int rc = 0, got;
    if (!src->buf && !(src->buf = malloc(VERIFY_LINE_MAX + 1))) /* one line's room, for good */
        return vc_error(v->res, VERIFY_MALFORMED, "out of memory");
    while (rc == 0 && (got = next_line(v, src)) > 0) {
        long ln = src->line;
        int nw = split_words(src->buf, w, W_MAX);
        if (nw == 0) continue;
        if (!h.magic) {
            if (strcmp(w[0], "ocproof") != 0)
                rc = MALFORMED(ln, "not an ocproof certificate (the first line must be 'ocproof 1' or 'ocproof 2')");
            else if (nw != 2 || (strcmp(w[1], "1") != 0 && strcmp(w[1], "2") != 0))
                rc = MALFORMED(ln, "unsupported certificate version (only 'ocproof 1' or 'ocproof 2')");
            else
                v->version = w[1][0] - '0';
            h.magic = true;
            continue;
        }
        int f = 0;
        while (f < F_COUNT && strcmp(w[0], FIELD[f]) != 0) f++;
        if (f < F_COUNT) {
            rc = h.done ? MALFORMED(ln, "header field '%s' after the position lines", w[0]) : header_field(v, &h, ln, f, w, nw);
        } else if (!looks_like_position(w[0])) {
            rc = MALFORMED(ln, "unknown keyword '%s' (board, rules, winner, root, horizon or a 'POSITION MOVE' line)", w[0]);
        } else if (!h.done && (rc = finish_header(v, &h, ln)) != 0) {
        } else if (nw >= 2 && strcmp(w[1], "see") == 0) {
            rc = add_see(v, ln, w, nw);
        } else if (nw >= 2 && strcmp(w[1], "lemma") == 0) {
            rc = nw > W_MAX ? MALFORMED(ln, "a lemma line of %d words: more pairs than the board has cells for", nw)
                            : add_lemma(v, ln, w, nw);
        } else if (nw != 2) {
            rc = MALFORMED(ln, "a position line needs 'POSITION MOVE'%s, not %d word%s",
                           v->version >= 2 ? " or 'POSITION lemma centre|pairing ...'" : "", nw, nw == 1 ? "" : "s");
        } else {
            rc = add_line(v, ln, w[0], w[1]);
        }
    }
    if (rc == 0 && got < 0) rc = VERIFY_MALFORMED; /* next_line said why */
    if (rc == 0 && !h.magic) rc = MALFORMED(0, "empty file, not an ocproof certificate");
    if (rc == 0 && !h.done) rc = finish_header(v, &h, 0);
    free(h.root_text);
    return rc;
}

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
         : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : "of another kind";
}

FILE *vc_open_cert(const char *path, const VerifyLimits *lim, VerifyResult *out)
{
    struct stat st;
    int fd = -1;
    bool opened = stat(path, &st) == 0;
    if (opened && S_ISREG(st.st_mode)) opened = (fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) >= 0;
    if (opened && fd >= 0) opened = fstat(fd, &st) == 0;
    if (!opened) {
        vc_error(out, VERIFY_MALFORMED, "%s: cannot open: %s", path, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        vc_error(out, VERIFY_MALFORMED, "certificate '%s' is not a regular file (%s)", path, file_kind(st.st_mode));
    } else if ((uint64_t)st.st_size > lim->max_bytes) {
        vc_error(out, VERIFY_MALFORMED,
                 "certificate '%s' is %llu bytes, more than the limit of %llu for a file (--max-bytes)", path,
                 (unsigned long long)st.st_size, (unsigned long long)lim->max_bytes);
    } else { /* O_NONBLOCK stays: it changes nothing on a regular file, and a pseudo-file that would
              * block (/proc/kmsg) gives a read error instead */
        FILE *f = fdopen(fd, "r");
        if (f) return f;
        vc_error(out, VERIFY_MALFORMED, "%s: cannot open: %s", path, strerror(errno));
    }
    if (fd >= 0) close(fd);
    return NULL;
}

void vr_result_init(VerifyResult *out)
{
    memset(out, 0, sizeof *out);
    out->rules = -1;
    out->horizon = -1;
    out->longest = -1;
}

/* The limits lim with the defaults for its 0 fields (and for lim NULL). */
VerifyLimits vr_limits(const VerifyLimits *lim)
{
    VerifyLimits l = lim ? *lim : (VerifyLimits){0};
    if (!l.max_lemma_nodes) l.max_lemma_nodes = VERIFY_DEFAULT_MAX_LEMMA_NODES;
    if (!l.max_bytes) l.max_bytes = VERIFY_DEFAULT_MAX_BYTES;
    if (!l.max_lines) l.max_lines = VERIFY_DEFAULT_MAX_LINES;
    return l;
}
