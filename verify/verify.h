/* verify.h - the independent checker of ocproof certificates.
 *
 * Shares no search or rules code with the solver: the game is judged by
 * verify_rules.* (its own naive rules and symmetries); only the notation
 * (engine/notation.h) is borrowed to read and print positions and moves.
 *
 * Certificate format, text, one item a line; '#' starts a comment to the
 * end of the line; blank lines and surrounding whitespace are ignored:
 *
 *     ocproof 1|2                      first line: the version
 *     board N K                        header fields, in any order, each once,
 *     rules original|exact|exact-end   all before the first position line
 *     winner order|chaos
 *     root POSITION
 *     horizon D                        optional, with 'winner chaos' only: the
 *                                      claim is just that Order cannot win
 *                                      within D plies (Horizon certificates)
 *     POSITION MOVE                    the winner's move in a position
 *     POSITION lemma centre            version 2 only: Order wins the position
 *                                      by the centre lemma (below)
 *     POSITION lemma centre see FILE   version 2 only: the same, the small game
 *                                      decided by the certificate FILE, checked
 *                                      as a see line's file is, nested one level
 *                                      deeper (n = 6..8; verify_centre.h)
 *     POSITION lemma pairing A:B~ C:D= ...
 *                                      version 2 only: Chaos wins the position
 *                                      by a pairing (verify_pairing.h)
 *     POSITION lemma ring A:B~ C:D~ ...
 *                                      version 2 only: Chaos wins the position
 *                                      by the centre's small game and a pairing
 *                                      of the ring's empty cells (the ring
 *                                      lemma, verify_pairing.h; checked as it
 *                                      is read, as a pairing line is)
 *     POSITION lemma subboard CELL M see FILE
 *                                      version 2 only, rules original: Order
 *                                      wins the position by winning the M x M
 *                                      window whose top-left cell is CELL (in
 *                                      POSITION's frame) as a game of its own,
 *                                      FILE that game's certificate (same k;
 *                                      root the window up to the M x M
 *                                      symmetries), checked as a see line's
 *                                      file is; an even number of empty cells
 *                                      outside the window, the window's piece
 *                                      count of the board's parity
 *                                      (verify_subboard.h)
 *     POSITION see FILE                version 2 only: the winner wins the
 *                                      position by the certificate FILE
 *                                      (relative to this file's folder),
 *                                      checked on its own when reached: same
 *                                      game and winner, root = POSITION up to
 *                                      symmetry; nested at most 64 deep
 *
 * A position line may be given in any of the position's 16 symmetric forms
 * (8 symmetries of the square x swapping X and O), with the move in the
 * same frame. A line may be left out where the winner is Order and Order
 * completes a line at once, or wins within three plies: some Order move
 * completes no line and after it every Chaos reply completes one or
 * leaves one that Order completes at once. The check then looks for such
 * a move itself (every move, cells in order, X before O; every reply;
 * judged by vr_status_after and vr_wins_at_once, which the test suite
 * checks against trying every move), so the branch is a win for Order,
 * ending within three plies, by the rules alone. Lines that the proof
 * never reaches are ignored, except pairing lines, which are checked as
 * they are read.
 * A position (up to symmetry) may not have both a move line and a lemma
 * line; a lemma line may stand for a position with either side to move.
 * Version 1 certificates have no lemma lines and verify as before.
 *
 * Checking: from the root, every move of the loser and the certificate's
 * move of the winner are followed until every branch ends in a win for the
 * winner (for Chaos also a position where no line can be won any more);
 * positions are remembered by canonical form, so each is checked once.
 * A position reached that has a lemma line is not followed further: the
 * lemma is checked on it (verify_centre.h; a pairing line was checked on
 * its own written position when read, verify_pairing.h), and the branch is
 * proved if it holds, the certificate invalid if not.
 *
 * See lines. A position reached that has a see line is not followed
 * further either: the file is checked on its own (its own table, freed
 * afterwards) against what the see line demands, one nesting level
 * deeper. Within one verify_file* call a sub-certificate - the file (its
 * real path and the real path of the folder its own see lines resolve
 * against), the game, the winner and the root's canonical form - is
 * checked once: a later see line naming it finds it proved, provided the
 * levels its proof went below it still fit under the nesting bound there.
 * So the result never depends on which see line reached a file first:
 * it is the result of checking every see line's file where it is reached.
 *
 * Horizon certificates. A Chaos certificate with the header field
 * 'horizon D' (0 <= D <= VERIFY_HORIZON_MAX) claims less than a Chaos win:
 * that Order cannot win within D plies of the root, dtw(root) > D, with
 * dtw as solver/dfpn_depth.h and tests/brute.h define it (plies until a
 * line stands, Order hurrying and Chaos delaying; none for a Chaos win).
 * Its lines are a Chaos certificate's: Chaos's move at each Chaos-to-move
 * position the check reaches, pairing lines, see lines (whose files prove
 * a full Chaos win, or, themselves horizon certificates, that Order cannot
 * win within at least the plies left where the see line stands). The
 * check follows from the root every Order move and Chaos's listed move; a
 * position p plies from the root, with h = D - p plies left, is
 *   - refused if a line stands (under exact-end: the board is full and a
 *     line stands), since p <= D;
 *   - closed if the board is full without a line (Chaos has won);
 *   - closed if no line can stand within h plies whatever either side
 *     plays: vr_fewest_to_line > h. At h = 0 that is every position
 *     without a line (the horizon is reached); with no window that can
 *     still win (vr_dead) it is every h; under exact-end, where a line
 *     counts only on the full board, it is every position with more than
 *     h empty cells;
 *   - closed by a lemma pairing or ring line, or by a see line whose file is
 *     valid for the position (its root, up to symmetry) as a Chaos
 *     certificate without a horizon, or with a horizon H >= h (a file
 *     whose horizon is shorter is refused there: "see F at POS (line N):
 *     its horizon of H plies is short of the h plies left there");
 *   - closed, at a Chaos-to-move position with h <= 4 and no line for it,
 *     if the check's own search of the plies left shows S(P, h): Chaos has
 *     a move that completes no line and after which no Order move
 *     completes one, or (h >= 3) after every Order move that completes
 *     none Chaos again has such a move, and so on to the horizon; every
 *     move tried, each judged by vr_status_after and vr_wins_at_once (the
 *     check finds Chaos's moves there itself, as it finds Order's
 *     immediate win in a win certificate, so the certificate need not name
 *     them; the writer leaves these lines out: they were over 99.7 % of a no
 *     certificate's lines);
 *   - otherwise followed: Chaos's line must be there and its move legal;
 *     Order's every move.
 * Positions are remembered by canonical form as elsewhere: every path from
 * the root to a position has the same length (one piece a ply), so h is
 * the same wherever it is reached, and the symmetries and the X/O swap
 * keep every line, so one check serves each image.
 *
 * Why a valid one means dtw(root) > D. Let S(P, h) say: no line stands at
 * P, and h = 0, or the board is full, or Chaos is to move and some child c
 * has S(c, h - 1), or Order is to move and every child has S(c, h - 1).
 * S(P, h) implies dtw(P) > h, by induction on h: dtw is 0 only where a
 * line stands; a full board without one has no dtw; at a Chaos node dtw(P)
 * >= 1 + dtw(c) > h for that c; at an Order node 1 + dtw(c) > h for every
 * c. The check establishes S(P, h) for each position it closes or follows:
 *   - followed: no line stands, and Chaos's legal move leads to a child
 *     checked with h - 1, or every Order child is;
 *   - fewest > h: a line needs a window of k cells, all one symbol S,
 *     which is live for S now (under original any run of k or more holds
 *     such a window; under exact and exact-end the run's window has no S
 *     just beyond its ends, and pieces are never removed), so at least its
 *     empty cells must be filled first, one a ply (under exact-end the
 *     whole board): no line stands at P (fewest >= 1), and after any move
 *     fewest is at least one less than before and still > h - 1 (a window
 *     that is not live never becomes live), so S follows by induction;
 *   - the check's own search at h <= 4 (verify.c chaos_holds and
 *     order_fails) is the definition of S itself, followed ply by ply to
 *     h = 0: at a Chaos node some move m completes no line (so none
 *     stands at the child) and the child has S(c, h - 1), or m fills the
 *     board without a line (a full board: S for every h); at an Order node
 *     every move completes no line and each child that is not a full board
 *     has S(c, h - 1), the last Order ply judged by vr_wins_at_once,
 *     which is exact (it tries every window one piece short, or under
 *     exact-end every move). So S(P, h);
 *   - a lemma pairing or ring line, or a see line whose file claims a win: Chaos
 *     wins P, so S(P, h) for every h (at a Chaos node the strategy's
 *     move, at an Order node every move, keeps a Chaos win, where no
 *     line stands);
 *   - a see line whose file F has a horizon H >= h: F is checked on its
 *     own by this same check, so S(P', H) holds for its root P', an image
 *     of P under a symmetry or the X/O swap, which keep every line and so
 *     S: S(P, H). S is monotone in h (S(P, H) gives S(P, h) for h <= H, by
 *     the same induction: at h = 0 it asks only that no line stands), so
 *     S(P, h). The induction over files is well-founded: a file counts as
 *     proved only when the files its proof reaches are, nested at most
 *     SEE_MAX_DEPTH deep (see lines, above; verify_nest.h), so a cycle of
 *     files proves nothing;
 *   - a position met again: it was checked, in a symmetric form with the
 *     same h, before.
 * So S(root, D) holds, and dtw(root) > D. A certificate without the field
 * is checked as before and means what it always meant; a verifier older
 * than the field refuses one that has it ("unknown keyword 'horizon'"), so
 * no verifier mistakes it for a proof that Chaos wins. Nor does a caller
 * of this one that asks for a winner (VerifyExpect), nor a see line of a
 * certificate that claims a win: a certificate with a horizon is invalid
 * there. Only a horizon certificate's see line takes one, and only with
 * a horizon at least the plies left there (above). A caller that accepts
 * any claim reads the horizon in the result. Sub-certificates are checked
 * once per (file, game, winner, root, whether a horizon is acceptable),
 * and a file proved with a horizon too short for a later see line fails
 * that see line, with one thread and with many alike.
 *
 * The longest game. For a valid Order certificate the result also gives
 * the most plies a game can last from the root when Order plays the
 * certificate's moves and Chaos plays anything: an upper bound on the
 * distance to win that the certificate proves (Order wins within that many
 * plies). It rests on nothing but the checked proof: the games it counts
 * are exactly the branches the check follows; a branch decided by a lemma
 * (or secured under exact-end) counts as lasting until the board is full.
 *
 * Threads (verify_file_threads). Invariants:
 *   - The result (status, error, header fields, lines, lines_used,
 *     positions_checked) is the one thread's, field for field, whatever
 *     the thread count and timing.
 *   - A pre-pass checks the files that see lines reached by the proof
 *     name, each on its own, on T threads; a file's check stops at its
 *     see lines (it does not open their files) and queues them instead.
 *     A file counts as proved only when its own check held and every file
 *     its proof reached is proved (files that name one another never are).
 *     When the top file is proved so, that is the result; otherwise an
 *     ordinary one-thread pass runs from the top, taking the pre-pass's
 *     proved files as proved, and reports exactly what one thread would.
 *     A pre-pass failure alone decides nothing (the one-thread pass
 *     reaches that file, or does not); it only stops the pre-pass early.
 *   - Memory: each thread holds one certificate's table at a time, so the
 *     pre-pass's peak is the T largest tables (a table is about 24 bytes x
 *     1.5-3 per position line and per position proved in the file); the
 *     one-thread pass, when it runs, holds as with one thread the table of
 *     each file along the nesting chain being checked.
 *   - positions_checked counts each sub-certificate's own check once and
 *     only if the proof reaches its see line, as with one thread: files the
 *     pre-pass checked but the proof did not need are not counted.
 *
 * The centre lemma holds for a position when the certificate claims Order;
 * the rules are original or exact (not exact-end); k = n-1 and n is 4, 5
 * or 6; every ring pair (the two end cells of a full line of n cells
 * through the inner (n-2) x (n-2) centre: its rows, its columns and the two
 * diagonals) is empty, holds one X and one O, or holds two like symbols
 * S S (none holds one piece alone); and the small game on the centre alone
 * (a line of n-2 like symbols wins for Order, a full centre for Chaos;
 * either side plays X or O; a line whose pair is S S wins only for S under
 * original and for nobody under exact) is an Order win with the
 * position's side to move. Order then wins by answering each ring move in
 * the pair and following the small game's strategy in the centre
 * (verify_centre.h proves it, for every n). The see form takes n = 6..8,
 * every pair empty or mixed, and FILE for the small game: a certificate of
 * the (n-2) x (n-2) board with k = n-2, the same rules, winner order, no
 * horizon, its root the centre up to symmetry; it is a sub-certificate
 * like a see line's (its own entry in the set, keyed by that game, so the
 * nesting bound, the reading limits and the threads apply alike).
 *
 * A certificate is untrusted input: reading one, the top file or a file a
 * see line names, takes bounded time and memory whatever the file is.
 * Invariants:
 *   - Only regular files are read. A path is stat()ed first and anything
 *     else (a directory, a FIFO, a device such as /dev/zero or a terminal
 *     behind /dev/stdin, a socket; also through a symlink) is refused
 *     without being opened: "certificate 'F' is not a regular file (a
 *     character device)". It is then opened with O_NONBLOCK (a FIFO put
 *     there in between cannot block the open; a pseudo-file such as
 *     /proc/kmsg gives a read error instead of waiting) and fstat()ed
 *     again.
 *   - A line has at most VERIFY_LINE_MAX bytes (its newline not counted).
 *     The longest legitimate line is a see line with a PATH_MAX (4096) path,
 *     about 4.2 KB; a pairing line on 8x8 is about 300 bytes.
 *   - A NUL byte is refused where it stands (the line and column).
 *   - A file has at most VerifyLimits.max_bytes bytes (refused by its size
 *     before a byte is read, and counted while reading, in case it grows)
 *     and max_lines lines (of any kind: blank and comment lines count).
 *     The limits are per file, not per verification, so that a file's
 *     check, and the result, never depend on the order in which threads
 *     or see lines reach the files (see Threads above). A verification
 *     checks each file it reaches once (again only in the one-thread pass
 *     after a pre-pass, or where a file proved deeper no longer fits
 *     under the nesting bound).
 *   - Reading stops at the first refusal: nothing after it is read.
 * Every refusal makes the file malformed (VERIFY_MALFORMED) with one line
 * naming the file (and the line); a file a see line names makes the
 * certificate naming it invalid, like any other malformed sub-certificate.
 * So reading a file takes time in proportion to at most max_bytes and,
 * besides the table of its position lines (at most max_lines of them),
 * one line's buffer of memory.
 */
