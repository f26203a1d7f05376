/* The Atomic Quake frame.
 *
 *   master (thread 0)         workers (threads 1..N-1)
 *   receive + U               (parked at the serial barrier)
 *   ---------------- serial barrier: release --------
 *   RP for its own clients    RP for their own clients    (then others' not begun yet)
 *   ---------------- barrier: start S ----------------
 *   S for its own clients     S for their own clients     (then others' not begun yet)
 *   joins the serial barrier  arrive at the serial barrier and wait
 *
 * The serial barrier is one meeting for the workers where there were two in a row (frame
 * done, start RP): the master waits for their arrival (sv_barrier_join), runs the serial
 * part alone and lets them go (sv_barrier_release); sync/barrier.h. Who serves which client
 * in each phase is sched/sched.h's (a worker done with its own takes over others').
 *
 * How packets reach their worker: there is one UDP socket, and only the master reads it,
 * at the start of each frame while the workers are parked at the serial barrier. It answers
 * connectionless packets itself (status, ping, challenges, connects: these create client
 * slots, so doing them with no worker running needs no locking), and appends each sequenced
 * packet to the inbox of the client it belongs to (looked up by address, then address +
 * qport), each source outside play within a budget (net/receive.h). In RP every worker drains the inboxes of the clients assigned to it round-robin at
 * connect time; in S it builds and sends their replies (sendto on the shared socket is
 * thread-safe). The master is itself worker 0, so there are never clients without an active
 * thread to serve them. With -waitall the master keeps receiving until every connected client
 * has a packet queued (up to 1 s, so a vanished client cannot stall the server), which is the
 * "each worker waits for a packet from each of its clients" rule of the paper.
 *
 * U (master only): advances time, drops clients that asked or timed out, announces frags
 * that changed (net/scoreboard.h), moves rockets and respawns items (game physics for
 * non-player entities), and starts the frame's global event buffer. RP is the only phase
 * with concurrent writes to shared state; those happen inside the sections of
 * sync/critical_sections.h.
 *
 * -sched lpt (sched/sched.h) changes who serves whom, not the phases: U begins with the serial
 * phase (what the last RP's jobs deferred) and ends with planning this frame's jobs; in RP
 * each worker runs its jobs instead of its clients; in S each worker answers the clients of
 * its jobs and first copies every worker's outbox (the jobs' broadcasts) into their queues. */
#include "frame.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/select.h>

#include "admin/admin.h"
#include "clock.h"
#include "game/game.h"
#include "log.h"
#include "net/client.h"
#include "net/connectionless.h"
#include "net/events.h"
#include "net/receive.h"
#include "net/reliable.h"
#include "net/replay.h"
#include "net/scoreboard.h"
#include "net/send.h"
#include "net/socket.h"
#include "sched/sched.h"
#include "server.h"
#include "stats/counters.h"
#include "stats/frame_stats.h"
#include "stats/game_work.h"
#include "stats/print.h"
#include "sync/barrier.h"

/* serial_barrier: the workers wait there through the master's receive + U, the master for
 * their end of S (sv_barrier_join); rp_barrier: everybody between RP and S. */
static sv_barrier serial_barrier, rp_barrier;
static __thread sv_barrier_waiter serial_waiter, rp_waiter;
static atomic_bool quit_requested;
static bool stopping;

void sv_frame_request_quit(void)
{
    atomic_store(&quit_requested, true);
}

/* Counts a wait (or the master's join) in the thread's statistics: its time on the thread's
 * time line, and of it what the barrier spent spinning and asleep. */
static void count_wait(uint64_t *phase, sv_barrier_waiter *w, const sv_barrier_waiter *before,
                       double *spin, double *sleep)
{
    sv_thread_stats *st = sv_stats_thread();
    sv_stats_phase_end(st, phase);
    *spin += w->spin_seconds - before->spin_seconds;
    *sleep += w->sleep_seconds - before->sleep_seconds;
    st->wait_sleeps += w->sleeps - before->sleeps;
}

