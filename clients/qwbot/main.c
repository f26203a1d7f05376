/* qwbot: many QuakeWorld bots in one process (see --help and options.c). This file sets up
 * the run (server address, map checksum, command streams), drives the phases (sign-on, play,
 * drop) from a supervisor timer, and prints the summary. */
#include <errno.h>
#include <event2/event.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bot.h"
#include "mapfile.h"
#include "options.h"
#include "progress.h"
#include "run.h"
#include "script.h"
#include "session.h"
#include "summary.h"

#define SUPERVISOR_PERIOD_MS 50
#define SILENCE_LIMIT 15.0        /* seconds without a server packet before a bot gives up */

static int resolve_server(qwbot_run *run)
{
    char host[256];
    const char *text = run->opt.server;
    const char *port = "27500";
    const char *colon = strrchr(text, ':');
    size_t hostlen = strlen(text);
    if (text[0] == '[') {                         /* [v6addr]:port */
        const char *close = strchr(text, ']');
        if (!close) {
            fprintf(stderr, "qwbot: -server %s: missing ']'\n", text);
            return -1;
        }
        text++;
        hostlen = (size_t)(close - text);
        if (close[1] == ':')
            port = close + 2;
    } else if (colon && strchr(text, ':') == colon) {
        hostlen = (size_t)(colon - text);
        port = colon + 1;
    }
    if (hostlen == 0 || hostlen >= sizeof host || !*port) {
        fprintf(stderr, "qwbot: -server %s: expected HOST:PORT, e.g. 127.0.0.1:27500\n",
                run->opt.server);
        return -1;
    }
    memcpy(host, text, hostlen);
    host[hostlen] = 0;
    struct addrinfo hints = {0}, *res;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_DGRAM;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "qwbot: -server %s: %s\n", run->opt.server, gai_strerror(rc));
        return -1;
    }
    memcpy(&run->server_addr, res->ai_addr, res->ai_addrlen);
    run->server_addrlen = res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

static void load_chktbl(qwbot_run *run)
{
    char err[512];
    const char *path = run->opt.chktbl;
    if (!path)
        path = getenv("QW_CHKTBL");
    if (!path || !*path)
        path = QWBOT_DEFAULT_CHKTBL;
    if (qw_chktbl_load(&run->chktbl_data, path, err, sizeof err)) {
        run->chktbl = &run->chktbl_data;
        return;
    }
    fprintf(stderr, "qwbot: WARNING: cannot send valid moves: %s. Servers that verify the "
            "move checksum (mvdsv) will ignore every move.\n", err);
}

/* Fills run->source (the streams to send) and run->recording (empty, same header). */
static int prepare_streams(qwbot_run *run)
{
    qwbot_options *o = &run->opt;
    char err[512];
    if (o->replay) {
        if (qw_recording_load(o->replay, &run->source, err, sizeof err) != 0) {
            fprintf(stderr, "qwbot: -replay %s\n", err);
            return -1;
        }
        if (!o->bots)
            o->bots = run->source.bot_count;
        if (!o->map) {
            if (!run->source.map[0]) {
                fprintf(stderr, "qwbot: -replay %s names no map: give -map NAME\n", o->replay);
                return -1;
            }
            o->map = run->source.map;
        }
        run->interval_ms = run->source.interval_ms >= 5 && run->source.interval_ms <= 250
                               ? run->source.interval_ms : 13;
    } else {
        run->interval_ms = o->interval_ms;
        if (qw_recording_init(&run->source, o->bots, o->interval_ms, (uint32_t)o->seed,
                              o->map) != 0)
            goto oom;
        /* -fight fills the streams live, move by move (bot.c) */
        for (unsigned i = 0; i < o->bots && !o->fight && !o->movers; i++)
            if (qwbot_script_generate(&run->source.bots[i], o->seed, i, o->interactions,
                                      o->interval_ms) != 0)
                goto oom;
    }
    if (o->loops > 1) {
        /* the repeated streams replace the source; its header stays (for -record) */
        for (uint32_t i = 0; i < run->source.bot_count; i++) {
            qw_rec_stream repeated = {0};
            qw_rec_stream *s = &run->source.bots[i];
            if (qw_rec_stream_repeat(&repeated, s, o->interactions, o->loops,
                                     run->interval_ms) != 0)
                goto oom;
            for (uint32_t k = 0; k < s->count; k++)
                free(s->records[k].text);
            free(s->records);
            *s = repeated;
        }
        o->interactions = 0;   /* already applied per loop */
    }
    run->map = o->map;
    if (o->record &&
        qw_recording_init(&run->recording, o->bots, run->source.interval_ms, run->source.seed,
                          run->source.map) != 0)
        goto oom;
    return 0;
oom:
    fprintf(stderr, "qwbot: out of memory for %u bots x %u interactions\n", o->bots,
            o->interactions);
    return -1;
}

