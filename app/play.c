/* play.c - see play.h: the game's state and the texts of `ocsolve play`. */
#include "play.h"

#include <ctype.h>
#include <string.h>

#include "../engine/notation.h"

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
    if (notation_parse_move(strlen(text) < sizeof buf ? buf : text, g->r.n, m, err, errlen) != 0) return -1;
    Winner st = rules_status(&g->r, g->b);
    if (st != WINNER_NONE) {
        snprintf(err, (size_t)errlen, "the game is over (%s has won)", st == WINNER_ORDER ? "Order" : "Chaos");
        return -1;
    }
    if (board_occupied(g->b) >> move_cell(*m) & 1) {
        char c[3];
        notation_format_cell(move_cell(*m), c);
        snprintf(err, (size_t)errlen, "cell %s is occupied", c);
        return -1;
    }
    play_move(g, *m);
    return 0;
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

static const char *side_name(Winner w) { return w == WINNER_ORDER ? "Order" : "Chaos"; }
static Winner other_side(Winner w) { return w == WINNER_ORDER ? WINNER_CHAOS : WINNER_ORDER; }

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
        snprintf(buf, size, "centre strategy: pairing answer on %s to %s (Order wins by the centre lemma)", mc, pc);
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
    case ADVICE_STORE: snprintf(buf, size, "%s wins by the store of decided positions", side_name(v->winner)); break;
    case ADVICE_SEARCH:
        if (v->winner == WINNER_ORDER && v->dtw > 0)
            snprintf(buf, size, "forced win found by search: Order wins in at most %d plies%s", v->dtw, fig);
        else snprintf(buf, size, "forced win found by search: %s wins%s", side_name(v->winner), fig);
        break;
    case ADVICE_LOST:
        if (v->dtw > 0)
            snprintf(buf, size, "%s is lost (%s): Order wins in at most %d plies; resisting longest%s",
                     side_name(other_side(v->winner)), by_text(v->by), v->dtw, fig);
        else snprintf(buf, size, "%s is lost (%s); no move saves it: resisting%s", side_name(other_side(v->winner)),
                      by_text(v->by), fig);
        break;
    case ADVICE_GUESS: snprintf(buf, size, "no proof yet; best guess%s", fig); break;
    default: snprintf(buf, size, "the game is over"); break;
    }
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

void play_draw(const PlayGame *g, FILE *out)
{
    int n = g->r.n, last = g->nhist ? move_cell(g->hist[g->nhist - 1]) : -1;
    fprintf(out, "\n   ");
    for (int c = 0; c < n; c++) fprintf(out, " %c", 'a' + c);
    fprintf(out, "\n");
    for (int row = 0; row < n; row++) {
        fprintf(out, "%2d ", row + 1);
        for (int c = 0; c < n; c++) {
            int cell = board_cell(row, c);
            fputc(cell == last ? '[' : (c > 0 && cell - 1 == last) ? ']' : ' ', out);
            fputc(board_at(g->b, cell), out);
        }
        fprintf(out, "%s\n", board_cell(row, n - 1) == last ? "]" : "");
    }
    fprintf(out, "\n");
}
