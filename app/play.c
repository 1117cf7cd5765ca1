/* play.c - see play.h: the game's state and the texts of `ocsolve play`. */
#include "play.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "../engine/notation.h"

/* Appends to buf (of size) at *len, never past the end. */
static void add(char *buf, size_t size, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    if (*len >= size) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *len, size - *len, fmt, ap);
    va_end(ap);
    if (w > 0) *len += (size_t)w < size - *len ? (size_t)w : size - *len - 1;
}

int play_new(PlayGame *g, const Rules *r, Board start, char *err, int errlen)
{
    bool same = g->ready && g->r.rules == r->rules && g->r.n == r->n && g->r.k == r->k;
    if (!same) { /* the new advisor first: on failure the game goes on as it was */
        Advisor fresh;
        if (advisor_init(&fresh, r, g->tt_bytes, g->threads, g->store, err, errlen) != 0) return -1;
        if (g->ready) advisor_free(&g->adv);
        g->adv = fresh;
        g->r = *r;
        g->ready = true;
    }
    g->adv.have_pairs = false;
    g->adv.claim_dtw = -1;
    g->start = g->b = start;
    g->nhist = 0;
    return 0;
}

int play_at(PlayGame *g, const Rules *r, Board start, char *err, int errlen)
{
    if (!(g->ready && g->r.rules == r->rules && g->r.n == r->n && g->r.k == r->k))
        return play_new(g, r, start, err, errlen);
    g->start = g->b = start;
    g->nhist = 0;
    return 0;
}

void play_free(PlayGame *g)
{
    if (g->ready) advisor_free(&g->adv);
    g->ready = false;
}

int play_text_move(PlayGame *g, const char *text, Move *m, char *err, int errlen)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%s", text);
    if (strlen(text) < sizeof buf && (buf[0] == 'x' || buf[0] == 'o')) buf[0] = (char)toupper((unsigned char)buf[0]);
    if (notation_parse_move(strlen(text) < sizeof buf ? buf : text, g->r.n, m, err, errlen) != 0) return PLAY_SYNTAX;
    Winner st = rules_status(&g->r, g->b);
    if (st != WINNER_NONE) {
        snprintf(err, (size_t)errlen, "the game is over (%s has won)", st == WINNER_ORDER ? "Order" : "Chaos");
        return PLAY_ILLEGAL;
    }
    if (board_occupied(g->b) >> move_cell(*m) & 1) {
        char c[3];
        notation_format_cell(move_cell(*m), c);
        snprintf(err, (size_t)errlen, "cell %s is occupied", c);
        return PLAY_ILLEGAL;
    }
    play_move(g, *m);
    return PLAY_OK;
}

void play_move(PlayGame *g, Move m)
{
    board_place(&g->b, m);
    g->hist[g->nhist++] = m;
}

bool play_undo(PlayGame *g)
{
    if (g->nhist == 0) return false;
    board_undo(&g->b, g->hist[--g->nhist]);
    return true;
}

Winner play_mover_of(const PlayGame *g, int i)
{
    return ((board_count(g->start) + i) & 1) == 0 ? WINNER_ORDER : WINNER_CHAOS;
}

