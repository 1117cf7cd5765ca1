/* serve_jobs.c - the job runner of `ocsolve serve` (serve.h): fixed slots,
 * a bounded queue, one worker thread with the one game state (PlayGame:
 * the advisor and its tables) that every job uses in turn.
 *
 * Invariants (under mu): a slot is FREE, QUEUED, RUNNING, DONE or FAILED;
 * at most SERVE_QUEUE slots are QUEUED or RUNNING, at most one RUNNING
 * (the worker's); only DONE and FAILED slots are reused for a new query,
 * the least recently asked first. The worker alone touches `game`; the
 * HTTP threads read slots only through serve_jobs_ask's copy.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/notation.h"
#include "../solver/clock.h"
#include "play.h"
#include "serve.h"

struct ServeJobs {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    ServeJob slot[SERVE_SLOTS];
    unsigned long long next_order;
    int running;       /* the RUNNING slot, -1 none */
    bool quit;
    bool abandoned;    /* the running job was left (stale) or the server stops */
    atomic_bool stop;  /* the running job's interrupt (advise.h): its time is up or it is abandoned */
    pthread_t worker, watchdog;
    bool watching;     /* the watchdog thread runs */
    ServeConfig cfg;
    PlayGame game;     /* the worker's */
    Analysis work;     /* the worker's analysis, copied out as it goes */
};

static bool same_query(const ServeQuery *a, const ServeQuery *b)
{
    return a->kind == b->kind && a->r.rules == b->r.rules && a->r.n == b->r.n && a->r.k == b->r.k &&
           a->b.s[0] == b->b.s[0] && a->b.s[1] == b->b.s[1] && a->last == b->last && a->sym == b->sym;
}

/* The most a job may take: the think time, twice that for a move of one
 * symbol (play.h: up to about twice the think time), and a margin for
 * what is not search. The searches keep to their deadlines themselves;
 * this also stops what does not look at a deadline (a centre table being
 * built, 0.6 s, centre.h). */
static double budget(const ServeJobs *j, ServeKind kind)
{
    return (kind == SERVE_PLAY ? 2 : 1) * j->cfg.think + 1.0;
}

/* Stops the running job if nobody has asked about it for SERVE_STALE s
 * (abandoned: its slot is freed) or its budget is spent (its values so
 * far stand: unknown where the time ran out). Under mu. */
static void stop_if_stale(ServeJobs *j, double now)
{
    if (j->running < 0) return;
    const ServeJob *s = &j->slot[j->running];
    if (now - s->asked > SERVE_STALE) j->abandoned = true;
    if (j->abandoned || now - s->started > budget(j, s->q.kind)) atomic_store(&j->stop, true);
}

