/* The selection of the contention manager (contention.h): LIBTM_CM at start-up,
 * libtm_set_contention_manager at run time; the managers are in cm_*.c. */
#include "contention.h"
#include "fatal.h"
#include "../include/libtm.h"

#include <stdlib.h>

static void select_manager(const struct tm_cm *cm)
{
    tm_config.cm = cm;
    tm_config.cm_hears_ends = cm->ended != NULL;
}

int libtm_set_contention_manager(const char *name)
{
    const struct tm_cm *cm = name ? tm_cm_by_name(name) : NULL;
    if (!cm)
        return -1;
    select_manager(cm);
    return 0;
}

/* LIBTM_CM: the manager, the registry's first (backoff) unless it names another. */
void tm_cm_init(void)
{
    select_manager(tm_cms[0]);
    const char *s = getenv("LIBTM_CM");
    if (s && *s && libtm_set_contention_manager(s) != 0)
        tm_warn("LIBTM_CM=%s is unknown; use one of %s (keeping %s)", s, tm_cm_names(),
                tm_config.cm->name);
}

void tm_cm_thread_start(struct tm_tx *tx)
{
    for (int i = 0; i < TM_CM_COUNT; i++)
        if (tm_cms[i]->thread_start)
            tm_cms[i]->thread_start(tx);
}

void tm_cm_thread_exit(struct tm_tx *tx)
{
    for (int i = 0; i < TM_CM_COUNT; i++)
        if (tm_cms[i]->thread_exit)
            tm_cms[i]->thread_exit(tx);
}
