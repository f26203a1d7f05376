/* One bot: a protocol-28 client driven by the shared libevent loop (one UDP socket each).
 * bot.c is its link to the server (state, socket, sending, acknowledgements); session.c
 * drives it (connect, receive, sign on, play); server_parse.c reads what the server sends;
 * stufftext.c runs the console commands the server stuffs. */
#ifndef QWBOT_BOT_H
#define QWBOT_BOT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "fight.h"
#include "movers.h"
#include "qw_netchan.h"
#include "qw_protocol.h"
#include "qw_recording.h"

struct event;
struct qwbot_run;

/* Player slots a bot can see: QuakeWorld's 32, or up to 256 on a qwsv with more slots
 * ("bigslots 1" in the userinfo asks for them; slots travel as bytes). */
#define QWBOT_MAX_SLOTS 256

typedef enum qwbot_state {
    BOT_CHALLENGE,   /* sending getchallenge */
    BOT_CONNECTING,  /* sending connect, waiting for 'j' */
    BOT_SIGNON,      /* netchan up, new/soundlist/modellist/prespawn/spawn */
    BOT_SPAWNED,     /* "begin" acknowledged: idle moves until every bot is in */
    BOT_PLAYING,     /* sending its command stream */
    BOT_FINISHING,   /* all moves sent, collecting the last acknowledgements */
    BOT_DONE,        /* sent "drop", socket closed */
    BOT_FAILED
} qwbot_state;

const char *qwbot_state_name(qwbot_state s);

/* Another player as the server last showed it (svc_playerinfo is sent only for players in
 * our view). */
typedef struct qwbot_other {
    float origin[3];
    bool alive;
    int32_t seen;           /* incoming sequence of the packet that showed it; 0 = never */
} qwbot_other;

/* What we remember about each sent packet, to time its acknowledgement. */
typedef struct qwbot_sent {
    int32_t sequence;
    double time;
    bool is_move;        /* a play-phase move: counts as an interaction */
    bool resolved;
} qwbot_sent;

typedef struct qwbot_bot {
    struct qwbot_run *run;
    unsigned index;
    char name[32];
    int fd;
    struct event *read_event, *timer_event;
    qwbot_state state;
    double state_since;
    int attempts;
    char fail_reason[200];

    int qport;
    int32_t challenge;
    qw_netchan nc;

    /* what the server told us */
    int32_t spawncount;
    int playernum;
    bool slot_bit7;             /* serverdata's slot byte had bit 7: a spectator, or on a
                                   server with more than 128 slots, a slot from 128 on
                                   (fullserverinfo's maxclients tells; run_stufftext) */
    char gamedir[64];
    char levelname[64];
    bool begin_sent;
    int32_t begin_sequence;     /* first packet after the one carrying "begin" was queued */
    int32_t valid_sequence;     /* last frame whose packetentities parsed (for clc_delta) */
    double last_server_packet;
    bool in_game;               /* spawned on the current map ("begin" acknowledged) */
    bool spawned_once;          /* was in the game at least once */
    char last_print[160];       /* last server print, quoted when the server drops us */

    /* own player */
    float origin[3];
    bool have_origin;
    float play_start_origin[3];
    bool have_play_start_origin;
    uint32_t origin_changes;    /* during play */
    int health;
    int frags;
    int32_t stats[QW_MAX_CL_STATS]; /* svc_updatestat values (STAT_HEALTH, STAT_ITEMS, ...) */
    uint32_t kills, deaths;     /* frags gained, and times our health fell to 0 or below */
    qwbot_other others[QWBOT_MAX_SLOTS];
    uint32_t inside_other;      /* server packets in a row that showed us inside a player */
    float stuck_origin[3];      /* our origin at the previous such check */
    double last_unstick;        /* when we last sent "kill" to get out of one */

    /* commands */
    const qw_rec_stream *source;
    qw_rec_stream *live;        /* -fight: the stream the live script appends to (= source) */
    qwbot_fighter fighter;
    qwbot_visitor *visitor;     /* -movers */
    uint32_t next_record;
    uint32_t moves_target;
    uint32_t moves_sent;
    bool out_of_time;           /* stopped by -duration */
    qw_rec_stream *recording;   /* NULL unless -record */
    qw_rec_cmd history[3];      /* the last three commands sent, oldest first */
    int32_t last_move_sequence; /* -closedloop: the packet whose answer we wait for */

    /* acknowledgement timing */
    qwbot_sent sent[QW_UPDATE_BACKUP];
    int32_t resolved_upto;
    uint32_t moves_acked;
    uint32_t moves_unacked;     /* superseded by a later ack, lost, or never answered */
    uint32_t moves_choked;      /* answered together with a later one (svc_chokecount) */
    int choke_reported;         /* svc_chokecount of the packet being read */

    /* counters */
    uint64_t packets_sent, packets_received, bytes_sent, bytes_received;
    uint64_t bad_messages;      /* server messages we could not parse to the end */
    uint64_t stale_packets;
} qwbot_bot;

/* bot.c: the bot's link to its server. */
/* True when the bot has sent everything it was asked to (or ran out of -duration). */
bool qwbot_bot_completed(const qwbot_bot *b);
void qwbot_bot_set_state(qwbot_bot *b, qwbot_state s);
/* (Re)arms the bot's timer to fire in `seconds` (nothing once the bot is stopped). */
void qwbot_bot_schedule(qwbot_bot *b, double seconds);
/* Stops the bot: sends "drop" if connected, closes the socket. */
void qwbot_bot_stop(qwbot_bot *b);
/* Marks the bot failed with the reason (printed), says "drop" if connected; the socket is
 * closed by qwbot_bot_close_socket from the event loop. */
void qwbot_bot_fail(qwbot_bot *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void qwbot_bot_close_socket(qwbot_bot *b);
/* True while the netchan carries sequenced packets (signed on, not yet done). */
bool qwbot_bot_netchan_up(const qwbot_bot *b);

/* Queues a string command on the reliable channel. */
void qwbot_bot_stringcmd(qwbot_bot *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Sends a connectionless text packet (FF FF FF FF + text) to the server. */
void qwbot_bot_send_connectionless(qwbot_bot *b, const char *text);
/* Sends one netchan packet (with the pending reliable data) and remembers when, for the
 * acknowledgement; is_move: it carries a move of the bot's stream (timed). */
void qwbot_bot_send_packet(qwbot_bot *b, const uint8_t *unreliable, size_t len, bool is_move);
/* Sends one packet carrying `cmd` as the newest of the three usercmds of a clc_move. */
void qwbot_bot_send_move(qwbot_bot *b, const qw_rec_cmd *cmd, bool is_move);
/* The server acknowledged our packet `ack`: times that move, counts older ones lost. */
void qwbot_bot_resolve_acks(qwbot_bot *b, int32_t ack, double now);
/* Verbose-mode log line prefixed with the bot's name. */
void qwbot_bot_log(qwbot_bot *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
