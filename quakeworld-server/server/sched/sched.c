/* -sched static|lpt (see sched/sched.h). */
#include "sched/sched.h"

#include <stdatomic.h>

#include "clock.h"
#include "game/game.h"
#include "net/inbox.h"
#include "net/reliable.h"
#include "sched/lpt.h"
#include "stats/counters.h"
#include "stats/libtm_extensions.h"
#include "sync/critical_sections.h"

sv_sched_mode sv_sched = SCHED_STATIC;

const sv_choice sv_sched_modes[] = {
    {"static", SCHED_STATIC, "clients bound to a worker when they connect"},
    {"lpt", SCHED_LPT, "each frame's clients grouped into jobs of clients that may affect each "
                       "other, given to the workers longest job first"},
    {NULL, 0, NULL},
};

static sv_job_weight job_weight;

/* Who serves a client in a phase: the worker that claims it first this frame. A worker claims
 * its own clients first, in slot order, then the others' not claimed yet, from the last slot
 * down (where their own worker comes last), so that a worker that finished early takes over
 * work instead of waiting at the barrier. Each client's claims are on a line of their own:
 * the workers write them. */
typedef struct client_claims {
    _Alignas(64) atomic_uint rp;
    atomic_uint s;
} client_claims;
static client_claims claims[SV_MAX_CLIENTS];
static unsigned claim_frame; /* advanced by the master in U: a claim of an older frame is void */

static bool claim(atomic_uint *word)
{
    return atomic_load_explicit(word, memory_order_relaxed) != claim_frame &&
           atomic_exchange_explicit(word, claim_frame, memory_order_relaxed) != claim_frame;
}

static int slots_end; /* the highest connected slot + 1 (master, in U) */

/* Handing RP over. Where one thread at a time runs the move commands -- the global lock of
 * -sync lock and stmlock, libtm's serial mode or an irrevocable transaction under -sync stm
 * -- a command holds that for nearly all of its client's time in RP, so a second worker
 * there adds nothing: it waits, burning its core spinning (or asleep, woken by a system
 * call a wake-up's delay later), and each hand-over moves the entities, the lock and the
 * interpreter's state to the other core. So a worker that finds the lock (or libtm's turn)
 * another's when it comes to a client claims nothing more and goes on to the barrier, and
 * under the global lock it holds the lock from before it claims a client to the end of the
 * client's packets: the holder, still in its loops, serves every client not claimed yet
 * (its loops pass every slot they have not passed). Nobody hands over to a thread that has
 * left: a worker may stop early only while another is still serving (`serving`, the
 * workers not done with this RP, set by the master in U), so the last one goes on to the
 * end. Only with -handover: by default, the paper's way, each section waits (README:
 * the hand-over saves CPU but costs commands/s). */
static atomic_int serving;

static bool hands_over(void)
{
    return sv.opt.threads > 1 && sv.opt.handover && !sv.opt.no_steal;
}

/* Whether the calling worker stops claiming here, leaving the rest to a thread that runs
 * alone; `serving` is one less then. */
static bool leave_to_other(void)
{
    bool other = sv_sync == SYNC_STM ? sv_libtm.serial_elsewhere && sv_libtm.serial_elsewhere()
                                     : !sv_global_lock_try();
    if (!other)
        return false;
    if (atomic_fetch_sub(&serving, 1) > 1) {
        sv_stats_thread()->rp_handovers++;
        return true;
    }
    atomic_fetch_add(&serving, 1); /* the last one serving: go on (waiting) */
    if (sv_sync != SYNC_STM)
        sv_global_lock();
    return false;
}

/* Claims slot i for the calling worker and serves it if it wants(cl); false when the worker
 * stops here (handing over, above). */
static bool serve_one(int i, bool hand_over, atomic_uint *(*word)(int slot),
                      bool (*wants)(const sv_client *), void (*serve)(sv_client *))
{
    bool hold = hand_over && sv_sync != SYNC_STM;
    if (hand_over && leave_to_other())
        return false;
    sv_client *cl = &sv.clients[i];
    if (claim(word(i)) && wants(cl))
        serve(cl);
    if (hold)
        sv_global_unlock();
    return true;
}

/* Runs serve(cl) for every client that `worker` claims in this phase and that wants(cl): its
 * own first, then (steal) the others'. A client is looked at only once claimed (its worker
 * changes it meanwhile). hand_over: RP's, above. */
static void serve_claimed(int worker, bool steal, bool hand_over, atomic_uint *(*word)(int slot),
                          bool (*wants)(const sv_client *), void (*serve)(sv_client *))
{
    for (int i = 0; i < slots_end; i++)
        if (sv.clients[i].worker == worker && !serve_one(i, hand_over, word, wants, serve))
            return;
    if (!steal)
        return;
    for (int i = slots_end - 1; i >= 0; i--)
        if (sv.clients[i].worker != worker && !serve_one(i, hand_over, word, wants, serve))
            return;
}
/* the last planned frame's jobs, for the statistics */
typedef struct frame_jobs {
    int jobs, clients;
    double weight_max, weight_sum;
} frame_jobs;
static frame_jobs last_frame;
/* each worker's jobs, heaviest first (written by the master in U, read in RP) */
static int worker_jobs[SV_MAX_THREADS][SV_MAX_CLIENTS];
static int worker_num_jobs[SV_MAX_THREADS];

void sv_sched_init(sv_sched_mode mode, sv_job_weight weight)
{
    sv_sched = mode;
    job_weight = weight;
}

const char *sv_sched_name(sv_sched_mode mode)
{
    return sv_choice_name(sv_sched_modes, mode);
}

