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
#include "qw_recording.h"

struct qwbot_nav;

/* Model indexes a bot remembers the names of (-movers: brush models "*N", items). */
#define QWBOT_MAX_MODELS 256

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

    /* -movers: the model list's names, the map's goals and graph (movers.h) */
    char (*model_names)[64];
    struct qwbot_nav *nav;
    char nav_failed[4096];      /* the map whose graph could not be built */
    float brush_first[QWBOT_MAX_MODELS][3];   /* targeted doors: where first seen */
    uint8_t brush_first_seen[QWBOT_MAX_MODELS];

    unsigned nbots;
    qwbot_bot *bots;
    qw_recording source;        /* the streams the bots send (script or replay) */
    qw_recording recording;     /* what they sent (-record) */
    unsigned interval_ms;       /* idle-move period before and after play */

    qwbot_latency latency;
    double start_time, play_start, play_end;
    bool playing;
    bool stopping;
} qwbot_run;

/* Monotonic clock in seconds. */
double qwbot_now(void);

#endif
