/* serve_json.c - a job of `ocsolve serve` as JSON (README, ocsolve serve,
 * the API), through the one JSON writer (json.h) into memory.
 *
 * Invariant: a value shown as decided is one the engine decided (the
 * analysis, advise.h): "win" and "loss" only for a winner that is not
 * WINNER_NONE, a dtw only when the engine found it (else null). */
#include <stdio.h>
#include <stdlib.h>

#include "../engine/notation.h"
#include "json.h"
#include "play.h"
#include "serve.h"

static const char *state_name(JobState s)
{
    static const char *const names[] = {"free", "queued", "running", "done", "failed"};
    return names[s];
}

static const char *kind_name(ServeKind k)
{
    return k == SERVE_ANALYSE ? "analyse" : k == SERVE_SOLVE ? "solve" : "play";
}

static const char *status_name(Winner st)
{
    return st == WINNER_ORDER ? "order-won" : st == WINNER_CHAOS ? "chaos-won" : "ongoing";
}

static void cell_member(Json *j, const char *key, int cell)
{
    char c[3];
    if (cell < 0) {
        json_null(j, key);
        return;
    }
    notation_format_cell(cell, c);
    json_str(j, key, c);
}

static void dtw_member(Json *j, const char *key, int dtw)
{
    if (dtw >= 0) json_int(j, key, dtw);
    else json_null(j, key);
}

/* {"winner", "by", "dtw"}: a value as the engine established it. */
static void value_object(Json *j, const char *key, const AdviceValue *v)
{
    json_object(j, key);
    json_str(j, "winner", winner_name(v->winner));
    json_str(j, "by", play_by_token(v->winner == WINNER_NONE ? PROVED_NONE : v->by));
    dtw_member(j, "dtw", v->winner == WINNER_ORDER ? v->dtw : -1);
    json_close(j);
}

static const char *step_name(StrategyStep s)
{
    static const char *const names[] = {NULL, "centre-pair", "centre-small", "pairing-pair", "pairing-free"};
    return names[s];
}

static void move_object(Json *j, const MoveValue *mv, Winner mover)
{
    char m[4];
    notation_format_move(mv->move, m);
    Winner w = mv->v.winner;
    json_object(j, NULL);
    json_str(j, "move", m);
    json_str(j, "value", w == WINNER_NONE ? "unknown" : w == mover ? "win" : "loss");
    json_str(j, "winner", winner_name(w));
    dtw_member(j, "dtw", w == WINNER_ORDER ? mv->v.dtw : -1);
    json_str(j, "method", play_by_token(w == WINNER_NONE ? PROVED_NONE : mv->v.by));
    json_bool(j, "final", mv->final);
    json_str(j, "strategy", step_name(mv->step));
    cell_member(j, "answers", mv->answers);
    if (mv->step == STEP_PAIRING_PAIR) json_str(j, "pair_kind", mv->same_pair ? "same" : "opposite");
    json_close(j);
}

/* The centre lemma's geometry and state (centre.h), when it applies. */
static void centre_object(Json *j, const Rules *r, Board b, const Analysis *an)
{
    if (!an->centre_on) {
        json_null(j, "centre");
        return;
    }
    Centre c;
    centre_init(&c, r);
    json_object(j, "centre");
    json_bool(j, "holds", an->centre_holds);
    cell_member(j, "from", board_cell(1, 1));
    cell_member(j, "to", board_cell(c.m, c.m));
    json_array(j, "pairs");
    for (int p = 0; p < c.npairs; p++) {
        uint64_t x = b.s[PIECE_X] & c.pair_mask[p], o = b.s[PIECE_O] & c.pair_mask[p];
        int pieces = __builtin_popcountll(x | o);
        json_object(j, NULL);
        cell_member(j, "a", c.pair[p][0]);
        cell_member(j, "b", c.pair[p][1]);
        json_str(j, "state", pieces == 0 ? "empty" : pieces == 1 ? "half" : x && o ? "mixed" : "same");
        json_close(j);
    }
    json_close(j);
    json_close(j);
}

static void pairing_object(Json *j, const Analysis *an)
{
    if (!an->pairing) {
        json_null(j, "pairing");
        return;
    }
    json_object(j, "pairing");
    json_array(j, "pairs");
    for (int p = 0; p < an->pairs.n; p++) {
        json_object(j, NULL);
        cell_member(j, "a", an->pairs.p[p].a);
        cell_member(j, "b", an->pairs.p[p].b);
        json_str(j, "kind", an->pairs.p[p].same ? "same" : "opposite");
        json_close(j);
    }
    json_close(j);
    json_close(j);
}

