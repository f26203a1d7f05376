/* Conflict records (conflicts.h): the per-thread state, the tables of records, their merge at
 * thread exit and the statistics file's members. The algorithms' side (which address, which
 * writer, true or false) is conflict_watch.c's. */
#include "conflicts.h"
#include "fatal.h"
#include "registry.h"
#include "stats.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

bool tm_conflicts_enabled;

static const char *const class_names[CONFLICT_CLASSES] = {
    [CONFLICT_TRUE] = "true", [CONFLICT_FALSE_STRIPE] = "false_stripe",
    [CONFLICT_FALSE_ALIAS] = "false_alias", [CONFLICT_UNKNOWN] = "unknown",
};

enum location_kind { LOC_NONE, LOC_GLOBAL, LOC_HEAP, LOC_RAW };

/* One row of the table: what libtm-stats --conflicts prints. */
struct conflict_key {
    void *victim, *writer;
    const void *where;  /* LOC_GLOBAL: the module's base; LOC_HEAP: the allocating block */
    uintptr_t offset;   /* ... and the offset; LOC_RAW: the address */
    uint8_t kind, reason, cls;
};

struct record {
    struct conflict_key key;
    uint64_t count;
};

/* Open addressing; a key with count 0 is a free slot. */
struct table {
    void *rows;
    size_t row_size, capacity, used;
};

struct htm_record {
    void *site;
    uint32_t status;
    uint64_t count;
};


struct tm_conflicts_thread {
    struct tm_conflict_read *reads;
    size_t reads_used, reads_cap;
    const void *pending;   /* the access under way */
    size_t pending_len;
    void *owner_site;      /* of the lock owner last met */
    bool found_set;
    struct tm_conflict_found found;
    struct table records, htm;
};

static pthread_mutex_t merged_lock = PTHREAD_MUTEX_INITIALIZER;
static struct table merged_records = { .row_size = sizeof(struct record) };
static struct table merged_htm = { .row_size = sizeof(struct htm_record) };

/* ---- tables ---------------------------------------------------------------------------- */

static size_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (size_t)h;
}

static uint64_t hash_key(const struct conflict_key *k)
{
    return (uint64_t)(uintptr_t)k->victim * 31 + (uint64_t)(uintptr_t)k->writer * 17 +
           (uint64_t)(uintptr_t)k->where * 7 + k->offset * 3 +
           ((uint64_t)k->kind << 16 | (uint64_t)k->reason << 8 | k->cls);
}

static bool same_key(const struct conflict_key *a, const struct conflict_key *b)
{
    return a->victim == b->victim && a->writer == b->writer && a->where == b->where &&
           a->offset == b->offset && a->kind == b->kind && a->reason == b->reason &&
           a->cls == b->cls;
}

static uint64_t *row_count(struct table *t, size_t i)
{
    char *row = (char *)t->rows + i * t->row_size;
    return t->row_size == sizeof(struct record) ? &((struct record *)(void *)row)->count
                                                : &((struct htm_record *)(void *)row)->count;
}

static uint64_t row_hash(struct table *t, const void *row)
{
    if (t->row_size == sizeof(struct record))
        return hash_key(&((const struct record *)row)->key);
    const struct htm_record *h = row;
    return (uint64_t)(uintptr_t)h->site * 13 + h->status;
}

static bool row_same(struct table *t, const void *a, const void *b)
{
    if (t->row_size == sizeof(struct record))
        return same_key(&((const struct record *)a)->key, &((const struct record *)b)->key);
    const struct htm_record *x = a, *y = b;
    return x->site == y->site && x->status == y->status;
}

static void table_add(struct table *t, const void *row, uint64_t count);

static void table_grow(struct table *t)
{
    struct table old = *t;
    t->capacity = old.capacity ? old.capacity * 2 : 64;
    t->rows = calloc(t->capacity, t->row_size);
    if (!t->rows)
        tm_fatal("out of memory for conflict records");
    t->used = 0;
    for (size_t i = 0; i < old.capacity; i++) {
        uint64_t n = *row_count(&old, i);
        if (n)
            table_add(t, (char *)old.rows + i * old.row_size, n);
    }
    free(old.rows);
}

/* Adds `count` to the row whose key `row` has (its count field is ignored). */
static void table_add(struct table *t, const void *row, uint64_t count)
{
    if ((t->used + 1) * 2 > t->capacity)
        table_grow(t);
    size_t i = mix(row_hash(t, row)) & (t->capacity - 1);
    for (;;) {
        char *slot = (char *)t->rows + i * t->row_size;
        uint64_t *n = row_count(t, i);
        if (*n == 0) {
            memcpy(slot, row, t->row_size);
            *n = count;
            t->used++;
            return;
        }
        if (row_same(t, slot, row)) {
            *n += count;
            return;
        }
        i = (i + 1) & (t->capacity - 1);
    }
}

static void table_merge(struct table *to, struct table *from)
{
    for (size_t i = 0; i < from->capacity; i++) {
        uint64_t n = *row_count(from, i);
        if (n)
            table_add(to, (char *)from->rows + i * from->row_size, n);
    }
    if (from->rows)
        memset(from->rows, 0, from->capacity * from->row_size);
    from->used = 0;
}

