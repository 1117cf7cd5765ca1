/* solve_print.c - see solve_print.h. */
#include "solve_print.h"

#include "../engine/notation.h"
#include "cli.h"
#include "json.h"

static void print_num(FILE *f, uint32_t v)
{
    char buf[CLI_PN_LEN];
    fputs(cli_pn(v, buf), f);
}

static void json_num(Json *j, const char *key, uint32_t v)
{
    if (v == DFPN_INF) json_null(j, key);
    else json_uint(j, key, v);
}

static double rate(const SolveReport *rep) { return rep->seconds > 0 ? (double)rep->nodes / rep->seconds : 0; }

static const char *within_answer(int w) { return w == 1 ? "yes" : w == 0 ? "no" : "unknown"; }

static void print_position(FILE *f, const SolveAsked *q)
{
    const Rules *r = q->r;
    char pos[NOTATION_POS_LEN];
    notation_format_position(q->b, r->n, pos);
    fprintf(f, "position: %s (%s rules, %dx%d, k=%d, %s to move)\n", pos, rules_name(r->rules), r->n, r->n, r->k,
            board_order_to_move(q->b) ? "Order" : "Chaos");
}

static void print_proof_line(FILE *f, const SolveAsked *q, const SolveReport *rep)
{
    if (q->proof && !rep->proof_error[0])
        fprintf(f, "proof: %s (%llu lines, %llu of them lemmas; %llu positions)\n", q->proof,
                (unsigned long long)rep->proof.lines, (unsigned long long)rep->proof.lemmas,
                (unsigned long long)rep->proof.positions);
}

static void print_within_text(FILE *f, const SolveAsked *q, const SolveReport *rep)
{
    print_position(f, q);
    fprintf(f, "within %d: %s", q->within_d, within_answer(rep->within));
    if (rep->within == 1) fprintf(f, " (Order forces a line within %d plies)\n", rep->within_depth);
    else if (rep->within == 0) fprintf(f, " (Order cannot force a line within %d plies)\n", q->within_d);
    else fputs(" (a limit stopped the search)\n", f);
    if (rep->best != MOVE_NONE) {
        char mv[8];
        notation_format_move(rep->best, mv);
        fprintf(f, "move: %s\n", mv);
    }
    fprintf(f, "nodes: %llu\nseconds: %.3f\nnodes/s: %.0f\n", (unsigned long long)rep->nodes, rep->seconds, rate(rep));
    if (rep->resumable.signo) fprintf(f, "stopped by signal %d\n", rep->resumable.signo);
    print_proof_line(f, q, rep);
}

/* The centre route's line (solve_print.h): what the small game came to. */
static void print_centre_text(FILE *f, const SolveAsked *q)
{
    const SolveReport *c = q->centre;
    int m = q->r->n - 2;
    fprintf(f, "centre lemma: the %dx%d centre as a game of its own (k=%d): %s%s", m, m, m, winner_name(c->value),
            c->value == WINNER_NONE ? " (a limit stopped the search)" : " wins");
    if (c->value == WINNER_ORDER) fputs(", so Order wins here", f);
    else fputs("; the position is searched itself", f);
    fprintf(f, " (%llu nodes, %.3f s)\n", (unsigned long long)c->nodes, c->seconds);
    if (c->value == WINNER_ORDER && q->centre_proof && !c->proof_error[0])
        fprintf(f, "centre proof: %s (%llu lines, %llu of them lemmas; %llu positions)\n", q->centre_proof,
                (unsigned long long)c->proof.lines, (unsigned long long)c->proof.lemmas,
                (unsigned long long)c->proof.positions);
}

/* The sub-board route's line (solve_print.h): what the last window's game
 * came to. */
