/* Command line of qwbot (the options' table is in options.c). */
#ifndef QWBOT_OPTIONS_H
#define QWBOT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct qwbot_options {
    const char *server;         /* HOST:PORT */
    const char *basedir;        /* where the server's BSP file can be read */
    const char *map;            /* map name without maps/ and .bsp */
    unsigned bots;              /* 0 = take from the replay trace */
    unsigned interactions;      /* moves per bot; 0 = whole replay trace */
    const char *record;         /* trace file to write */
    const char *replay;         /* trace file to read */
    unsigned seed;              /* of the scripted behaviour and the fighters */
    const char *name;           /* bot name prefix */
    unsigned interval_ms;       /* scripted mode: time between moves */
    double speed;               /* time scale of sending (2 = twice as fast); msec unchanged */
    double duration;            /* stop sending after this many seconds of play (0 = no limit) */
    unsigned loops;             /* send each bot's stream this many times */
    int closed_loop;            /* send each move when the previous one is answered */
    int fight;                  /* scripted mode: the live deathmatch script (fight.h) */
    int movers;                 /* scripted mode: go to the map's movers and use them
                                   (movers.h); chosen live like -fight, which it implies */
    int aim;                    /* replay: turn each move to the nearest opponent in view */
    unsigned signon_timeout;    /* seconds to get every bot spawned */
    const char *chktbl;         /* sequence checksum table (NULL = default) */
    int verbose;                /* print server prints and per-bot lines */
    int progress;               /* -1 auto (tty), 0 off, 1 on */
    bool interval_given;        /* -interval was on the command line */
} qwbot_options;

/* Parses argv. Returns 0 to run, 1 when --help was printed, -1 on a usage error (the message
 * is already printed to stderr). */
int qwbot_options_parse(qwbot_options *o, int argc, char **argv);
void qwbot_usage(FILE *stream);

#endif
