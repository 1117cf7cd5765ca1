/* ref.h - naive reference implementation of Order and Chaos rules, for tests only. */
#ifndef REF_H
#define REF_H

#include <stdint.h>

enum { REF_ORIGINAL = 0, REF_EXACT = 1, REF_EXACT_END = 2 };
enum { REF_ONGOING = 0, REF_ORDER_WINS = 1, REF_CHAOS_WINS = 2 };

typedef struct { int n, k, rules; char cell[64]; } RefPos;   /* cell[] holds 'X','O','.' */

int ref_parse(RefPos *p, int n, int k, int rules, const char *s); /* exactly n*n chars of XO.; 0 ok, -1 bad */
void ref_format(const RefPos *p, char *out);                   /* n*n chars + NUL */
int ref_has_line(const RefPos *p);   /* winning line under p->rules' line definition, ignoring fullness */
int ref_status(const RefPos *p);     /* REF_ONGOING / REF_ORDER_WINS / REF_CHAOS_WINS */
/* ref_status(p) when p without its piece on `cell` was ongoing (a move was
 * just made there): only lines through that cell are looked at (ref.c). */
int ref_status_after(const RefPos *p, int cell);
uint64_t ref_perft(RefPos *p, int depth); /* plain perft; finished games have no moves; p restored */
void ref_image(const RefPos *p, int sym, RefPos *out); /* sym 0..15: geometry (sym&7), colour swap (sym&8) */
int ref_winning_moves(const RefPos *p, char *syms, int *cells, int max); /* moves giving ORDER_WINS */

#endif
