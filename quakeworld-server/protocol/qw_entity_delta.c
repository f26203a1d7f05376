/* packetentities delta coding (see qw_entity_delta.h). */
#include "qw_entity_delta.h"

LIBTM_SAFE void qw_entity_delta_write(qw_sizebuf *sb, const qw_entity_state *from,
                           const qw_entity_state *to, bool force)
{
    int bits = 0;
    for (int i = 0; i < 3; i++) {
        float miss = to->origin[i] - from->origin[i];
        if (miss < -0.1f || miss > 0.1f)
            bits |= U_ORIGIN1 << i;
    }
    if (to->angles[0] != from->angles[0])
        bits |= U_ANGLE1;
    if (to->angles[1] != from->angles[1])
        bits |= U_ANGLE2;
    if (to->angles[2] != from->angles[2])
        bits |= U_ANGLE3;
    if (to->colormap != from->colormap)
        bits |= U_COLORMAP;
    if (to->skinnum != from->skinnum)
        bits |= U_SKIN;
    if (to->frame != from->frame)
        bits |= U_FRAME;
    if (to->effects != from->effects)
        bits |= U_EFFECTS;
    if (to->modelindex != from->modelindex)
        bits |= U_MODEL;
    if (bits & 511)
        bits |= U_MOREBITS;
    if (to->flags & U_SOLID)
        bits |= U_SOLID;
    if (!bits && !force)
        return;

    qw_write_short(sb, (to->number & 511) | (bits & ~511));
    if (bits & U_MOREBITS)
        qw_write_byte(sb, bits & 255);
    if (bits & U_MODEL)
        qw_write_byte(sb, to->modelindex);
    if (bits & U_FRAME)
        qw_write_byte(sb, to->frame);
    if (bits & U_COLORMAP)
        qw_write_byte(sb, to->colormap);
    if (bits & U_SKIN)
        qw_write_byte(sb, to->skinnum);
    if (bits & U_EFFECTS)
        qw_write_byte(sb, to->effects);
    if (bits & U_ORIGIN1)
        qw_write_coord(sb, to->origin[0]);
    if (bits & U_ANGLE1)
        qw_write_angle8(sb, to->angles[0]);
    if (bits & U_ORIGIN2)
        qw_write_coord(sb, to->origin[1]);
    if (bits & U_ANGLE2)
        qw_write_angle8(sb, to->angles[1]);
    if (bits & U_ORIGIN3)
        qw_write_coord(sb, to->origin[2]);
    if (bits & U_ANGLE3)
        qw_write_angle8(sb, to->angles[2]);
}

LIBTM_SAFE void qw_entity_delta_write_remove(qw_sizebuf *sb, int number)
{
    qw_write_short(sb, (number & 511) | U_REMOVE);
}

bool qw_entity_delta_read(qw_msgreader *r, int word, const qw_entity_state *from,
                          qw_entity_state *to)
{
    int bits = word & ~511 & 0xffff;
    *to = *from;
    to->number = word & 511;
    if (bits & U_MOREBITS) {
        int more = qw_read_byte(r);
        if (r->bad)
            return false;
        bits |= more;
    }
    to->flags = bits & U_SOLID;
    if (bits & U_MODEL)
        to->modelindex = qw_read_byte(r);
    if (bits & U_FRAME)
        to->frame = qw_read_byte(r);
    if (bits & U_COLORMAP)
        to->colormap = qw_read_byte(r);
    if (bits & U_SKIN)
        to->skinnum = qw_read_byte(r);
    if (bits & U_EFFECTS)
        to->effects = qw_read_byte(r);
    if (bits & U_ORIGIN1)
        to->origin[0] = qw_read_coord(r);
    if (bits & U_ANGLE1)
        to->angles[0] = qw_read_angle8(r);
    if (bits & U_ORIGIN2)
        to->origin[1] = qw_read_coord(r);
    if (bits & U_ANGLE2)
        to->angles[1] = qw_read_angle8(r);
    if (bits & U_ORIGIN3)
        to->origin[2] = qw_read_coord(r);
    if (bits & U_ANGLE3)
        to->angles[2] = qw_read_angle8(r);
    return !r->bad;
}
