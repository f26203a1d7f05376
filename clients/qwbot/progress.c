/* Progress display (see progress.h). */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LIVE_PERIOD 0.2
#define LOG_PERIOD 5.0

void qwbot_progress_init(qwbot_progress *p, int forced)
{
    p->mode = forced >= 0 ? forced : isatty(STDERR_FILENO);
    p->last_print = 0;
    p->line_open = 0;
}

static void print_line(qwbot_progress *p, qwbot_run *run, double now)
{
    unsigned connected = 0, spawned = 0, failed = 0, done = 0;
    uint64_t moves = 0, target = 0;
    for (unsigned i = 0; i < run->nbots; i++) {
        const qwbot_bot *b = &run->bots[i];
        if (b->state >= BOT_SIGNON && b->state <= BOT_FINISHING)
            connected++;
        if (b->spawned_once)
            spawned++;
        if (b->state == BOT_FAILED)
            failed++;
        if (b->state == BOT_DONE)
            done++;
        moves += b->moves_sent;
        target += b->moves_target;
    }
    char fail_text[64] = "";
    if (done)
        snprintf(fail_text, sizeof fail_text, ", %u done", done);
    if (failed)
        snprintf(fail_text + strlen(fail_text), sizeof fail_text - strlen(fail_text),
                 ", %u failed", failed);
    fprintf(stderr, "%s[%6.1fs] bots connected %u/%u, spawned %u/%u%s, interactions %llu/%llu"
            "%s", p->mode ? "\r" : "", now - run->start_time, connected, run->nbots, spawned,
            run->nbots, fail_text, (unsigned long long)moves, (unsigned long long)target,
            p->mode ? "\033[K" : "\n");
    fflush(stderr);
    p->line_open = p->mode;
    p->last_print = now;
}

void qwbot_progress_update(qwbot_progress *p, qwbot_run *run, double now)
{
    double period = p->mode ? LIVE_PERIOD : LOG_PERIOD;
    if (now - p->last_print >= period)
        print_line(p, run, now);
}

void qwbot_progress_finish(qwbot_progress *p, qwbot_run *run, double now)
{
    print_line(p, run, now);
    if (p->line_open)
        fputc('\n', stderr);
    p->line_open = 0;
}