static struct {
    qwbot_run *run;
    qwbot_progress progress;
    struct event *tick;
    int interrupted;
} sup;

static void stop_all(qwbot_run *run)
{
    for (unsigned i = 0; i < run->nbots; i++)
        qwbot_bot_stop(&run->bots[i]);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
    (void)what;
    (void)arg;
    fprintf(stderr, "\nqwbot: %s: dropping the bots and stopping\n", strsignal((int)sig));
    sup.interrupted = 1;
    stop_all(sup.run);
    if (sup.run->play_start > 0 && sup.run->play_end == 0)
        sup.run->play_end = qwbot_now();
    event_base_loopbreak(sup.run->base);
}

static void supervise(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    qwbot_run *run = arg;
    double now = qwbot_now();
    unsigned spawned = 0, failed = 0, finished = 0;
    for (unsigned i = 0; i < run->nbots; i++) {
        qwbot_bot *b = &run->bots[i];
        if (b->state >= BOT_SIGNON && b->state <= BOT_FINISHING &&
            now - b->last_server_packet > SILENCE_LIMIT) {
            qwbot_bot_fail(b, "no packet from the server for %.0f s", SILENCE_LIMIT);
            qwbot_bot_stop(b);
        }
        if (b->state == BOT_SPAWNED)
            spawned++;
        if (b->state == BOT_FAILED)
            failed++;
        if (b->state == BOT_DONE || b->state == BOT_FAILED)
            finished++;
    }
    if (!run->playing) {
        if (failed) {
            fprintf(stderr, "qwbot: %u of %u bots failed during sign-on; dropping the others\n",
                    failed, run->nbots);
            stop_all(run);
            event_base_loopbreak(run->base);
            return;
        }
        if (spawned == run->nbots) {
            run->playing = true;
            run->play_start = now;
            for (unsigned i = 0; i < run->nbots; i++)
                qwbot_bot_begin_play(&run->bots[i], now);
        } else if (now - run->start_time > run->opt.signon_timeout) {
            for (unsigned i = 0; i < run->nbots; i++) {
                qwbot_bot *b = &run->bots[i];
                if (b->state < BOT_SPAWNED)
                    qwbot_bot_fail(b, "not spawned after %u s (raise -timeout, or check the "
                                   "server's address, map and maxclients)",
                                   run->opt.signon_timeout);
            }
            stop_all(run);
            event_base_loopbreak(run->base);
            return;
        }
    } else if (finished == run->nbots) {
        run->play_end = now;
        event_base_loopbreak(run->base);
        return;
    }
    qwbot_progress_update(&sup.progress, run, now);
}

/* One socket per bot: lift the soft open-file limit towards the hard one if needed. */
static void raise_file_limit(unsigned bots)
{
    struct rlimit rl;
    rlim_t want = (rlim_t)bots + 64;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < want) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

