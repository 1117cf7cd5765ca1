/* verify.c - see verify.h. Reading the certificate into a table keyed by
 * canonical position, then a depth-first check of the proof tree from the
 * root; see lines' files are checked by the same code, nested (prove_see)
 * or, with threads, first each on its own (the pre-pass, verify_par.c). The
 * game itself is judged only by verify_rules.*, the centre lemma by
 * verify_centre.*, the pairing lemma by verify_pairing.*. */
#include "verify.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../engine/notation.h"
#include "verify_subs.h"
#include "verify_centre.h"
#include "verify_pairing.h"
#include "verify_rules.h"

_Static_assert((int)VERIFY_POS_LEN == (int)NOTATION_POS_LEN, "position text buffers");

/* --- a growable open-addressing table keyed by the exact canonical key:
 * the certificate's lines and the positions already proved, in one --- */

typedef struct {
    uint64_t x, o;  /* the key; x == o == EMPTY_WORD marks a free slot (X and O never overlap) */
    uint32_t line;  /* certificate line number (with E_LINE or E_LEMMA) */
    uint8_t move;   /* a move line's move in the canonical frame: cell r*n+c, bit 6 set for O */
    uint8_t flags;  /* E_* */
} Entry;

/* A certificate move line is known for the position; the proof has
 * followed its line; the winner is proved to win from the position; a
 * certificate lemma line ('POSITION lemma centre' or 'POSITION lemma
 * pairing ...') is known for it; with E_LEMMA, the lemma is pairing (else
 * centre). A pairing line is checked when it is read (add_lemma), so its
 * entry keeps no pairs. */
enum { E_LINE = 1, E_USED = 2, E_DONE = 4, E_LEMMA = 8, E_PAIRING = 16, E_SEE = 32 };

/* 'POSITION see FILE' lines, in line order (so found by line number): the
 * file, resolved against the certificate's folder, and the position as
 * written (the sub-certificate's root). */
typedef struct {
    uint32_t line;
    char *path;
    uint8_t cells[VR_MAX_CELLS];
} See;


typedef struct {
    Entry *e;
    size_t cap, count; /* cap is a power of two */
} Table;

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

static Entry *table_find(const Table *t, VrKey k)
{
    Entry *e = t->cap ? table_slot(t, k) : NULL;
    return e && !is_free(e) ? e : NULL;
}

/* The entry for k, added (fields zeroed, *fresh = true) if missing; NULL when out of memory. */
static Entry *table_add(Table *t, VrKey k, bool *fresh)
{
    Entry *e = table_find(t, k);
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

/* --- the state of one verification (the sub-certificates: verify_subs.h) --- */

typedef struct {
    VerifyResult *res;
    const char *name;         /* source name for malformed errors */
    VrGame g;
    int winner;               /* VERIFY_WINNER_* */
    int version;              /* the certificate's: 1 or 2 */
    VrSym sym;
    Table tab;
    uint8_t root[VR_MAX_CELLS];
    uint8_t cells[VR_MAX_CELLS]; /* the position being checked, in the root's frame */
    char text[NOTATION_POS_LEN];
    char bad_lemma[VERIFY_ERR_LEN]; /* the first pairing line that failed when read, "" if none */
    Nest *nest;
    char dir[4096];                 /* its folder, with a trailing '/'; "" for text */
    See *see;
    size_t nsee, capsee;
} Verifier;


static int set_error(VerifyResult *res, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int set_error(VerifyResult *res, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->error, sizeof res->error, fmt, ap);
    va_end(ap);
    return res->status = status;
}
#define invalid(v, ...) set_error((v)->res, VERIFY_INVALID, __VA_ARGS__)

/* Board <-> cell array, through the notation's Board layout. */
static void board_to_cells(Board b, int n, uint8_t *cells)
{
    memset(cells, VR_EMPTY, VR_MAX_CELLS);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            char ch = board_at(b, board_cell(r, c));
            cells[r * n + c] = ch == 'X' ? VR_X : ch == 'O' ? VR_O : VR_EMPTY;
        }
}

