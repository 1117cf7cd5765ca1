/* verify_rules.h - the proof verifier's own rules and symmetries.
 *
 * Independent of engine/rules.*, engine/symmetry.* and engine/moves.h on
 * purpose: the verifier must not trust the code that produced the proof.
 * Everything works on a plain cell array, cells[r * n + c] for row r (from
 * the top) and column c (from the left), each VR_EMPTY, VR_X or VR_O, and
 * is written to be obviously correct first. The few fast paths the
 * verifier's hot loop needs (window masks for a line through a cell and
 * for a win at once, VrLines; the images kept move by move,
 * verify_images.h) are each checked by the test suite against the plain
 * definitions here (vr_status, vr_canonical).
 */
#ifndef OCS_VERIFY_RULES_H
#define OCS_VERIFY_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { VR_EMPTY = 0, VR_X = 1, VR_O = 2 };
enum { VR_ORIGINAL = 0, VR_EXACT = 1, VR_EXACT_END = 2 };
enum { VR_ONGOING = 0, VR_ORDER_WINS = 1, VR_CHAOS_WINS = 2 };
enum { VR_MAX_CELLS = 64, VR_GEOMETRIES = 8, VR_SYMMETRIES = 16 };

typedef struct {
    int n, k, rules; /* board n x n (4..8), k in a row (3..n), VR_ORIGINAL.. */
} VrGame;

/* "original", "exact", "exact-end" -> VR_*; -1 for anything else. */
int vr_rules_parse(const char *s);
const char *vr_rules_name(int rules);

/* A winning line under the rule set's definition, whether or not the board
 * is full: original a run of >= k like symbols, exact and exact-end a
 * maximal run of exactly k. */
bool vr_has_line(const VrGame *g, const uint8_t *cells);
bool vr_full(const VrGame *g, const uint8_t *cells);
/* VR_ONGOING, VR_ORDER_WINS or VR_CHAOS_WINS. */
int vr_status(const VrGame *g, const uint8_t *cells);
/* vr_status after a move: cells already holds the piece placed at `cell`
 * (x and o: the masks of cells' X and O, as vr_key gives them, that piece
 * included), the position before it was ongoing, and full says whether
 * the board is now full. Only runs through `cell` can be new (a run
 * elsewhere is unchanged), so only the windows of w holding `cell` are
 * looked at: under original a run of >= k through it exists iff one of
 * them is all its symbol S; under exact a maximal run of exactly k through
 * it exists iff one of them is all S while neither cell just beyond its
 * ends holds S (that window is then the run). Exact-end on the full board
 * is judged whole. The test suite checks it against vr_status. */
struct VrLines;
int vr_status_after(const VrGame *g, const struct VrLines *w, const uint8_t *cells, uint64_t x, uint64_t o, int cell,
                    bool full);
struct VrLines;
/* Can the side to move at the ongoing position cells (empty: its number of
 * empty cells) make a winning line at once, with one piece? (cells is
 * changed while it looks and restored.) Under original and exact, a run
 * made by a piece at c contains a window of k cells through c whose other
 * k - 1 cells hold that symbol: so only the empty cell of a window with
 * k - 1 like symbols and one empty cell is tried, with that symbol, and
 * vr_status_after judges it (under exact the run must also be exactly k).
 * Under exact-end a line counts only on the full board, where it may
 * stand anywhere: every cell and symbol is tried. The test suite checks
 * it against trying every move. */
bool vr_wins_at_once(const VrGame *g, const struct VrLines *w, uint8_t *cells, uint64_t x, uint64_t o, int empty);
/* The game's windows of k cells in every direction, as cell masks (bit
 * r*n+c), for vr_wins_at_once (x and o: the masks of cells' X and O, as
 * vr_key gives them: a window with k - 1 bits of one symbol and none of
 * the other has its one empty cell as the only bit outside both) and
 * vr_status_after. Filled by vr_lines_init from VR_DIRS and vr_on_board
 * alone. */
