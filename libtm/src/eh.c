/* C++ exceptions in transactions (GCC >= 6 scheme, libtm/ABI.md §14). An exception object
 * allocated in a transaction is freed if the transaction rolls back before throwing it;
 * handlers entered in the transaction are ended on rollback; the count of uncaught exceptions
 * is restored. libsupc++ is referenced weakly. */
#include "eh.h"
#include "alloc.h"
#include "clone_table.h"
#include "fatal.h"
#include "htm_guard.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern void *__cxa_allocate_exception(size_t) __attribute__((weak));
extern void __cxa_free_exception(void *) __attribute__((weak));
extern void __cxa_throw(void *, void *, void (*)(void *)) __attribute__((weak, noreturn));
extern void *__cxa_begin_catch(void *) __attribute__((weak));
extern void __cxa_end_catch(void) __attribute__((weak));
extern void __cxa_tm_cleanup(void *, void *, unsigned int) __attribute__((weak));
extern void *__cxa_get_globals(void) __attribute__((weak));
extern void _Unwind_DeleteException(void *) __attribute__((weak));

/* libsupc++'s __cxa_eh_globals: { caughtExceptions pointer; unsigned uncaughtExceptions; } */
static unsigned *uncaught_counter(void)
{
    if (!__cxa_get_globals)
        return NULL;
    char *globals = __cxa_get_globals();
    return globals ? (unsigned *)(globals + sizeof(void *)) : NULL;
}

uint32_t tm_eh_uncaught_count(void)
{
    unsigned *c = uncaught_counter();
    return c ? *c : 0;
}

/* The uncaught-exceptions count changes only through the _ITM_cxa_* entry points inside a
 * transaction that can roll back, so it is saved at the first of them, not at every begin. */
#define UNCAUGHT_NOT_SAVED UINT32_MAX

void tm_eh_begin(struct tm_tx *tx)
{
    tx->cxa_catch_count = 0;
    tx->cxa_uncaught_saved = UNCAUGHT_NOT_SAVED;
}

static void save_uncaught(struct tm_tx *tx)
{
    if (tx->cxa_uncaught_saved == UNCAUGHT_NOT_SAVED)
        tx->cxa_uncaught_saved = tm_eh_uncaught_count();
}

void tm_eh_rollback(struct tm_tx *tx, const struct tm_checkpoint *cp)
{
    uint32_t keep = cp ? cp->cxa_catch_count : 0;
    if (tx->cxa_catch_count > keep && __cxa_tm_cleanup)
        __cxa_tm_cleanup(NULL, NULL, tx->cxa_catch_count - keep);
    tx->cxa_catch_count = keep;
    uint32_t saved = cp ? cp->cxa_uncaught : tx->cxa_uncaught_saved;
    unsigned *c = saved != UNCAUGHT_NOT_SAVED ? uncaught_counter() : NULL;
    if (c)
        *c = saved;
}

void tm_eh_discard_exception(void *exception)
{
    if (exception && _Unwind_DeleteException)
        _Unwind_DeleteException(exception);
}

void *_ITM_cxa_allocate_exception(size_t size)
{
    tm_htm_need_software();
    if (!__cxa_allocate_exception)
        tm_fatal("_ITM_cxa_allocate_exception called but libstdc++ is not loaded");
    struct tm_tx *tx = tm_current;
    if (tx && tx->depth > 0)
        save_uncaught(tx);
    void *e = __cxa_allocate_exception(size);
    if (tx && tx->depth > 0) {
        tm_allocs_record(tx, e, size, ALLOC_EXCEPTION);
        struct { void *ptr; size_t size; } *range = tm_log_append(&tx->exception_objects, 16);
        range->ptr = e;
        range->size = size;
    }
    return e;
}

void _ITM_cxa_free_exception(void *e)
{
    tm_htm_need_software();
    struct tm_tx *tx = tm_current;
    if (tx && tx->depth > 0)
        tm_allocs_forget(tx, e);
    __cxa_free_exception(e);
}

/* The transactional clone of a destructor: from the clone tables, or by its mangled name
 * (libstdc++ exports its clones, e.g. _ZGTtNSt11logic_errorD1Ev, without a clone table). */
static void *destructor_clone(void *dest)
{
    void *clone = tm_clone_lookup(dest);
    if (clone)
        return clone;
    Dl_info info;
    if (!dladdr(dest, &info) || info.dli_saddr != dest || !info.dli_sname ||
        strncmp(info.dli_sname, "_Z", 2) != 0)
        return NULL;
    char name[512];
    if (snprintf(name, sizeof name, "_ZGTt%s", info.dli_sname + 2) >= (int)sizeof name)
        return NULL;
    return dlsym(RTLD_DEFAULT, name);
}

/* The exception's destructor runs when its last handler ends, which may be inside this
 * transaction (caught inside). The original destructor would free memory that the
 * transactional constructor allocated (and the transaction would free it again on rollback),
 * so the transactional clone of the destructor is registered instead when there is one: its
 * frees are deferred to commit inside a transaction and immediate outside. */
void _ITM_cxa_throw(void *obj, void *tinfo, void (*dest)(void *))
{
    tm_htm_need_software();
    struct tm_tx *tx = tm_current;
    if (tx && tx->depth > 0) {
        save_uncaught(tx);
        tm_allocs_forget(tx, obj); /* the C++ runtime owns it now */
        void *clone = dest ? destructor_clone((void *)dest) : NULL;
        if (clone)
            dest = (void (*)(void *))clone;
    }
    __cxa_throw(obj, tinfo, dest);
}

void *_ITM_cxa_begin_catch(void *exc)
{
    tm_htm_need_software();
    struct tm_tx *tx = tm_current;
    if (tx && tx->depth > 0) {
        save_uncaught(tx);
        tx->cxa_catch_count++;
    }
    return __cxa_begin_catch(exc);
}

void _ITM_cxa_end_catch(void)
{
    tm_htm_need_software();
    struct tm_tx *tx = tm_current;
    if (tx && tx->depth > 0) {
        save_uncaught(tx);
        if (tx->cxa_catch_count > 0)
            tx->cxa_catch_count--;
    }
    __cxa_end_catch();
}