const char *sv_sched_weight_name(void)
{
    return job_weight == JOB_WEIGHT_COST ? "cost_us" : "clients";
}

/* -sched static: a worker's clients with packets are its job (for the statistics). */
static void note_static_frame(void)
{
    double load[SV_MAX_THREADS] = {0};
    int clients = 0;
    for (int i = 0; i < SV_MAX_CLIENTS; i++) {
        const sv_client *cl = &sv.clients[i];
        if (cl->state >= CL_CONNECTED && cl->inbox_count > 0) {
            load[cl->worker] += sv_jobs_client_weight(cl, job_weight);
            clients++;
        }
    }
    int jobs = 0;
    double max = 0, sum = 0;
    for (int w = 0; w < sv.opt.threads; w++)
        if (load[w] > 0) {
            jobs++;
            sum += load[w];
            max = load[w] > max ? load[w] : max;
        }
    last_frame = (frame_jobs){jobs, clients, max, sum};
}

void sv_sched_plan_frame(void)
{
    claim_frame++;
    atomic_store(&serving, sv.opt.threads);
    slots_end = 0;
    for (int i = 0; i < SV_MAX_CLIENTS; i++)
        if (sv.clients[i].state >= CL_CONNECTED)
            slots_end = i + 1;
    if (sv_sched == SCHED_STATIC) {
        note_static_frame();
        return;
    }
    sv_job_plan *plan = &sv_frame_plan;
    sv_jobs_build(plan, job_weight);
    int n = plan->num_jobs;
    double weights[SV_MAX_CLIENTS], loads[SV_MAX_THREADS], max = 0, sum = 0;
    int order[SV_MAX_CLIENTS], worker_of[SV_MAX_CLIENTS];
    for (int j = 0; j < n; j++) {
        weights[j] = plan->jobs[j].weight;
        sum += weights[j];
        max = weights[j] > max ? weights[j] : max;
    }
    sv_lpt_assign(weights, n, sv.opt.threads, order, worker_of, loads);
    for (int w = 0; w < sv.opt.threads; w++)
        worker_num_jobs[w] = 0;
    int clients = 0;
    for (int k = 0; k < n; k++) {
        int job = order[k], w = worker_of[job];
        worker_jobs[w][worker_num_jobs[w]++] = job;
        /* the worker that processes a client answers it in S */
        for (int c = 0; c < plan->jobs[job].count; c++)
            sv.clients[plan->clients[plan->jobs[job].first + c]].worker = w;
        clients += plan->jobs[job].count;
    }
    last_frame = (frame_jobs){n, clients, max, sum};
}

/* A client's packets (netchan, commands), timed for -jobweight cost. */
static void process_client(sv_client *cl)
{
    int packets = cl->inbox_count;
    double t0 = sv_clock();
    sv_client_process_inbox(cl);
    double per_packet = (sv_clock() - t0) / packets;
    cl->cost_per_packet = cl->cost_per_packet > 0 ? 0.9 * cl->cost_per_packet + 0.1 * per_packet
                                                  : per_packet;
}

static void run_job(int job)
{
    const sv_job_plan *plan = &sv_frame_plan;
    sv_current_job = job;
    for (int c = 0; c < plan->jobs[job].count; c++) {
        sv_client *cl = &sv.clients[plan->clients[plan->jobs[job].first + c]];
        if (cl->state >= CL_CONNECTED && cl->inbox_count > 0)
            process_client(cl);
    }
    sv_current_job = -1;
}

static atomic_uint *rp_claim(int slot)
{
    return &claims[slot].rp;
}

static atomic_uint *s_claim(int slot)
{
    return &claims[slot].s;
}

static bool has_packets(const sv_client *cl)
{
    return cl->state >= CL_CONNECTED && cl->inbox_count > 0;
}

static bool connected(const sv_client *cl)
{
    return cl->state >= CL_CONNECTED;
}

void sv_sched_run_rp(int worker)
{
    if (sv_sched == SCHED_LPT) {
        sv_reliable_clear_outbox();
        for (int k = 0; k < worker_num_jobs[worker]; k++)
            run_job(worker_jobs[worker][k]);
        return;
    }
    bool hand_over = hands_over() && (sv_sync == SYNC_LOCK || sv_sync == SYNC_STMLOCK ||
                                      (sv_sync == SYNC_STM && SV_HAVE_TM));
    serve_claimed(worker, sv.opt.threads > 1 && !sv.opt.no_steal, hand_over, rp_claim,
                  has_packets, process_client);
    if (hand_over)
        atomic_fetch_sub(&serving, 1);
}

void sv_sched_run_s(int worker, void (*send)(sv_client *))
{
    serve_claimed(worker, sv.opt.threads > 1 && !sv.opt.no_steal, false, s_claim, connected,
                  send);
}

void sv_sched_frame_jobs(int *jobs, int *clients, double *weight_max, double *weight_sum)
{
    *jobs = last_frame.jobs;
    *clients = last_frame.clients;
    *weight_max = last_frame.weight_max;
    *weight_sum = last_frame.weight_sum;
}

void sv_sched_deferred(int *clients, int *shots, int *rockets)
{
    *clients = 0;
    for (int i = 0; i < SV_MAX_CLIENTS; i++)
        *clients += sv.clients[i].resume.pending;
    sv_game->deferred_shots(sv.opt.threads, shots, rockets);
}

void sv_sched_serial_phase(void)
{
    /* the tree first, so that the pellets meet everybody where they ended RP; the rest of
     * the deferred clients' packets came after every shot of that RP */
    sv_game->finish_jobs(sv.opt.threads);
    for (int i = 0; i < SV_MAX_CLIENTS; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->resume.pending)
            sv_client_resume(cl);
    }
}
