/* The Atomic Quake frame.
 *
 *   master (thread 0)         workers (threads 1..N-1)
 *   receive + U               -
 *   ---------------- barrier: start RP ----------------
 *   RP for its own clients    RP for their own clients
 *   ---------------- barrier: start S -----------------
 *   S for its own clients     S for their own clients
 *   ---------------- barrier: frame done --------------
 *
 * How packets reach their worker: there is one UDP socket, and only the master reads it,
 * at the start of each frame while the workers are parked at the first barrier. It answers
 * connectionless packets itself (status, ping, challenges, connects: these create client
 * slots, so doing them with no worker running needs no locking), and appends each sequenced
 * packet to the inbox of the client it belongs to (looked up by address, then address +
 * qport). In RP every worker drains the inboxes of the clients assigned to it round-robin at
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

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>

#include "admin/admin.h"
#include "clock.h"
#include "game/game.h"
#include "log.h"
#include "net/client.h"
#include "net/connectionless.h"
#include "net/events.h"
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

static sv_barrier frame_barrier;
static atomic_bool quit_requested;
static bool stopping;

void sv_frame_request_quit(void)
{
    atomic_store(&quit_requested, true);
}

static void barrier_wait(void)
{
    double t0 = sv_clock();
    sv_barrier_wait(&frame_barrier);
    sv_stats_thread()->wait_seconds += sv_clock() - t0;
}

static void run_rp(int worker)
{
    double t0 = sv_clock();
    sv_sched_run_rp(worker);
    double t1 = sv_clock();
    sv_stats_thread()->rp_seconds += t1 - t0;
    sv_frame_stats_rp(worker, t0, t1);
}

static void run_s(int worker)
{
    double t0 = sv_clock();
    for (int i = 0; i < SV_MAX_CLIENTS; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->worker != worker || cl->state < CL_CONNECTED)
            continue;
        if (sv_sched == SCHED_LPT)
            sv_reliable_deliver_outboxes(cl); /* the jobs' broadcasts */
        sv_send_client(cl);
    }
    sv_stats_thread()->s_seconds += sv_clock() - t0;
}

static void *worker_main(void *arg)
{
    sv_thread_index = (int)(intptr_t)arg;
    for (;;) {
        barrier_wait();
        if (stopping)
            break;
        run_rp(sv_thread_index);
        barrier_wait();
        run_s(sv_thread_index);
        barrier_wait();
        sv_stats_thread()->frames++;
    }
    return NULL;
}

/* Reads every queued datagram (master, workers parked). */
static int receive_packets(void)
{
    uint8_t buf[QW_MAX_PACKET + 64];
    int got = 0;
    for (;;) {
        struct sockaddr_in from;
        socklen_t fromlen = sizeof from;
        ssize_t n = recvfrom(sv.sock, buf, sizeof buf, 0, (struct sockaddr *)&from, &fromlen);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        got++;
        if (fromlen != sizeof from || from.sin_family != AF_INET)
            continue;
        if (n >= 4 && !memcmp(buf, QW_CONNECTIONLESS_PREFIX, 4)) {
            sv_connectionless(&from, buf, (size_t)n);
            continue;
        }
        if (n > QW_MAX_PACKET) {
            sv_log_bad_packet(&from, "oversized packet");
            continue;
        }
        if (n < 10) {
            sv_log_bad_packet(&from, "packet shorter than a netchan header");
            continue;
        }
        sv_client *cl = sv_client_for_packet(&from, buf, (size_t)n);
        if (!cl) {
            sv_log_bad_packet(&from, "sequenced packet from an unknown address");
            continue;
        }
        if (cl->inbox_count == SV_INBOX) {
            sv_log_bad_client_packet(cl, "inbox full (client sends faster than frames run)");
            continue;
        }
        sv_inbox_packet *p = &cl->inbox[cl->inbox_count++];
        memcpy(p->data, buf, (size_t)n);
        p->len = (uint16_t)n;
    }
    return got;
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
    double t0 = sv_clock();
    sv.realtime = t0;
    if (sv.opt.waitall) {
        double deadline = t0 + 1.0;
        receive_packets();
        sv_replay_queue_due(sv.realtime);
        while (!all_clients_have_packets() && !atomic_load(&quit_requested)) {
            double left = deadline - sv_clock();
            if (left <= 0)
                break;
            wait_readable(left < 0.01 ? left : 0.01);
            sv.realtime = sv_clock();
            receive_packets();
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
        receive_packets();
        if (sv_replay_running())
            sv_replay_queue_due(sv.realtime);
    }
    sv_stats_thread()->idle_seconds += sv_clock() - t0;
}

static void run_u(void)
{
    double t0 = sv_clock();
    sv_admin_frame();
    sv.realtime = t0;
    sv.framenum++;
    sv_events_begin_frame();
    if (sv_sched == SCHED_LPT) {
        /* what the last RP's jobs deferred, before anything else moves (its events go to
         * this frame: the last S has sent that frame's already) */
        double serial_start = sv_clock();
        sv_sched_serial_phase();
        t0 += sv_clock() - serial_start; /* counted as serial_ms, not in u_ms */
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

    sv.game_clock += sv_replay_game_seconds(sv.realtime - sv.last_frame);
    sv.last_frame = sv.realtime;
    double dt = sv.game_clock - sv.last_physics;
    if (dt >= 0.013) {
        if (dt > 0.1)
            dt = 0.1;
        sv.time += dt;
        sv.last_physics = sv.game_clock;
        sv_game_physics(dt);
        sv_game_work_look_items();
    }
    sv_stats_thread()->u_seconds += sv_clock() - t0;
    sv_sched_plan_frame(); /* after U: the tree is up to date (jobs_ms) */
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
    sv_barrier_init(&frame_barrier, (unsigned)n);
    for (int i = 1; i < n; i++)
        pthread_create(&threads[i], NULL, worker_main, (void *)(intptr_t)i);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);

    sv.realtime = sv.last_frame = sv.game_clock = sv.last_physics = sv_clock();
    double start = sv.realtime, next_stats = start + sv.opt.stats_interval;
    while (!atomic_load(&quit_requested)) {
        receive_phase();
        run_u();
        barrier_wait();
        run_rp(0);
        barrier_wait();
        run_s(0);
        barrier_wait();
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
    barrier_wait(); /* releases the workers, which see `stopping` and exit */
    for (int i = 1; i < n; i++)
        pthread_join(threads[i], NULL);
    for (int i = 0; i < SV_MAX_CLIENTS; i++)
        if (sv.clients[i].state >= CL_CONNECTED)
            sv_client_free(&sv.clients[i], "server shutting down");
    sv_stats_print(stdout, "final", sv_clock());
}
