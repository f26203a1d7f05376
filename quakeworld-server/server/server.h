/* qwsv: shared types and globals of the server. Who may write what, and when, is in
 * sync/critical_sections.h (the server's concurrency rules). */
#ifndef SV_SERVER_H
#define SV_SERVER_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "area.h"
#include "bsp.h"
#include "pmove.h"
#include "pvs.h"
#include "qw_crc.h"
#include "qw_entity_delta.h"
#include "qw_msg.h"
#include "qw_netchan.h"
#include "qw_protocol.h"
#include "qw_usercmd.h"
#include "sync/critical_sections.h"

#define SV_MAX_THREADS 16
/* Player slots. QuakeWorld clients know QW_MAX_CLIENTS (32): slots from 32 on go only to
 * clients that say "bigslots" in their userinfo (qwbot), and nothing about a player in such a
 * slot is sent to the others (net/client.h). Slots must fit the byte of svc_playerinfo. */
#define SV_MAX_CLIENTS 192
#define SV_MAX_ENTITIES 512          /* entity numbers must fit 9 bits on the wire */
/* Players are entities 1..32 as in QuakeWorld (slot + 1); a player in a big slot has no
 * entity number of its own (sv_player_entnum). */
#define SV_FIRST_NONPLAYER (QW_MAX_CLIENTS + 1)
#define SV_INBOX 16                   /* packets queued per client between frames */
#define SV_RELIABLE_BLOCKS 32         /* reliable backlog per client (x QW_MAX_MSGLEN): room
                                         for the scoreboard of 192 players joining at once */
#define SV_RELIABLE_SPARE 4           /* free blocks a queue keeps to count as roomy */
#define SV_EVENT_FRAMES 16            /* frames of global events kept for slow clients */
#define SV_TIMEOUT 30.0               /* default -clienttimeout */
#define SV_PORT_MOVE_SILENCE 1.0      /* seconds a client's port must be silent before a
                                         packet from another port may move it (net/inbox.c) */

typedef enum { CL_FREE = 0, CL_CONNECTED, CL_SPAWNED } sv_client_state;

/* One queued block of reliable data. */
typedef struct sv_reliable_block {
    uint16_t len;
    uint8_t data[QW_MAX_MSGLEN];
} sv_reliable_block;

/* Reliable data waiting for the netchan (QuakeWorld's "backbuf"): appended by anyone inside
 * a critical section, moved into the netchan by the owner in S. */
typedef struct sv_reliable {
    int first, count;                 /* ring of blocks */
    bool overflowed;                  /* the client fell too far behind: drop it */
    bool tight;                       /* fewer than SV_RELIABLE_SPARE blocks free (set in S
                                         by the owner, read in RP) */
    sv_reliable_block blocks[SV_RELIABLE_BLOCKS];
} sv_reliable;

/* Entity states sent in one packet, kept for delta compression. */
typedef struct sv_client_frame {
    int32_t sequence;                 /* netchan sequence of the packet that carried it */
    double senttime;
    int num_entities;
    qw_entity_state entities[QW_MAX_PACKET_ENTITIES];
} sv_client_frame;

typedef struct sv_inbox_packet {
    uint16_t len;
    uint16_t port;                    /* the source port (network order): the client's, or a
                                         new one that the netchan must accept first */
    uint8_t data[QW_MAX_PACKET];
} sv_inbox_packet;

/* -sched lpt: where a job stopped processing a client's packets, for the serial phase. */
typedef struct sv_resume {
    bool pending;
    int packet;                       /* inbox packet to go on with (its netchan is done) */
    int offset;                       /* its payload's place after the netchan header */
    int step;                         /* its first step not run (net/inbox.c) */
    int packets;                      /* the inbox packets that are the job's */
} sv_resume;

