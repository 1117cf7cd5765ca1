/* job_log.c - the job log (job_log.h). Records are appended by the
 * coordinator only (jobs.c, collect), so no locking; a record that cannot be
 * kept (out of memory) fails the run rather than leave a log that
 * silently misses jobs. */
#include "job_log.h"

#include <stdlib.h>

#include "../engine/notation.h"
#include "../solver/clock.h"

void job_log_add(Coordinator *c, int k, int i, const JobOutcome *o)
{
    if (!c->spec->job_log) return;
    if (c->nlog == c->logcap) {
        size_t cap = c->logcap ? 2 * c->logcap : 1024;
        JobRec *l = realloc(c->log, cap * sizeof *l);
        if (!l) {
            top_fail(c, "out of memory for the job log (%zu jobs)", c->nlog);
            return;
        }
        c->log = l;
        c->logcap = cap;
    }
    /* the leaf's budget is its job's: a busy leaf's budget does not change */
    c->log[c->nlog++] = (JobRec){.serial = o->serial, .worker = (int16_t)k, .value = o->value, .stopped = o->stopped,
                                 .node = i, .pn = o->pn, .dn = o->dn, .budget = c->t[i].budget,
                                 .nodes = o->nodes, .start = c->ws[k].start, .end = clock_seconds() - c->started,
                                 .cert_seconds = o->cert_seconds};
}

/* Marks the proof tree (job_log.h) in `in`; -1 out of memory. */
static int mark_proof(const Coordinator *c, bool *in)
{
    int *stack = malloc(c->nt * sizeof *stack), top = 0;
    if (!stack) return -1;
    stack[top++] = 0;
    while (top > 0) {
        int i = stack[--top];
        const TNode *n = &c->t[i];
        in[i] = true;
        if (n->state != T_INNER || !top_decided(n)) continue;
        top += top_proof_children(c, i, stack + top); /* each node once: a tree */
    }
    free(stack);
    return 0;
}

/* The moves from the root to node i, e.g. "Oa1 Xd4" (empty at the root). */
static void path_of(const Coordinator *c, int i, char *out, size_t len)
{
    Move m[MOVES_MAX];
    int d = 0;
    for (; i > 0 && d < MOVES_MAX; i = c->t[i].parent) m[d++] = c->t[i].move;
    size_t at = 0;
    out[0] = '\0';
    while (d-- > 0 && at + 5 < len) {
        char s[4];
        notation_format_move(m[d], s);
        at += (size_t)snprintf(out + at, len - at, "%s%s", at ? " " : "", s);
    }
}

static const char *result_name(const JobRec *r)
{
    return r->value == WINNER_ORDER ? "order" : r->value == WINNER_CHAOS ? "chaos" : r->stopped ? "stopped" : "undecided";
}

int job_log_write(Coordinator *c, FILE *f)
{
    bool proof = c->nt > 0 && top_decided(&c->t[0]);
    bool *in = calloc(c->nt ? c->nt : 1, sizeof *in);
    if (!in || (proof && mark_proof(c, in) != 0)) {
        free(in);
        top_fail(c, "out of memory writing the job log");
        return -1;
    }
    fprintf(f, "serial,worker,start,end,node,depth,path,budget,nodes,result,pn,dn,cert_seconds,expanded,in_proof\n");
    for (size_t k = 0; k < c->nlog; k++) {
        const JobRec *r = &c->log[k];
        const TNode *n = &c->t[r->node];
        char path[MOVES_MAX * 4 + 1];
        path_of(c, r->node, path, sizeof path);
        fprintf(f, "%u,%d,%.3f,%.3f,%d,%d,%s,%llu,%llu,%s,%u,%u,%.3f,%d,%s\n", r->serial, r->worker, r->start, r->end,
                r->node, n->depth, path, (unsigned long long)r->budget, (unsigned long long)r->nodes, result_name(r),
                r->pn, r->dn, r->cert_seconds, n->state == T_INNER, proof ? (in[r->node] ? "1" : "0") : "-");
    }
    free(in);
    if (fflush(f) != 0 || ferror(f)) {
        top_fail(c, "the job log could not be written");
        return -1;
    }
    return 0;
}

void job_log_free(Coordinator *c)
{
    free(c->log);
    c->log = NULL;
    c->nlog = c->logcap = 0;
}