/* Looks at the running job every 50 ms (stop_if_stale). */
static void *watchdog(void *arg)
{
    ServeJobs *j = arg;
    struct timespec tick = {0, 50 * 1000 * 1000};
    pthread_mutex_lock(&j->mu);
    while (!j->quit) {
        stop_if_stale(j, clock_seconds());
        pthread_mutex_unlock(&j->mu);
        nanosleep(&tick, NULL);
        pthread_mutex_lock(&j->mu);
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

/* The analysis as it stands, into the running slot (AnalyseNote). */
static void note_analysis(const Analysis *an, int index, void *arg)
{
    (void)index;
    ServeJobs *j = arg;
    pthread_mutex_lock(&j->mu);
    j->slot[j->running].an = *an;
    stop_if_stale(j, clock_seconds());
    pthread_mutex_unlock(&j->mu);
}

/* The engine's move in the game's position (SERVE_PLAY). */
static void run_play(ServeJobs *j, int sym, ServePlay *out)
{
    PlayChoice ch;
    PlayGame *g = &j->game;
    *out = (ServePlay){.move = MOVE_NONE, .kind = "none", .answers = -1};
    if (rules_status(&g->r, g->b) != WINNER_NONE) {
        snprintf(out->reason, sizeof out->reason, "the game is over");
        return;
    }
    play_choose(g, sym, &ch);
    out->move = ch.a.move;
    out->kind = play_choice_kind(&ch);
    out->before = ch.a.value;
    out->answers = ch.restricted ? -1 : ch.a.cell;
    play_choice_reason(g, &ch, out->reason, sizeof out->reason);
}

/* Runs the job of slot i (its query q) without the lock; the results go
 * into *res (the slot is copied back by the caller). false: it failed
 * (res->error says why). */
static bool run_query(ServeJobs *j, const ServeQuery *q, ServeJob *res)
{
    char err[160];
    if (play_at(&j->game, &q->r, q->b, err, sizeof err) != 0) {
        snprintf(res->error, sizeof res->error, "%s", err);
        return false;
    }
    j->game.adv.interrupt = &j->stop;
    switch (q->kind) {
    case SERVE_ANALYSE:
        analyse(&j->game.adv, q->b, q->last, j->cfg.think, &j->work, note_analysis, j);
        res->an = j->work;
        break;
    case SERVE_SOLVE: advise_value(&j->game.adv, q->b, j->cfg.think, &res->value); break;
    case SERVE_PLAY: run_play(j, q->sym, &res->play); break;
    }
    return true;
}

/* The oldest QUEUED slot, -1 none. */
static int next_queued(const ServeJobs *j)
{
    int best = -1;
    for (int i = 0; i < SERVE_SLOTS; i++)
        if (j->slot[i].state == JOB_QUEUED && (best < 0 || j->slot[i].order < j->slot[best].order)) best = i;
    return best;
}

static void *worker(void *arg)
{
    ServeJobs *j = arg;
    pthread_mutex_lock(&j->mu);
    while (!j->quit) {
        int i = next_queued(j);
        if (i < 0) {
            pthread_cond_wait(&j->cv, &j->mu);
            continue;
        }
        ServeJob *s = &j->slot[i];
        double now = clock_seconds();
        if (now - s->asked > SERVE_STALE) { /* abandoned while it waited */
            s->state = JOB_FREE;
            continue;
        }
        s->state = JOB_RUNNING;
        s->started = now;
        j->running = i;
        j->abandoned = false;
        atomic_store(&j->stop, false);
        ServeQuery q = s->q;
        pthread_mutex_unlock(&j->mu);
        /* res is big (an Analysis): it lives in the slot's own copy, made
         * here without the lock and copied back under it */
        ServeJob *res = calloc(1, sizeof *res);
        bool ok = res && run_query(j, &q, res);
        pthread_mutex_lock(&j->mu);
        j->running = -1;
        if (j->abandoned || j->quit) { /* nobody wants it: its slot goes */
            s->state = JOB_FREE;
        } else if (!ok) {
            snprintf(s->error, sizeof s->error, "%s", res ? res->error : "out of memory");
            s->state = JOB_FAILED;
        } else {
            s->an = res->an, s->value = res->value, s->play = res->play;
            s->state = JOB_DONE;
        }
        s->seconds = clock_seconds() - s->started;
        free(res);
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

ServeJobs *serve_jobs_start(const ServeConfig *cfg, char *err, int errlen)
{
    ServeJobs *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, (size_t)errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    j->cfg = *cfg;
    j->running = -1;
    j->game = (PlayGame){.think = cfg->think, .tt_bytes = cfg->tt_bytes, .threads = 1, .store = cfg->store};
    /* The default game's tables now, so that a table too big for the
     * machine is an error at start, not a failed first request. */
    Rules r;
    err[0] = '\0';
    if (rules_init(&r, 6, 5, RULES_ORIGINAL, err, errlen) != 0 || play_new(&j->game, &r, board_empty(), err, errlen) != 0 ||
        pthread_create(&j->worker, NULL, worker, j) != 0) {
        if (!err[0]) snprintf(err, (size_t)errlen, "cannot start the worker thread");
        play_free(&j->game);
        free(j);
        return NULL;
    }
    if (pthread_create(&j->watchdog, NULL, watchdog, j) != 0) {
        snprintf(err, (size_t)errlen, "cannot start the watchdog thread");
        serve_jobs_stop(j);
        return NULL;
    }
    j->watching = true;
    return j;
}

/* A slot for a new query: a FREE one, else the least recently asked DONE
 * or FAILED one; -1 none. */
static int take_slot(const ServeJobs *j)
{
    int best = -1;
    for (int i = 0; i < SERVE_SLOTS; i++) {
        JobState st = j->slot[i].state;
        if (st == JOB_FREE) return i;
        if ((st == JOB_DONE || st == JOB_FAILED) && (best < 0 || j->slot[i].asked < j->slot[best].asked)) best = i;
    }
    return best;
}

/* How many QUEUED or RUNNING slots there are, and how many of them come
 * before `order` (the running one always does). */
static int active(const ServeJobs *j, unsigned long long order, int *ahead)
{
    int n = 0;
    *ahead = 0;
    for (int i = 0; i < SERVE_SLOTS; i++) {
        const ServeJob *s = &j->slot[i];
        if (s->state != JOB_QUEUED && s->state != JOB_RUNNING) continue;
        n++;
        *ahead += s->state == JOB_RUNNING || s->order < order;
    }
    return n;
}

int serve_jobs_ask(ServeJobs *j, const ServeQuery *q, ServeJob *snap)
{
    double now = clock_seconds();
    pthread_mutex_lock(&j->mu);
    stop_if_stale(j, now);
    int i = 0, ahead;
    while (i < SERVE_SLOTS && !(j->slot[i].state != JOB_FREE && same_query(&j->slot[i].q, q))) i++;
    if (i == SERVE_SLOTS) {
        if (active(j, 0, &ahead) >= SERVE_QUEUE || (i = take_slot(j)) < 0) {
            pthread_mutex_unlock(&j->mu);
            return -1;
        }
        memset(&j->slot[i], 0, sizeof j->slot[i]);
        j->slot[i].q = *q;
        j->slot[i].state = JOB_QUEUED;
        j->slot[i].order = ++j->next_order;
        pthread_cond_signal(&j->cv);
    }
    ServeJob *s = &j->slot[i];
    s->asked = now;
    active(j, s->order, &ahead);
    s->ahead = s->state == JOB_QUEUED ? ahead : 0;
    *snap = *s;
    if (s->state == JOB_RUNNING) snap->seconds = now - s->started;
    pthread_mutex_unlock(&j->mu);
    return 0;
}

void serve_jobs_stop(ServeJobs *j)
{
    pthread_mutex_lock(&j->mu);
    j->quit = true;
    j->abandoned = true;
    atomic_store(&j->stop, true);
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
    pthread_join(j->worker, NULL);
    if (j->watching) pthread_join(j->watchdog, NULL);
    play_free(&j->game);
    pthread_cond_destroy(&j->cv);
    pthread_mutex_destroy(&j->mu);
    free(j);
}
