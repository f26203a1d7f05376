/* Reading what a server sends: qw_svc_walk goes through the messages (svc_*) of protocol 28 in
 * a sequenced packet's payload, decodes each and hands it to a callback. It is the one walker
 * of server messages that the clients share (qwbot, the server tests' qwclient): each keeps
 * only what it does with a message. A message reaches the callback only when it was read
 * whole; its strings and bytes point into the payload (valid during the call). */
#ifndef QW_SVC_H
#define QW_SVC_H

#include <stdbool.h>
#include <stdint.h>

#include "qw_entity_delta.h"
#include "qw_msg.h"
#include "qw_playerinfo.h"

/* The longest string a message may hold, NUL included (a client's MSG_ReadString buffer). */
#define QW_SVC_MAX_STRING 2048

/* The entries of an svc_packetentities or svc_deltapacketentities, checked whole before the
 * callback sees them; qw_svc_next_entity steps through them. */
typedef struct qw_svc_entities {
    int from;                   /* the frame a delta list is coded against; -1: none */
    qw_msgreader entries;
} qw_svc_entities;

/* One decoded message; `id` says which member holds it. Messages without fields (nop,
 * disconnect, killedmonster, foundsecret, sellscreen, smallkick, bigkick) use none. */
typedef struct qw_svc {
    int id;                     /* svc_* */
    union {
        struct {                /* serverdata; only protocol is read when it is not 28 */
            int32_t protocol, spawncount;
            const char *gamedir;
            int slot;           /* its bit 7 marks a spectator (or a slot from 128 on) */
            const char *level;
            float movevars[10];
        } serverdata;
        struct { int level; const char *text; } print;
        const char *text;       /* stufftext, centerprint, finale */
        struct { int stat; int32_t value; } stat;        /* updatestat, updatestatlong */
        struct { int slot; int value; } player;          /* updatefrags, updateping, updatepl */
        struct { int slot; float seconds; } entertime;   /* updateentertime */
        struct { int slot; int32_t userid; const char *info; } userinfo;
        struct { int slot; const char *key, *value; } setinfo;
        struct { const char *key, *value; } serverinfo;
        struct { int style; const char *map; } lightstyle;
        struct {                /* soundlist, modellist: count names back to back */
            int start, count, next;
            const char *names;
        } list;
        struct {
            int channel, entity, volume, attenuation, sound;
            float origin[3];
        } sound;
        struct { int type, entity, count; float start[3], end[3]; } temp_entity;
        struct { int armor, blood; float from[3]; } damage;
        struct { int size, percent; const uint8_t *data; } download;
        qw_entity_state entity; /* spawnbaseline, spawnstatic (number 0) */
        qw_playerinfo playerinfo;
        qw_svc_entities entities;
        float angles[3];        /* setangle */
        float value;            /* maxspeed, entgravity */
        int byte;               /* setpause, cdtrack, chokecount, nails and nails2's count */
        int entity_number;      /* stopsound (its channel too), muzzleflash */
        struct { float origin[3]; int sound, volume, attenuation; } static_sound;
        struct { float origin[3], angles[3]; } intermission;
    } u;
} qw_svc;

/* Returns false to stop the walk. */
typedef bool (*qw_svc_handler)(void *ctx, const qw_svc *message);

typedef enum qw_svc_result {
    QW_SVC_END,       /* every message was read and handed over */
    QW_SVC_STOPPED,   /* the handler stopped the walk */
    QW_SVC_BAD,       /* a message runs past the payload or cannot be read (a string without
                         its NUL or too long, an unknown temp entity, a bad entity list) */
    QW_SVC_UNKNOWN,   /* an id that protocol 28 has no message for */
    QW_SVC_PROTOCOL,  /* svc_serverdata of another protocol, handed over with its number
                         alone: what follows cannot be read */
} qw_svc_result;

/* Hands every message of r to fn(ctx, message) in order. *id (may be NULL) is the id of the
 * message the walk stopped at (-1 at QW_SVC_END). */
qw_svc_result qw_svc_walk(qw_msgreader *r, qw_svc_handler fn, void *ctx, int *id);

/* The next entry of an entity list (checked: it cannot fail); false after the last one. */
bool qw_svc_next_entity(qw_svc_entities *list, qw_entity_delta *entry);

#endif
