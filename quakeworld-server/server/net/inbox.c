/* A client's queued packets in RP (see net/inbox.h). */
#include "net/inbox.h"

#include <arpa/inet.h>
#include <string.h>

#include "game/game.h"
#include "log.h"
#include "net/client_commands.h"
#include "net/parse.h"
#include "net/reliable.h"
#include "sched/job_plan.h"
#include "server.h"
#include "stats/counters.h"
#include "sync/region.h"

/* Kept out of line: a transaction begins like setjmp, and the callers' step counters would
 * otherwise be "clobbered" candidates. */
static __attribute__((noinline)) void run_command(sv_client *cl, const qw_usercmd *cmd)
{
    bool ok = true;
    if (sv_sync == SYNC_REGION) {
        sv_reach reach;
        sv_game->command_reach(cl->slot, cmd, &reach);
        sv_region_plan_move(cl->slot, &reach);
    }
    /* The C game's move command fails only when a reliable queue overflows (a kill's
     * messages), and is then undone whole (__transaction_cancel). Cancelling has a price: a
     * transaction that may cancel must log its undo, so libtm cannot run it uninstrumented or
     * in hardware. While every queue has room to spare it runs as a plain section; near
     * overflow, cancellable. A QuakeC command may fail anywhere (a runtime error): always
     * cancellable. */
    uint64_t entered = sv_stats_command_enter();
    if (sv_reliable_queues_roomy() && !sv_game->commands_may_fail)
        CRITICAL_SECTION(CS_MOVE_COMMAND, sv_stats_command_attempt();
                         ok = sv_game->run_command(cl, cmd););
    else
        CRITICAL_SECTION_CANCELLABLE(CS_MOVE_COMMAND, ok,
                                     (sv_stats_command_attempt(), sv_game->run_command(cl, cmd)));
    sv_stats_command_leave(entered);
    if (!ok)
        sv_game->failed(cl, false);
    cl->commands_processed++;
    sv_stats_thread()->commands++;
}

/* Whether the next step of cl's packets may run where the calling thread is: always outside
 * jobs; in a job never a string command (cmd NULL: they read or write every client), and a
 * movement command only when it stays in the box its client was joined by. */
static bool step_fits_here(const sv_client *cl, const qw_usercmd *cmd)
{
    if (!sv_in_job())
        return true;
    return cmd && sv_game->command_fits(cl->slot, cmd, sv_frame_plan.box_mins[cl->slot],
                                       sv_frame_plan.box_maxs[cl->slot]);
}

/* A packet's steps, in order: its string commands, then its three moves (the older two run
 * only to replay the commands of lost packets). */
#define MOVE_STEPS 3

/* Runs the steps of message m from `step` on. Returns the number of steps, or in a job of
 * -sched lpt the first step that must wait for the serial phase (step_fits_here). */
static int run_steps(sv_client *cl, const sv_parsed_message *m, int step)
{
    int strings = m->num_stringcmds;
    for (; step < strings; step++) {
        if (cl->state < CL_CONNECTED || cl->drop_requested) {
            step = strings;
            break;
        }
        if (!step_fits_here(cl, NULL))
            return step;
        sv_execute_stringcmd(cl, m->stringcmds[step]);
    }
    if (step == strings) {
        if (!m->has_move || cl->state != CL_SPAWNED || cl->drop_requested)
            return strings + MOVE_STEPS;
        if (!m->move_checksum_ok) {
            sv_log_bad_client_packet(cl, "clc_move with a wrong sequence checksum");
            return strings + MOVE_STEPS;
        }
    }
    /* replay the commands of lost packets (the move carries the last three) */
    int dropped = cl->netchan.dropped;
    bool replays[MOVE_STEPS] = {dropped > 1 && dropped < 20, dropped > 0 && dropped < 20, true};
    for (; step < strings + MOVE_STEPS; step++) {
        const qw_usercmd *cmd = &m->cmds[step - strings];
        if (!replays[step - strings])
            continue;
        if (!step_fits_here(cl, cmd))
            return step;
        run_command(cl, cmd);
    }
    cl->lastcmd = m->cmds[2];
    cl->last_cmd_time = sv.time;
    return step;
}

