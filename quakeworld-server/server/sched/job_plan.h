/* -sched lpt: the frame's plan of jobs as request processing (RP) reads it -- which job each
 * player belongs to, the box each client's commands must stay in -- and which job the calling
 * thread runs. The scheduler writes it (sched/sched.c: the master builds the plan after U, a
 * worker names the job it takes up); the game rules, the packet runner, the reliable queues
 * and the event buffer only read it. It lies below all of them, so that none of them calls
 * the scheduler, which calls them. */
#ifndef SV_SCHED_JOB_PLAN_H
#define SV_SCHED_JOB_PLAN_H

#include <stdbool.h>

#include "server.h"

typedef struct sv_job {
    double weight;        /* clients with packets, or their measured cost in microseconds */
    int first, count;     /* its clients: plan->clients[first .. first + count) */
} sv_job;

typedef struct sv_job_plan {
    int num_jobs;
    sv_job jobs[SV_MAX_CLIENTS];
    int clients[SV_MAX_CLIENTS];            /* slots, job after job */
    int job_of_player[SV_MAX_CLIENTS];      /* -1: the player is in no job this frame */
    /* the action box each client with packets was joined by: its commands must stay inside
     * (the game's command_fits), or wait for the serial phase */
    float box_mins[SV_MAX_CLIENTS][3], box_maxs[SV_MAX_CLIENTS][3];
} sv_job_plan;

/* This frame's plan (-sched lpt): written by the master after U, read during RP. */
extern sv_job_plan sv_frame_plan;

/* The job of sv_frame_plan the calling thread runs; -1 for none (-sched static, U, the serial
 * phase, S). */
extern __thread int sv_current_job;

/* Whether the calling thread runs a job: then it must not touch what other jobs may write. */
LIBTM_SAFE static inline bool sv_in_job(void)
{
    return sv_current_job >= 0;
}
/* Whether player `slot` belongs to the job the calling thread runs. */
LIBTM_SAFE bool sv_in_same_job(int slot);

#endif