static void format_pos(const uint8_t *cells, int n, char out[NOTATION_POS_LEN])
{
    Board b = board_empty();
    for (int i = 0; i < n * n; i++)
        if (cells[i] != VR_EMPTY) b.s[cells[i] == VR_X ? PIECE_X : PIECE_O] |= 1ULL << board_cell(i / n, i % n);
    notation_format_position(b, n, out);
}

/* --- the proof check --- */

/* The position being checked, as text (valid until the next call). */
static const char *here(Verifier *v)
{
    format_pos(v->cells, v->g.n, v->text);
    return v->text;
}

static const char *const WINNER_NAME[3] = {"?", "order", "chaos"};

/* The entry of key for this verification's game and winner with that root, or SIZE_MAX. */
static size_t sub_find(const SubSet *ss, const char *key, const Verifier *v, VrKey root)
{
    Sub like = {.n = v->g.n, .k = v->g.k, .rules = v->g.rules, .winner = v->winner, .root = root};
    return vsub_find(ss, key, &like);
}

/* The See of line `line` (see[] is in line order). */
static const See *see_of(const Verifier *v, uint32_t line)
{
    size_t lo = 0, hi = v->nsee;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v->see[mid].line < line) lo = mid + 1;
        else hi = mid;
    }
    return &v->see[lo];
}

/* In the pre-pass: the see line's file is queued (once for every see line
 * naming it, as the same sub-certificate) and noted as one this file's
 * proof rests on; the branch is taken as proved, as a file proved before
 * is, and settle() proves this file only when that one is proved. A file
 * that cannot be found fails this check (the sequential pass says how). */
static int defer_see(Verifier *v, Entry *e, const See *s)
{
    Prepass *pp = v->nest->pre;
    v->nest->saw_see = true;
    struct stat st;
    Sub fresh = {.key = vsub_key(s->path), .path = strdup(s->path), .n = v->g.n, .k = v->g.k, .rules = v->g.rules,
                 .winner = v->winner, .root = vr_canonical(&v->sym, s->cells, NULL), .state = S_QUEUED,
                 .bytes = stat(s->path, &st) == 0 ? (int64_t)st.st_size : 0};
    format_pos(s->cells, v->g.n, fresh.root_text);
    int rc = 0;
    pthread_mutex_lock(&pp->mu);
    size_t i = fresh.key ? sub_find(pp->subs, fresh.key, v, fresh.root) : SIZE_MAX;
    if (i == SIZE_MAX && fresh.key && fresh.path && (i = vsub_add(pp->subs, &fresh)) != SIZE_MAX) {
        fresh.key = fresh.path = NULL; /* taken */
        pthread_cond_signal(&pp->cv);
    }
    Sub *t = &pp->subs->s[v->nest->task];
    if (i != SIZE_MAX && t->ndep == t->capdep) {
        size_t cap = t->capdep ? 2 * t->capdep : 8, *big = realloc(t->dep, cap * sizeof *big);
        if (big) t->dep = big, t->capdep = cap;
    }
    if (i != SIZE_MAX && t->ndep < t->capdep) t->dep[t->ndep++] = i;
    else rc = invalid(v, "see %s: not found, or out of memory", s->path);
    pthread_mutex_unlock(&pp->mu);
    free(fresh.key), free(fresh.path);
    if (rc == 0) e->flags |= E_DONE;
    return rc;
}

/* A game the proof follows ends (Order wins) with `rest` empty cells
 * left: the longest game's count (verify_subs.h). Order certificates only. */
static void game_ends(Verifier *v, int rest)
{
    if (v->winner == VERIFY_WINNER_ORDER && rest < v->nest->rest) v->nest->rest = rest;
}

/* A proved see line: the branch is done, this file's proof went 1 +
 * height levels below it, and the file's games end with `rest` or more
 * empty cells left. */
static void see_done(Verifier *v, Entry *e, int height, int rest)
{
    e->flags |= E_DONE;
    if (height + 1 > v->nest->height) v->nest->height = height + 1;
    game_ends(v, rest);
}

/* Remembers a sub-certificate proved by checking it here (entry i if the
 * pre-pass had one; takes key): counted, as its positions were. On no
 * memory it is only not remembered, which costs time, never a result. */
