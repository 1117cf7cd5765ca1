/* cmd_store.c - `ocsolve store`: look into and repair the store of decided
 * positions (tables/store.h): stats, get, export, put, check. Exit 0
 * done, 1 a position not in the store (get), a put refused as a conflict
 * or a store found corrupt (check), 2 bad input, an unreadable, foreign
 * or corrupt store (every command but check), a store of another game
 * than the position's (get, put), or a store another process is writing
 * (put). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../engine/notation.h"
#include "../tables/journal.h"
#include "../tables/store.h"
#include "cli.h"
#include "commands.h"
#include "json.h"

static const char store_help[] =
    "usage: ocsolve store COMMAND [options] DIR ...\n"
    "The store of decided positions: an LMDB directory DIR holding, per position\n"
    "(canonical under the 16 symmetries), the winner, a winning move when known\n"
    "and Order's distance to win when known. One game (rules, board, k) per store,\n"
    "fixed by its first put; one writer at a time (put, ocsolve jobs --store: a\n"
    "second is refused, exit 2), readers (stats, get, export) at any time.\n"
    "commands:\n"
    "  stats DIR                          game, entries, per winner, map and file size\n"
    "  get [options] DIR POSITION         the stored result, the move in POSITION's frame,\n"
    "                                     and its bounds (within d plies, not within d);\n"
    "                                     exit 1 when the position is not in the store\n"
    "  export [--json] DIR                one line per entry, canonical frame:\n"
    "                                     rules n k position winner move dtw ('-': none)\n"
    "  check DIR                          read every record without trusting any: the\n"
    "                                     LMDB file's pages, each record's checksum, the\n"
    "                                     count and digest of the meta record; one line\n"
    "                                     per bad record; exit 1 when corrupt\n"
    "  snapshot DIR OUT                   a compact copy of the store as OUT/data.mdb\n"
    "                                     (consistent while a writer works; for commits\n"
    "                                     that a later run resumes from)\n"
    "  put [options] DIR POSITION WINNER [MOVE] [DTW]\n"
    "                                     store a result (tests, hand repair); WINNER\n"
    "                                     order or chaos, MOVE e.g. Xc3 or -, DTW plies\n"
    "                                     to Order's line; a winner that contradicts the\n"
    "                                     stored one is refused (exit 1), otherwise the\n"
    "                                     smaller distance to win is kept\n"
    "options of get and put:\n" CLI_GAME_HELP
    "  --help      this text\n"
    "Every command but check refuses a corrupt store (a damaged LMDB file, a record\n"
    "failing its checksum, a record lost or added) with one line.\n"
    "Exit code 0 done, 1 not in the store, a conflict, or (check) a corrupt store,\n"
    "2 bad input, a foreign or corrupt store, a store of another game, or another\n"
    "writer at work.\n"
    "example: ocsolve store put st XX.OO./....../....../....../....../...... order Xc1 3\n";

static int usage_opts(int argc, char **argv, GameOpts *g, bool *json)
{
    static const struct option longopts[] = {
        CLI_GAME_LONGOPTS, {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {0, 0, 0, 0}};
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (opt == 'h') {
            fputs(store_help, stdout);
            return 1;
        }
        if (opt == 'j' && json) {
            *json = true;
            continue;
        }
        if (g && cli_game_option(opt, optarg, g)) continue;
        cli_bad_option(argv, opt);
    }
    return 0;
}

/* game: the game the command works on (get, put); NULL: any (stats, export). */
static Store *open_or_fail(const char *dir, bool readonly, const StoreGame *game)
{
    char err[512];
    Store *s = store_open_game(dir, readonly, 0, game, err, sizeof err);
    if (!s) cli_fail("%s", err);
    return s;
}

static const char *winner_word(Winner w) { return w == WINNER_ORDER ? "order" : "chaos"; }