typedef struct sv_client {
    sv_client_state state;
    int slot;
    int worker;                       /* thread index that owns it (round-robin at connect;
                                         with -sched lpt, the worker of its job this frame) */
    int userid;
    struct sockaddr_in addr;
    int qport;
    char userinfo[QW_MAX_INFO_STRING];
    char name[32];
    char team[16], skin[32];          /* name, colours, team, skin: from the userinfo, shown */
    int topcolor, bottomcolor;        /* on everybody's scoreboard (net/userinfo.h) */
    bool spectator;                   /* connected with "spectator" set in its userinfo:
                                         counted against maxspectators, not maxclients */
    bool bigslots;                    /* a player that said "bigslots 1" at connect: it may
                                         get a slot from 32 on and hears of such slots */
    qw_netchan netchan;
    int spawncount;                   /* the sign-on generation the client must quote */
    double connect_time;
    bool drop_requested;              /* set by its worker; the master drops it in U */
    char drop_reason[64];

    /* packets queued by the receiver (master) for the worker */
    int inbox_count;
    sv_inbox_packet inbox[SV_INBOX];
    bool send_reply;                  /* got a valid packet this frame: answer in S */
    sv_resume resume;                 /* -sched lpt: the rest of the packets, if any */
    double cost_per_packet;           /* seconds a packet of it took in RP (moving average;
                                         a job's weight with -jobweight cost) */

    sv_reliable reliable;             /* shared: see net/reliable.h */

    qw_usercmd lastcmd;
    double last_cmd_time;             /* sv time of the last command (playerinfo msec) */
    int delta_sequence;               /* clc_delta: frame to delta from, -1 = full */
    sv_client_frame frames[QW_UPDATE_BACKUP];
    int sent_stats[QW_MAX_CL_STATS];
    bool stats_valid;
    unsigned events_sent_frame;       /* last global event frame copied to this client */
    double ping_ms;                   /* smoothed round trip (measured in S by its worker) */
    int loss_reported;                /* packet loss % of its last move (RP, its worker) */
    int packet_loss;                  /* the same, copied in S: what others read in RP */
    int frags_announced;              /* frags everybody was last told (net/scoreboard.h) */
    int packets_this_frame;           /* accepted by the netchan in this frame's RP */
    int chokecount;                   /* of them, answered by the reply of a later one */

    /* download in progress */
    uint8_t *download;
    int download_size, download_pos;

    struct sv_replay_client *replay;  /* a virtual client of -replay, NULL for a network one */

    /* rate-limited logging of bad packets */
    double bad_log_time;
    int bad_suppressed;
    uint64_t commands_processed;
} sv_client;

typedef enum { WEAPON_AXE, WEAPON_SHOTGUN, WEAPON_ROCKET } sv_weapon;

/* Game state of one player (entity number slot + 1).
 *
 * Grouped by who writes a field during RP, each group on a cache line of its own, so that a
 * transaction reading one group does not conflict with another one writing a different group
 * of the same player (or of the next player: the whole struct is line-aligned). STMs detect
 * conflicts per stripe of memory (libtm: 32 bytes), not per field: before this grouping a
 * player's own clock (`time`, written first thing in each of its commands) shared a stripe
 * with `dead`, which every other command that shoots or spawns reads, and a player's
 * `spectator` flag shared one with the previous player's damage and random state. */
#define SV_PLAYER_GROUP _Alignas(64)
typedef struct sv_player {
    /* Who is in the game: read by other players' commands (damage, spawning, telefrags),
     * written when the player enters, dies, respawns or leaves. */
    SV_PLAYER_GROUP bool active;      /* in the game (after begin) */
    bool spectator;                   /* a spectator: flies through walls, seen by nobody,
                                         in no list of the areanode tree (active stays false) */
    bool dead;

    /* Where it is: written by its own moves, read by everybody's (scans of the areanode
     * tree, damage, spawning). */
    SV_PLAYER_GROUP qw_area_object link; /* in the areanode tree while alive */
    float origin[3], velocity[3];     /* velocity: also others' knockback */

    /* What others do to it: written by whoever hurts it. */
    SV_PLAYER_GROUP int health;
    int armor;
    float armortype;
    int dmg_take, dmg_save;           /* damage this frame, sent as svc_damage in S */
    float dmg_origin[3];
    double death_time;                /* on the player's clock */

    /* Its own: written and read by its own commands only. */
    SV_PLAYER_GROUP float angles[3];
    int onground, waterlevel, watertype, oldbuttons;
    float waterjumptime;
    int items;                        /* IT_* weapon bits (armour: armortype) */
    int shells, rockets;
    int weapon;                       /* IT_SHOTGUN, IT_ROCKET_LAUNCHER, IT_AXE */
    int frags;                        /* changed by its own commands (and rockets in U) */
    /* The player's own clock: the sum of its commands' durations (msec). Weapon refire and
     * the respawn delay run on it, so a command does the same game work whether the bots
     * send at 77 moves/s or as fast as the server answers (closed loop). */
    double time;
    double attack_finished;           /* on the player's clock */
    double air_finished;              /* drowning starts then (on the player's clock) */
    double pain_finished, liquid_hurt_time;  /* next drowning / slime or lava hurt */
    int drown_damage;
    int weaponframe;
    int frame;
    int effects;
    uint32_t random_state;            /* per-player generator (usable inside transactions) */
    bool setangle;                    /* force the view angles (spawn) in the next reply */
    bool relink_pending;              /* -sched lpt: moved or died in a job; its link in the
                                         areanode tree waits for the serial phase */
} sv_player;