static void sub_proved(SubSet *ss, size_t i, char *key, const Verifier *v, VrKey root, const Nest *nest)
{
    if (ss && i != SIZE_MAX) {
        ss->s[i].state = S_PROVED, ss->s[i].counted = true, ss->s[i].height = nest->height;
        ss->s[i].rest = nest->rest;
    } else if (ss && key) {
        Sub s = {.key = key, .n = v->g.n, .k = v->g.k, .rules = v->g.rules, .winner = v->winner, .root = root,
                 .state = S_PROVED, .counted = true, .height = nest->height, .rest = nest->rest};
        if (vsub_add(ss, &s) != SIZE_MAX) return;
    }
    free(key);
}

/* A position with a 'see' line: its certificate, checked on its own (its
 * own table, freed after) as a proof that the same winner wins the
 * position as written, under the same game, one level deeper. A file
 * proved already for this (sub_find) counts when its levels fit here. */
static int prove_see(Verifier *v, Entry *e)
{
    if (!(e->flags & E_USED)) e->flags |= E_USED, v->res->lines_used++;
    const See *s = see_of(v, e->line);
    if (v->nest->pre) return defer_see(v, e, s);
    char pos[NOTATION_POS_LEN];
    format_pos(s->cells, v->g.n, pos);
    int depth = v->nest->depth + 1;
    if (depth > SEE_MAX_DEPTH)
        return invalid(v, "see %s at %s (line %u): certificates nested deeper than %d (one names itself?)", s->path, pos,
                       e->line, SEE_MAX_DEPTH);
    SubSet *ss = v->nest->subs;
    VrKey want = vr_canonical(&v->sym, s->cells, NULL);
    char *key = ss ? vsub_key(s->path) : NULL;
    size_t i = key ? sub_find(ss, key, v, want) : SIZE_MAX;
    if (i != SIZE_MAX && ss->s[i].state == S_PROVED && depth + ss->s[i].height <= SEE_MAX_DEPTH) {
        free(key);
        v->res->positions_checked += vsub_count(ss, i); /* 0 when this verification counted it already */
        see_done(v, e, ss->s[i].height, ss->s[i].rest);
        return 0;
    }
    VerifyResult *sub = malloc(sizeof *sub);
    if (!sub) return free(key), set_error(v->res, VERIFY_MALFORMED, "out of memory");
    VerifyExpect x = {v->g.n, v->g.k, v->g.rules, v->winner, pos};
    Nest nest = vnest(depth, ss, NULL, 0);
    int rc = vr_verify_nested(s->path, &x, sub, &nest);
    if (rc == VERIFY_VALID) {
        v->res->positions_checked += sub->positions_checked;
        see_done(v, e, nest.height, nest.rest);
        sub_proved(ss, i, key, v, want, &nest);
        key = NULL;
    } else if (strncmp(sub->error, "see ", 4) == 0) { /* nested: the innermost see line says it best */
        invalid(v, "%s", sub->error);
    } else {
        invalid(v, "see %s at %s (line %u): %s", s->path, pos, e->line, sub->error);
    }
    free(sub);
    free(key);
    return rc == VERIFY_VALID ? 0 : VERIFY_INVALID;
}

/* A position with a lemma line: the lemma, checked on the position itself (it is symmetric). */
static int prove_lemma(Verifier *v, Entry *e)
{
    if (!(e->flags & E_USED)) e->flags |= E_USED, v->res->lines_used++;
    if (e->flags & E_PAIRING) { /* checked where it was read, in its own frame; it held (else run() stopped) */
        e->flags |= E_DONE;
        return 0;
    }
    char why[VERIFY_ERR_LEN / 2];
    int held = vr_centre_lemma(&v->g, v->winner == VERIFY_WINNER_ORDER, v->cells, why, sizeof why);
    if (held < 0) return set_error(v->res, VERIFY_MALFORMED, "out of memory");
    if (!held) return invalid(v, "lemma centre at %s: %s (line %u)", here(v), why, e->line);
    game_ends(v, 0); /* all the lemma says of the game's length: it ends by the full board */
    e->flags |= E_DONE;
    return 0;
}