/* The positional words after the options: from min to max of them. */
static void need_args(int have, int min, int max, const char *sub, const char *what)
{
    if (have < min) cli_fail("store %s needs %s (try 'ocsolve store --help')", sub, what);
    if (have > max) cli_fail("store %s: too many arguments (try 'ocsolve store --help')", sub);
}

/* What DIR/journal (tables/journal.h: the undecided jobs of ocsolve jobs)
 * holds, read without touching it; a corrupt or foreign one ends the
 * command (exit 2). */
static void journal_line(const char *dir, const StoreGame *game, char *out, size_t len)
{
    char path[4096], err[512];
    journal_path(dir, path, sizeof path);
    if (access(path, F_OK) != 0) {
        snprintf(out, len, "none");
        return;
    }
    if (!game) {
        snprintf(out, len, "not read (the store names no game)");
        return;
    }
    Journal *j = journal_open_readonly(path, game, err, sizeof err);
    if (!j) cli_fail("%s", err);
    JournalStats js;
    journal_stats(j, &js);
    journal_close(j);
    snprintf(out, len, "%llu undecided jobs, %llu positions%s", (unsigned long long)js.records,
             (unsigned long long)js.positions, js.torn ? " (and a torn last record)" : "");
}

static int do_stats(int argc, char **argv)
{
    if (usage_opts(argc, argv, NULL, NULL)) return 0;
    need_args(argc - optind, 1, 1, "stats", "DIR");
    const char *dir = argv[optind];
    Store *s = open_or_fail(dir, true, NULL);
    StoreStats st;
    StoreGame game;
    char err[512], name[64] = "none yet (an empty store)";
    if (store_stats(s, &st, err, sizeof err) != 0) {
        store_close(s);
        cli_fail("%s", err);
    }
    bool has_game = store_game(s, &game);
    if (has_game) store_game_name(&game, name, sizeof name);
    store_close(s);
    char journal[160];
    journal_line(dir, has_game ? &game : NULL, journal, sizeof journal);
    printf("store: %s\n", dir);
    printf("game: %s\n", name);
    printf("entries: %llu (order %llu, chaos %llu)\n", (unsigned long long)st.entries, (unsigned long long)st.order,
           (unsigned long long)st.chaos);
    printf("with best move: %llu, with distance to win: %llu\n", (unsigned long long)st.with_move,
           (unsigned long long)st.with_dtw);
    printf("bound records: %llu (within d plies / not within d, ocsolve jobs --within)\n",
           (unsigned long long)st.bounds);
    printf("map size: %llu bytes (%.1f MiB)\n", (unsigned long long)st.map_bytes, st.map_bytes / 1048576.0);
    printf("file size: %llu bytes (%.1f MiB)\n", (unsigned long long)st.file_bytes, st.file_bytes / 1048576.0);
    printf("journal: %s\n", journal);
    return 0;
}

/* The key of POSITION under the game options. */
static StoreKey position_key(const GameOpts *g, const char *pos, Rules *r)
{
    Board b;
    cli_position(g, pos, NULL, 0, r, &b);
    return (StoreKey){r->rules, r->n, r->k, b};
}

/* A bound record (tables/store.h), as `get` prints it. */
static void print_bound(const StoreBound *b)
{
    char mv[8] = "none"; /* 4 letters and the NUL: mv[4] had no room for it */
    if (b->move != MOVE_NONE) notation_format_move(b->move, mv);
    if (b->yes != STORE_BOUND_NONE) printf("within: %d plies (Order wins within them; move %s)\n", b->yes, mv);
    if (b->no != STORE_BOUND_NONE) printf("not within: %d plies (Order cannot win within them)\n", b->no);
    printf("bound source: %s\n", store_source_name(b->source));
}