static void analysis_members(Json *j, const ServeJob *job)
{
    const Analysis *an = &job->an;
    Winner mover = board_order_to_move(job->q.b) ? WINNER_ORDER : WINNER_CHAOS;
    json_object(j, "value");
    json_str(j, "winner", winner_name(an->value.winner));
    json_str(j, "by", play_by_token(an->value.winner == WINNER_NONE ? PROVED_NONE : an->value.by));
    dtw_member(j, "dtw", an->value.winner == WINNER_ORDER ? an->value.dtw : -1);
    json_bool(j, "from_moves", an->from_moves);
    json_close(j);
    json_array(j, "moves");
    for (int i = 0; i < an->nmoves; i++) move_object(j, &an->mv[i], mover);
    json_close(j);
    centre_object(j, &job->q.r, job->q.b, an);
    pairing_object(j, an);
}

static void play_members(Json *j, const ServeJob *job)
{
    const ServePlay *p = &job->play;
    char m[4], pos[NOTATION_POS_LEN];
    value_object(j, "value", &p->before);
    if (p->move == MOVE_NONE) {
        json_null(j, "move");
    } else {
        notation_format_move(p->move, m);
        json_str(j, "move", m);
        Board after = job->q.b;
        board_place(&after, p->move);
        notation_format_position(after, job->q.r.n, pos);
        json_str(j, "after", pos);
        json_str(j, "after_status", status_name(rules_status(&job->q.r, after)));
    }
    json_str(j, "reason_kind", p->kind);
    json_str(j, "reason", p->reason);
    cell_member(j, "answers", p->answers);
}

static void head_members(Json *j, const ServeJob *job, double think)
{
    const ServeQuery *q = &job->q;
    char pos[NOTATION_POS_LEN], last[4];
    Winner st = rules_status(&q->r, q->b);
    notation_format_position(q->b, q->r.n, pos);
    json_str(j, "state", state_name(job->state));
    json_str(j, "kind", kind_name(q->kind));
    json_str(j, "rules", rules_name(q->r.rules));
    json_int(j, "board", q->r.n);
    json_int(j, "k", q->r.k);
    json_str(j, "position", pos);
    json_str(j, "to_move", st != WINNER_NONE ? NULL : board_order_to_move(q->b) ? "order" : "chaos");
    json_str(j, "status", status_name(st));
    if (q->last != MOVE_NONE) notation_format_move(q->last, last);
    json_str(j, "last", q->last != MOVE_NONE ? last : NULL);
    if (q->kind == SERVE_PLAY) json_str(j, "symbol", q->sym < 0 ? NULL : q->sym == PIECE_X ? "X" : "O");
    json_object(j, "progress");
    json_int(j, "ahead", job->ahead);
    json_real(j, "seconds", job->state == JOB_QUEUED ? 0 : job->seconds, 2);
    json_real(j, "think", think, 2);
    if (q->kind == SERVE_ANALYSE) {
        json_int(j, "moves", job->an.nmoves);
        json_int(j, "searched", job->an.nmoves - job->an.pending);
    }
    json_close(j);
    if (job->state == JOB_FAILED) json_str(j, "error", job->error);
}

/* Closes the object j writes to f, a memory stream over *buf (which
 * fclose sets): the text (the caller frees it), or NULL when the stream
 * failed (freed). */
static char *finish_text(Json *j, FILE *f, char **buf)
{
    json_close(j);
    json_end(j);
    if (fclose(f) != 0) {
        free(*buf);
        return NULL;
    }
    return *buf;
}

char *serve_job_json(const ServeJob *job, double think, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    Json j;
    json_begin(&j, f);
    json_object(&j, NULL);
    head_members(&j, job, think);
    if (job->state == JOB_DONE || job->state == JOB_RUNNING) {
        if (job->q.kind == SERVE_ANALYSE) analysis_members(&j, job);
        else if (job->state == JOB_DONE && job->q.kind == SERVE_SOLVE) value_object(&j, "value", &job->value);
        else if (job->state == JOB_DONE) play_members(&j, job);
    }
    return finish_text(&j, f, &buf);
}

char *serve_error_json(const char *msg, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    Json j;
    json_begin(&j, f);
    json_object(&j, NULL);
    json_str(&j, "error", msg);
    return finish_text(&j, f, &buf);
}
