/* The shared element count of intset --size-counter (size_counter.h). */
#include "size_counter.h"

#include <string.h>

static const char *const mode_names[] = {
    [SIZE_COUNTER_NONE] = "none",
    [SIZE_COUNTER_FLAT] = "flat",
    [SIZE_COUNTER_CLOSED] = "closed",
    [SIZE_COUNTER_OPEN] = "open",
};

bool size_counter_mode_from_name(const char *name, enum size_counter_mode *mode)
{
    for (size_t i = 0; i < sizeof mode_names / sizeof mode_names[0]; i++) {
        if (strcmp(name, mode_names[i]) == 0) {
            *mode = (enum size_counter_mode)i;
            return true;
        }
    }
    return false;
}

const char *size_counter_mode_name(enum size_counter_mode mode)
{
    return mode_names[mode];
}

#if defined(BENCH_SYNC_TM)
#include <dlfcn.h>
#include <libtm.h>

/* libtm_open, when the runtime is libtm. */
static libtm_open_t open_transaction;

TM_SAFE static void count_up(void *arg) { ((struct size_counter *)arg)->value++; }
TM_SAFE static void count_down(void *arg) { ((struct size_counter *)arg)->value--; }

bool size_counter_init(struct size_counter *counter, enum size_counter_mode mode, long initial)
{
    counter->value = initial;
    counter->mode = mode;
    open_transaction = (libtm_open_t)dlsym(RTLD_DEFAULT, "libtm_open");
    return mode != SIZE_COUNTER_OPEN || open_transaction;
}

TM_SAFE void size_counter_add(struct size_counter *counter, long delta)
{
    switch (counter->mode) {
    case SIZE_COUNTER_CLOSED:
        __transaction_atomic {
            counter->value += delta;
            if (counter->value < 0) /* never: makes the nested transaction cancellable */
                __transaction_cancel;
        }
        break;
    case SIZE_COUNTER_OPEN:
        if (delta > 0)
            open_transaction(count_up, counter, count_down, counter);
        else
            open_transaction(count_down, counter, count_up, counter);
        break;
    default:
        counter->value += delta;
    }
}

#else

bool size_counter_init(struct size_counter *counter, enum size_counter_mode mode, long initial)
{
    counter->value = initial;
    counter->mode = mode;
    return true;
}

TM_SAFE void size_counter_add(struct size_counter *counter, long delta)
{
    counter->value += delta;
}

#endif