/* 0: the winner wins from v->cells, reached by a move at `last` (-1 at the
 * root) and with `empty` empty cells; otherwise the result's status (error set). */
static int prove(Verifier *v, int last, int empty)
{
    const int n = v->g.n, nn = n * n;
    int st = last < 0 ? vr_status(&v->g, v->cells) : vr_status_after(&v->g, v->cells, last, empty == 0);
    if (st != VR_ONGOING) {
        v->res->positions_checked++;
        if ((st == VR_ORDER_WINS) == (v->winner == VERIFY_WINNER_ORDER)) return game_ends(v, empty), 0;
        if (st == VR_ORDER_WINS) return invalid(v, "position %s is a win for Order but the certificate claims chaos", here(v));
        return invalid(v, "position %s is a win for Chaos (full board, no winning line) but the certificate claims order",
                       here(v));
    }
    if (v->winner == VERIFY_WINNER_CHAOS && vr_dead(&v->g, v->cells)) {
        v->res->positions_checked++;
        return 0;
    }
    if (v->winner == VERIFY_WINNER_ORDER && vr_secured(&v->g, v->cells)) { /* exact-end: won, judged at the end */
        v->res->positions_checked++;
        game_ends(v, 0);
        return 0;
    }
    int sym;
    VrKey key = vr_canonical(&v->sym, v->cells, &sym);
    Entry *e = table_find(&v->tab, key);
    if (e && (e->flags & E_DONE)) return 0;
    v->res->positions_checked++;
    if (v->nest->pre && atomic_load_explicit(&v->nest->pre->stop, memory_order_relaxed))
        return invalid(v, "stopped: another check of the pre-pass failed");

    if (e && (e->flags & E_SEE)) return prove_see(v, e);
    if (e && (e->flags & E_LEMMA)) return prove_lemma(v, e);

    bool order_to_move = (nn - empty) % 2 == 0;
    if (order_to_move == (v->winner == VERIFY_WINNER_ORDER)) {
        if (!e || !(e->flags & E_LINE)) {
            if (v->winner == VERIFY_WINNER_ORDER) /* an immediate win needs no line */
                for (int i = 0; i < nn; i++) {
                    if (v->cells[i] != VR_EMPTY) continue;
                    for (uint8_t s = VR_X; s <= VR_O; s++) {
                        v->cells[i] = s;
                        bool won = vr_status_after(&v->g, v->cells, i, empty == 1) == VR_ORDER_WINS;
                        v->cells[i] = VR_EMPTY;
                        if (won) return game_ends(v, empty - 1), 0; /* a leaf: not worth remembering */
                    }
                }
            return invalid(v, "no certificate line for position %s (%s to move)", here(v),
                           order_to_move ? "Order" : "Chaos");
        }
        if (!(e->flags & E_USED)) e->flags |= E_USED, v->res->lines_used++;
        /* The line's move is in the canonical frame, image(cells, sym): find its cell here. */
        int cell = -1, canon_cell = e->move & 63;
        for (int i = 0; i < nn; i++)
            if (v->sym.perm[sym & 7][i] == canon_cell) cell = i;
        uint8_t s = (e->move & 64) ? VR_O : VR_X;
        if (sym & 8) s = vr_swap(s);
        char mv[4];
        notation_format_move(move_make(s == VR_X ? PIECE_X : PIECE_O, board_cell(cell / n, cell % n)), mv);
        if (v->cells[cell] != VR_EMPTY)
            return invalid(v, "certificate move %s (line %u) at %s is illegal (cell occupied)", mv, e->line,
                           here(v));
        v->cells[cell] = s;
        int rc = prove(v, cell, empty - 1);
        v->cells[cell] = VR_EMPTY;
        if (rc) return rc;
    } else {
        for (int i = 0; i < nn; i++) {
            if (v->cells[i] != VR_EMPTY) continue;
            for (uint8_t s = VR_X; s <= VR_O; s++) {
                v->cells[i] = s;
                int rc = prove(v, i, empty - 1);
                v->cells[i] = VR_EMPTY;
                if (rc) return rc;
            }
        }
    }
    bool fresh; /* the children may have moved the table: look again */
    if (!(e = table_add(&v->tab, key, &fresh))) return set_error(v->res, VERIFY_MALFORMED, "out of memory");
    e->flags |= E_DONE;
    return 0;
}

