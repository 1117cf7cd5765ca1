/* verify.c - see verify.h. The certificate is read into a table keyed by
 * canonical position (verify_read.c), then the proof tree is checked
 * depth-first from the root; see lines' files are checked by the same
 * code, nested (prove_see) or, with threads, first each on its own (the
 * pre-pass, verify_par.c), each file once: the set of them is
 * verify_subs.c's, a check's place among the nested ones verify_nest.h's.
 * The game itself is judged only by verify_rules.*, the centre lemma by
 * verify_centre.*, the pairing lemma by verify_pairing.*, the sub-board
 * lemma's conditions by verify_subboard.*, the last plies it searches
 * itself by verify_short.*. */
#include "verify.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../engine/notation.h"
#include "verify_cert.h"
#include "verify_nest.h"
#include "verify_subs.h"
#include "verify_centre.h"
#include "verify_pairing.h"
#include "verify_subboard.h"
#include "verify_rules.h"
#include "verify_short.h"

_Static_assert((int)VERIFY_POS_LEN == (int)NOTATION_POS_LEN, "position text buffers");

#define invalid(v, ...) vc_error((v)->res, VERIFY_INVALID, __VA_ARGS__)

/* --- the proof check --- */

/* The position being checked, as text (valid until the next call). */
static const char *here(Verifier *v)
{
    vc_format_pos(v->cells, v->g.n, v->text);
    return v->text;
}

static const char *const WINNER_NAME[3] = {"?", "order", "chaos"};

/* What a see line asks of its file: the game, the winner and the root
 * (its canonical form in that game's frame, and as text) it must prove,
 * whether a horizon will do and how long it must then be. A plain see
 * line asks for this certificate's game and winner at its own position; a
 * centre see line (verify_centre.h) for Order in the centre's small game,
 * at the centre. */
typedef struct {
    VrGame g;
    int winner;
    bool horizon_ok; /* a horizon certificate's see line: a file with a horizon may do (verify.h) */
    int need;        /* the least horizon then (need_of); -1: a win */
    VrKey want;
    char pos[NOTATION_POS_LEN];
    const char *what; /* the line's kind, for messages: "see" or "lemma centre see" */
} SeeAsk;

/* The entry of key for what ask asks, or SIZE_MAX. A horizon
 * certificate's see lines accept a file with a horizon (verify.h), which
 * makes them other entries than a win's. */
static size_t sub_find(const SubSet *ss, const char *key, const SeeAsk *ask)
{
    Sub like = {.n = ask->g.n, .k = ask->g.k, .rules = ask->g.rules, .winner = ask->winner,
                .horizon_ok = ask->horizon_ok, .root = ask->want};
    return vsub_find(ss, key, &like);
}

/* The plies left at a position with `empty` empty cells: for a horizon
 * certificate, the least horizon a see line's file must have there;
 * -1 for any other (its files must claim a win). */
