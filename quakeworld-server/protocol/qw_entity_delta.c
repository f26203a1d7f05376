/* packetentities delta coding (see qw_entity_delta.h). */
#include "qw_entity_delta.h"

#include <string.h>

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

bool qw_entity_delta_read_fields(qw_msgreader *r, int word, qw_entity_delta *d)
{
    int bits = word & ~511 & 0xffff;
    memset(d, 0, sizeof *d);
    d->number = word & 511;
    d->remove = (bits & U_REMOVE) != 0;
    if (d->remove) {
        d->bits = bits;
        return true;
    }
    if (bits & U_MOREBITS) {
        int more = qw_read_byte(r);
        if (r->bad)
            return false;
        bits |= more;
    }
    d->bits = bits;
    qw_entity_state *f = &d->fields;
    if (bits & U_MODEL)
        f->modelindex = qw_read_byte(r);
    if (bits & U_FRAME)
        f->frame = qw_read_byte(r);
    if (bits & U_COLORMAP)
        f->colormap = qw_read_byte(r);
    if (bits & U_SKIN)
        f->skinnum = qw_read_byte(r);
    if (bits & U_EFFECTS)
        f->effects = qw_read_byte(r);
    if (bits & U_ORIGIN1)
        f->origin[0] = qw_read_coord(r);
    if (bits & U_ANGLE1)
        f->angles[0] = qw_read_angle8(r);
    if (bits & U_ORIGIN2)
        f->origin[1] = qw_read_coord(r);
    if (bits & U_ANGLE2)
        f->angles[1] = qw_read_angle8(r);
    if (bits & U_ORIGIN3)
        f->origin[2] = qw_read_coord(r);
    if (bits & U_ANGLE3)
        f->angles[2] = qw_read_angle8(r);
    return !r->bad;
}

void qw_entity_delta_apply(const qw_entity_state *from, const qw_entity_delta *d,
                           qw_entity_state *to)
{
    const qw_entity_state *f = &d->fields;
    int bits = d->bits;
    *to = *from;
    to->number = d->number;
    to->flags = bits & U_SOLID;
    if (bits & U_MODEL)
        to->modelindex = f->modelindex;
    if (bits & U_FRAME)
        to->frame = f->frame;
    if (bits & U_COLORMAP)
        to->colormap = f->colormap;
    if (bits & U_SKIN)
        to->skinnum = f->skinnum;
    if (bits & U_EFFECTS)
        to->effects = f->effects;
    for (int k = 0; k < 3; k++) {
        if (bits & (k == 0 ? U_ORIGIN1 : k == 1 ? U_ORIGIN2 : U_ORIGIN3))
            to->origin[k] = f->origin[k];
        if (bits & (k == 0 ? U_ANGLE1 : k == 1 ? U_ANGLE2 : U_ANGLE3))
            to->angles[k] = f->angles[k];
    }
}

bool qw_entity_delta_read(qw_msgreader *r, int word, const qw_entity_state *from,
                          qw_entity_state *to)
{
    qw_entity_delta d;
    if (!qw_entity_delta_read_fields(r, word & ~U_REMOVE, &d))
        return false;
    qw_entity_delta_apply(from, &d, to);
    return true;
}
