/* The server's concurrency rules, in one place: the threads and phases of a frame, who may
 * write what, every critical section, the -sync modes, what code inside a section may call,
 * and what a job of -sched lpt may do without any section. The mechanisms live elsewhere:
 * frame.c (phases, barriers), sync/region.h (the region locks), sched/sched.h (jobs).
 *
 * Threads and phases. Thread 0 is the master, threads 1..N-1 the workers (sv_thread_index);
 * barriers separate the phases of each frame (frame.c):
 *   receive + U  the master alone: reads the socket, answers connectionless packets, creates
 *                and frees client slots, advances time, moves what moves by itself (rockets,
 *                doors, item respawns), starts the frame's global state buffer; no
 *                synchronisation needed
 *   RP           every worker processes the packets of its own clients (the master is worker
 *                0): the only phase with concurrent writes to shared state, all of them
 *                inside the sections below (or, with -sched lpt, inside a job)
 *   S            every worker builds and sends its own clients' replies: nobody writes game
 *                state, a worker writes only its own clients
 *
 * Who may write what:
 *   sv_client   owned by its worker (client->worker), except `reliable` (net/reliable.h),
 *               which any worker may append to inside a critical section
 *   sv_player   a client's player: written in RP inside CS_MOVE_COMMAND / CS_SPAWN_PLAYER
 *               (any worker: damage hits other players), read in S
 *   sv_entity   non-player entities (items, rockets): U (master) and RP inside
 *               CS_MOVE_COMMAND (pickups, firing rockets)
 *   sv.events   the global state buffer (temp entities, sounds): U and RP inside
 *               CS_MOVE_COMMAND; read by everybody in S
 *   client slots  created and freed only by the master, outside RP and S; a worker asks for
 *               a drop (sv_client_request_drop, server.h)
 *
 * The critical sections (RP's shared-state accesses all sit inside them):
 *   CS_MOVE_COMMAND   one clc_move command of one player: pmove against the world and the
 *                     other players, relinking, item pickup, shooting (traces against players),
 *                     spawning rockets, damage, deaths, frags and the messages they cause
 *                     (prints/updatefrags into other clients' reliable queues, events into
 *                     the global state buffer). The paper's big "areanode/entity" block.
 *   CS_CLIENT_MESSAGE a small block appending to one client's reliable queue (sign-on
 *                     replies, downloads, setinfo echoes), which other workers may be
 *                     writing to at the same time (prints, frags, chat).
 *   CS_BROADCAST      chat (`say`) and other prints to every client's reliable queue.
 *   CS_SPAWN_PLAYER   putting a player into the world on `begin` (and marking the client
 *                     spawned): choosing a spawn point away from other players,
 *                     telefragging, linking. (Respawns after a death run nested inside
 *                     CS_MOVE_COMMAND.)
 *   CS_USERINFO       a client changing its name, colours, team or skin (read by others'
 *                     scoreboards).
 *   CS_SCOREBOARD     copying every slot's scoreboard entry (net/scoreboard.h): a
 *                     newcomer's "spawn", a "pings" request.
 *
 * Nested sections: the game writes its messages in small sections of their own
 * (NESTED_SECTION), as the paper's server did: a kill's frags and obituary to everybody
 * (CS_BROADCAST), an item's pickup message (CS_CLIENT_MESSAGE), a respawn (CS_SPAWN_PLAYER,
 * which may telefrag: three deep). Inside a section they are nested transactions in the
 * transactional modes (flattened by libtm, each counted by its statistics), and need nothing
 * more in the lock modes, whose outer section already holds what they touch (region: the
 * primitives take their innermost locks). Outside any section (U, the master alone) they
 * just run.
 *
 * -sync modes (one switch, same section bodies; the table is sv_sync_modes):
 *   lock     one global re-entrant lock around each section (the paper's LOCK)
 *   region   the original parallel server's fine-grained locks (the paper's baseline,
 *            sync/region.h): a move command locks the areanode leaves its reach meets, in
 *            tree order; rare sections that read every player lock all of them; reliable
 *            queues, the global state buffer, entity numbers and the movers' marks have
 *            locks of their own, taken inside the primitives that the section bodies call,
 *            innermost, never two at once
 *   stm      each section is a __transaction_atomic block on libtm/libitm
 *   stmlock  the transaction runs while holding the global lock (instrumentation cost, no
 *            aborts; the paper's STM_LOCK)
 *   none     no synchronisation (only valid with -threads 1, or with -sched lpt, whose
 *            jobs never share what they write: below)
 *
 * Code inside a section: section bodies only call transaction_safe code (LIBTM_SAFE), or
 * transaction_pure code (LIBTM_PURE, world/bsp.h: traces, point contents, leaf and PVS
 * lookups, pmove), which reads only the immutable map and runs without barriers: pass it
 * locals (copies of entity fields), never shared state. Logging inside a section goes
 * through sv_log_deferred (transaction_pure: prints at once outside transactions, and via
 * _ITM_addUserCommitAction when the enclosing transaction commits). A body that hits an
 * error (e.g. a reliable queue overflowing half way through a kill) returns false from a
 * CRITICAL_SECTION_CANCELLABLE: in stm/stmlock modes the whole section is rolled back with
 * __transaction_cancel (failure atomicity); in lock and region modes its partial effects
 * stay.
 *
 * -sched lpt: jobs instead of sections (sched/sched.h). After U the master groups the
 * clients whose actions may affect each other into jobs; the players, items and triggers of
 * a job are its worker's alone for the frame, so in RP the job's commands run with no lock
 * and no transaction. A job asks the plan (sched/job_plan.h: which job the calling thread
 * runs, who belongs to it), not the scheduler. In a job, during RP:
 *   - movement commands run whole when everything they may touch lies in the box the job was
 *     built from: pmove, pickups, triggers, the axe, the kills it makes, lava, drowning, a
 *     teleport (the job joined what lies around the teleporter's destination);
 *   - the areanode tree is not changed (every job reads it): a player that moves or dies is
 *     relinked in the serial phase; pmove meets the job's own players where they are now and
 *     other players where they stood when the frame began (cgame/relink.h);
 *   - broadcasts (frags, obituaries) wait in the worker's outbox and every client's own
 *     worker copies all outboxes into its queue in S (net/reliable.h); sounds and temp
 *     entities go to the worker's part of the frame's event buffer (net/events.h).
 * Deferred to the serial phase (the master alone, at the start of the next U):
 *   - the shotgun's pellets (2048 units: they reach players of any job) and new rockets
 *     (entity numbers are shared), see sv_weapons_run_deferred;
 *   - the rest of a client's packets from the first step that cannot run in its job: every
 *     string command (sign-on, chat, setinfo, kill: they read or write every client), a
 *     respawn (the spawn point is chosen looking at every player, and whoever stands there
 *     is telefragged), a move bigger than the job's box allows (after a teleport, the rest of
 *     the player's commands of the frame).
 * Serial rather than transactional: a transaction is isolated only from other transactions,
 * and the jobs run plain code, so work reaching into another job must wait until no job
 * runs. It is rare (qwsv-stats deferred_*) and short. */
