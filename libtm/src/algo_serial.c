/* The two exclusive algorithms: the transaction holds the serial lock's write side and runs
 * alone. "serial" still undo-logs its writes because the transaction may cancel;
 * "irrevocable" touches memory directly and can never roll back. */
#include "tx.h"

#include <string.h>

static void serial_begin(struct tm_tx *tx) { (void)tx; }

static void direct_read(struct tm_tx *tx, const void *addr, void *dst, size_t len)
{
    tx->bytes_read += len;
    memcpy(dst, addr, len);
}

static void logged_write(struct tm_tx *tx, void *addr, const void *src, size_t len)
{
    tx->bytes_written += len;
    tm_undo_record(tx, addr, len);
    memcpy(addr, src, len);
}

static void direct_write(struct tm_tx *tx, void *addr, const void *src, size_t len)
{
    tx->bytes_written += len;
    memcpy(addr, src, len);
}

static bool serial_commit(struct tm_tx *tx)
{
    tx->commit_time = 0;
    return true;
}

static void serial_rollback(struct tm_tx *tx) { (void)tx; }
static bool serial_validate(struct tm_tx *tx) { (void)tx; return true; }

const struct tm_algo tm_algo_serial = {
    .name = "serial",
    .begin = serial_begin,
    .read = direct_read,
    .write = logged_write,
    .commit = serial_commit,
    .rollback = serial_rollback,
    .validate = serial_validate,
};

const struct tm_algo tm_algo_irrevocable = {
    .name = "serial-irrevocable",
    .begin = serial_begin,
    .read = direct_read,
    .write = direct_write,
    .commit = serial_commit,
    .rollback = serial_rollback,
    .validate = serial_validate,
};
