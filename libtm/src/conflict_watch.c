/* The algorithms' side of conflict records (conflicts.h): what each one can say about an
 * abort, and the barrier entries that collect it.
 *
 * While LIBTM_CONFLICTS is on, tm_conflict_watch_init puts watching entries into the
 * algorithms' tables before the first transaction (algo_orec.c and algo_norec.c keep their
 * tables writable for that); statistics are on then, so every barrier goes through the table.
 * Off, the tables keep the plain entries and nothing here runs.
 *
 * orec: a watched read notes its address and value; a watched store records, in a side table
 * beside the ownership records, the block that holds the record now, the stripe it wrote and
 * which bytes of it. At a failed validation the reads whose record moved are checked against
 * memory: a changed word is a true conflict, none a false one (the writer's stripe tells the
 * same stripe from another that shares the record). A lock found held names the holder, and
 * the bytes it wrote tell true from false.
 *
 * norec: value validation already compares every logged value; the first that changed is the
 * location, and the block that took the sequence lock last is the writer. */
#include "conflicts.h"
#include "algo_norec.h"
#include "algo_orec.h"
#include "fatal.h"

#include <stdlib.h>
#include <string.h>

/* One per ownership record: who holds it, or held it last. Written by the holder only (the
 * lock is exclusive); read racily by victims (statistics). */
struct orec_writer {
    void *site;
    uintptr_t stripe;  /* address of the stripe last written under the record */
    uint64_t stamp;    /* the writing transaction (its descriptor and id) */
    uint32_t bytes;    /* bit i: byte i of the stripe written by that transaction */
};
_Static_assert(STRIPE_SIZE <= 32, "one bit per byte of a stripe");

static struct orec_writer *orec_writers;
/* norec: the site of the transaction that took the sequence lock last. */
static void *_Atomic norec_last_writer;

/* The tables the algorithms keep writable (their own files define them). */
extern struct tm_algo tm_orec_entries __attribute__((visibility("hidden")));
extern struct tm_algo tm_norec_entries __attribute__((visibility("hidden")));
static struct tm_algo orec_plain, norec_plain;

static inline uint32_t stripe_bytes(uintptr_t a, size_t len)
{
    unsigned first = (unsigned)(a & (STRIPE_SIZE - 1));
    size_t n = len < STRIPE_SIZE - first ? len : STRIPE_SIZE - first;
    uint32_t mask = n >= 32 ? UINT32_MAX : ((1u << n) - 1);
    return mask << first;
}

void tm_conflict_orec_wrote(struct tm_tx *tx, const void *addr, size_t len)
{
    uintptr_t a = (uintptr_t)addr;
    uint64_t stamp = (uint64_t)(uintptr_t)tx ^ (tx->id << 48) ^ tx->restarts;
    while (len) {
        size_t room = STRIPE_SIZE - (a & (STRIPE_SIZE - 1));
        size_t n = len < room ? len : room;
        struct orec_writer *w = &orec_writers[tm_orec_for(a) - tm_orecs];
        uintptr_t stripe = a & ~(uintptr_t)(STRIPE_SIZE - 1);
        uint32_t bytes = stripe_bytes(a, n);
        if (w->stamp != stamp || w->stripe != stripe) {
            __atomic_store_n(&w->bytes, 0, __ATOMIC_RELAXED);
            __atomic_store_n(&w->stripe, stripe, __ATOMIC_RELAXED);
            __atomic_store_n(&w->site, tx->site, __ATOMIC_RELAXED);
            w->stamp = stamp;
        }
        __atomic_store_n(&w->bytes, w->bytes | bytes, __ATOMIC_RELAXED);
        a += n;
        len -= n;
    }
}

void tm_conflict_norec_writer(struct tm_tx *tx)
{
    atomic_store_explicit(&norec_last_writer, tx->site, memory_order_relaxed);
}

/* ---- watched barrier entries --------------------------------------------------------------- */

static inline uint64_t orec_load_watched(struct tm_tx *tx, const void *a, size_t len)
{
    tm_conflicts_note_access(tx, a, len);
    uint64_t v = orec_plain.load[TM_SIZE_INDEX(len)](tx, a);
    tm_conflicts_note_read(tx, a, &v, len);
    return v;
}

static inline void orec_store_watched(struct tm_tx *tx, void *a, uint64_t v, size_t len)
{
    tm_conflicts_note_access(tx, a, len);
    orec_plain.store[TM_SIZE_INDEX(len)](tx, a, v);
    tm_conflict_orec_wrote(tx, a, len);
}

static void orec_read_watched(struct tm_tx *tx, const void *a, void *dst, size_t len)
{
    tm_conflicts_note_access(tx, a, len);
    orec_plain.read(tx, a, dst, len);
    tm_conflicts_note_read(tx, a, dst, len);
}

static void orec_write_watched(struct tm_tx *tx, void *a, const void *src, size_t len)
{
    tm_conflicts_note_access(tx, a, len);
    orec_plain.write(tx, a, src, len);
    tm_conflict_orec_wrote(tx, a, len);
}

static inline void norec_store_watched(struct tm_tx *tx, void *a, uint64_t v, size_t len)
{
    norec_plain.store[TM_SIZE_INDEX(len)](tx, a, v);
    tm_conflict_norec_writer(tx);
}

static void norec_write_watched(struct tm_tx *tx, void *a, const void *src, size_t len)
{
    norec_plain.write(tx, a, src, len);
    tm_conflict_norec_writer(tx);
}

TM_SIZED_LOADS(orec_load_watched)
TM_SIZED_STORES(orec_store_watched)
TM_SIZED_STORES(norec_store_watched)