#ifndef OCS_VERIFY_H
#define OCS_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

enum { VERIFY_VALID = 0, VERIFY_INVALID = 1, VERIFY_MALFORMED = 2 };
enum { VERIFY_WINNER_ORDER = 1, VERIFY_WINNER_CHAOS = 2 };
enum { VERIFY_ERR_LEN = 320, VERIFY_POS_LEN = 65 };

/* The largest horizon a certificate may state (plies; a 8x8 board has 64 cells). */
enum { VERIFY_HORIZON_MAX = 64 };

/* What the caller wants proved; a certificate about something else is
 * invalid. Zero / NULL / -1 fields accept anything. A winner asked for
 * must be proved to win: a certificate with a horizon (which shows only
 * that Order cannot win within so many plies) is then invalid. With
 * winner 0 (or no expectation) it is accepted, and the result's horizon
 * says how far it goes. */
typedef struct {
    int n, k;         /* 0: any */
    int rules;        /* VR_ORIGINAL..VR_EXACT_END, -1: any */
    int winner;       /* VERIFY_WINNER_*, 0: any claim, horizons included */
    const char *root; /* a position; equal up to the 16 symmetries. NULL: any */
} VerifyExpect;

typedef struct {
    int status;                 /* VERIFY_VALID, VERIFY_INVALID or VERIFY_MALFORMED */
    int n, k, rules, winner;    /* from the header; 0 / -1 (rules) until read */
    int horizon;                /* the header's 'horizon D': all the certificate claims is that Order
                                   cannot win within D plies (winner is then chaos, but Chaos is not
                                   shown to win); -1: none, a win is claimed */
    char root[VERIFY_POS_LEN];  /* the root position, "" until read */
    uint64_t positions_checked; /* positions examined (leaves count each time they are reached) */
    uint64_t lines;             /* position lines in the certificate */
    uint64_t lines_used;        /* of those, lines the proof followed */
    int longest;                /* valid, Order: the most plies a game lasts from the root when Order plays
                                   the certificate's moves (where a line is left out, a line completed at
                                   once or the win within three plies the check finds) and Chaos plays anything; so Order wins within `longest` plies.
                                   A lemma position (or one secured under exact-end) counts as a game
                                   lasting until the board is full. -1 otherwise */
    char error[VERIFY_ERR_LEN]; /* "" when valid; else one line, without a trailing newline */
    bool refused;               /* malformed because a bound on the work was passed (the centre lemma's
                                   searches past VerifyLimits.max_lemma_nodes), in this file or one its
                                   see lines name: not judged, neither valid nor invalid */
} VerifyResult;