static void wait_serial(bool master)
{
    sv_thread_stats *st = sv_stats_thread();
    sv_barrier_waiter before = serial_waiter;
    sv_stats_phase_begin(st);
    if (master)
        sv_barrier_join(&serial_barrier, &serial_waiter);
    else
        sv_barrier_wait(&serial_barrier, &serial_waiter);
    count_wait(&st->wait_serial_ticks, &serial_waiter, &before, &st->wait_serial_spin_seconds,
               &st->wait_serial_sleep_seconds);
}

static void wait_rp(void)
{
    sv_thread_stats *st = sv_stats_thread();
    sv_barrier_waiter before = rp_waiter;
    sv_stats_phase_begin(st);
    sv_barrier_wait(&rp_barrier, &rp_waiter);
    count_wait(&st->wait_rp_ticks, &rp_waiter, &before, &st->wait_rp_spin_seconds,
               &st->wait_rp_sleep_seconds);
}

static void run_rp(int worker)
{
    sv_thread_stats *st = sv_stats_thread();
    sv_stats_phase_begin(st);
    double t0 = sv_clock();
    sv_sched_run_rp(worker);
    double t1 = sv_clock();
    sv_stats_phase_end(st, &st->rp_ticks);
    sv_frame_stats_rp(worker, t0, t1);
}

static void send_client(sv_client *cl)
{
    if (sv_sched == SCHED_LPT)
        sv_reliable_deliver_outboxes(cl); /* the jobs' broadcasts */
    sv_send_client(cl);
}

static void run_s(int worker)
{
    sv_thread_stats *st = sv_stats_thread();
    sv_stats_phase_begin(st);
    sv_sched_run_s(worker, send_client);
    sv_stats_phase_end(st, &st->s_ticks);
}

static void *worker_main(void *arg)
{
    sv_thread_index = (int)(intptr_t)arg;
    sv_stats_timeline_start();
    for (;;) {
        wait_serial(false);
        if (stopping)
            break;
        run_rp(sv_thread_index);
        wait_rp();
        run_s(sv_thread_index);
        sv_stats_thread()->frames++;
    }
    sv_stats_timeline_end();
    return NULL;
}

static bool all_clients_have_packets(void)
{
    for (int i = 0; i < SV_MAX_CLIENTS; i++)
        if (sv.clients[i].state >= CL_CONNECTED && sv.clients[i].inbox_count == 0)
            return false;
    return true;
}

static void wait_readable(double seconds)
{
    fd_set set;
    FD_ZERO(&set);
    FD_SET(sv.sock, &set);
    struct timeval tv = {.tv_sec = (long)seconds,
                         .tv_usec = (long)((seconds - (long)seconds) * 1e6)};
    select(sv.sock + 1, &set, NULL, NULL, &tv);
}

/* Waits for and queues this frame's packets: the socket's, and those of -replay's virtual
 * clients (net/replay.h), which never wait for the socket: in closed loop theirs are queued
 * already, at the trace's pace they say when the next is due. */
static void receive_phase(void)
{
    sv_thread_stats *st = sv_stats_thread();
    sv_stats_phase_begin(st);
    uint64_t replay_before = st->replay_ticks;
    double t0 = sv_clock();
    sv.realtime = t0;
    if (sv.opt.waitall) {
        double deadline = t0 + 1.0;
        sv_net_receive();
        sv_replay_queue_due(sv.realtime);
        while (!all_clients_have_packets() && !atomic_load(&quit_requested)) {
            double left = deadline - sv_clock();
            if (left <= 0)
                break;
            wait_readable(left < 0.01 ? left : 0.01);
            sv.realtime = sv_clock();
            sv_net_receive();
            sv_replay_queue_due(sv.realtime);
        }
    } else {
        /* wake for packets, or at least every 10 ms for physics and timeouts */
        double wait = 0.010;
        if (sv_replay_running()) {
            double due = sv_replay_queue_due(t0);
            wait = due < wait ? due : wait;
        }
        if (wait > 0)
            wait_readable(wait);
        sv.realtime = sv_clock();
        sv_net_receive();
        if (sv_replay_running())
            sv_replay_queue_due(sv.realtime);
    }
    sv_stats_phase_end(st, &st->idle_ticks);
    st->idle_replay_ticks += st->replay_ticks - replay_before;
}