#ifndef SV_SYNC_CRITICAL_SECTIONS_H
#define SV_SYNC_CRITICAL_SECTIONS_H

#include <stdbool.h>

#include <libtm.h>

#include "choice.h"

typedef enum sv_cs_id {
    CS_MOVE_COMMAND,
    CS_CLIENT_MESSAGE,
    CS_BROADCAST,
    CS_SPAWN_PLAYER,
    CS_USERINFO,
    CS_SCOREBOARD,
    CS_COUNT
} sv_cs_id;

extern const char *const sv_cs_names[CS_COUNT];

typedef enum sv_sync_mode { SYNC_NONE, SYNC_LOCK, SYNC_STM, SYNC_STMLOCK, SYNC_REGION } sv_sync_mode;

/* The mode in force, and the modes' table (-sync NAME, --help, sv_sync_name). */
extern sv_sync_mode sv_sync;
extern const sv_choice sv_sync_modes[];

void sv_sync_init(sv_sync_mode mode);
const char *sv_sync_name(sv_sync_mode mode);
/* The global re-entrant lock (lock and stmlock modes). */
void sv_global_lock(void);
void sv_global_unlock(void);
/* Takes the global lock if it is free or already the caller's (re-entry), without waiting:
 * true if taken (release it with sv_global_unlock). */
bool sv_global_lock_try(void);
/* -sync region: the locks section `id` needs (for CS_MOVE_COMMAND: the ones that
 * sv_region_plan_move chose), and their release (sync/region.c). */
void sv_region_enter(sv_cs_id id);
void sv_region_leave(void);
/* Counts section entries per thread (for the statistics). Transaction-pure, for nested
 * sections: it writes only the thread's counters (a restarted transaction counts again). */
void sv_cs_count(sv_cs_id id) LIBTM_PURE;
/* Whether the calling thread is inside a section (set and cleared around each outermost one,
 * outside its transaction; pure: a thread-local flag). */
extern __thread int sv_cs_depth;
LIBTM_PURE static inline int sv_cs_nested(void)
{
    return sv_cs_depth;
}

/* A small function of its own for a NESTED_SECTION: a transaction begins like setjmp, and
 * the caller's locals would count as clobbered. */
