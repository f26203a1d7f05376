/* End-of-run summary (see summary.h). */
#include "summary.h"

#include <stdint.h>

/* -movers: what the bots reached and saw work, summed over the bots. */
static void print_movers(FILE *out, const qwbot_run *run)
{
    qwbot_mover_counts sum = {0};
    for (unsigned i = 0; i < run->nbots; i++) {
        const qwbot_visitor *v = run->bots[i].visitor;
        if (!v)
            continue;
        for (int k = 0; k < QWBOT_GOAL_KINDS; k++) {
            sum.reached[k] += v->counts.reached[k];
            sum.moved[k] += v->counts.moved[k];
        }
        sum.plat_rides += v->counts.plat_rides;
        sum.teleports += v->counts.teleports;
        sum.pickups += v->counts.pickups;
        sum.items_gone += v->counts.items_gone;
        sum.items_back += v->counts.items_back;
    }
    fprintf(out, "  movers reached (moved after)       ");
    for (int k = 0; k < QWBOT_GOAL_KINDS; k++)
        fprintf(out, "%s %u (%u)%s", qwbot_goal_kind_name((qwbot_goal_kind)k), sum.reached[k],
                sum.moved[k], k + 1 < QWBOT_GOAL_KINDS ? ", " : "\n");
    fprintf(out, "  plat rides / teleports             %u / %u\n", sum.plat_rides,
            sum.teleports);
    fprintf(out, "  pickups / items gone / back        %u / %u / %u\n", sum.pickups,
            sum.items_gone, sum.items_back);
    fprintf(out, "qwbot-movers");
    for (int k = 0; k < QWBOT_GOAL_KINDS; k++)
        fprintf(out, " reached_%s=%u moved_%s=%u", qwbot_goal_kind_name((qwbot_goal_kind)k),
                sum.reached[k], qwbot_goal_kind_name((qwbot_goal_kind)k), sum.moved[k]);
    fprintf(out, " plat_rides=%u teleports=%u pickups=%u items_gone=%u items_back=%u\n",
            sum.plat_rides, sum.teleports, sum.pickups, sum.items_gone, sum.items_back);
}

