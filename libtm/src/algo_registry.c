/* The registry built from algorithms.def. */
#include "algo.h"

#include <stdio.h>
#include <string.h>

const struct tm_algo *const tm_algos[TM_ALGO_COUNT] = {
#define TM_ALGORITHM(name, speculative, owners) [TM_ALGO_##name] = &tm_algo_##name,
#include "algorithms.def"
#undef TM_ALGORITHM
};

const struct tm_algo *tm_algo_by_name(const char *name)
{
    for (int i = 0; i < TM_ALGO_COUNT; i++)
        if (strcmp(name, tm_algos[i]->name) == 0)
            return tm_algos[i];
    return NULL;
}

const char *tm_algo_names(void)
{
    static char names[256];
    if (!names[0]) {
        size_t n = 0;
        for (int i = 0; i < TM_ALGO_COUNT; i++)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s",
                                  i == 0 ? "" : i == TM_ALGO_COUNT - 1 ? " or " : ", ",
                                  tm_algos[i]->name);
    }
    return names;
}
