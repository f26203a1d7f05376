/* The two exclusive algorithms: the transaction holds the serial lock's write side and runs
 * alone. "serial" still undo-logs its writes because the transaction may cancel;
 * "irrevocable" touches memory directly and can never roll back (also what barriers do
 * outside transactions). Neither needs private state or privatization waits. */
#include "tx.h"
#include "undo_log.h"

#include <string.h>

static void exclusive_begin(struct tm_tx *tx) { (void)tx; }

static inline uint64_t direct_load(struct tm_tx *tx, const void *addr, size_t len)
{
    (void)tx;
    uint64_t value = 0;
    memcpy(&value, addr, len);
    return value;
}

static void direct_read(struct tm_tx *tx, const void *addr, void *dst, size_t len)
{
    (void)tx;
    memcpy(dst, addr, len);
}

static void logged_write(struct tm_tx *tx, void *addr, const void *src, size_t len)
{
    tm_undo_record(tx, addr, len);
    memcpy(addr, src, len);
}

static inline void logged_store(struct tm_tx *tx, void *addr, uint64_t value, size_t len)
{
    logged_write(tx, addr, &value, len);
}

static void direct_write(struct tm_tx *tx, void *addr, const void *src, size_t len)
{
    (void)tx;
    memcpy(addr, src, len);
}

static inline void direct_store(struct tm_tx *tx, void *addr, uint64_t value, size_t len)
{
    (void)tx;
    memcpy(addr, &value, len);
}

TM_SIZED_LOADS(direct_load)
TM_SIZED_STORES(logged_store)
TM_SIZED_STORES(direct_store)

static bool exclusive_commit(struct tm_tx *tx, uint64_t *privatization_time)
{
    (void)tx;
    *privatization_time = 0;
    return true;
}

static void exclusive_rollback(struct tm_tx *tx) { (void)tx; }
static bool exclusive_validate(struct tm_tx *tx) { (void)tx; return true; }

const struct tm_algo tm_algo_serial = {
    .name = "serial",
    .id = TM_ALGO_serial,
    .speculative = false,
    .read_path = TM_READ_DIRECT,
    .write_path = TM_WRITE_LOGGED,
    .begin = exclusive_begin,
    .load = TM_SIZED(direct_load),
    .store = TM_SIZED(logged_store),
    .read = direct_read,
    .write = logged_write,
    .commit = exclusive_commit,
    .rollback = exclusive_rollback,
    .validate = exclusive_validate,
};

const struct tm_algo tm_algo_irrevocable = {
    .name = "serial-irrevocable",
    .id = TM_ALGO_serial,
    .speculative = false,
    .read_path = TM_READ_DIRECT,
    .write_path = TM_WRITE_DIRECT,
    .begin = exclusive_begin,
    .load = TM_SIZED(direct_load),
    .store = TM_SIZED(direct_store),
    .read = direct_read,
    .write = direct_write,
    .commit = exclusive_commit,
    .rollback = exclusive_rollback,
    .validate = exclusive_validate,
};