static void print_subboard_text(FILE *f, const SolveAsked *q)
{
    const SolveReport *c = q->subboard;
    int m = q->subboard_window.m;
    char name[8];
    subboard_window_name(q->subboard_window, name);
    fprintf(f, "sub-board lemma: the %dx%d window %s as a game of its own (k=%d): %s%s", m, m, name, q->r->k,
            winner_name(c->value), c->value == WINNER_NONE ? " (a limit stopped the search)" : " wins");
    if (c->value == WINNER_ORDER) fputs(", so Order wins here", f);
    else fputs("; the position is searched itself", f);
    fprintf(f, " (%llu nodes, %.3f s", (unsigned long long)c->nodes, c->seconds);
    if (q->subboard_tries > 1) fprintf(f, "; the last of %d windows tried", q->subboard_tries);
    fputs(")\n", f);
    if (c->value == WINNER_ORDER && q->subboard_proof && !c->proof_error[0])
        fprintf(f, "sub-board proof: %s (%llu lines, %llu of them lemmas; %llu positions)\n", q->subboard_proof,
                (unsigned long long)c->proof.lines, (unsigned long long)c->proof.lemmas,
                (unsigned long long)c->proof.positions);
}

void solve_print_text(FILE *f, const SolveAsked *q, const SolveReport *rep)
{
    if (q->within) {
        print_within_text(f, q, rep);
        return;
    }
    char mv[8] = "none";
    if (rep->best != MOVE_NONE) notation_format_move(rep->best, mv);
    print_position(f, q);
    if (q->centre) print_centre_text(f, q);
    if (q->subboard) print_subboard_text(f, q);
    fprintf(f, "result: %s%s\n", winner_name(rep->value),
            rep->value == WINNER_NONE ? " (a limit stopped the search)" : " wins");
    fprintf(f, "best move: %s\n", mv);
    if (q->dtw) {
        if (rep->dtw >= 0) fprintf(f, "dtw: %d\n", rep->dtw);
        else fprintf(f, "dtw: none%s\n", rep->dtw == -2 ? " (a limit stopped the search)" : "");
        fprintf(f, "dtw search: %s, %llu nodes, %.3f s\n", rep->dtw_by_ab ? "ab" : "dfpn",
                (unsigned long long)rep->dtw_nodes, rep->dtw_seconds);
    }
    fprintf(f, "nodes: %llu\nseconds: %.3f\nnodes/s: %.0f\n", (unsigned long long)rep->nodes, rep->seconds, rate(rep));
    if (rep->ab_depth > 0) { /* alpha-beta has no proof numbers, only its depth */
        fprintf(f, "ab depth: %d\n", rep->ab_depth);
    } else {
        fputs("root pn/dn: ", f);
        print_num(f, rep->pn);
        fputs(" / ", f);
        print_num(f, rep->dn);
        fputc('\n', f);
    }
    if (rep->threat_searches)
        fprintf(f, "threat searches: %llu, %llu won\n", (unsigned long long)rep->threat_searches,
                (unsigned long long)rep->threat_wins);
    if (q->resumable)
        fprintf(f, "all runs: %llu nodes, %.1f s; checkpoints saved: %d\n",
                (unsigned long long)(rep->resumable.prev_nodes + rep->nodes), rep->resumable.prev_seconds + rep->seconds,
                rep->resumable.checkpoints);
    if (rep->resumable.signo) fprintf(f, "stopped by signal %d\n", rep->resumable.signo);
    print_proof_line(f, q, rep);
}

/* "proof": the certificate file and what the writer said of it. */
static void print_proof_object(Json *j, const char *file, const SolveReport *rep)
{
    json_object(j, "proof");
    json_str(j, "file", file);
    json_uint(j, "lines", rep->proof.lines);
    json_uint(j, "lemma_lines", rep->proof.lemmas);
    json_uint(j, "positions", rep->proof.positions);
    json_str(j, "error", rep->proof_error[0] ? rep->proof_error : NULL);
    json_close(j);
}

static void print_proof_json(Json *j, const SolveAsked *q, const SolveReport *rep)
{
    if (q->proof) print_proof_object(j, q->proof, rep);
}

static void print_within_json(Json *j, const SolveAsked *q, const SolveReport *rep)
{
    char mv[8];
    if (rep->best != MOVE_NONE) notation_format_move(rep->best, mv);
    json_int(j, "within", q->within_d);
    json_str(j, "answer", within_answer(rep->within));
    if (rep->within == 1) json_int(j, "proof_depth", rep->within_depth);
    else json_null(j, "proof_depth");
    json_str(j, "move", rep->best != MOVE_NONE ? mv : NULL);
    json_uint(j, "nodes", rep->nodes);
    json_real(j, "seconds", rep->seconds, 6);
    json_real(j, "nodes_per_second", rate(rep), 0);
    if (rep->resumable.signo) json_int(j, "signal", rep->resumable.signo);
    print_proof_json(j, q, rep);
}

