/* svc_playerinfo: byte slot, int16 flags (PF_*), 3 coords origin, byte frame, then if flagged:
 * msec byte (PF_MSEC), usercmd delta from zero (PF_COMMAND), int16 velocity per axis
 * (PF_VELOCITY1..3), model byte (PF_MODEL), skin byte (PF_SKINNUM), effects byte (PF_EFFECTS),
 * weaponframe byte (PF_WEAPONFRAME). The message id (svc_playerinfo) is written/read by the
 * caller's message loop, not here. */
#ifndef QW_PLAYERINFO_H
#define QW_PLAYERINFO_H

#include <stdbool.h>
#include "qw_usercmd.h"

typedef struct qw_playerinfo {
    int slot;
    int flags;            /* filled by write (computed) and by read (as received) */
    float origin[3];
    int frame;
    int msec;             /* how stale the state is, ms */
    qw_usercmd command;   /* last command (others' view angles and moves) */
    float velocity[3];
    int modelindex;
    int skinnum;
    int effects;
    int weaponframe;
    bool dead;
    bool gib;
} qw_playerinfo;

/* Writes svc_playerinfo + fields. `to_self` omits msec/command and adds the weapon frame;
 * `player_modelindex` is the model the client assumes (progs/player.mdl), other models
 * are sent explicitly. */
LIBTM_SAFE void qw_playerinfo_write(qw_sizebuf *sb, const qw_playerinfo *pi, bool to_self,
                                    int player_modelindex);
/* Reads the fields after the svc_playerinfo byte. False on truncation. */
bool qw_playerinfo_read(qw_msgreader *r, qw_playerinfo *pi);

#endif
