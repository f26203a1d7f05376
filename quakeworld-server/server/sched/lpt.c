/* LPT (see sched/lpt.h). */
#include "sched/lpt.h"

#include <stdlib.h>

typedef struct weighted_job {
    double weight;
    int job;
} weighted_job;

/* Heaviest first; equal weights in job order (qsort is not stable by itself). */
static int heavier_first(const void *a, const void *b)
{
    const weighted_job *x = a, *y = b;
    if (x->weight != y->weight)
        return x->weight > y->weight ? -1 : 1;
    return x->job - y->job;
}

void sv_lpt_assign(const double *weights, int num_jobs, int workers, int *order,
                   int *worker_of, double *loads)
{
    for (int w = 0; w < workers; w++)
        loads[w] = 0;
    if (num_jobs <= 0)
        return;
    weighted_job sorted[num_jobs];
    for (int j = 0; j < num_jobs; j++)
        sorted[j] = (weighted_job){weights[j], j};
    qsort(sorted, (size_t)num_jobs, sizeof sorted[0], heavier_first);
    for (int k = 0; k < num_jobs; k++) {
        int least = 0;
        for (int w = 1; w < workers; w++)
            if (loads[w] < loads[least])
                least = w;
        int job = sorted[k].job;
        order[k] = job;
        worker_of[job] = least;
        loads[least] += sorted[k].weight;
    }
}