#define SV_SECTION_FN __attribute__((noinline)) LIBTM_SAFE

#ifdef SV_WITHOUT_TM
/* Built without -fgnu-tm (e.g. for ThreadSanitizer runs of the lock and region modes): only
 * lock, region and none exist; main() refuses stm/stmlock in such a build. */
#define SV_HAVE_TM 0
#define CRITICAL_SECTION(id, ...)                                                         \
    do {                                                                                  \
        sv_cs_count(id);                                                                  \
        sv_cs_depth++;                                                                    \
        if (sv_sync == SYNC_REGION)                                                       \
            sv_region_enter(id);                                                          \
        else if (sv_sync != SYNC_NONE)                                                    \
            sv_global_lock();                                                             \
        { __VA_ARGS__ }                                                                   \
        if (sv_sync == SYNC_REGION)                                                       \
            sv_region_leave();                                                            \
        else if (sv_sync != SYNC_NONE)                                                    \
            sv_global_unlock();                                                           \
        sv_cs_depth--;                                                                    \
    } while (0)
#define NESTED_SECTION(id, ...)                                                           \
    do {                                                                                  \
        sv_cs_count(id);                                                                  \
        { __VA_ARGS__ }                                                                   \
    } while (0)
#define CRITICAL_SECTION_CANCELLABLE(id, ok, expr)                                        \
    CRITICAL_SECTION(id, (ok) = (expr);)
#else
#define SV_HAVE_TM 1
/* Runs the statements in ... as critical section `id`. */
#define CRITICAL_SECTION(id, ...)                                                         \
    do {                                                                                  \
        sv_cs_count(id);                                                                  \
        sv_cs_depth++;                                                                    \
        switch (sv_sync) {                                                                \
        case SYNC_STM:                                                                    \
            __transaction_atomic { __VA_ARGS__ }                                          \
            break;                                                                        \
        case SYNC_STMLOCK:                                                                \
            sv_global_lock();                                                             \
            __transaction_atomic { __VA_ARGS__ }                                          \
            sv_global_unlock();                                                           \
            break;                                                                        \
        case SYNC_LOCK:                                                                   \
            sv_global_lock();                                                             \
            { __VA_ARGS__ }                                                               \
            sv_global_unlock();                                                           \
            break;                                                                        \
        case SYNC_REGION:                                                                 \
            sv_region_enter(id);                                                          \
            { __VA_ARGS__ }                                                               \
            sv_region_leave();                                                            \
            break;                                                                        \
        case SYNC_NONE:                                                                   \
        default: { __VA_ARGS__ } break;                                                   \
        }                                                                                 \
        sv_cs_depth--;                                                                    \
    } while (0)

/* Runs the statements in ... as section `id` inside the section that calls it: a nested
 * transaction in the transactional modes, the statements alone otherwise (see above). */
#define NESTED_SECTION(id, ...)                                                           \
    do {                                                                                  \
        sv_cs_count(id);                                                                  \
        if (sv_cs_nested() && (sv_sync == SYNC_STM || sv_sync == SYNC_STMLOCK))           \
            __transaction_atomic { __VA_ARGS__ }                                          \
        else                                                                              \
            { __VA_ARGS__ }                                                               \
    } while (0)

/* Like CRITICAL_SECTION for a body that is one boolean expression (a call): when it yields
 * false the transaction is cancelled (rolled back) in the transactional modes. Stores the
 * result in `ok` (false also after a cancel). */
#define CRITICAL_SECTION_CANCELLABLE(id, ok, expr)                                        \
    do {                                                                                  \
        sv_cs_count(id);                                                                  \
        (ok) = false;                                                                     \
        sv_cs_depth++;                                                                    \
        switch (sv_sync) {                                                                \
        case SYNC_STM:                                                                    \
            __transaction_atomic { (ok) = (expr); if (!(ok)) __transaction_cancel; }      \
            break;                                                                        \
        case SYNC_STMLOCK:                                                                \
            sv_global_lock();                                                             \
            __transaction_atomic { (ok) = (expr); if (!(ok)) __transaction_cancel; }      \
            sv_global_unlock();                                                           \
            break;                                                                        \
        case SYNC_LOCK:                                                                   \
            sv_global_lock();                                                             \
            (ok) = (expr);                                                                \
            sv_global_unlock();                                                           \
            break;                                                                        \
        case SYNC_REGION:                                                                 \
            sv_region_enter(id);                                                          \
            (ok) = (expr);                                                                \
            sv_region_leave();                                                            \
            break;                                                                        \
        case SYNC_NONE:                                                                   \
        default: (ok) = (expr); break;                                                    \
        }                                                                                 \
        sv_cs_depth--;                                                                    \
    } while (0)

#endif

#endif