unsigned qwbot_print_summary(FILE *out, qwbot_run *run)
{
    unsigned spawned = 0, completed = 0, failed = 0, moved = 0;
    uint64_t moves = 0, sent = 0, received = 0, acked = 0, unacked = 0, choked = 0, bad = 0;
    uint64_t bytes_sent = 0, bytes_received = 0;
    long frags = 0;
    int frag_min = 0, frag_max = 0;
    uint64_t kills = 0, deaths = 0;
    unsigned scorers = 0;       /* bots that ended with frags > 0 */
    for (unsigned i = 0; i < run->nbots; i++) {
        const qwbot_bot *b = &run->bots[i];
        if (b->spawned_once)
            spawned++;
        if (qwbot_bot_completed(b))
            completed++;
        if (b->state == BOT_FAILED)
            failed++;
        if (b->origin_changes > 0)
            moved++;
        moves += b->moves_sent;
        sent += b->packets_sent;
        received += b->packets_received;
        acked += b->moves_acked;
        unacked += b->moves_unacked;
        choked += b->moves_choked;
        bad += b->bad_messages;
        bytes_sent += b->bytes_sent;
        bytes_received += b->bytes_received;
        frags += b->frags;
        kills += b->kills;
        deaths += b->deaths;
        if (b->frags > 0)
            scorers++;
        if (i == 0 || b->frags < frag_min)
            frag_min = b->frags;
        if (i == 0 || b->frags > frag_max)
            frag_max = b->frags;
    }
    double duration = run->play_end > run->play_start ? run->play_end - run->play_start : 0;
    double p50 = qwbot_latency_percentile(&run->latency, 50) / 1000.0;
    double p90 = qwbot_latency_percentile(&run->latency, 90) / 1000.0;
    double p99 = qwbot_latency_percentile(&run->latency, 99) / 1000.0;
    double pmax = qwbot_latency_percentile(&run->latency, 100) / 1000.0;
    double mean = qwbot_latency_mean(&run->latency) / 1000.0;
    double lost_pct = moves ? 100.0 * (double)unacked / (double)moves : 0;

    fprintf(out, "qwbot summary: %u bots, server %s, map %s, %s\n", run->nbots,
            run->opt.server, run->map, run->opt.replay ? "replay" : "scripted");
    fprintf(out, "  bots spawned / completed / failed  %u / %u / %u\n", spawned, completed,
            failed);
    fprintf(out, "  interactions (moves sent)          %llu in %.2f s (%.1f/s)\n",
            (unsigned long long)moves, duration, duration > 0 ? moves / duration : 0.0);
    fprintf(out, "  packets sent / replies received    %llu / %llu (%.1f / %.1f KiB)\n",
            (unsigned long long)sent, (unsigned long long)received, bytes_sent / 1024.0,
            bytes_received / 1024.0);
    fprintf(out, "  moves acked / without own ack      %llu / %llu (%.2f %% lost or "
            "superseded)\n", (unsigned long long)acked, (unsigned long long)unacked, lost_pct);
    fprintf(out, "  moves answered with a later one    %llu (the server's svc_chokecount)\n",
            (unsigned long long)choked);
    fprintf(out, "  round trip (ack of each move), ms  p50 %.3f  p90 %.3f  p99 %.3f  max %.3f  "
            "mean %.3f\n", p50, p90, p99, pmax, mean);
    fprintf(out, "  frags                              total %ld, per bot %d..%d, %u of %u "
            "bots above 0\n", frags, frag_min, frag_max, scorers, run->nbots);
    fprintf(out, "  kills / deaths                     %llu / %llu\n", (unsigned long long)kills,
            (unsigned long long)deaths);
    fprintf(out, "  bots whose origin changed in play  %u / %u\n", moved, run->nbots);
    if (bad)
        fprintf(out, "  server packets not fully parsed    %llu\n", (unsigned long long)bad);
    if (!run->chktbl)
        fprintf(out, "  WARNING: moves were sent without a valid checksum (no chktbl.bin)\n");
    if (run->opt.verbose) {
        for (unsigned i = 0; i < run->nbots; i++) {
            const qwbot_bot *b = &run->bots[i];
            fprintf(out, "  %-12s %-9s slot %2d moves %u acked %u health %d frags %d kills %u "
                    "deaths %u origin (%.1f %.1f %.1f) changes %u%s%s\n", b->name,
                    qwbot_state_name(b->state), b->playernum, b->moves_sent, b->moves_acked,
                    b->health, b->frags, b->kills, b->deaths, b->origin[0], b->origin[1],
                    b->origin[2], b->origin_changes, b->fail_reason[0] ? " : " : "",
                    b->fail_reason);
        }
    }
    fprintf(out, "qwbot-stats bots=%u spawned=%u completed=%u failed=%u interactions=%llu "
            "duration_s=%.3f packets_sent=%llu replies=%llu acked=%llu unacked=%llu "
            "choked=%llu rtt_p50_ms=%.3f rtt_p90_ms=%.3f rtt_p99_ms=%.3f rtt_mean_ms=%.3f frags=%ld "
            "kills=%llu deaths=%llu scorers=%u moved=%u bad_messages=%llu\n",
            run->nbots, spawned, completed, failed, (unsigned long long)moves, duration,
            (unsigned long long)sent, (unsigned long long)received, (unsigned long long)acked,
            (unsigned long long)unacked, (unsigned long long)choked, p50, p90, p99, mean, frags,
            (unsigned long long)kills, (unsigned long long)deaths, scorers, moved,
            (unsigned long long)bad);
    if (run->opt.movers)
        print_movers(out, run);
    fflush(out);
    return run->nbots - completed;
}
