/* QuakeWorld protocol 28: the constants both ends of the wire agree on.
 * Facts from shared/docs/quakeworld.md (restated from the public GPL sources, not copied).
 * Everything in libqwproto is compiled with -fgnu-tm: functions marked LIBTM_SAFE have
 * transactional clones, so programs linking libqwproto.a also link -litm
 * ($(LIBTM_LDFLAGS) -litm, or plain -litm for GCC's libitm). */
#ifndef QW_PROTOCOL_H
#define QW_PROTOCOL_H

/* LIBTM_SAFE marks functions callable inside __transaction_atomic blocks (harmless without
 * -fgnu-tm). */
#include <libtm.h>

#define QW_PROTOCOL_VERSION 28
#define QW_PORT_SERVER 27500
#define QW_PORT_CLIENT 27001
#define QW_PORT_MASTER 27000

#define QW_MAX_MSGLEN 1450        /* largest payload of one packet (reliable + unreliable) */
#define QW_MAX_DATAGRAM 1450
#define QW_PACKET_HEADER 8        /* two 32-bit sequence words (+2 qport from clients) */
#define QW_MAX_PACKET (QW_MAX_MSGLEN + 10)
#define QW_UPDATE_BACKUP 64       /* frames kept per client for entity delta compression */
#define QW_UPDATE_MASK (QW_UPDATE_BACKUP - 1)
#define QW_MAX_CLIENTS 32
#define QW_MAX_EDICTS 768
#define QW_MAX_PACKET_ENTITIES 64 /* entities in one packetentities message */
#define QW_MAX_MODELS 256
#define QW_MAX_SOUNDS 256
#define QW_MAX_LIGHTSTYLES 64
#define QW_MAX_CL_STATS 32
#define QW_MAX_INFO_STRING 196    /* userinfo */
#define QW_MAX_SERVERINFO_STRING 512
#define QW_MAX_INFO_KEY 64
#define QW_MAX_STRINGCMD 1024     /* longest string accepted from a client */
#define QW_DOWNLOAD_CHUNK 768     /* bytes of file per svc_download message */

/* Connectionless packets start with these 4 bytes (sequence word -1). */
#define QW_CONNECTIONLESS_PREFIX "\xff\xff\xff\xff"

/* Connectionless reply letters */
#define QW_S2C_CHALLENGE 'c'
#define QW_S2C_CONNECTION 'j'
#define QW_A2A_PRINT 'n'
#define QW_A2A_ACK 'l'            /* reply to "ping": a bare single byte, no prefix */
#define QW_A2A_PING 'k'

/* server -> client messages */
enum {
    svc_bad = 0, svc_nop = 1, svc_disconnect = 2, svc_updatestat = 3, svc_version = 4,
    svc_setview = 5, svc_sound = 6, svc_time = 7, svc_print = 8, svc_stufftext = 9,
    svc_setangle = 10, svc_serverdata = 11, svc_lightstyle = 12, svc_updatename = 13,
    svc_updatefrags = 14, svc_clientdata = 15, svc_stopsound = 16, svc_updatecolors = 17,
    svc_particle = 18, svc_damage = 19, svc_spawnstatic = 20, svc_spawnbinary = 21,
    svc_spawnbaseline = 22, svc_temp_entity = 23, svc_setpause = 24, svc_signonnum = 25,
    svc_centerprint = 26, svc_killedmonster = 27, svc_foundsecret = 28,
    svc_spawnstaticsound = 29, svc_intermission = 30, svc_finale = 31, svc_cdtrack = 32,
    svc_sellscreen = 33, svc_smallkick = 34, svc_bigkick = 35, svc_updateping = 36,
    svc_updateentertime = 37, svc_updatestatlong = 38, svc_muzzleflash = 39,
    svc_updateuserinfo = 40, svc_download = 41, svc_playerinfo = 42, svc_nails = 43,
    svc_chokecount = 44, svc_modellist = 45, svc_soundlist = 46, svc_packetentities = 47,
    svc_deltapacketentities = 48, svc_maxspeed = 49, svc_entgravity = 50, svc_setinfo = 51,
    svc_serverinfo = 52, svc_updatepl = 53, svc_nails2 = 54
};

/* client -> server messages */
enum { clc_bad = 0, clc_nop = 1, clc_move = 3, clc_stringcmd = 4, clc_delta = 5,
       clc_tmove = 6, clc_upload = 7 };