/* "centre": the small game's board, k, result, nodes, seconds and
 * certificate (solve_print.h). */
static void print_centre_json(Json *j, const SolveAsked *q)
{
    const SolveReport *c = q->centre;
    json_object(j, "centre");
    json_int(j, "board", q->r->n - 2);
    json_int(j, "k", q->r->n - 2);
    json_str(j, "result", winner_name(c->value));
    json_uint(j, "nodes", c->nodes);
    json_real(j, "seconds", c->seconds, 6);
    if (c->value == WINNER_ORDER && q->centre_proof) print_proof_object(j, q->centre_proof, c);
    else json_null(j, "proof");
    json_close(j);
}

/* "subboard": the last window's board, k, cells, the windows tried, its
 * game's result, nodes, seconds and certificate (solve_print.h). */
static void print_subboard_json(Json *j, const SolveAsked *q)
{
    const SolveReport *c = q->subboard;
    char name[8];
    subboard_window_name(q->subboard_window, name);
    json_object(j, "subboard");
    json_int(j, "board", q->subboard_window.m);
    json_int(j, "k", q->r->k);
    json_str(j, "window", name);
    json_int(j, "tries", q->subboard_tries);
    json_str(j, "result", winner_name(c->value));
    json_uint(j, "nodes", c->nodes);
    json_real(j, "seconds", c->seconds, 6);
    if (c->value == WINNER_ORDER && q->subboard_proof) print_proof_object(j, q->subboard_proof, c);
    else json_null(j, "proof");
    json_close(j);
}

void solve_print_json(FILE *f, const SolveAsked *q, const SolveReport *rep)
{
    const Rules *r = q->r;
    char pos[NOTATION_POS_LEN], mv[8];
    notation_format_position(q->b, r->n, pos);
    if (rep->best != MOVE_NONE) notation_format_move(rep->best, mv);
    Json j;
    json_begin(&j, f);
    json_object(&j, NULL);
    json_str(&j, "position", pos);
    json_str(&j, "rules", rules_name(r->rules));
    json_int(&j, "board", r->n);
    json_int(&j, "k", r->k);
    json_str(&j, "to_move", board_order_to_move(q->b) ? "order" : "chaos");
    if (q->within) {
        print_within_json(&j, q, rep);
        json_close(&j);
        json_end(&j);
        return;
    }
    /* before the position's own keys, which flat readers (scripts/json-field.sh) take last */
    if (q->centre) print_centre_json(&j, q);
    if (q->subboard) print_subboard_json(&j, q);
    json_str(&j, "result", winner_name(rep->value));
    json_str(&j, "best_move", rep->best != MOVE_NONE ? mv : NULL);
    json_uint(&j, "nodes", rep->nodes);
    json_real(&j, "seconds", rep->seconds, 6);
    json_real(&j, "nodes_per_second", rate(rep), 0);
    json_num(&j, "root_pn", rep->pn);
    json_num(&j, "root_dn", rep->dn);
    if (rep->ab_depth > 0) json_int(&j, "ab_depth", rep->ab_depth);
    json_uint(&j, "threat_searches", rep->threat_searches);
    json_uint(&j, "threat_wins", rep->threat_wins);
    if (q->dtw) {
        if (rep->dtw >= 0) json_int(&j, "dtw", rep->dtw);
        else json_null(&j, "dtw");
        json_str(&j, "dtw_method", rep->dtw_by_ab ? "ab" : "dfpn");
        json_uint(&j, "dtw_nodes", rep->dtw_nodes);
        json_real(&j, "dtw_seconds", rep->dtw_seconds, 6);
    }
    if (q->resumable) {
        json_uint(&j, "total_nodes", rep->resumable.prev_nodes + rep->nodes);
        json_real(&j, "total_seconds", rep->resumable.prev_seconds + rep->seconds, 3);
        json_int(&j, "checkpoints", rep->resumable.checkpoints);
    }
    if (rep->resumable.signo) json_int(&j, "signal", rep->resumable.signo);
    print_proof_json(&j, q, rep);
    json_close(&j);
    json_end(&j);
}