/* Parses inbox packet `index` (its payload starts at `offset`, after the netchan header) and
 * runs its steps from `step` on. False when a step waits for the serial phase: where is kept
 * in cl->resume. */
static bool run_packet(sv_client *cl, int index, int offset, int step)
{
    static __thread sv_parsed_message m;
    const sv_inbox_packet *pkt = &cl->inbox[index];
    if (!sv_parse_client_message(pkt->data + offset, (size_t)(pkt->len - offset),
                                 sv.have_chktbl ? &sv.chktbl : NULL,
                                 cl->netchan.incoming_sequence, &m)) {
        sv_stats_thread()->bad_packets++;
        sv_log_bad_client_packet(cl, m.error);
        return true;
    }
    cl->delta_sequence = m.delta_sequence;
    if (m.has_move)
        cl->loss_reported = m.move_loss; /* shown on scoreboards (published in S) */
    int stop = run_steps(cl, &m, step);
    if (stop == m.num_stringcmds + MOVE_STEPS)
        return true;
    cl->resume = (sv_resume){.pending = true, .packet = index, .offset = offset, .step = stop};
    return false;
}

/* Whether a packet from another port of cl's address may move cl there: only when nothing
 * came from its port for SV_PORT_MOVE_SILENCE seconds. A NAT that maps a client anew has
 * stopped delivering from the old port; while the client plays, its packets from the old
 * port keep coming, so a forged packet from any other port cannot take the connection even
 * with the right qport and sequence numbers. */
static bool port_may_move(const sv_client *cl)
{
    return sv.realtime - cl->netchan.last_received >= SV_PORT_MOVE_SILENCE;
}

static bool process_packet(sv_client *cl, int index)
{
    sv_thread_stats *st = sv_stats_thread();
    const sv_inbox_packet *pkt = &cl->inbox[index];
    qw_msgreader payload;
    bool moved = pkt->port != cl->addr.sin_port;
    if (moved && !port_may_move(cl)) {
        st->bad_packets++;
        sv_log_bad_client_packet(cl, "packet from another port while the client's own is live");
        return true;
    }
    if (!qw_netchan_process(&cl->netchan, pkt->data, pkt->len, sv.realtime, &payload, NULL)) {
        st->bad_packets++;
        sv_log_bad_client_packet(cl, "stale, duplicate or bogus sequence numbers");
        return true;
    }
    if (moved) { /* the netchan took it: the client's packets now come from there */
        sv_log("%s: port %d -> %d (address translation)", cl->name, ntohs(cl->addr.sin_port),
               ntohs(pkt->port));
        cl->addr.sin_port = pkt->port;
    }
    cl->send_reply = true;
    cl->packets_this_frame++;
    st->packets++;
    int offset = (int)((const uint8_t *)payload.data + payload.pos - pkt->data);
    return run_packet(cl, index, offset, 0);
}

void sv_client_process_inbox(sv_client *cl)
{
    for (int i = 0; i < cl->inbox_count && cl->state >= CL_CONNECTED; i++)
        if (!process_packet(cl, i)) {
            cl->resume.packets = cl->inbox_count;
            return;
        }
    cl->inbox_count = 0;
}

void sv_client_resume(sv_client *cl)
{
    sv_resume r = cl->resume;
    cl->resume.pending = false;
    /* the packet is parsed again, as it was: the netchan has taken no packet of cl since */
    if (cl->state >= CL_CONNECTED)
        run_packet(cl, r.packet, r.offset, r.step);
    for (int i = r.packet + 1; i < r.packets && cl->state >= CL_CONNECTED; i++)
        process_packet(cl, i);
    /* what this frame's receive queued after them is this frame's RP's */
    int later = cl->state >= CL_CONNECTED ? cl->inbox_count - r.packets : 0;
    if (later > 0)
        memmove(cl->inbox, cl->inbox + r.packets, (size_t)later * sizeof cl->inbox[0]);
    cl->inbox_count = later > 0 ? later : 0;
}