enum { VR_MAX_LINES = 4 * VR_MAX_CELLS, VR_MAX_THROUGH = 4 * 8 };
typedef struct VrLines {
    int count;
    uint64_t mask[VR_MAX_LINES];
    uint64_t ends[VR_MAX_LINES];                        /* the on-board cells just before and just after it */
    uint8_t nthrough[VR_MAX_CELLS];                     /* the windows holding a cell: at most 4 directions x k */
    uint16_t through[VR_MAX_CELLS][VR_MAX_THROUGH];
} VrLines;
void vr_lines_init(const VrGame *g, VrLines *w);
/* exact-end only: a maximal run of exactly k whose cells just before and
 * just after it are each off the board or hold the other symbol. Such a
 * run can never change (pieces are never removed, and nothing can be
 * placed next to it), so it stands when the board is full: a sure Order
 * win, before the board is full. False under original and exact (a line
 * there has already ended the game). */
bool vr_secured(const VrGame *g, const uint8_t *cells);
/* True when no winning line can ever appear, whatever is played: a sure
 * Chaos win. Conservative (it may say false for a dead position, never true
 * for a live one). original: every window of k cells holds both symbols.
 * exact, exact-end: no window can still become an exact-k run of S for
 * either S; a window can unless it holds the other symbol or S stands on a
 * cell just beyond either end of it. */
bool vr_dead(const VrGame *g, const uint8_t *cells);
/* The fewest plies after which a winning line can stand, whatever either
 * side plays, at a position where none stands yet: the fewest empty cells
 * of a window that can still become a winning run of S for some S (as
 * vr_dead judges windows), since the window must be all S first and a ply
 * fills one cell; under exact-end, where a line counts only on the full
 * board, the number of empty cells (if any window can). VR_NEVER when no
 * window can (vr_dead). A move lowers it by at most one. */
enum { VR_NEVER = 1 << 20 };
int vr_fewest_to_line(const VrGame *g, const uint8_t *cells);

/* A cell's name: column letter and row number, a1 the top-left cell (n <= 8). */
void vr_cell_name(int n, int cell, char out[3]);
/* Writes a reason (printf-style) into why and returns 0: the lemma checks'
 * "it does not hold, because ..." in one call. */
int vr_why(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The 8 symmetries of the square, g = 0..7, as a map of cell indices on an
 * n x n board: identity, the three rotations, the two mirrors and the two
 * diagonal reflections. Symmetry s = 0..15 is geometry s & 7 followed by
 * swapping X and O when s & 8. */
int vr_geom_cell(int n, int g, int cell);
/* out[vr_geom_cell(n, s & 7, i)] = in[i], with X and O swapped if s & 8. */
void vr_image(int n, int s, const uint8_t *in, uint8_t *out);
/* The four line directions (row step, column step): along a row, down a
 * column, the diagonal and the anti-diagonal. */
extern const int VR_DIRS[4][2];

/* Is (r, c) on the n x n board? */
static inline bool vr_on_board(int n, int r, int c) { return r >= 0 && r < n && c >= 0 && c < n; }

/* A cell's content in words: "X", "O" or "an empty cell". */
static inline const char *vr_content(uint8_t v) { return v == VR_X ? "X" : v == VR_O ? "O" : "an empty cell"; }

static inline uint8_t vr_swap(uint8_t v) { return v == VR_X ? VR_O : v == VR_O ? VR_X : v; }

/* The exact key of a position: bit r*n+c of x (o) set iff that cell holds X (O). */
typedef struct {
    uint64_t x, o;
} VrKey;
VrKey vr_key(int n, const uint8_t *cells);
static inline bool vr_key_less(VrKey a, VrKey b) { return a.x < b.x || (a.x == b.x && a.o < b.o); }
static inline bool vr_key_equal(VrKey a, VrKey b) { return a.x == b.x && a.o == b.o; }

/* Canonical form: the least key (vr_key_less) of the 16 images. The tables
 * for one n are filled by vr_sym_init from vr_geom_cell alone. */
typedef struct {
    int n;
    uint8_t perm[VR_GEOMETRIES][VR_MAX_CELLS]; /* perm[g][i] = vr_geom_cell(n, g, i) */
    /* row[g][r][p]: the image under g of the cells of row r whose columns are the bits of p */
    uint64_t row[VR_GEOMETRIES][8][256];
} VrSym;
void vr_sym_init(VrSym *t, int n);
/* *sym_out (may be NULL): a symmetry s with key(image(cells, s)) == result. */
VrKey vr_canonical(const VrSym *t, const uint8_t *cells, int *sym_out);

#endif
