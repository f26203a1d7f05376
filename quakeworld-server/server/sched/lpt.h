/* Longest Processing Time first (Graham's LPT rule): -sched lpt gives each frame's jobs
 * (sched/jobs.h) to the worker threads with it. Jobs are taken heaviest first, each going to
 * the worker with the least load so far; the last worker to finish then finishes at most
 * 4/3 - 1/(3 * workers) times later than the best possible assignment. */
#ifndef SV_SCHED_LPT_H
#define SV_SCHED_LPT_H

/* Assigns jobs 0..num_jobs-1 of the given weights (>= 0) to workers 0..workers-1 (>= 1).
 * Writes order[] (the job indices, heaviest first; equal weights by index), worker_of[job]
 * and loads[worker] (the sum of its jobs' weights). On a tie in load the lowest-numbered
 * worker gets the job, so a run is repeatable. */
void sv_lpt_assign(const double *weights, int num_jobs, int workers, int *order,
                   int *worker_of, double *loads);

#endif
