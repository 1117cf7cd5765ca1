/* seqlock.h: the acquire loads and release stores the tables' sequence
 * locks are built on (tt.c, wintab.c).
 *
 * Invariant: on x86 both are plain moves; what the locks' proofs need (see
 * tt.h) is only the ordering: a reader that sees any byte of a store also
 * sees that store's odd sequence number, or a later one, when it reads the
 * sequence number again. */
#ifndef OCS_SEQLOCK_H
#define OCS_SEQLOCK_H

#define SEQLOCK_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define SEQLOCK_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

#endif