/* --- reading the certificate --- */

typedef struct {
    FILE *f;
    const char *path; /* NULL for text */
    char *buf;
    size_t cap;
    long line;
    bool nul; /* the line held a NUL byte */
} Source;

/* The next line (without its newline) in src->buf: 1, 0 at the end, -1 on a read error. */
static int next_line(Source *src)
{
    ssize_t len = getline(&src->buf, &src->cap, src->f);
    if (len < 0) return ferror(src->f) ? -1 : 0;
    src->line++;
    src->nul = strlen(src->buf) != (size_t)len;
    if (len > 0 && src->buf[len - 1] == '\n') src->buf[len - 1] = '\0';
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

#define MALFORMED(line, ...) malformed(v, line, __VA_ARGS__)
static int malformed(Verifier *v, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int malformed(Verifier *v, long line, const char *fmt, ...)
{
    char msg[VERIFY_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0) return set_error(v->res, VERIFY_MALFORMED, "%s:%ld: %s", v->name, line, msg);
    return set_error(v->res, VERIFY_MALFORMED, "%s: %s", v->name, msg);
}

static int parse_position(Verifier *v, long line, const char *what, const char *word, uint8_t *cells)
{
    Board b;
    int n;
    char err[NOTATION_ERR_LEN];
    if (notation_parse_position(word, v->g.n, &b, &n, err, sizeof err) != 0) return MALFORMED(line, "%s%s", what, err);
    board_to_cells(b, v->g.n, cells);
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

static const char BOTH_KINDS[] = "the same position (up to symmetry) with a move line and a lemma line";

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
    Entry *e = table_add(&v->tab, key, &fresh);
    if (!e) return set_error(v->res, VERIFY_MALFORMED, "out of memory");
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
    bool pairing = strcmp(w[2], "pairing") == 0;
    if (!pairing && strcmp(w[2], "centre") != 0) return MALFORMED(line, "unknown lemma '%s' (centre, pairing)", w[2]);
    if (!pairing && nw > 3) return MALFORMED(line, "a lemma line is 'POSITION lemma centre', not %d words", nw);
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
    Entry *e = table_add(&v->tab, vr_canonical(&v->sym, cells, NULL), &fresh);
    if (!e) return set_error(v->res, VERIFY_MALFORMED, "out of memory");
    if (e->flags & E_LINE) return MALFORMED(line, "conflicts with line %u: %s", e->line, BOTH_KINDS);
    if ((e->flags & E_LEMMA) && !(e->flags & E_PAIRING) != !pairing)
        return MALFORMED(line, "conflicts with line %u: %s", e->line,
                         "the same position (up to symmetry) with a centre and a pairing lemma line");
    if (!(e->flags & E_LEMMA)) { /* a repeated lemma line says nothing new (a pairing line is still checked) */
        e->flags |= E_LEMMA | (pairing ? E_PAIRING : 0);
        e->line = line > (long)UINT32_MAX ? UINT32_MAX : (uint32_t)line;
    }
    if (pairing && !v->bad_lemma[0]) {
        char why[VERIFY_ERR_LEN / 2], pos[NOTATION_POS_LEN];
        if (!vr_pairing_lemma(&v->g, v->winner == VERIFY_WINNER_CHAOS, cells, pairs, npairs, why, sizeof why)) {
            format_pos(cells, v->g.n, pos);
            snprintf(v->bad_lemma, sizeof v->bad_lemma, "lemma pairing at %s: %s (line %ld)", pos, why, line);
        }
    }
    return 0;
}

/* 'POSITION see FILE' (w[1] is "see"), nw words. */
static int add_see(Verifier *v, long line, char **w, int nw)
{
    if (v->version < 2) return MALFORMED(line, "a see line needs 'ocproof 2' (this certificate is 'ocproof 1')");
    if (nw != 3) return MALFORMED(line, "a see line is 'POSITION see FILE', not %d words", nw);
    uint8_t cells[VR_MAX_CELLS];
    int rc = parse_position(v, line, "", w[0], cells);
    if (rc) return rc;
    v->res->lines++;
    bool fresh;
    Entry *e = table_add(&v->tab, vr_canonical(&v->sym, cells, NULL), &fresh);
    if (!e) return set_error(v->res, VERIFY_MALFORMED, "out of memory");
    if (e->flags & (E_LINE | E_LEMMA | E_SEE))
        return MALFORMED(line, "conflicts with line %u: the same position (up to symmetry) with a see line and another line",
                         e->line);
    if (v->nsee == v->capsee) {
        size_t cap = v->capsee ? 2 * v->capsee : 16;
        See *big = realloc(v->see, cap * sizeof *big);
        if (!big) return set_error(v->res, VERIFY_MALFORMED, "out of memory");
        v->see = big;
        v->capsee = cap;
    }
    See *s = &v->see[v->nsee];
    size_t len = strlen(v->dir) + strlen(w[2]) + 1;
    if (!(s->path = malloc(len))) return set_error(v->res, VERIFY_MALFORMED, "out of memory");
    snprintf(s->path, len, "%s%s", w[2][0] == '/' ? "" : v->dir, w[2]);
    memcpy(s->cells, cells, sizeof s->cells);
    s->line = line > (long)UINT32_MAX ? UINT32_MAX : (uint32_t)line;
    v->nsee++;
    e->flags |= E_SEE;
    e->line = s->line;
    return 0;
}

enum { F_BOARD, F_RULES, F_WINNER, F_ROOT, F_COUNT };
static const char *const FIELD[F_COUNT] = {"board", "rules", "winner", "root"};

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
                         f == F_BOARD ? "N and K, as in 'board 6 5'" : f == F_RULES ? "original, exact or exact-end"
                                                                 : f == F_WINNER ? "order or chaos" : "one POSITION");
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
    } else {
        if (!(h->root_text = strdup(w[1]))) return set_error(res, VERIFY_MALFORMED, "out of memory");
        h->root_line = line;
    }
    return 0;
}

