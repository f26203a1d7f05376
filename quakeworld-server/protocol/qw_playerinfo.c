/* svc_playerinfo coding (see qw_playerinfo.h). */
#include "qw_playerinfo.h"

#include <string.h>

LIBTM_SAFE void qw_playerinfo_write(qw_sizebuf *sb, const qw_playerinfo *pi, bool to_self,
                         int player_modelindex)
{
    static const qw_usercmd nullcmd;
    int flags = PF_MSEC | PF_COMMAND;
    if (pi->modelindex != player_modelindex)
        flags |= PF_MODEL;
    for (int i = 0; i < 3; i++)
        if (pi->velocity[i] != 0.0f)
            flags |= PF_VELOCITY1 << i;
    if (pi->effects)
        flags |= PF_EFFECTS;
    if (pi->skinnum)
        flags |= PF_SKINNUM;
    if (pi->dead)
        flags |= PF_DEAD;
    if (pi->gib)
        flags |= PF_GIB;
    if (to_self) {
        flags &= ~(PF_MSEC | PF_COMMAND);
        if (pi->weaponframe)
            flags |= PF_WEAPONFRAME;
    }

    qw_write_byte(sb, svc_playerinfo);
    qw_write_byte(sb, pi->slot);
    qw_write_short(sb, flags);
    for (int i = 0; i < 3; i++)
        qw_write_coord(sb, pi->origin[i]);
    qw_write_byte(sb, pi->frame);
    if (flags & PF_MSEC)
        qw_write_byte(sb, pi->msec < 0 ? 0 : pi->msec > 255 ? 255 : pi->msec);
    if (flags & PF_COMMAND)
        qw_usercmd_write_delta(sb, &nullcmd, &pi->command);
    for (int i = 0; i < 3; i++)
        if (flags & (PF_VELOCITY1 << i))
            qw_write_short(sb, (int)pi->velocity[i]);
    if (flags & PF_MODEL)
        qw_write_byte(sb, pi->modelindex);
    if (flags & PF_SKINNUM)
        qw_write_byte(sb, pi->skinnum);
    if (flags & PF_EFFECTS)
        qw_write_byte(sb, pi->effects);
    if (flags & PF_WEAPONFRAME)
        qw_write_byte(sb, pi->weaponframe);
}

bool qw_playerinfo_read(qw_msgreader *r, qw_playerinfo *pi)
{
    static const qw_usercmd nullcmd;
    memset(pi, 0, sizeof *pi);
    pi->slot = qw_read_byte(r);
    pi->flags = qw_read_short(r) & 0xffff;
    for (int i = 0; i < 3; i++)
        pi->origin[i] = qw_read_coord(r);
    pi->frame = qw_read_byte(r);
    if (r->bad)
        return false;
    if (pi->flags & PF_MSEC)
        pi->msec = qw_read_byte(r);
    if (pi->flags & PF_COMMAND)
        qw_usercmd_read_delta(r, &nullcmd, &pi->command);
    for (int i = 0; i < 3; i++)
        if (pi->flags & (PF_VELOCITY1 << i))
            pi->velocity[i] = (float)qw_read_short(r);
    if (pi->flags & PF_MODEL)
        pi->modelindex = qw_read_byte(r);
    if (pi->flags & PF_SKINNUM)
        pi->skinnum = qw_read_byte(r);
    if (pi->flags & PF_EFFECTS)
        pi->effects = qw_read_byte(r);
    if (pi->flags & PF_WEAPONFRAME)
        pi->weaponframe = qw_read_byte(r);
    pi->dead = (pi->flags & PF_DEAD) != 0;
    pi->gib = (pi->flags & PF_GIB) != 0;
    return !r->bad;
}
