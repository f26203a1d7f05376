/* -sched: how each frame's request processing (RP) is spread over the worker threads.
 *
 *   static  a client belongs to the worker chosen round-robin when it connected (Atomic
 *           Quake); the critical sections of critical_sections.h make RP safe.
 *   lpt     after U the master groups the clients whose actions may affect each other into
 *           jobs (sv_jobs.h: union-find over their action boxes) and gives the jobs to the
 *           workers Longest Processing Time first (sv_lpt.h). The players, items and triggers
 *           of a job are its worker's alone for the frame, so RP runs with no lock and no
 *           transaction (-sync none is legal with any number of threads). Each worker then
 *           answers its jobs' clients in S.
 *
 * In a job, during RP:
 *   - movement commands run whole when everything they may touch lies in the box the job was
 *     built from: pmove, pickups, triggers, the axe, the kills it makes, lava, drowning, a
 *     teleport (the job joined what lies around the teleporter's destination);
 *   - the areanode tree is not changed (every job reads it): a player that moves or dies is
 *     relinked in the serial phase; pmove meets the job's own players where they are now and
 *     other players where they stood when the frame began (game/relink.h);
 *   - broadcasts (frags, obituaries) wait in the worker's outbox and every client's own
 *     worker copies all outboxes into its queue in S (sv_reliable.h); sounds and temp
 *     entities go to the worker's part of the frame's event buffer (sv_events.h).
 * Deferred to the serial phase (the master alone, at the start of the next U):
 *   - the shotgun's pellets (2048 units: they reach players of any job) and new rockets
 *     (entity numbers are shared), see sv_weapons_run_deferred;
 *   - the rest of a client's packets from the first step that cannot run in its job: every
 *     string command (sign-on, chat, setinfo, kill: they read or write every client), a
 *     respawn (the spawn point is chosen looking at every player, and whoever stands there
 *     is telefragged), a move bigger than the job's box allows (after a teleport, the rest of
 *     the player's commands of the frame).
 * What a job may do is asked of the plan (sv_job_plan.h: which job the calling thread runs,
 * who belongs to it), not of the scheduler.
 * Serial rather than transactional: a transaction is isolated only from other transactions,
 * and the jobs run plain code, so work reaching into another job must wait until no job
 * runs. It is rare (qwsv-stats deferred_*) and short. */
#ifndef SV_SCHED_H
#define SV_SCHED_H

#include "server.h"
#include "sv_jobs.h"

typedef enum sv_sched_mode { SCHED_STATIC, SCHED_LPT } sv_sched_mode;

extern sv_sched_mode sv_sched;

void sv_sched_init(sv_sched_mode mode, sv_job_weight weight);
const char *sv_sched_name(sv_sched_mode mode);
const char *sv_sched_weight_name(void);

/* Master, at the end of U: this frame's jobs (-sched lpt) and who serves which client; for
 * -sched static only the statistics (each worker's clients count as its one job). */
void sv_sched_plan_frame(void);
/* RP on worker `worker`: its clients (static) or its jobs (lpt). */
void sv_sched_run_rp(int worker);
/* -sched lpt, master, in U before anything else changes the game: what the last RP's jobs
 * left (relinks, shots, rockets, the rest of deferred clients' packets). */
void sv_sched_serial_phase(void);

/* Master, no worker running: what the last RP left to the serial phase (clients with the
 * rest of their packets, shotgun shots, rockets). */
void sv_sched_deferred(int *clients, int *shots, int *rockets);

/* Master, no worker running: the last planned frame's jobs, the clients they hold and the
 * heaviest job's weight and their sum (-sched static: each worker's clients with packets are
 * its one job), for the frame statistics (sv_frame_stats.h). */
void sv_sched_frame_jobs(int *jobs, int *clients, double *weight_max, double *weight_sum);

#endif