typedef enum {
    ENT_FREE = 0, ENT_ITEM, ENT_ROCKET, ENT_BRUSH, ENT_TELEPORT,
    ENT_DOOR, ENT_PLAT, ENT_BUTTON,   /* movers: brush models that move in U (cgame/movers.c) */
    ENT_TRIGGER,                      /* an invisible box players touch (cgame/triggers.c) */
    ENT_RELAY                         /* fires its targets when fired, after a delay */
} sv_entity_kind;

/* Where a mover is: at pos1 (a door closed, a plat down, a button out), on its way to pos2,
 * at pos2, on its way back. */
typedef enum { MOVER_AT_POS1, MOVER_TO_POS2, MOVER_AT_POS2, MOVER_TO_POS1 } sv_mover_state;

typedef enum {
    ITEM_HEALTH, ITEM_HEALTH_MEGA, ITEM_ARMOR1, ITEM_ARMOR2, ITEM_ARMORINV, ITEM_SHELLS,
    ITEM_ROCKETS, ITEM_WEAPON_SHOTGUN, ITEM_WEAPON_ROCKET, ITEM_OTHER_WEAPON, ITEM_COUNT
} sv_item_type;

typedef struct sv_entity {
    sv_entity_kind kind;
    int number;
    qw_area_object link;
    float origin[3], angles[3], velocity[3];
    float mins[3], maxs[3];
    int modelindex, frame, skinnum, effects;
    bool visible;                     /* items: false while waiting to respawn */
    int item;                         /* sv_item_type */
    double respawn_time;
    int owner_slot;                   /* rockets */
    float dest_origin[3];             /* teleporters: where they send players, and the */
    float dest_yaw;                   /* direction players then face */
    double die_time;
    qw_entity_state baseline;

    /* movers (game/movers.c, doors.c, plats.c, buttons.c); written in U only */
    int move_state;                   /* sv_mover_state */
    float pos1[3], pos2[3];           /* the brush model's two rest positions (origins) */
    float speed;                      /* units per second */
    float wait;                       /* seconds at pos2 before going back (-1: stays) */
    double next_think;                /* sv.time when a wait ends (movers, triggers, relays) */
    int damage;                       /* to a player in its way */
    int spawnflags;
    int group;                        /* doors that open together: the first door's number */

    /* triggers and targets (game/triggers.c, targets.c) */
    int target, targetname;           /* name ids of the map's target/targetname (0 = none) */
    void (*use)(struct sv_entity *e); /* what firing its targetname does (U only; QuakeC's
                                         .use): set by the entity's own file at spawn */
    int activates;                    /* a door's or plat's trigger field: the mover's number */
    int count;                        /* trigger_counter: uses left before it fires */
    float delay;                      /* trigger_relay: seconds before it fires */
    bool once;                        /* trigger_once: fires one time */
    bool activated;                   /* RP: touched by a player since the last U (written
                                         inside CS_MOVE_COMMAND, under -sync region's movers
                                         lock); U acts on it */
} sv_entity;

/* One message of the global state buffer and who may receive it: clients whose leaf is in
 * the PHS (sounds, explosions: what can be heard) or the PVS (gunshots, blood: what can be
 * seen) of the leaf where it happened, or everybody (QuakeC's MULTICAST_ALL, MSG_BROADCAST,
 * sounds without attenuation). */
typedef enum { EVENT_HEARD, EVENT_SEEN, EVENT_ALL } sv_event_reach;
typedef struct sv_event {
    uint16_t offset, len;             /* bytes in the frame's data */
    int leaf;                         /* world leaf of its origin */
    uint8_t reach;                    /* sv_event_reach */
} sv_event;

#define SV_FRAME_EVENTS 128

/* Global events (temp entities, sounds) written during one frame, multicast in S. */
typedef struct sv_event_frame {
    unsigned frame;
    qw_sizebuf buf;
    uint8_t data[QW_MAX_MSGLEN];
    int count;
    sv_event events[SV_FRAME_EVENTS];
} sv_event_frame;

typedef struct sv_spawnpoint {
    float origin[3];
    float angle;
} sv_spawnpoint;

typedef struct sv_options {
    int port;
    const char *ip;
    const char *basedir;
    const char *game;                 /* -game DIR: where qwprogs.dat is looked for first */
    const char *progs;                /* -progs FILE: the QuakeC game ("none": the C game) */
    bool qc_shared_scratch;           /* -qcsharedscratch: QuakeC's per-shot scratch globals
                                         stay shared (qcgame/calls.c) */
    const char *qc_functions;         /* -qcfunctions FILE: every QuakeC function and how
                                         often it ran, written on exit */
    const char *map;
    int threads;
    sv_sync_mode sync;
    int sched;                        /* sv_sched_mode (sched/sched.h) */
    int job_weight;                   /* sv_job_weight (sched/jobs.h) */
    const char *frame_csv;            /* -framecsv FILE, NULL = none */
    int maxclients;                   /* players (cvar maxclients) */
    int maxspectators;                /* spectators (cvar maxspectators) */
    double stats_interval;
    bool waitall;
    bool no_steal;                    /* -nosteal: each worker serves only its own clients */
    bool handover;                    /* -handover: RP's rest to the thread that runs alone */
    double quit_after;                /* -quitafter: seconds until the server stops (0 = never) */
    const char *logfile;              /* -logfile FILE, NULL = none */
    const char *replay;               /* -replay TRACE, NULL = none (net/replay.h) */
    int replay_clients;               /* -replayclients N, 0 = the trace's bots */
    double replay_speed;              /* -replayspeed F, 0 = closed loop */
    double client_timeout;            /* seconds of silence before a client is dropped */
    int fraglimit;
} sv_options;

