/* A client's queued packets in RP (see sv_packet.h). */
#include "sv_packet.h"

#include "sv_client.h"
#include "sv_commands.h"
#include "sv_game.h"
#include "sv_log.h"
#include "sv_parse.h"
#include "sv_region.h"
#include "sv_reliable.h"
#include "sv_stats.h"

static void run_command(sv_client *cl, const qw_usercmd *cmd)
{
    bool ok = true;
    if (sv_sync == SYNC_REGION) {
        sv_reach reach;
        sv_game_command_reach(cl->slot, cmd, &reach);
        sv_region_plan_move(cl->slot, &reach);
    }
    /* A move command fails only when a reliable queue overflows (a kill's messages), and is
     * then undone whole (__transaction_cancel). Cancelling has a price: a transaction that may
     * cancel must log its undo, so libtm cannot run it uninstrumented or in hardware. While
     * every queue has room to spare it runs as a plain section; near overflow, cancellable. */
    if (sv_reliable_queues_roomy())
        CRITICAL_SECTION(CS_MOVE_COMMAND, ok = sv_game_run_command(cl, cmd););
    else
        CRITICAL_SECTION_CANCELLABLE(CS_MOVE_COMMAND, ok, sv_game_run_command(cl, cmd));
    if (!ok)
        sv_client_request_drop(cl, "reliable message overflow");
    cl->commands_processed++;
    sv_stats_thread()->commands++;
}

static void process_packet(sv_client *cl, const uint8_t *data, size_t len)
{
    sv_thread_stats *st = sv_stats_thread();
    qw_msgreader payload;
    if (!qw_netchan_process(&cl->netchan, data, len, sv.realtime, &payload, NULL)) {
        st->bad_packets++;
        sv_log_bad_client_packet(cl, "stale, duplicate or bogus sequence numbers");
        return;
    }
    cl->send_reply = true;
    st->packets++;

    static __thread sv_parsed_message m;
    if (!sv_parse_client_message(payload.data + payload.pos, qw_reader_remaining(&payload),
                                 sv.have_chktbl ? &sv.chktbl : NULL,
                                 cl->netchan.incoming_sequence, &m)) {
        st->bad_packets++;
        sv_log_bad_client_packet(cl, m.error);
        return;
    }
    cl->delta_sequence = m.delta_sequence;
    for (int i = 0; i < m.num_stringcmds && cl->state >= CL_CONNECTED && !cl->drop_requested; i++)
        sv_execute_stringcmd(cl, m.stringcmds[i]);

    if (!m.has_move || cl->state != CL_SPAWNED || cl->drop_requested)
        return;
    if (!m.move_checksum_ok) {
        sv_log_bad_client_packet(cl, "clc_move with a wrong sequence checksum");
        return;
    }
    /* replay the commands of lost packets (the move carries the last three) */
    int dropped = cl->netchan.dropped;
    if (dropped < 20) {
        if (dropped > 1)
            run_command(cl, &m.cmds[0]);
        if (dropped > 0)
            run_command(cl, &m.cmds[1]);
    }
    run_command(cl, &m.cmds[2]);
    cl->lastcmd = m.cmds[2];
    cl->last_cmd_time = sv.time;
}

void sv_client_process_inbox(sv_client *cl)
{
    for (int i = 0; i < cl->inbox_count && cl->state >= CL_CONNECTED; i++)
        process_packet(cl, cl->inbox[i].data, cl->inbox[i].len);
    cl->inbox_count = 0;
}
