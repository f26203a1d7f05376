/* The algorithm interface (a "method" in GCC's terms) and the registry of algorithms.
 *
 * An algorithm implements the barriers and the begin/commit/rollback of one way to run
 * transactions. It keeps its per-transaction state in a private slot of the descriptor
 * (tm_algo_state) and decides no policy: conflicts are reported as events (events.h), retries,
 * serial fallback, irrevocability and privatization waits belong to the core
 * (transaction.c, privatization.c). Writes always take effect in place with an undo log
 * (undo_log.c): GCC 12 may copy instrumented stack arrays with a plain memcpy, which breaks
 * write buffering. */
#ifndef LIBTM_ALGO_H
#define LIBTM_ALGO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tm_tx;

/* Index of the load/store barrier for a power-of-two size up to 8. */
#define TM_SIZE_INDEX(len) ((len) == 1 ? 0 : (len) == 2 ? 1 : (len) == 4 ? 2 : 3)

/* Defines NAME1, NAME2, NAME4, NAME8 from a static inline NAME(tx, addr, len) that the
 * compiler specialises for each constant length, and the initialisers of the arrays. */
#define TM_SIZED_LOADS(name)                                                                 \
    static uint64_t name##1(struct tm_tx *tx, const void *a) { return name(tx, a, 1); }      \
    static uint64_t name##2(struct tm_tx *tx, const void *a) { return name(tx, a, 2); }      \
    static uint64_t name##4(struct tm_tx *tx, const void *a) { return name(tx, a, 4); }      \
    static uint64_t name##8(struct tm_tx *tx, const void *a) { return name(tx, a, 8); }
#define TM_SIZED_STORES(name)                                                                \
    static void name##1(struct tm_tx *tx, void *a, uint64_t v) { name(tx, a, v, 1); }        \
    static void name##2(struct tm_tx *tx, void *a, uint64_t v) { name(tx, a, v, 2); }        \
    static void name##4(struct tm_tx *tx, void *a, uint64_t v) { name(tx, a, v, 4); }        \
    static void name##8(struct tm_tx *tx, void *a, uint64_t v) { name(tx, a, v, 8); }
#define TM_SIZED(name) { name##1, name##2, name##4, name##8 }

/* A plain load of an aligned value of 1, 2, 4 or 8 bytes (the read fast paths). */
static inline uint64_t tm_load_aligned(const void *addr, size_t len)
{
    switch (len) {
    case 8: return *(const uint64_t *)addr;
    case 4: return *(const uint32_t *)addr;
    case 2: return *(const uint16_t *)addr;
    default: return *(const uint8_t *)addr;
    }
}

/* A plain store of the low 1, 2, 4 or 8 bytes of `value` to an aligned address. */
static inline void tm_store_aligned(void *addr, uint64_t value, size_t len)
{
    switch (len) {
    case 8: *(uint64_t *)addr = value; break;
    case 4: *(uint32_t *)addr = (uint32_t)value; break;
    case 2: *(uint16_t *)addr = (uint16_t)value; break;
    default: *(uint8_t *)addr = (uint8_t)value; break;
    }
}

/* Registry indexes, from algorithms.def. */
enum tm_algo_id {
#define TM_ALGORITHM(name, speculative, owners) TM_ALGO_##name,
#include "algorithms.def"
#undef TM_ALGORITHM
    TM_ALGO_COUNT
};

struct tm_algo {
    const char *name;
    enum tm_algo_id id;
    /* Runs concurrently with other transactions under the serial lock's read side; false:
     * the transaction holds the serial lock's write side and runs alone. */
    bool speculative;
    /* The barriers' fast paths for this algorithm (enum tm_read_path, tm_write_path; tx.h). */
    uint8_t read_path, write_path;

    void (*begin)(struct tm_tx *tx);
    /* Barriers. load/store: values of 1, 2, 4 or 8 bytes (index TM_SIZE_INDEX(len); the
     * value in the low bytes of the word, little-endian), maybe unaligned; read/write: any
     * length. Stores to the transaction's own dead-at-rollback stack never reach the
     * algorithm (barriers.h). */
    uint64_t (*load[4])(struct tm_tx *tx, const void *addr);
    void (*store[4])(struct tm_tx *tx, void *addr, uint64_t value);
    void (*read)(struct tm_tx *tx, const void *addr, void *dst, size_t len);
    void (*write)(struct tm_tx *tx, void *addr, const void *src, size_t len);
    /* Makes the effects visible. Returns false when the transaction must restart instead.
     * On success *privatization_time is the time up to which every other transaction must
     * have moved on before this thread may touch data it privatized (privatization.c), or 0
     * when the algorithm needs no such wait. */
    bool (*commit)(struct tm_tx *tx, uint64_t *privatization_time);
    /* After the undo log was applied: release what the transaction owns, forget its reads. */
    void (*rollback)(struct tm_tx *tx);
    /* Whether everything read so far still holds; called by the serial lock's writer (no
     * other transaction runs) before it goes on irrevocably. */
    bool (*validate)(struct tm_tx *tx);
    /* Another thread waits for this transaction to move past `time` (privatization.c): prove
     * the snapshot still valid and move it forward, or restart. Only called by the
     * transaction's own thread, from its barriers. NULL when commits never wait. */
    void (*move_snapshot)(struct tm_tx *tx);
    /* After a partial rollback restored the algorithm: sets the barriers' paths from the
     * transaction's state where it chose others than read_path/write_path (a norec writer).
     * NULL when it never does. */
    void (*refresh_paths)(struct tm_tx *tx);
    /* Whether tx keeps every other transaction from committing writes until it ends (norec's
     * writer holds the sequence lock): an open transaction beside it must then run alone among
     * writers, with the serial algorithm, or it would wait for tx (transaction.c: libtm_open).
     * NULL: never. */
    bool (*excludes_writers)(struct tm_tx *tx);
};

/* The registered algorithms, indexed by enum tm_algo_id. */
extern const struct tm_algo *const tm_algos[TM_ALGO_COUNT];
/* The registered algorithm of that name, or NULL. */
const struct tm_algo *tm_algo_by_name(const char *name);
/* "orec, norec or serial": for messages. */
const char *tm_algo_names(void);

/* Exclusive direct access: what an irrevocable transaction and code outside transactions use
 * (algo_serial.c; not selectable, so not in the registry). */
extern const struct tm_algo tm_algo_irrevocable;

#define TM_ALGORITHM(name, speculative, owners) extern const struct tm_algo tm_algo_##name;
#include "algorithms.def"
#undef TM_ALGORITHM

/* Each algorithm's private per-transaction state lives in its own slot of the descriptor, so
 * that switching algorithms keeps every log's capacity. */
#define TM_ALGO_STATE_SIZE 128

#endif