typedef struct sv_server {
    sv_options opt;
    int sock;
    double realtime;                  /* seconds since start (wall clock) */
    double time;                      /* game time */
    double game_clock;                /* the clock physics runs by: realtime's, or the
                                       * replayed moves' (sv_replay_game_seconds) */
    double last_frame;                /* realtime of the last U */
    double last_physics;              /* game_clock of the last physics step */
    unsigned framenum;
    int spawncount;
    char mapname[64];
    char mappath[512];
    uint8_t *mapfile;
    size_t mapfile_len;
    uint32_t bsp_checksum, bsp_checksum2;
    qw_bsp *bsp;
    qw_pvs *pvs;
    qw_area area;
    qw_movevars movevars;
    bool have_chktbl;
    qw_chktbl chktbl;
    char serverinfo[QW_MAX_SERVERINFO_STRING];

    int num_models;
    char model_names[QW_MAX_MODELS][64];
    int num_sounds;
    char sound_names[QW_MAX_SOUNDS][64];
    int model_v_axe, model_v_shot, model_v_rock;
    int model_player, model_eyes, model_missile, model_armor, model_g_rock, model_g_shot;
    int model_item[ITEM_COUNT];
    int sound_item, sound_rocket_fire, sound_explode, sound_shotgun, sound_pain,
        sound_death, sound_gib, sound_door_move, sound_door_stop, sound_plat_move,
        sound_plat_stop, sound_button;

    sv_client clients[SV_MAX_CLIENTS];
    sv_player players[SV_MAX_CLIENTS];
    sv_entity entities[SV_MAX_ENTITIES];
    int num_entities;                 /* highest entity number in use + 1 */
    sv_spawnpoint spawnpoints[64];
    int num_spawnpoints;
    int spawn_rotation;

    /* sign-on data (static entities, baselines), split in chunks sent by "prespawn" */
    int num_signon_chunks;
    uint16_t signon_len[32];
    uint8_t signon_data[32][1200];
    char level_title[64];

    /* [frame % SV_EVENT_FRAMES][part]: part 0 holds what U, the serial phase and (with
     * -sched static) every critical section write; with -sched lpt each worker's jobs write
     * the worker's own part during RP (net/events.c) */
    sv_event_frame events[SV_EVENT_FRAMES][SV_MAX_THREADS];
    int next_userid;
    int next_worker;
    unsigned challenge_seed;
    /* one per address that asked recently: room for every slot connecting at once */
    struct { struct sockaddr_in addr; int challenge; double time; } challenges[2 * SV_MAX_CLIENTS];
} sv_server;

extern sv_server sv;

/* A worker's request that the master drop one of its clients at the next U (only the master
 * frees slots: sv_client_free in net/client.h, which also takes the player out of the game).
 * The first reason given is kept; later ones are ignored. */
static inline void sv_client_request_drop(sv_client *cl, const char *reason)
{
    if (!cl->drop_requested) {
        cl->drop_requested = true;
        qw_strlcpy(cl->drop_reason, reason, sizeof cl->drop_reason);
    }
}

/* The entity number of player `slot` in sounds: slot + 1, as in QuakeWorld; a big slot has
 * none, its sounds come from the world (entity 0) at the player's place. */
LIBTM_SAFE static inline int sv_player_entnum(int slot)
{
    return slot < QW_MAX_CLIENTS ? slot + 1 : 0;
}

/* The player whose link object this is, or NULL (the world, an entity). */
LIBTM_SAFE static inline sv_player *sv_player_for_object(const qw_area_object *obj)
{
    /* by its address alone (nothing of obj is read): the players' links lie in one array */
    uintptr_t first = (uintptr_t)&sv.players[0].link, at = (uintptr_t)obj;
    if (!obj || at < first)
        return NULL;
    uintptr_t i = (at - first) / sizeof(sv_player);
    return i < SV_MAX_CLIENTS && &sv.players[i].link == obj ? &sv.players[i] : NULL;
}

/* Index of the calling thread (0 = master). */
extern __thread int sv_thread_index;

#endif