static int do_get(int argc, char **argv)
{
    GameOpts g = {0, 0, RULES_ORIGINAL};
    if (usage_opts(argc, argv, &g, NULL)) return 0;
    need_args(argc - optind, 2, 2, "get", "DIR and POSITION");
    const char *dir = argv[optind];
    Rules r;
    StoreKey key = position_key(&g, argv[optind + 1], &r);
    Store *s = open_or_fail(dir, true, &(StoreGame){key.rules, key.n, key.k});
    StoreValue v;
    StoreBound bd;
    int got = store_get(s, &key, &v), gotb = got < 0 ? 0 : store_get_bound(s, &key, &bd);
    if (got < 0 || gotb < 0) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", store_error(s));
        store_close(s);
        cli_fail("%s", msg);
    }
    store_close(s);
    if (got == 0 && gotb == 0) {
        printf("not in the store\n");
        return 1;
    }
    char mv[4] = "-";
    if (got) {
        if (v.move != MOVE_NONE) notation_format_move(v.move, mv);
        printf("winner: %s\n", winner_word(v.winner));
        printf("best move: %s\n", v.move != MOVE_NONE ? mv : "none");
        if (v.dtw != STORE_DTW_UNKNOWN) printf("dtw: %d\n", v.dtw);
        else printf("dtw: unknown\n");
        printf("source: %s%s\n", store_source_name(v.source), (v.flags & STORE_FLAG_VERIFIED) ? ", verified" : "");
    }
    if (gotb) print_bound(&bd);
    return 0;
}

static int export_line(const StoreKey *k, const StoreValue *v, void *ctx)
{
    bool json = *(bool *)ctx;
    char pos[NOTATION_POS_LEN], mv[4] = "-";
    notation_format_position(k->pos, k->n, pos);
    if (v->move != MOVE_NONE) notation_format_move(v->move, mv);
    if (json) {
        Json j;
        json_begin(&j, stdout);
        json_object(&j, NULL);
        json_str(&j, "rules", rules_name(k->rules));
        json_int(&j, "board", k->n);
        json_int(&j, "k", k->k);
        json_str(&j, "position", pos);
        json_str(&j, "winner", winner_word(v->winner));
        json_str(&j, "move", v->move != MOVE_NONE ? mv : NULL);
        if (v->dtw != STORE_DTW_UNKNOWN) json_int(&j, "dtw", v->dtw);
        else json_null(&j, "dtw");
        json_str(&j, "source", store_source_name(v->source));
        json_bool(&j, "verified", (v->flags & STORE_FLAG_VERIFIED) != 0);
        json_close(&j);
        json_end(&j);
    } else {
        char dtw[16] = "-";
        if (v->dtw != STORE_DTW_UNKNOWN) snprintf(dtw, sizeof dtw, "%d", v->dtw);
        printf("%s %d %d %s %s %s %s\n", rules_name(k->rules), k->n, k->k, pos, winner_word(v->winner), mv, dtw);
    }
    return 0;
}

static int do_export(int argc, char **argv)
{
    bool json = false;
    if (usage_opts(argc, argv, NULL, &json)) return 0;
    need_args(argc - optind, 1, 1, "export", "DIR");
    Store *s = open_or_fail(argv[optind], true, NULL);
    char err[512];
    int rc = store_foreach(s, export_line, &json, err, sizeof err);
    store_close(s);
    if (rc != 0) {
        fflush(stdout);
        cli_fail("%s", err);
    }
    return 0;
}