const char *play_kind_token(AdviceKind k)
{
    static const char *const names[] = {"none",    "win-now", "centre-pair", "centre-small", "pairing",
                                        "store",   "search",  "lost",        "guess"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "none";
}

const char *play_by_token(ProvedBy by)
{
    static const char *const names[] = {"-", "rules", "centre", "pairing", "store", "search"};
    return (unsigned)by < sizeof names / sizeof names[0] ? names[by] : "-";
}


/* What proved a value, for people. */
static const char *by_text(ProvedBy by)
{
    switch (by) {
    case PROVED_CENTRE: return "the centre lemma";
    case PROVED_PAIRING: return "a Chaos pairing";
    case PROVED_STORE: return "the store of decided positions";
    case PROVED_SEARCH: return "search";
    default: return "the rules";
    }
}

/* The search's figures, " (N nodes, S s)", or "" without a search. */
static void figures(const AdviceValue *v, char *buf, size_t size)
{
    if (v->nodes == 0) buf[0] = '\0';
    else snprintf(buf, size, " (%llu nodes, %.1f s)", (unsigned long long)v->nodes, v->seconds);
}

void play_reason(const PlayGame *g, const Advice *a, char *buf, size_t size)
{
    char mc[3] = "", pc[3] = "", fig[64];
    if (a->move != MOVE_NONE) notation_format_cell(move_cell(a->move), mc);
    if (a->cell >= 0) notation_format_cell(a->cell, pc);
    figures(&a->value, fig, sizeof fig);
    const AdviceValue *v = &a->value;
    switch (a->kind) {
    case ADVICE_WIN_NOW:
        snprintf(buf, size, "%s",
                 v->winner == WINNER_ORDER ? "completes a line: Order wins"
                                           : "fills the board without a line: Chaos wins");
        break;
    case ADVICE_CENTRE_PAIR:
        if (a->cell >= 0)
            snprintf(buf, size, "centre strategy: pairing answer on %s to %s (Order wins by the centre lemma)", mc, pc);
        else
            snprintf(buf, size, "centre strategy: a ring move on %s that keeps the win (Order wins by the centre lemma)",
                     mc);
        break;
    case ADVICE_CENTRE_SMALL:
        snprintf(buf, size, "centre strategy: a winning move of the %dx%d centre game (Order wins by the centre lemma)",
                 g->r.n - 2, g->r.n - 2);
        break;
    case ADVICE_PAIRING:
        if (a->cell >= 0)
            snprintf(buf, size, "Chaos pairing: answers %s in its pair; %d pairs cover every live window (Chaos wins)",
                     pc, a->pairs);
        else
            snprintf(buf, size, "Chaos pairing: then %d pairs cover every live window (Chaos wins)", a->pairs);
        break;
    case ADVICE_STORE: snprintf(buf, size, "%s wins by the store of decided positions", play_side_name(v->winner)); break;
    case ADVICE_SEARCH:
        if (v->winner == WINNER_ORDER && v->dtw > 0)
            snprintf(buf, size, "forced win found by search: Order wins in at most %d plies%s", v->dtw, fig);
        else snprintf(buf, size, "forced win found by search: %s wins%s", play_side_name(v->winner), fig);
        break;
    case ADVICE_LOST:
        if (v->dtw > 0)
            snprintf(buf, size, "%s is lost (%s): Order wins in at most %d plies; resisting longest%s",
                     play_side_name(winner_other(v->winner)), by_text(v->by), v->dtw, fig);
        else snprintf(buf, size, "%s is lost (%s); no move saves it: resisting%s", play_side_name(winner_other(v->winner)),
                      by_text(v->by), fig);
        break;
    case ADVICE_GUESS: snprintf(buf, size, "no proof yet; best guess%s", fig); break;
    default: snprintf(buf, size, "the game is over"); break;
    }
}

/* The rank of a child for the mover me (PlayChoice.rank) and, within a
 * rank, a preference (higher better): Order hurries to a known short
 * distance, Chaos resists towards a known long one. */
static int child_rank(Winner me, const AdviceValue *v, int *pref)
{
    bool now = v->by == PROVED_RULES;
    *pref = 0;
    if (v->winner == me) {
        if (me == WINNER_ORDER && v->dtw > 0) *pref = 1000 - v->dtw;
        return now ? 4 : 3;
    }
    if (v->winner == WINNER_NONE) return 2;
    if (me == WINNER_CHAOS && v->dtw > 0) *pref = v->dtw;
    return now ? 0 : 1;
}

/* The best of sym's moves in g (ongoing) by their values (play.h). */
static void choose_among(PlayGame *g, int sym, PlayChoice *c)
{
    Winner me = c->mover;
    uint64_t empty = g->r.cells & ~board_occupied(g->b);
    c->a.move = MOVE_NONE;
    /* A move that wins at once needs no search of the others. */
    for (uint64_t e = empty; e; e &= e - 1) {
        Move m = move_make(sym, __builtin_ctzll(e));
        Board cb = g->b;
        board_place(&cb, m);
        if (rules_status(&g->r, cb) != me) continue;
        c->a.move = m;
        c->rank = 4;
        c->child = (AdviceValue){me, PROVED_RULES, me == WINNER_ORDER ? 0 : -1, 0, 0};
        return;
    }
    double each = g->think / __builtin_popcountll(empty);
    int best_pref = 0;
    c->rank = -1;
    for (uint64_t e = empty; e; e &= e - 1) {
        Move m = move_make(sym, __builtin_ctzll(e));
        Board cb = g->b;
        board_place(&cb, m);
        AdviceValue v;
        advise_value(&g->adv, cb, each, &v);
        c->a.value.nodes += v.nodes;
        c->a.value.seconds += v.seconds;
        int pref, rank = child_rank(me, &v, &pref);
        if (rank > c->rank || (rank == c->rank && pref > best_pref)) {
            c->a.move = m, c->rank = rank, c->child = v;
            best_pref = pref;
        }
    }
}

void play_choose(PlayGame *g, int sym, PlayChoice *c)
{
    *c = (PlayChoice){.sym = sym, .preferred = MOVE_NONE,
                      .mover = winner_to_move(g->b)};
    advise(&g->adv, g->b, g->think, &c->a);
    if (sym < 0 || c->a.move == MOVE_NONE || move_piece(c->a.move) == sym) return;
    c->restricted = true;
    c->preferred = c->a.move;
    /* A distance to win the advisor just claimed was for its own move;
     * another move may not keep it, so it must not hurry on that claim. */
    g->adv.claim_dtw = -1;
    choose_among(g, sym, c);
}

const char *play_choice_kind(const PlayChoice *c)
{
    if (!c->restricted) return play_kind_token(c->a.kind);
    static const char *const names[] = {"lost", "lost", "guess", "keeps-win", "win-now"};
    return c->rank >= 0 && c->rank <= 4 ? names[c->rank] : "guess";
}

void play_choice_reason(const PlayGame *g, const PlayChoice *c, char *buf, size_t size)
{
    if (!c->restricted) {
        play_reason(g, &c->a, buf, size);
        return;
    }
    char own[4], fig[64], dist[64] = "", sym = c->sym == PIECE_X ? 'X' : 'O';
    notation_format_move(c->preferred, own);
    figures(&c->a.value, fig, sizeof fig);
    Winner me = c->mover;
    const AdviceValue *v = &c->child;
    if (v->winner == WINNER_ORDER && v->dtw > 0)
        snprintf(dist, sizeof dist, "; after it Order wins in at most %d plies", v->dtw);
    size_t len = 0;
    buf[0] = '\0';
    add(buf, size, &len, "with %c only (ocsolve's own move: %s): ", sym, own);
    switch (c->rank) {
    case 4:
        add(buf, size, &len, "%s",
            me == WINNER_ORDER ? "completes a line: Order wins" : "fills the board without a line: Chaos wins");
        break;
    case 3: add(buf, size, &len, "keeps %s's win (%s%s)", play_side_name(me), by_text(v->by), dist); break;
    case 2: add(buf, size, &len, "no %c move is proved to win; one not proved to lose (best guess)", sym); break;
    case 1:
        add(buf, size, &len, "every %c move loses; resisting (%s%s)", sym, by_text(v->by), dist);
        break;
    default: add(buf, size, &len, "every %c move ends the game: %s wins", sym, play_side_name(winner_other(me))); break;
    }
    add(buf, size, &len, "%s", fig);
}

void play_result(const PlayGame *g, char *buf, size_t size)
{
    const Rules *r = &g->r;
    Winner st = rules_status(r, g->b);
    if (st == WINNER_CHAOS) {
        snprintf(buf, size, "Chaos wins: the board is full without a line of %d", r->k);
        return;
    }
    if (st == WINNER_NONE) {
        snprintf(buf, size, "the game goes on");
        return;
    }
    for (int i = 0; i < r->nwin; i++)
        for (int s = 0; s < 2; s++) {
            uint64_t p = g->b.s[s], w = r->win[i];
            if ((p & w) != w || (r->rules != RULES_ORIGINAL && (p & r->ends[i]))) continue;
            char lo[3], hi[3];
            notation_format_cell(__builtin_ctzll(w), lo);
            notation_format_cell(63 - __builtin_clzll(w), hi);
            snprintf(buf, size, "Order wins: a line of %d %c from %s to %s", r->k, s == PIECE_X ? 'X' : 'O', lo, hi);
            return;
        }
    snprintf(buf, size, "Order wins");
}

void play_board_text(const PlayGame *g, char *buf, size_t size)
{
    int n = g->r.n, last = g->nhist ? move_cell(g->hist[g->nhist - 1]) : -1;
    size_t len = 0;
    buf[0] = '\0';
    add(buf, size, &len, "   ");
    for (int c = 0; c < n; c++) add(buf, size, &len, " %c", 'a' + c);
    add(buf, size, &len, "\n");
    for (int row = 0; row < n; row++) {
        add(buf, size, &len, "%2d ", row + 1);
        for (int c = 0; c < n; c++) {
            int cell = board_cell(row, c);
            add(buf, size, &len, "%c%c", cell == last ? '[' : (c > 0 && cell - 1 == last) ? ']' : ' ',
                board_at(g->b, cell));
        }
        add(buf, size, &len, "%s\n", board_cell(row, n - 1) == last ? "]" : "");
    }
}

void play_draw(const PlayGame *g, FILE *out)
{
    char text[PLAY_BOARD_TEXT];
    play_board_text(g, text, sizeof text);
    fprintf(out, "\n%s\n", text);
}
