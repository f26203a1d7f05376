/* Transactional allocation (alloc.c): what a rollback frees and a commit frees late. */
#ifndef LIBTM_ALLOC_H
#define LIBTM_ALLOC_H

#include "tx.h"

/* Carries out the frees of the committed transaction: at once, or when other transactions
 * may still read the blocks (it ran speculatively beside them), through reclaim.c. */
void tm_allocs_commit(struct tm_tx *tx, bool others_may_read);
/* The same for an open transaction `open` that committed beside its enclosing transactions:
 * blocks that others may still read wait in the outermost one's reclaim lists, released
 * after its end (reclaim.c). */
void tm_allocs_commit_open(struct tm_tx *open, struct tm_tx *outermost);
void tm_allocs_rollback(struct tm_tx *tx, size_t from);
void tm_allocs_record(struct tm_tx *tx, void *ptr, size_t size, enum tm_alloc_kind kind);
void tm_allocs_forget(struct tm_tx *tx, void *ptr);

#endif