/* ---- configuration and threads ---------------------------------------------------------- */

bool tm_conflicts_config(void)
{
    const char *s = getenv("LIBTM_CONFLICTS");
    if (!s || !*s || strcmp(s, "0") == 0)
        return false;
    if (strcmp(s, "1") != 0) {
        tm_warn("LIBTM_CONFLICTS=%s is unknown; use 1 (record why transactions abort) or 0 "
                "(the default; keeping it off)", s);
        return false;
    }
    return true;
}

void tm_conflicts_init(void)
{
    tm_conflicts_enabled = true;
    tm_conflict_watch_init();
}

/* The thread's state, created at its first transaction. */
static struct tm_conflicts_thread *state(struct tm_thread_stats *ts)
{
    if (likely(ts->conflicts))
        return ts->conflicts;
    struct tm_conflicts_thread *c = calloc(1, sizeof *c);
    if (!c)
        tm_fatal("out of memory for conflict records");
    c->records.row_size = sizeof(struct record);
    c->htm.row_size = sizeof(struct htm_record);
    ts->conflicts = c;
    return c;
}

void tm_conflicts_thread_exit(struct tm_thread_stats *ts)
{
    struct tm_conflicts_thread *c = ts->conflicts;
    if (!c)
        return;
    pthread_mutex_lock(&merged_lock);
    table_merge(&merged_records, &c->records);
    table_merge(&merged_htm, &c->htm);
    pthread_mutex_unlock(&merged_lock);
}

/* ---- what the transaction does ----------------------------------------------------------- */

void tm_conflicts_begin(struct tm_tx *tx)
{
    struct tm_conflicts_thread *c = state(tx->stats);
    c->reads_used = 0;
    c->pending = NULL;
    c->owner_site = NULL;
    c->found_set = false;
}

void tm_conflicts_note_access(struct tm_tx *tx, const void *addr, size_t len)
{
    struct tm_conflicts_thread *c = tx->stats->conflicts;
    c->pending = addr;
    c->pending_len = len;
}

void tm_conflicts_note_read(struct tm_tx *tx, const void *addr, const void *value, size_t len)
{
    struct tm_conflicts_thread *c = tx->stats->conflicts;
    const uint8_t *p = value, *a = addr;
    /* Longer reads in words of up to 8 bytes, so that each compares on its own. */
    while (len) {
        size_t n = len < 8 ? len : 8;
        if (c->reads_used == c->reads_cap) {
            size_t cap = c->reads_cap ? c->reads_cap * 2 : 256;
            struct tm_conflict_read *r = realloc(c->reads, cap * sizeof *r);
            if (!r)
                tm_fatal("out of memory growing the conflict read log to %zu entries", cap);
            c->reads = r;
            c->reads_cap = cap;
        }
        struct tm_conflict_read *e = &c->reads[c->reads_used++];
        e->addr = a;
        e->len = n;
        e->value = 0;
        memcpy(&e->value, p, n);
        a += n;
        p += n;
        len -= n;
    }
}

/* The logged reads of the current attempt (orec; norec has its own value log). */
const struct tm_conflict_read *tm_conflicts_reads(struct tm_tx *tx, size_t *count)
{
    struct tm_conflicts_thread *c = state(tx->stats);
    *count = c->reads_used;
    return c->reads;
}

void tm_conflicts_note_owner(struct tm_tx *tx, struct tm_tx *owner)
{
    /* The owner's site is read racily: it may have moved on to its next transaction. */
    void *site = __atomic_load_n(&owner->site, __ATOMIC_RELAXED);
    tx->stats->conflicts->owner_site = site;
}

static bool caused_by_another(enum tm_abort_reason reason)
{
    return reason == ABORT_CONFLICT_READ || reason == ABORT_CONFLICT_WRITE ||
           reason == ABORT_VALIDATE;
}

void tm_conflicts_before_rollback(struct tm_tx *tx, enum tm_abort_reason reason)
{
    struct tm_conflicts_thread *c = state(tx->stats);
    if (!caused_by_another(reason) || tx->depth == 0)
        return;
    tm_conflict_find(tx, reason, c->pending, c->pending_len, c->owner_site, &c->found);
    c->found_set = true;
}

/* Names the location: a heap block libtm saw allocated, a module's data, or the address. */
static void locate(struct conflict_key *k, const void *addr)
{
    void *site;
    size_t offset;
    Dl_info info;
    if (!addr) {
        k->kind = LOC_NONE;
    } else if (tm_conflicts_heap_find(addr, &site, &offset)) {
        k->kind = LOC_HEAP;
        k->where = site;
        k->offset = offset;
    } else if (dladdr(addr, &info) && info.dli_fname && info.dli_fbase) {
        k->kind = LOC_GLOBAL;
        k->where = info.dli_fbase;
        k->offset = (uintptr_t)addr - (uintptr_t)info.dli_fbase;
    } else {
        k->kind = LOC_RAW;
        k->offset = (uintptr_t)addr;
    }
}

