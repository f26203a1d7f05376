/* State shared by all bots of one qwbot process. */
#ifndef QWBOT_RUN_H
#define QWBOT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "bot.h"
#include "latency.h"
#include "options.h"
#include "qw_crc.h"
#include "recording.h"

typedef struct qwbot_run {
    qwbot_options opt;
    struct event_base *base;
    struct sockaddr_storage server_addr;
    socklen_t server_addrlen;

    const qw_chktbl *chktbl;    /* NULL: moves carry checksum 0 */
    qw_chktbl chktbl_data;
    const char *map;            /* the server's current map (-map, then each map change) */
    char changed_map[64];       /* storage of map after the server changed it */
    char map_path[4096];
    uint32_t checksum2;
    long pmodel, emodel;        /* CRCs of progs/player.mdl, eyes.mdl for userinfo; -1 absent */

    unsigned nbots;
    qwbot_bot *bots;
    qwbot_trace source;         /* the streams the bots send (script or replay) */
    qwbot_trace recording;      /* what they sent (-record) */
    unsigned interval_ms;       /* idle-move period before and after play */

    qwbot_latency latency;
    double start_time, play_start, play_end;
    bool playing;
    bool stopping;
} qwbot_run;

/* Monotonic clock in seconds. */
double qwbot_now(void);

#endif