/* The bound on a certificate line, in bytes without its newline: 16 times
 * the longest legitimate line (a see line with a 4096-byte path). */
enum { VERIFY_LINE_MAX = 65536 };

/* The limits on reading one certificate file (the top one and each one a
 * see line names). The defaults take the largest certificates written so
 * far with room to spare: 1.23 M lines and 50 MB a file (README), the
 * solver's --proof-max-lines default of 10 M lines (about 410 MB on 6x6,
 * 690 MB on 8x8); the table of a file of 16 M position lines takes at
 * most about 3 GB (24 bytes an entry, 1.5-3 entries a line). A 2 GB file
 * is refused by its size before it is read. */
#define VERIFY_DEFAULT_MAX_BYTES (UINT64_C(1) << 30)
#define VERIFY_DEFAULT_MAX_LINES UINT64_C(16000000)
/* The centre lemma's searches (the small game's and the half pair
 * forms') in one verification, all its files and threads together
 * (verify_centre.h, VrLemmaBudget; a threaded check's sequential pass
 * starts again from 0, verify_par.c): 2^32
 * positions, about ten minutes at the rate measured on exact X b1's line
 * (10-20 M positions, 2.3 s with the tables' set-up). A table holds at
 * most 3^17 (0.13 G) positions with one half pair and 3^18 (0.39 G) with
 * two, so about 11 full two-pair ones fit, or about 200 like X b1's; the
 * X a1 certificate under exact will need about 20. A whole two-pair game
 * (X a1 X f1 under exact, the centre empty) took 186 M. */