void tm_conflict_watch_init(void)
{
    orec_writers = calloc(OREC_COUNT, sizeof *orec_writers);
    if (!orec_writers)
        tm_fatal("out of memory for the conflict records' writer table");
    orec_plain = tm_orec_entries;
    norec_plain = tm_norec_entries;
    const struct tm_algo orec_watch = {
        .load = TM_SIZED(orec_load_watched),
        .store = TM_SIZED(orec_store_watched),
    };
    const struct tm_algo norec_watch = { .store = TM_SIZED(norec_store_watched) };
    memcpy(tm_orec_entries.load, orec_watch.load, sizeof orec_watch.load);
    memcpy(tm_orec_entries.store, orec_watch.store, sizeof orec_watch.store);
    tm_orec_entries.read = orec_read_watched;
    tm_orec_entries.write = orec_write_watched;
    memcpy(tm_norec_entries.store, norec_watch.store, sizeof norec_watch.store);
    tm_norec_entries.write = norec_write_watched;
}

/* ---- at the abort ----------------------------------------------------------------------------- */

/* How the bytes [a, a+len) relate to what the record's writer wrote. */
static enum tm_conflict_class orec_class(uintptr_t a, size_t len, void **writer)
{
    const struct orec_writer *w = &orec_writers[tm_orec_for(a) - tm_orecs];
    *writer = __atomic_load_n(&w->site, __ATOMIC_RELAXED);
    uintptr_t stripe = __atomic_load_n(&w->stripe, __ATOMIC_RELAXED);
    if (!*writer)
        return CONFLICT_UNKNOWN;
    if (stripe != (a & ~(uintptr_t)(STRIPE_SIZE - 1)))
        return CONFLICT_FALSE_ALIAS;
    return (__atomic_load_n(&w->bytes, __ATOMIC_RELAXED) & stripe_bytes(a, len))
               ? CONFLICT_TRUE : CONFLICT_FALSE_STRIPE;
}

/* A failed validation: the first read whose record moved and whose value changed, else the
 * first whose record moved. */
static void orec_validation(struct tm_tx *tx, struct tm_conflict_found *out)
{
    uint64_t limit = tm_orec_state(tx)->snapshot << 1, mine = tm_orec_locked_by(tx);
    size_t n;
    const struct tm_conflict_read *r = tm_conflicts_reads(tx, &n);
    bool stale_seen = false;
    for (size_t i = 0; i < n; i++) {
        const void *addr = r[i].addr;
        size_t len = r[i].len;
        uint64_t v = atomic_load_explicit(tm_orec_for((uintptr_t)addr), memory_order_relaxed);
        if (v <= limit || v == mine)
            continue;
        uint64_t now = 0;
        memcpy(&now, addr, len);
        if (now != r[i].value) {
            out->addr = addr;
            (void)orec_class((uintptr_t)addr, len, &out->writer_site);
            out->cls = CONFLICT_TRUE;
            return;
        }
        if (!stale_seen) {
            stale_seen = true;
            out->addr = addr;
            out->cls = orec_class((uintptr_t)addr, len, &out->writer_site);
            /* The writer's bytes may overlap what we read though the value is back: still
             * not a change of what this transaction saw. */
            if (out->cls == CONFLICT_TRUE)
                out->cls = CONFLICT_FALSE_STRIPE;
        }
    }
}

static bool norec_own_frame(const struct tm_tx *tx, const void *addr)
{
    return (uintptr_t)addr >= tx->stack_lo && (uintptr_t)addr < (uintptr_t)tx->jb.cfa;
}

static void norec_validation(struct tm_tx *tx, struct tm_conflict_found *out)
{
    const struct norec_tx *s = tm_norec_state(tx);
    out->writer_site = atomic_load_explicit(&norec_last_writer, memory_order_relaxed);
    for (const struct value_entry *e = s->base; e < s->next; e++) {
        const void *addr = tm_norec_key_addr(e->key);
        uint64_t now = 0;
        memcpy(&now, addr, tm_norec_key_len(e->key));
        if (now != e->value && !norec_own_frame(tx, addr)) {
            out->addr = addr;
            out->cls = CONFLICT_TRUE;
            return;
        }
    }
    for (size_t pos = 0; pos < s->longs.len;) {
        const struct long_read *r = (const struct long_read *)(const void *)(s->longs.data + pos);
        const uint8_t *was = (const uint8_t *)(r + 1), *is = r->addr;
        for (size_t i = 0; i < r->len; i++) {
            if (was[i] != is[i] && !norec_own_frame(tx, is + i)) {
                out->addr = is + i;
                out->cls = CONFLICT_TRUE;
                return;
            }
        }
        pos += sizeof *r + ((r->len + 7) & ~(size_t)7);
    }
}

void tm_conflict_find(struct tm_tx *tx, enum tm_abort_reason reason, const void *pending,
                      size_t pending_len, void *owner_site, struct tm_conflict_found *out)
{
    *out = (struct tm_conflict_found){ .cls = CONFLICT_UNKNOWN };
    switch (tx->algo->id) {
    case TM_ALGO_orec:
        if (reason == ABORT_VALIDATE) {
            orec_validation(tx, out);
        } else if (pending) {
            /* A lock held: the holder wrote (or will write) under it. */
            out->addr = pending;
            out->cls = orec_class((uintptr_t)pending, pending_len ? pending_len : 1,
                                  &out->writer_site);
            if (owner_site)
                out->writer_site = owner_site;
        }
        break;
    case TM_ALGO_norec:
        if (reason == ABORT_VALIDATE)
            norec_validation(tx, out);
        break;
    default:
        break;
    }
}