static int run_bots(qwbot_run *run)
{
    raise_file_limit(run->nbots);
    run->base = event_base_new();
    if (!run->base) {
        fprintf(stderr, "qwbot: cannot create the libevent loop\n");
        return -1;
    }
    run->bots = calloc(run->nbots, sizeof *run->bots);
    if (run->opt.movers && !(run->model_names = calloc(QWBOT_MAX_MODELS, 64)))
        run->bots = (free(run->bots), NULL);
    if (!run->bots) {
        fprintf(stderr, "qwbot: out of memory for %u bots\n", run->nbots);
        return -1;
    }
    /* qports tell the bots apart at the server (same IP); distinct within this process,
     * and a random base keeps two qwbot processes apart */
    uint64_t x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    int qport_base = (int)(x * 2654435761u >> 7) & 0xffff;
    run->start_time = qwbot_now();
    int short_warned = 0;
    for (unsigned i = 0; i < run->nbots; i++) {
        qwbot_bot *b = &run->bots[i];
        b->run = run;
        b->index = i;
        b->fd = -1;
        b->qport = (qport_base + (int)i) & 0xffff;
        snprintf(b->name, sizeof b->name, "%s%u", run->opt.name, i + 1);
        b->source = &run->source.bots[i % run->source.bot_count];
        if (run->opt.fight || run->opt.movers) {
            b->live = &run->source.bots[i];
            qwbot_fighter_init(&b->fighter, run->opt.seed, i);
        }
        if (run->opt.movers && !(b->visitor = qwbot_visitor_new(run->opt.seed, i))) {
            fprintf(stderr, "qwbot: out of memory for -movers\n");
            return -1;
        }
        uint32_t available = b->live ? run->opt.interactions : b->source->moves;
        b->moves_target = run->opt.interactions && run->opt.interactions < available
                              ? run->opt.interactions : available;
        if (run->opt.interactions > available && !short_warned) {
            fprintf(stderr, "qwbot: the trace has only %u moves for %s (and maybe others), "
                    "not %u: they send what there is\n", available, b->name,
                    run->opt.interactions);
            short_warned = 1;
        }
        b->recording = run->opt.record ? &run->recording.bots[i] : NULL;
        if (qwbot_bot_start(b) != 0) {
            stop_all(run);
            return -1;
        }
    }
    sup.run = run;
    qwbot_progress_init(&sup.progress, run->opt.progress);
    struct timeval period = {0, SUPERVISOR_PERIOD_MS * 1000};
    sup.tick = event_new(run->base, -1, EV_PERSIST, supervise, run);
    struct event *sigint = evsignal_new(run->base, SIGINT, on_signal, NULL);
    struct event *sigterm = evsignal_new(run->base, SIGTERM, on_signal, NULL);
    event_add(sup.tick, &period);
    event_add(sigint, NULL);
    event_add(sigterm, NULL);
    event_base_dispatch(run->base);
    stop_all(run);
    if (run->playing && run->play_end == 0)
        run->play_end = qwbot_now();
    qwbot_progress_finish(&sup.progress, run, qwbot_now());
    event_free(sup.tick);
    event_free(sigint);
    event_free(sigterm);
    return 0;
}

int main(int argc, char **argv)
{
    static qwbot_run run;
    int rc = qwbot_options_parse(&run.opt, argc, argv);
    if (rc > 0)
        return 0;
    if (rc < 0)
        return 2;
    signal(SIGPIPE, SIG_IGN);
    if (prepare_streams(&run) != 0)
        return 2;
    run.nbots = run.opt.bots;
    char err[1024];
    if (qwbot_map_checksum(run.opt.basedir, run.map, run.map_path, sizeof run.map_path,
                           &run.checksum2, err, sizeof err) != 0) {
        fprintf(stderr, "qwbot: %s\n", err);
        return 2;
    }
    run.pmodel = qwbot_model_crc(run.map_path, "player.mdl");
    run.emodel = qwbot_model_crc(run.map_path, "eyes.mdl");
    if (resolve_server(&run) != 0)
        return 2;
    load_chktbl(&run);
    if (run.opt.verbose)
        fprintf(stderr, "qwbot: map %s, checksum2 %d\n", run.map_path, (int32_t)run.checksum2);

    int failed = run_bots(&run) != 0;
    unsigned incomplete = qwbot_print_summary(stdout, &run);
    if (run.opt.record && run.playing) {
        if (qw_recording_save(&run.recording, run.opt.record, err, sizeof err) != 0) {
            fprintf(stderr, "qwbot: -record %s\n", err);
            failed = 1;
        } else {
            fprintf(stderr, "qwbot: recorded %u bot streams to %s\n", run.recording.bot_count,
                    run.opt.record);
        }
    }
    qwbot_latency_free(&run.latency);
    qw_recording_free(&run.source);
    qw_recording_free(&run.recording);
    for (unsigned i = 0; run.bots && i < run.nbots; i++)
        qwbot_visitor_free(run.bots[i].visitor);
    qwbot_nav_free(run.nav);
    free(run.model_names);
    free(run.bots);
    if (run.base)
        event_base_free(run.base);
    return failed || incomplete || sup.interrupted ? 1 : 0;
}