#define VERIFY_DEFAULT_MAX_LEMMA_NODES (UINT64_C(1) << 32)

/* Progress of a threaded check (verify_file_limits, threads > 1): after a
 * file's own check, at most every progress_every seconds, one call at a
 * time (under the pre-pass's lock): the files checked so far, the files
 * known so far (the see lines found: it grows), and the positions their
 * own checks examined. A report only: it changes no result. A check on
 * one thread makes no report. */
typedef void (*VerifyProgress)(uint64_t files_checked, uint64_t files_known, uint64_t positions, void *arg);

typedef struct {
    uint64_t max_bytes; /* bytes a file; 0: VERIFY_DEFAULT_MAX_BYTES */
    uint64_t max_lines; /* lines a file; 0: VERIFY_DEFAULT_MAX_LINES */
    VerifyProgress progress; /* NULL: none */
    void *progress_arg;
    double progress_every;   /* seconds */
    uint64_t max_lemma_nodes; /* the centre lemma's searches (small game and half pair), the whole
                                 verification; 0: the default */
} VerifyLimits;

/* Return out->status. Malformed errors name the source ("FILE:LINE: ..."). */
int verify_file(const char *path, VerifyResult *out);
int verify_text(const char *text, VerifyResult *out);
/* exp may be NULL. verify_text names its source "<text>". */
int verify_file_ex(const char *path, const VerifyExpect *exp, VerifyResult *out);
int verify_text_ex(const char *text, const VerifyExpect *exp, VerifyResult *out);
/* verify_file_ex with the see lines' files checked on `threads` threads
 * (POSIX threads; at most VERIFY_MAX_THREADS); threads <= 1 is
 * verify_file_ex. Same result as verify_file_ex (above). */
enum { VERIFY_MAX_THREADS = 256 };
int verify_file_threads(const char *path, const VerifyExpect *exp, int threads, VerifyResult *out);
/* verify_file_threads within the limits lim (NULL: the defaults); the
 * other entry points read within the defaults. */
int verify_file_limits(const char *path, const VerifyExpect *exp, int threads, const VerifyLimits *lim,
                       VerifyResult *out);

#endif