static int do_put(int argc, char **argv)
{
    GameOpts g = {0, 0, RULES_ORIGINAL};
    if (usage_opts(argc, argv, &g, NULL)) return 0;
    need_args(argc - optind, 3, 5, "put", "DIR, POSITION and WINNER");
    const char *dir = argv[optind];
    Rules r;
    StoreKey key = position_key(&g, argv[optind + 1], &r);
    const char *w = argv[optind + 2];
    StoreValue v = {WINNER_NONE, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_HAND};
    if (strcmp(w, "order") == 0) v.winner = WINNER_ORDER;
    else if (strcmp(w, "chaos") == 0) v.winner = WINNER_CHAOS;
    else cli_fail("unknown winner '%s' (order or chaos)", w);
    char err[512];
    if (argc - optind >= 4 && strcmp(argv[optind + 3], "-") != 0) {
        const char *m = argv[optind + 3];
        if (notation_parse_move(m, r.n, &v.move, err, sizeof err) != 0) cli_fail("%s", err);
        if (board_occupied(key.pos) & (1ULL << move_cell(v.move))) cli_fail("move %s: cell %s is occupied", m, m + 1);
    }
    if (argc - optind >= 5) {
        int empty = r.n * r.n - board_count(key.pos);
        if (v.winner != WINNER_ORDER) cli_fail("a distance to win is Order's: not with winner chaos");
        if (empty < 1) cli_fail("the board is full: no distance to win");
        v.dtw = (int)cli_number(argv[optind + 4], "distance to win", 1, empty);
    }
    Store *s = open_or_fail(dir, false, &(StoreGame){key.rules, key.n, key.k});
    int rc = store_put(s, &key, &v, err, sizeof err);
    store_close(s);
    if (rc == STORE_CONFLICT) {
        fprintf(stderr, "ocsolve: %s\n", err);
        return 1;
    }
    if (rc != 0) cli_fail("%s", err);
    printf("stored\n");
    return 0;
}

/* check: one line per bad record, then the verdict. */
static void bad_record(const uint8_t *key, size_t klen, const char *why, void *ctx)
{
    (void)ctx;
    char hex[2 * 32 + 1] = "";
    for (size_t i = 0; i < klen && i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", key[i]);
    printf("bad record: key %s%s (%zu bytes): %s\n", hex, klen > 32 ? "..." : "", klen, why);
}

static int do_check(int argc, char **argv)
{
    if (usage_opts(argc, argv, NULL, NULL)) return 0;
    need_args(argc - optind, 1, 1, "check", "DIR");
    const char *dir = argv[optind];
    StoreCheck c;
    char err[512];
    if (store_check(dir, &c, bad_record, NULL, err, sizeof err) != 0) cli_fail("%s", err);
    if (c.problem[0]) {
        printf("store %s is corrupt: %s\n", dir, c.problem);
        return 1;
    }
    char name[64];
    store_game_name(&c.meta.game, name, sizeof name);
    printf("store %s is sound: %s, %llu records, every checksum good, the meta record's count and digest match\n",
           dir, name, (unsigned long long)c.records);
    return 0;
}

static int do_snapshot(int argc, char **argv)
{
    if (usage_opts(argc, argv, NULL, NULL)) return 0;
    need_args(argc - optind, 2, 2, "snapshot", "DIR and OUT");
    Store *s = open_or_fail(argv[optind], true, NULL);
    char err[512];
    StoreStats st;
    int rc = store_stats(s, &st, err, sizeof err) == 0 ? store_snapshot(s, argv[optind + 1], err, sizeof err) : -1;
    store_close(s);
    if (rc != 0) cli_fail("%s", err);
    printf("snapshot of %s: %llu records in %s/data.mdb\n", argv[optind], (unsigned long long)st.entries,
           argv[optind + 1]);
    return 0;
}

int cmd_store(int argc, char **argv)
{
    if (argc < 2) cli_fail("store needs a COMMAND: stats, get, export, put, check or snapshot (try 'ocsolve store --help')");
    const char *sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0) {
        fputs(store_help, stdout);
        return 0;
    }
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } subs[] = {{"stats", do_stats}, {"get", do_get}, {"export", do_export}, {"put", do_put}, {"check", do_check},
                  {"snapshot", do_snapshot}};
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(sub, subs[i].name) == 0) return subs[i].run(argc - 1, argv + 1);
    cli_fail("unknown store command '%s' (stats, get, export, put, check or snapshot)", sub);
}