static int need_of(const Verifier *v, int empty)
{
    return v->horizon >= 0 ? v->horizon - (v->nest->root_empty - empty) : -1;
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
static int defer_see(Verifier *v, Entry *e, const See *s, const SeeAsk *ask)
{
    Prepass *pp = v->nest->pre;
    v->nest->saw_see = true;
    struct stat st;
    Sub fresh = {.key = vsub_key(s->path), .path = strdup(s->path), .n = ask->g.n, .k = ask->g.k,
                 .rules = ask->g.rules, .winner = ask->winner, .horizon_ok = ask->horizon_ok, .root = ask->want,
                 .horizon = -1, .state = S_QUEUED, .bytes = stat(s->path, &st) == 0 ? (int64_t)st.st_size : 0};
    memcpy(fresh.root_text, ask->pos, sizeof fresh.root_text);
    int rc = 0;
    pthread_mutex_lock(&pp->mu);
    size_t i = fresh.key ? sub_find(pp->subs, fresh.key, ask) : SIZE_MAX;
    if (i == SIZE_MAX && fresh.key && fresh.path && (i = vsub_add(pp->subs, &fresh)) != SIZE_MAX) {
        fresh.key = fresh.path = NULL; /* taken */
        pthread_cond_signal(&pp->cv);
    }
    Sub *t = &pp->subs->s[v->nest->task];
    if (i != SIZE_MAX && t->ndep == t->capdep) {
        size_t cap = t->capdep ? 2 * t->capdep : 8;
        SubDep *big = realloc(t->dep, cap * sizeof *big);
        if (big) t->dep = big, t->capdep = cap;
    }
    if (i != SIZE_MAX && t->ndep < t->capdep) t->dep[t->ndep++] = (SubDep){i, ask->need};
    else rc = invalid(v, "%s %s: not found, or out of memory", ask->what, s->path);
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
 * pre-pass had one; takes key), with horizon its file's horizon: counted,
 * as its positions were. On no memory it is only not remembered, which
 * costs time, never a result. */
static void sub_proved(SubSet *ss, size_t i, char *key, const SeeAsk *ask, const Nest *nest, int horizon)
{
    if (ss && i != SIZE_MAX) {
        ss->s[i].state = S_PROVED, ss->s[i].counted = true, ss->s[i].height = nest->height;
        ss->s[i].rest = nest->rest;
        ss->s[i].horizon = horizon;
    } else if (ss && key) {
        Sub s = {.key = key, .n = ask->g.n, .k = ask->g.k, .rules = ask->g.rules, .winner = ask->winner,
                 .horizon_ok = ask->horizon_ok, .root = ask->want, .horizon = horizon, .state = S_PROVED,
                 .counted = true, .height = nest->height, .rest = nest->rest};
        if (vsub_add(ss, &s) != SIZE_MAX) return;
    }
    free(key);
}

/* A see line's file proved with horizon `horizon` (-1: a win) where at
 * least `need` is needed (-1: a win is, or any horizon will do when the
 * entry accepts none): 0, or invalid, naming the see line (verify.h,
 * Horizon certificates). */
static int horizon_enough(Verifier *v, const See *s, const char *pos, int horizon, int need)
{
    if (horizon < 0 || horizon >= need) return 0;
    return invalid(v, "see %s at %s (line %u): its horizon of %d plies is short of the %d plies left there", s->path,
                   pos, s->line, horizon, need);
}

/* The file of see line s (entry e) checked for what ask asks: on its own
 * (its own table, freed after), one level deeper; a file proved already
 * for the same (sub_find) counts when its levels fit here. With the
 * pre-pass, queued instead (defer_see). `rest` (>= 0): the branch counts
 * as a game ending with that many empty cells (the centre lemma's 0)
 * instead of the file's own games (VSUB_REST_NONE: its own, same game). */
static int see_check(Verifier *v, Entry *e, const See *s, const SeeAsk *ask, int rest)
{
    if (v->nest->pre) return rest >= 0 ? game_ends(v, rest), defer_see(v, e, s, ask) : defer_see(v, e, s, ask);
    int depth = v->nest->depth + 1;
    if (depth > SEE_MAX_DEPTH)
        return invalid(v, "%s %s at %s (line %u): certificates nested deeper than %d (one names itself?)", ask->what,
                       s->path, ask->pos, e->line, SEE_MAX_DEPTH);
    SubSet *ss = v->nest->subs;
    char *key = ss ? vsub_key(s->path) : NULL;
    size_t i = key ? sub_find(ss, key, ask) : SIZE_MAX;
    if (i != SIZE_MAX && ss->s[i].state == S_PROVED && depth + ss->s[i].height <= SEE_MAX_DEPTH) {
        free(key);
        if (horizon_enough(v, s, ask->pos, ss->s[i].horizon, ask->need) != 0) return VERIFY_INVALID;
        v->res->positions_checked += vsub_count(ss, i); /* 0 when this verification counted it already */
        see_done(v, e, ss->s[i].height, rest >= 0 ? rest : ss->s[i].rest);
        return 0;
    }
    VerifyResult *sub = malloc(sizeof *sub);
    if (!sub) return free(key), vc_error(v->res, VERIFY_MALFORMED, "out of memory");
    VerifyExpect x = {ask->g.n, ask->g.k, ask->g.rules, ask->winner, ask->pos};
    Nest nest = vnest(depth, ss, NULL, 0, v->nest->lim);
    nest.horizon_ok = ask->horizon_ok;
    nest.lemma_nodes = v->nest->lemma_nodes;
    int rc = vr_verify_nested(s->path, &x, sub, &nest);
    /* refused below (a bound passed): not judged there, so not here either */
    int st = sub->refused ? VERIFY_MALFORMED : VERIFY_INVALID;
    if (rc == VERIFY_VALID) {
        sub_proved(ss, i, key, ask, &nest, sub->horizon);
        key = NULL;
        if (horizon_enough(v, s, ask->pos, sub->horizon, ask->need) != 0) rc = VERIFY_INVALID;
        else {
            v->res->positions_checked += sub->positions_checked;
            see_done(v, e, nest.height, rest >= 0 ? rest : nest.rest);
        }
    } else if (strncmp(sub->error, "see ", 4) == 0 || strncmp(sub->error, "lemma centre see ", 17) == 0 ||
               strncmp(sub->error, "lemma subboard see ", 19) == 0) {
        vc_error(v->res, st, "%s", sub->error); /* nested: the innermost see line says it best */
    } else {
        vc_error(v->res, st, "%s %s at %s (line %u): %s", ask->what, s->path, ask->pos, e->line, sub->error);
    }
    v->res->refused |= rc != VERIFY_VALID && sub->refused;
    free(sub);
    free(key);
    return rc == VERIFY_VALID ? 0 : st;
}

/* A position with a 'see' line, `empty` empty cells: its certificate,
 * checked as a proof that the same winner wins the position as written
 * (in a horizon certificate: or that Order cannot win within the plies
 * left there), under the same game. */
static int prove_see(Verifier *v, Entry *e, int empty)
{
    if (!(e->flags & E_USED)) e->flags |= E_USED, v->res->lines_used++;
    const See *s = see_of(v, e->line);
    SeeAsk ask = {.g = v->g, .winner = v->winner, .horizon_ok = v->horizon >= 0, .need = need_of(v, empty),
                  .want = vr_canonical(&v->sym, s->cells, NULL), .what = "see"};
    vc_format_pos(s->cells, v->g.n, ask.pos);
    return see_check(v, e, s, &ask, -1);
}

/* A position with a 'lemma centre see FILE' line (verify_centre.h): the
 * lemma's conditions on the position reached (v->cells; they are
 * symmetric), then FILE as a proof that Order wins the small game at the
 * centre of the position as written (the same centre up to symmetry). The
 * branch counts as a game lasting until the board is full, as the lemma
 * says nothing shorter. */
static int prove_centre_see(Verifier *v, Entry *e)
{
    if (!(e->flags & E_USED)) e->flags |= E_USED, v->res->lines_used++;
    const See *s = see_of(v, e->line);
    char why[VERIFY_ERR_LEN / 2];
    uint8_t small[VR_MAX_CELLS];
    if (!vr_centre_see_conditions(&v->g, v->winner == VERIFY_WINNER_ORDER, v->cells, small, why, sizeof why))
        return invalid(v, "lemma centre see at %s: %s (line %u)", here(v), why, e->line);
    int m = v->g.n - 2;
    if (!v->small_sym) {
        if (!(v->small_sym = malloc(sizeof *v->small_sym))) return vc_error(v->res, VERIFY_MALFORMED, "out of memory");
        vr_sym_init(v->small_sym, m);
    }
    /* The centre of the line's own position (as written), which FILE's root
     * must be: an image of v->cells, so the conditions hold there too. */
    if (!vr_centre_see_conditions(&v->g, true, s->cells, small, why, sizeof why))
        return invalid(v, "lemma centre see at %s: %s (line %u)", here(v), why, e->line);
    SeeAsk ask = {.g = {m, m, v->g.rules}, .winner = VERIFY_WINNER_ORDER, .need = -1,
                  .want = vr_canonical(v->small_sym, small, NULL), .what = "lemma centre see"};
    vc_format_pos(small, m, ask.pos);
    return see_check(v, e, s, &ask, 0);
}

/* A position with a 'lemma subboard CELL M see FILE' line
 * (verify_subboard.h): the lemma's conditions on the line's own position
 * (as written, the window in its frame; the position reached is an image
 * of it, and the big game is symmetric), then FILE as a proof that Order
 * wins the m x m game with the same k at the window's content (up to the
 * m x m symmetries). The branch counts as a game lasting until the board
 * is full, as the lemma says nothing shorter. */
static int prove_subboard_see(Verifier *v, Entry *e)
{
    if (!(e->flags & E_USED)) e->flags |= E_USED, v->res->lines_used++;
    const See *s = see_of(v, e->line);
    char why[VERIFY_ERR_LEN / 2];
    uint8_t small[VR_MAX_CELLS];
    if (!vr_subboard_conditions(&v->g, v->winner == VERIFY_WINNER_ORDER, s->cells, s->window, small, why, sizeof why))
        return invalid(v, "lemma subboard see at %s: %s (line %u)", here(v), why, e->line);
    int m = s->window.m;
    VrSym *sym = malloc(sizeof *sym); /* the window's own symmetries (its m, not the board's n) */
    if (!sym) return vc_error(v->res, VERIFY_MALFORMED, "out of memory");
    vr_sym_init(sym, m);
    SeeAsk ask = {.g = {m, v->g.k, VR_ORIGINAL}, .winner = VERIFY_WINNER_ORDER, .need = -1,
                  .want = vr_canonical(sym, small, NULL), .what = "lemma subboard see"};
    free(sym);
    vc_format_pos(small, m, ask.pos);
    return see_check(v, e, s, &ask, 0);
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
    /* one counter for the whole verification (Nest.lemma_nodes) */
    VrLemmaBudget budget = {v->nest->lemma_nodes, v->nest->lim->max_lemma_nodes};
    int held = vr_centre_lemma_budget(&v->g, v->winner == VERIFY_WINNER_ORDER, v->cells,
                                      budget.spent ? &budget : NULL, why, sizeof why);
    if (held == -2) {
        v->res->refused = true;
        return vc_error(v->res, VERIFY_MALFORMED, "lemma centre at %s: %s (line %u)", here(v), why, e->line);
    }
    if (held < 0) return vc_error(v->res, VERIFY_MALFORMED, "out of memory");
    if (!held) return invalid(v, "lemma centre at %s: %s (line %u)", here(v), why, e->line);
    game_ends(v, 0); /* all the lemma says of the game's length: it ends by the full board */
    e->flags |= E_DONE;
    return 0;
}

/* Where the branch at v->cells ends without a move being followed: 0 when
 * the claim holds there (closed), -1 when the proof must go on from it,
 * else the status (error set). v->cells was reached by a move at `last`
 * (-1 at the root) and has `empty` empty cells. */
static int closed(Verifier *v, int last, int empty)
{
    int st = last < 0 ? vr_status(&v->g, v->cells) : vr_status_after(&v->g, &v->lines, v->cells, v->im.img[0].x, v->im.img[0].o, last, empty == 0);
    int plies = v->nest->root_empty - empty; /* from the root */
    if (st != VR_ONGOING) {
        v->res->positions_checked++;
        if ((st == VR_ORDER_WINS) == (v->winner == VERIFY_WINNER_ORDER)) return game_ends(v, empty), 0;
        if (st == VR_ORDER_WINS && v->horizon >= 0)
            return invalid(v, "position %s is a win for Order %d plies from the root, within the horizon of %d",
                           here(v), plies, v->horizon);
        if (st == VR_ORDER_WINS) return invalid(v, "position %s is a win for Order but the certificate claims chaos", here(v));
        return invalid(v, "position %s is a win for Chaos (full board, no winning line) but the certificate claims order",
                       here(v));
    }
    /* a horizon certificate (verify.h): no line can stand in the plies left (the horizon reached, no window
     * that can still win, or under exact-end a board that cannot fill in time) */
    if (v->horizon >= 0 && vr_fewest_to_line(&v->g, v->cells) > v->horizon - plies) {
        v->res->positions_checked++;
        return 0;
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
    return -1;
}

static int prove(Verifier *v, int last, int empty, VrKey key, int sym);

/* The winner to move at v->cells (symmetry `sym` maps it to the canonical
 * form), whose entry is e (NULL if none): the certificate's move is
 * followed (0: proved). Order's may be left out where it completes a line
 * at once: -1, proved, a leaf not worth remembering. Else the status. */
static int prove_winner_move(Verifier *v, Entry *e, int sym, int empty, bool order_to_move)
{
    const int n = v->g.n, nn = n * n;
    if (!e || !(e->flags & E_LINE)) {
        /* an immediate win needs no line */
        if (v->winner == VERIFY_WINNER_ORDER &&
            vr_wins_at_once(&v->g, &v->lines, v->cells, v->im.img[0].x, v->im.img[0].o, empty))
            return game_ends(v, empty - 1), -1;
        /* nor a win within three plies, which the check finds itself (verify.h) */
        int rest;
        if (v->winner == VERIFY_WINNER_ORDER && vr_order_move_found(v, empty, &rest)) return game_ends(v, rest), -1;
        /* nor Chaos's short of a horizon, where the check finds one itself (verify.h) */
        int h = need_of(v, empty);
        if (v->winner == VERIFY_WINNER_CHAOS && h >= 0 && h <= VR_SHORT_HORIZON &&
            vr_chaos_holds(v, v->im.img[0].x, v->im.img[0].o, empty, h))
            return -1;
        return invalid(v, "no certificate line for position %s (%s to move)", here(v), order_to_move ? "Order" : "Chaos");
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
        return invalid(v, "certificate move %s (line %u) at %s is illegal (cell occupied)", mv, e->line, here(v));
    v->cells[cell] = s;
    vr_images_toggle(&v->sym, &v->im, cell, s);
    int sym_child;
    VrKey key = vr_images_canonical(&v->im, &sym_child);
    int rc = prove(v, cell, empty - 1, key, sym_child);
    vr_images_toggle(&v->sym, &v->im, cell, s);
    v->cells[cell] = VR_EMPTY;
    return rc;
}

/* The loser to move at v->cells: every move of either symbol must lose.
 * The children's canonical keys are made first (cheap: verify_images.h),
 * and each child's table slot is fetched PREFETCH_AHEAD children before
 * its turn, so that the memory waits of the look-ups overlap instead of
 * coming one child at a time (all of them at once stalled on the CPU's
 * few outstanding-miss buffers: 16 % of the time in the prefetch alone).
 * The children are proved in the same order as without it. */
enum { PREFETCH_AHEAD = 8 }; /* 3 to 12 measured alike (of3.cert: 9.7-9.9 s; none: 14.4 s) */
static int prove_loser_moves(Verifier *v, int empty)
{
    const int nn = v->g.n * v->g.n;
    VrKey *keys = v->kid_key[empty]; /* one row per level: the recursion's frames stay small (verify_cert.h) */
    int8_t *syms = v->kid_sym[empty];
    int m = 0;
    for (int i = 0; i < nn; i++) {
        if (v->cells[i] != VR_EMPTY) continue;
        for (uint8_t s = VR_X; s <= VR_O; s++, m++) {
            int sym;
            keys[m] = vr_images_canonical_after(&v->sym, &v->im, i, s, &sym);
            syms[m] = (int8_t)sym;
        }
    }
    int count = m;
    for (m = 0; m < PREFETCH_AHEAD && m < count; m++) vc_table_prefetch(&v->tab, keys[m]);
    m = 0;
    for (int i = 0; i < nn; i++) {
        if (v->cells[i] != VR_EMPTY) continue;
        for (uint8_t s = VR_X; s <= VR_O; s++, m++) {
            if (m + PREFETCH_AHEAD < count) vc_table_prefetch(&v->tab, keys[m + PREFETCH_AHEAD]);
            v->cells[i] = s;
            vr_images_toggle(&v->sym, &v->im, i, s);
            int rc = prove(v, i, empty - 1, keys[m], syms[m]);
            vr_images_toggle(&v->sym, &v->im, i, s);
            v->cells[i] = VR_EMPTY;
            if (rc) return rc;
        }
    }
    return 0;
}

/* 0: the winner wins from v->cells (for a horizon certificate: no line
 * stands within the plies left, verify.h), reached by a move at `last`
 * (-1 at the root) and with `empty` empty cells; otherwise the result's
 * status (error set). key is v->cells' canonical key and symmetry `sym`
 * maps v->cells to it (vr_images_canonical of v->im, which is kept for
 * v->cells). */
static int prove(Verifier *v, int last, int empty, VrKey key, int sym)
{
    const int nn = v->g.n * v->g.n;
    int rc = closed(v, last, empty);
    if (rc >= 0) return rc;
    Entry *e = vc_table_find(&v->tab, key);
    if (e && (e->flags & E_DONE)) return 0;
    v->res->positions_checked++;
    if (v->nest->pre && atomic_load_explicit(&v->nest->pre->stop, memory_order_relaxed))
        return invalid(v, "stopped: another check of the pre-pass failed");

    if (e && (e->flags & E_SEE))
        return (e->flags & E_SUBBOARD) ? prove_subboard_see(v, e)
             : (e->flags & E_LEMMA)    ? prove_centre_see(v, e)
                                       : prove_see(v, e, empty);
    if (e && (e->flags & E_LEMMA)) return prove_lemma(v, e);

    bool order_to_move = (nn - empty) % 2 == 0;
    if (order_to_move == (v->winner == VERIFY_WINNER_ORDER)) {
        if ((rc = prove_winner_move(v, e, sym, empty, order_to_move)) != 0) return rc < 0 ? 0 : rc;
    } else if ((rc = prove_loser_moves(v, empty)) != 0) {
        return rc;
    }
    bool fresh; /* the children may have moved the table: look again */
    if (!(e = vc_table_add(&v->tab, key, &fresh))) return vc_error(v->res, VERIFY_MALFORMED, "out of memory");
    e->flags |= E_DONE;
    return 0;
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
    /* a horizon shows a no to a bounded question, not a win (verify.h) */
    if (x->winner && r->horizon >= 0 && !v->nest->horizon_ok)
        return invalid(v, "the certificate shows only that Order cannot win within %d plies (its horizon), not that "
                          "chaos wins",
                       r->horizon);
    if (x->root) {
        uint8_t want[VR_MAX_CELLS];
        Board b;
        int n;
        char err[NOTATION_ERR_LEN];
        if (notation_parse_position(x->root, v->g.n, &b, &n, err, sizeof err) != 0)
            return vc_error(v->res, VERIFY_MALFORMED, "expected root: %s", err);
        vc_board_to_cells(b, n, want);
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
    if (!v) return vc_error(out, VERIFY_MALFORMED, "out of memory");
    v->res = out;
    v->name = name;
    v->horizon = -1;
    v->nest = nest;
    const char *slash = src->path ? strrchr(src->path, '/') : NULL;
    if (slash && (size_t)(slash - src->path) + 2 <= sizeof v->dir)
        memcpy(v->dir, src->path, (size_t)(slash - src->path) + 1); /* calloc: NUL-terminated */
    int rc = vc_read_cert(v, src);
    if (rc == 0) rc = check_expect(v, exp);
    if (rc == 0 && v->bad_lemma[0]) rc = invalid(v, "%s", v->bad_lemma); /* a pairing line failed when read */
    if (rc == 0) {
        memcpy(v->cells, v->root, sizeof v->cells);
        int empty = 0;
        for (int i = 0; i < v->g.n * v->g.n; i++) empty += v->cells[i] == VR_EMPTY;
        nest->root_empty = empty;
        vr_images_of(&v->sym, v->cells, &v->im);
        int sym;
        VrKey key = vr_images_canonical(&v->im, &sym);
        rc = prove(v, -1, empty, key, sym);
        if (rc == 0 && v->winner == VERIFY_WINNER_ORDER && nest->rest != VSUB_REST_NONE)
            out->longest = empty - nest->rest;
    }
    free(v->tab.e);
    for (size_t i = 0; i < v->nsee; i++) free(v->see[i].path);
    free(v->see);
    free(v->small_sym);
    free(v);
    free(src->buf);
    out->status = rc;
    if (rc == 0) out->error[0] = '\0';
    return rc;
}

int verify_text_ex(const char *text, const VerifyExpect *exp, VerifyResult *out)
{
    vr_result_init(out);
    VerifyLimits lim = vr_limits(NULL);
    Source src = {.f = fmemopen((void *)text, strlen(text), "r"), .lim = lim};
    if (!src.f) return vc_error(out, VERIFY_MALFORMED, "<text>: cannot read: %s", strerror(errno));
    Nest nest = vnest(0, NULL, NULL, 0, &lim);
    _Atomic uint64_t lemma_nodes = 0; /* a text's own: bounded as a file's */
    nest.lemma_nodes = &lemma_nodes;
    int rc = run(&src, "<text>", exp, out, &nest);
    fclose(src.f);
    return rc;
}

int vr_verify_nested(const char *path, const VerifyExpect *exp, VerifyResult *out, Nest *nest)
{
    vr_result_init(out);
    Source src = {.f = vc_open_cert(path, nest->lim, out), .path = path, .lim = *nest->lim};
    if (!src.f) return out->status;
    int rc = run(&src, path, exp, out, nest);
    fclose(src.f);
    return rc;
}

int verify_file_ex(const char *path, const VerifyExpect *exp, VerifyResult *out)
{
    const VerifyLimits lim = vr_limits(NULL); /* verify_file_limits(path, exp, 1, NULL, out) */
    return vr_verify_one(path, exp, &lim, out);
}

/* One thread (verify_file_limits with threads <= 1, and verify_file_ex). */
int vr_verify_one(const char *path, const VerifyExpect *exp, const VerifyLimits *lim, VerifyResult *out)
{
    SubSet ss = {0};
    Nest nest = vnest(0, &ss, NULL, 0, lim);
    int rc = vr_verify_nested(path, exp, out, &nest);
    vsubs_free(&ss);
    return rc;
}

int verify_text(const char *text, VerifyResult *out) { return verify_text_ex(text, NULL, out); }
int verify_file(const char *path, VerifyResult *out) { return verify_file_ex(path, NULL, out); }
