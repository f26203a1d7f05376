/* -sched lpt: the frame's jobs. The clients with packets to process, and the players, items
 * and triggers in their action boxes (where a client's commands may reach this frame,
 * the game's action_box, queried from the areanode tree) are the elements of a union-find: a
 * client is joined with everything in its box. Each set that holds a client with packets is
 * a job, so two clients share a job exactly when a chain of boxes and objects links them, and
 * what a job's commands may write belongs to that job alone. Objects the request phase only
 * reads (the world's brush entities, doors, plats, teleporters; rockets fly in U) join
 * nobody. */
#ifndef SV_SCHED_JOBS_H
#define SV_SCHED_JOBS_H

#include "choice.h"
#include "sched/job_plan.h"
#include "server.h"

typedef enum sv_job_weight { JOB_WEIGHT_CLIENTS, JOB_WEIGHT_COST } sv_job_weight;
/* The weights' table (-jobweight NAME, --help). */
extern const sv_choice sv_job_weights[];

/* What client cl adds to its job's weight: 1, or (JOB_WEIGHT_COST) its packets queued times
 * its measured cost per packet, in microseconds. */
double sv_jobs_client_weight(const sv_client *cl, sv_job_weight weight);
/* Master, after U (the areanode tree is up to date): builds this frame's jobs. A job's
 * weight is its number of clients with packets, or (JOB_WEIGHT_COST) the sum over them of
 * packets queued times their measured cost per packet (sv_client.cost_per_packet). */
void sv_jobs_build(sv_job_plan *plan, sv_job_weight weight);

#endif
