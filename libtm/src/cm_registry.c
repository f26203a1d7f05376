/* The registry built from managers.def. */
#include "cm.h"

#include <stdio.h>
#include <string.h>

const struct tm_cm *const tm_cms[TM_CM_COUNT] = {
#define TM_CONTENTION_MANAGER(name) [TM_CM_##name] = &tm_cm_##name,
#include "managers.def"
#undef TM_CONTENTION_MANAGER
};

const struct tm_cm *tm_cm_by_name(const char *name)
{
    for (int i = 0; i < TM_CM_COUNT; i++)
        if (strcmp(name, tm_cms[i]->name) == 0)
            return tm_cms[i];
    return NULL;
}

const char *tm_cm_names(void)
{
    static char names[256];
    if (!names[0]) {
        size_t n = 0;
        for (int i = 0; i < TM_CM_COUNT; i++)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
                                  tm_cms[i]->name);
    }
    return names;
}