void tm_conflicts_abort(struct tm_tx *tx, enum tm_abort_reason reason)
{
    struct tm_conflicts_thread *c = state(tx->stats);
    if (!caused_by_another(reason))
        return;
    struct record r = { .key = { .victim = tx->site, .reason = (uint8_t)reason } };
    if (c->found_set) {
        r.key.writer = c->found.writer_site;
        r.key.cls = (uint8_t)c->found.cls;
        locate(&r.key, c->found.addr);
    } else {
        r.key.cls = CONFLICT_UNKNOWN;
        r.key.kind = LOC_NONE;
    }
    c->found_set = false;
    table_add(&c->records, &r, 1);
}

void tm_conflicts_htm_abort(struct tm_tx *tx, uint32_t status)
{
    struct htm_record h = { .site = tx->htm_site, .status = status };
    table_add(&state(tx->stats)->htm, &h, 1);
}

/* ---- the statistics file ------------------------------------------------------------------ */

/* {"site": ..., "module": ..., "offset": ...} of a code or data address (as stats.c writes a
 * block's site: the module's absolute path and the offset from its base). */
static void write_address(FILE *f, const void *addr)
{
    Dl_info info;
    char module[4096] = "?";
    uintptr_t offset = (uintptr_t)addr, base = 0;
    if (addr && dladdr(addr, &info) && info.dli_fname) {
        if (!realpath(info.dli_fname, module))
            snprintf(module, sizeof module, "%s", info.dli_fname);
        base = (uintptr_t)info.dli_fbase;
        offset -= base;
    }
    fprintf(f, "{\"site\": \"%p\", \"module\": \"%s\", \"offset\": \"0x%lx\", \"base\": \"0x%lx\"}",
            addr, module, (unsigned long)offset, (unsigned long)base);
}

static void write_location(FILE *f, const struct conflict_key *k)
{
    switch (k->kind) {
    case LOC_GLOBAL:
        fprintf(f, "{\"kind\": \"global\", \"address\": ");
        write_address(f, (const char *)k->where + k->offset);
        fprintf(f, "}");
        break;
    case LOC_HEAP:
        fprintf(f, "{\"kind\": \"heap\", \"allocated_by\": ");
        write_address(f, k->where);
        fprintf(f, ", \"offset\": %lu}", (unsigned long)k->offset);
        break;
    case LOC_RAW:
        fprintf(f, "{\"kind\": \"raw\", \"address\": \"0x%lx\"}", (unsigned long)k->offset);
        break;
    default:
        fprintf(f, "{\"kind\": \"none\"}");
        break;
    }
}

static void add_all(struct table *to, struct table *from)
{
    for (size_t i = 0; i < from->capacity; i++) {
        uint64_t n = *row_count(from, i);
        if (n)
            table_add(to, (char *)from->rows + i * from->row_size, n);
    }
}

/* Sums exited threads and the living ones (read racily, as stats.c does). */
static void collect(struct table *records, struct table *htm)
{
    pthread_mutex_lock(&merged_lock);
    add_all(records, &merged_records);
    add_all(htm, &merged_htm);
    pthread_mutex_unlock(&merged_lock);
    for (struct tm_tx *d = tm_all_descriptors(); d; d = d->next_all) {
        if (atomic_load(&d->in_use) && d->stats && d->stats->conflicts) {
            add_all(records, &d->stats->conflicts->records);
            add_all(htm, &d->stats->conflicts->htm);
        }
    }
}

void tm_conflicts_write_json(FILE *f)
{
    struct table records = { .row_size = sizeof(struct record) };
    struct table htm = { .row_size = sizeof(struct htm_record) };
    collect(&records, &htm);
    fprintf(f, ",\n  \"conflicts\": [");
    bool first = true;
    for (size_t i = 0; i < records.capacity; i++) {
        const struct record *r = (const struct record *)records.rows + i;
        if (!r->count)
            continue;
        fprintf(f, "%s\n    {\"victim\": ", first ? "" : ",");
        write_address(f, r->key.victim);
        fprintf(f, ", \"writer\": ");
        if (r->key.writer)
            write_address(f, r->key.writer);
        else
            fprintf(f, "null");
        fprintf(f, ", \"reason\": \"%s\", \"class\": \"%s\", \"location\": ",
                tm_abort_reason_names[r->key.reason], class_names[r->key.cls]);
        write_location(f, &r->key);
        fprintf(f, ", \"count\": %lu}", (unsigned long)r->count);
        first = false;
    }
    fprintf(f, "\n  ],\n  \"htm_abort_codes\": [");
    first = true;
    for (size_t i = 0; i < htm.capacity; i++) {
        const struct htm_record *h = (const struct htm_record *)htm.rows + i;
        if (!h->count)
            continue;
        fprintf(f, "%s\n    {\"block\": ", first ? "" : ",");
        write_address(f, h->site);
        fprintf(f, ", \"status\": %u, \"count\": %lu}", h->status, (unsigned long)h->count);
        first = false;
    }
    fprintf(f, "\n  ]");
    free(records.rows);
    free(htm.rows);
}