/* svc_playerinfo flag bits */
#define PF_MSEC (1 << 0)
#define PF_COMMAND (1 << 1)
#define PF_VELOCITY1 (1 << 2)
#define PF_VELOCITY2 (1 << 3)
#define PF_VELOCITY3 (1 << 4)
#define PF_MODEL (1 << 5)
#define PF_SKINNUM (1 << 6)
#define PF_EFFECTS (1 << 7)
#define PF_WEAPONFRAME (1 << 8)   /* only sent to the player itself */
#define PF_DEAD (1 << 9)
#define PF_GIB (1 << 10)
#define PF_NOGRAV (1 << 11)       /* id QW meaning; ZQuake reuses bits 11-13 as pm_type */

/* packetentities: low 9 bits of the first word are the entity number */
#define U_ORIGIN1 (1 << 9)
#define U_ORIGIN2 (1 << 10)
#define U_ORIGIN3 (1 << 11)
#define U_ANGLE2 (1 << 12)
#define U_FRAME (1 << 13)
#define U_REMOVE (1 << 14)
#define U_MOREBITS (1 << 15)
/* second (optional) byte */
#define U_ANGLE1 (1 << 0)
#define U_ANGLE3 (1 << 1)
#define U_MODEL (1 << 2)
#define U_COLORMAP (1 << 3)
#define U_SKIN (1 << 4)
#define U_EFFECTS (1 << 5)
#define U_SOLID (1 << 6)

/* usercmd delta bits */
#define CM_ANGLE1 (1 << 0)
#define CM_ANGLE3 (1 << 1)
#define CM_FORWARD (1 << 2)
#define CM_SIDE (1 << 3)
#define CM_UP (1 << 4)
#define CM_BUTTONS (1 << 5)
#define CM_IMPULSE (1 << 6)
#define CM_ANGLE2 (1 << 7)

/* usercmd buttons */
#define QW_BUTTON_ATTACK 1
#define QW_BUTTON_JUMP 2
#define QW_BUTTON_USE 4

/* svc_updatestat indexes */
enum {
    STAT_HEALTH = 0, STAT_FRAGS = 1, STAT_WEAPON = 2, STAT_AMMO = 3, STAT_ARMOR = 4,
    STAT_WEAPONFRAME = 5, STAT_SHELLS = 6, STAT_NAILS = 7, STAT_ROCKETS = 8, STAT_CELLS = 9,
    STAT_ACTIVEWEAPON = 10, STAT_TOTALSECRETS = 11, STAT_TOTALMONSTERS = 12,
    STAT_SECRETS = 13, STAT_MONSTERS = 14, STAT_ITEMS = 15, STAT_VIEWHEIGHT = 16
};

/* item bits (STAT_ITEMS) */
#define IT_SHOTGUN 1
#define IT_SUPER_SHOTGUN 2
#define IT_NAILGUN 4
#define IT_SUPER_NAILGUN 8
#define IT_GRENADE_LAUNCHER 16
#define IT_ROCKET_LAUNCHER 32
#define IT_LIGHTNING 64
#define IT_SHELLS 256
#define IT_NAILS 512
#define IT_ROCKETS 1024
#define IT_CELLS 2048
#define IT_AXE 4096
#define IT_ARMOR1 8192
#define IT_ARMOR2 16384
#define IT_ARMOR3 32768

/* svc_print levels */
enum { PRINT_LOW = 0, PRINT_MEDIUM = 1, PRINT_HIGH = 2, PRINT_CHAT = 3 };

/* svc_temp_entity types */
enum {
    TE_SPIKE = 0, TE_SUPERSPIKE = 1, TE_GUNSHOT = 2, TE_EXPLOSION = 3, TE_TAREXPLOSION = 4,
    TE_LIGHTNING1 = 5, TE_LIGHTNING2 = 6, TE_WIZSPIKE = 7, TE_KNIGHTSPIKE = 8,
    TE_LIGHTNING3 = 9, TE_LAVASPLASH = 10, TE_TELEPORT = 11, TE_BLOOD = 12,
    TE_LIGHTNINGBLOOD = 13
};

/* svc_sound field bits (in the 16-bit channel word) */
#define SND_VOLUME (1 << 15)
#define SND_ATTENUATION (1 << 14)

/* entity effects */
#define EF_BRIGHTFIELD 1
#define EF_MUZZLEFLASH 2
#define EF_BRIGHTLIGHT 4
#define EF_DIMLIGHT 8

#endif