static void run_u(void)
{
    sv_thread_stats *st = sv_stats_thread();
    sv_stats_phase_begin(st);
    double t0 = sv_clock();
    sv_admin_frame();
    sv.realtime = t0;
    sv.framenum++;
    sv_events_begin_frame();
    if (sv_sched == SCHED_LPT) {
        /* what the last RP's jobs deferred, before anything else moves (its events go to
         * this frame: the last S has sent that frame's already) */
        sv_stats_phase_end(st, &st->u_ticks);
        sv_sched_serial_phase();
        sv_stats_phase_end(st, &st->serial_ticks); /* serial_ms, not in u_ms */
    }

    for (int i = 0; i < SV_MAX_CLIENTS; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state < CL_CONNECTED)
            continue;
        if (cl->drop_requested || cl->reliable.overflowed) {
            sv_client_free(cl, cl->drop_requested ? cl->drop_reason : "reliable overflow");
            continue;
        }
        if (sv.realtime - cl->netchan.last_received > sv.opt.client_timeout)
            sv_client_free(cl, "timed out");
    }
    sv_scoreboard_frame();

    /* the game's physics is most of U: the workers asleep at the serial barrier wake now and
     * are running when it ends */
    sv_barrier_prewake(&serial_barrier);
    sv.game_clock += sv_replay_game_seconds(sv.realtime - sv.last_frame);
    sv.last_frame = sv.realtime;
    double dt = sv.game_clock - sv.last_physics;
    if (dt >= 0.013) {
        if (dt > 0.1)
            dt = 0.1;
        sv.time += dt;
        sv.last_physics = sv.game_clock;
        sv_game->physics(dt);
        sv_game_work_look_items();
    }
    sv_stats_phase_end(st, &st->u_ticks);
    sv_sched_plan_frame(); /* after U: the tree is up to date */
    sv_stats_phase_end(st, &st->jobs_ticks);
}

static void on_signal(int sig)
{
    (void)sig;
    sv_frame_request_quit();
}

void sv_frame_run(void)
{
    int n = sv.opt.threads;
    pthread_t threads[SV_MAX_THREADS];
    sv_barrier_init(&serial_barrier, (unsigned)n);
    sv_barrier_init(&rp_barrier, (unsigned)n);
    for (int i = 1; i < n; i++)
        pthread_create(&threads[i], NULL, worker_main, (void *)(intptr_t)i);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);

    sv.realtime = sv.last_frame = sv.game_clock = sv.last_physics = sv_clock();
    double start = sv.realtime, next_stats = start + sv.opt.stats_interval;
    sv_stats_timeline_start();
    wait_serial(true); /* every worker parked */
    while (!atomic_load(&quit_requested)) {
        receive_phase();
        run_u();
        sv_barrier_release(&serial_barrier);
        run_rp(0);
        wait_rp();
        run_s(0);
        wait_serial(true); /* every worker done with S, parked for the next frame */
        sv_frame_stats_end();
        sv_stats_thread()->frames++;
        if (sv.opt.stats_interval > 0 && sv.realtime >= next_stats) {
            sv_stats_print(stdout, "interval", sv_clock());
            next_stats += sv.opt.stats_interval;
            if (next_stats < sv.realtime)
                next_stats = sv.realtime + sv.opt.stats_interval;
        }
        if (sv.opt.quit_after > 0 && sv.realtime - start >= sv.opt.quit_after)
            break;
    }
    stopping = true;
    sv_barrier_release(&serial_barrier); /* the workers see `stopping` and exit */
    for (int i = 1; i < n; i++)
        pthread_join(threads[i], NULL);
    for (int i = 0; i < SV_MAX_CLIENTS; i++)
        if (sv.clients[i].state >= CL_CONNECTED)
            sv_client_free(&sv.clients[i], "server shutting down");
    sv_net_receive_report();
    sv_stats_print(stdout, "final", sv_clock());
}