/* All fields read (before the first position line, or at the end): check the root. */
static int finish_header(Verifier *v, Header *h, long line)
{
    char missing[64] = "";
    for (int f = 0; f < F_COUNT; f++)
        if (!h->have[f]) snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " %s", FIELD[f]);
    if (missing[0]) return MALFORMED(line, "missing header field(s):%s", missing);
    h->done = true;
    vr_sym_init(&v->sym, v->g.n);
    int rc = parse_position(v, h->root_line, "bad root: ", h->root_text, v->root);
    if (rc) return rc;
    format_pos(v->root, v->g.n, v->res->root);
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

static int read_cert(Verifier *v, Source *src)
{
    Header h = {0};
    char *w[W_MAX];
    int rc = 0, got;
    while (rc == 0 && (got = next_line(src)) > 0) {
        long ln = src->line;
        if (src->nul) {
            rc = MALFORMED(ln, "NUL byte in the line: not a text file");
            break;
        }
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
            rc = MALFORMED(ln, "unknown keyword '%s' (board, rules, winner, root or a 'POSITION MOVE' line)", w[0]);
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
    if (rc == 0 && got < 0) rc = MALFORMED(src->line + 1, "read error: %s", strerror(errno));
    if (rc == 0 && !h.magic) rc = MALFORMED(0, "empty file, not an ocproof certificate");
    if (rc == 0 && !h.done) rc = finish_header(v, &h, 0);
    free(h.root_text);
    return rc;
}

static int check_expect(Verifier *v, const VerifyExpect *x)
{
    const VerifyResult *r = v->res;
    if (!x) return 0;
    if ((x->n && x->n != r->n) || (x->k && x->k != r->k))
        return invalid(v, "the certificate is for %dx%d k=%d, not %dx%d k=%d", r->n, r->n, r->k, x->n ? x->n : r->n,
                       x->n ? x->n : r->n, x->k ? x->k : r->k);
    if (x->rules >= 0 && x->rules != r->rules)
        return invalid(v, "the certificate is for rules %s, not %s", vr_rules_name(r->rules), vr_rules_name(x->rules));
    if (x->winner && x->winner != r->winner)
        return invalid(v, "the certificate claims %s wins, not %s", WINNER_NAME[r->winner], WINNER_NAME[x->winner]);
    if (x->root) {
        uint8_t want[VR_MAX_CELLS];
        Board b;
        int n;
        char err[NOTATION_ERR_LEN];
        if (notation_parse_position(x->root, v->g.n, &b, &n, err, sizeof err) != 0)
            return set_error(v->res, VERIFY_MALFORMED, "expected root: %s", err);
        board_to_cells(b, n, want);
        if (!vr_key_equal(vr_canonical(&v->sym, want, NULL), vr_canonical(&v->sym, v->root, NULL))) {
            memcpy(v->cells, v->root, sizeof v->cells);
            return invalid(v, "the certificate's root %s is not the expected %s (up to symmetry)", here(v), x->root);
        }
    }
    return 0;
}

static int run(Source *src, const char *name, const VerifyExpect *exp, VerifyResult *out, Nest *nest)
{
    Verifier *v = calloc(1, sizeof *v);
    if (!v) return set_error(out, VERIFY_MALFORMED, "out of memory");
    v->res = out;
    v->name = name;
    v->nest = nest;
    const char *slash = src->path ? strrchr(src->path, '/') : NULL;
    if (slash && (size_t)(slash - src->path) + 2 <= sizeof v->dir)
        memcpy(v->dir, src->path, (size_t)(slash - src->path) + 1); /* calloc: NUL-terminated */
    int rc = read_cert(v, src);
    if (rc == 0) rc = check_expect(v, exp);
    if (rc == 0 && v->bad_lemma[0]) rc = invalid(v, "%s", v->bad_lemma); /* a pairing line failed when read */
    if (rc == 0) {
        memcpy(v->cells, v->root, sizeof v->cells);
        int empty = 0;
        for (int i = 0; i < v->g.n * v->g.n; i++) empty += v->cells[i] == VR_EMPTY;
        nest->root_empty = empty;
        rc = prove(v, -1, empty);
        if (rc == 0 && v->winner == VERIFY_WINNER_ORDER && nest->rest != VSUB_REST_NONE)
            out->longest = empty - nest->rest;
    }
    free(v->tab.e);
    for (size_t i = 0; i < v->nsee; i++) free(v->see[i].path);
    free(v->see);
    free(v);
    free(src->buf);
    out->status = rc;
    if (rc == 0) out->error[0] = '\0';
    return rc;
}

void vr_result_init(VerifyResult *out)
{
    memset(out, 0, sizeof *out);
    out->rules = -1;
    out->longest = -1;
}

int verify_text_ex(const char *text, const VerifyExpect *exp, VerifyResult *out)
{
    vr_result_init(out);
    Source src = {.f = fmemopen((void *)text, strlen(text), "r")};
    if (!src.f) return set_error(out, VERIFY_MALFORMED, "<text>: cannot read: %s", strerror(errno));
    Nest nest = vnest(0, NULL, NULL, 0);
    int rc = run(&src, "<text>", exp, out, &nest);
    fclose(src.f);
    return rc;
}

int vr_verify_nested(const char *path, const VerifyExpect *exp, VerifyResult *out, Nest *nest)
{
    vr_result_init(out);
    Source src = {.f = fopen(path, "r"), .path = path};
    if (!src.f) return set_error(out, VERIFY_MALFORMED, "%s: cannot open: %s", path, strerror(errno));
    int rc = run(&src, path, exp, out, nest);
    fclose(src.f);
    return rc;
}

int verify_file_ex(const char *path, const VerifyExpect *exp, VerifyResult *out)
{
    SubSet ss = {0};
    Nest nest = vnest(0, &ss, NULL, 0);
    int rc = vr_verify_nested(path, exp, out, &nest);
    vsubs_free(&ss);
    return rc;
}

int verify_text(const char *text, VerifyResult *out) { return verify_text_ex(text, NULL, out); }
int verify_file(const char *path, VerifyResult *out) { return verify_file_ex(path, NULL, out); }
