/* -sched: how each frame's request processing (RP) is spread over the worker threads.
 *
 *   static  a client belongs to the worker chosen round-robin when it connected (Atomic
 *           Quake); the critical sections of sync/critical_sections.h make RP safe.
 *   lpt     after U the master groups the clients whose actions may affect each other into
 *           jobs (sched/jobs.h: union-find over their action boxes) and gives the jobs to the
 *           workers Longest Processing Time first (sched/lpt.h). The players, items and
 *           triggers of a job are its worker's alone for the frame, so RP runs with no lock and
 *           no transaction (-sync none is legal with any number of threads). Each worker then
 *           answers its jobs' clients in S.
 *
 * What a job may do without any section, and what waits for the serial phase (the master
 * alone, at the start of the next U), are among the server's concurrency rules in
 * sync/critical_sections.h. */
#ifndef SV_SCHED_H
#define SV_SCHED_H

#include "choice.h"
#include "sched/jobs.h"
#include "server.h"

typedef enum sv_sched_mode { SCHED_STATIC, SCHED_LPT } sv_sched_mode;

/* The mode in force, and the modes' table (-sched NAME, --help, sv_sched_name). */
extern sv_sched_mode sv_sched;
extern const sv_choice sv_sched_modes[];

void sv_sched_init(sv_sched_mode mode, sv_job_weight weight);
const char *sv_sched_name(sv_sched_mode mode);
/* The unit of a job's weight in the statistics: "clients" or "cost_us" (-jobweight cost). */
const char *sv_sched_weight_name(void);

/* Master, at the end of U: this frame's jobs (-sched lpt) and who serves which client; for
 * -sched static only the statistics (each worker's clients count as its one job). */
void sv_sched_plan_frame(void);
/* RP on worker `worker`: its clients (static) or its jobs (lpt). With -sched static a worker
 * that is done with its own clients takes over those of others that their worker has not
 * begun yet (each client's packets are still processed by one worker, whole). */
void sv_sched_run_rp(int worker);
/* S on worker `worker`: send(cl) for its connected clients, then for the others' that their
 * worker has not begun yet (every client once; S writes only the client it serves). */
void sv_sched_run_s(int worker, void (*send)(sv_client *));
/* -sched lpt, master, in U before anything else changes the game: what the last RP's jobs
 * left (relinks, shots, rockets, the rest of deferred clients' packets). */
void sv_sched_serial_phase(void);

/* Master, no worker running: what the last RP left to the serial phase (clients with the
 * rest of their packets, shotgun shots, rockets). */
void sv_sched_deferred(int *clients, int *shots, int *rockets);

/* Master, no worker running: the last planned frame's jobs, the clients they hold and the
 * heaviest job's weight and their sum (-sched static: each worker's clients with packets are
 * its one job), for the frame statistics (stats/frame_stats.h). */
void sv_sched_frame_jobs(int *jobs, int *clients, double *weight_max, double *weight_sum);

#endif
