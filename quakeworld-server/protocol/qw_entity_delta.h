/* Entity states in svc_packetentities / svc_deltapacketentities.
 * One delta: int16 word = entity number (low 9 bits) | U_ORIGIN1..U_MOREBITS, then if
 * U_MOREBITS a byte of U_ANGLE1..U_SOLID, then the flagged fields in the order model, frame,
 * colormap, skin, effects (bytes), origin x, angle x, origin y, angle y, origin z, angle z
 * (coord, angle8). A word with U_REMOVE carries no fields; word 0 ends the list. */
#ifndef QW_ENTITY_DELTA_H
#define QW_ENTITY_DELTA_H

#include <stdbool.h>
#include "qw_msg.h"

typedef struct qw_entity_state {
    int number;        /* entity number, 1..511 on the wire */
    int flags;         /* U_SOLID when the entity should be predicted as solid */
    float origin[3];
    float angles[3];
    int modelindex;
    int frame;
    int colormap;
    int skinnum;
    int effects;
} qw_entity_state;

/* Writes the delta from `from` to `to` (to->number is sent). Nothing is written when nothing
 * changed unless `force` (new entities must always be sent). */
LIBTM_SAFE void qw_entity_delta_write(qw_sizebuf *sb, const qw_entity_state *from,
                                      const qw_entity_state *to, bool force);
/* Writes the removal of entity `number`. */
LIBTM_SAFE void qw_entity_delta_write_remove(qw_sizebuf *sb, int number);

/* One entry of an entity list as it stands on the wire, before a base is known: the
 * entity, whether it is removed, which fields it changes (bits: the U_* of the word and of
 * the optional second byte) and their new values (in `fields`, the others zero). */
typedef struct qw_entity_delta {
    int number;
    bool remove;
    int bits;
    qw_entity_state fields;
} qw_entity_delta;

/* Reads the rest of the entry whose 16-bit `word` (not 0) was already read. False on
 * truncation. */
bool qw_entity_delta_read_fields(qw_msgreader *r, int word, qw_entity_delta *d);
/* to = from with the delta's changes (to->number the delta's; not for a removal). */
void qw_entity_delta_apply(const qw_entity_state *from, const qw_entity_delta *d,
                           qw_entity_state *to);
/* Both: reads the fields of one delta whose `word` was already read (and is not 0 and has
 * no U_REMOVE): to = from + changes, to->number = word & 511. False on truncation. */
bool qw_entity_delta_read(qw_msgreader *r, int word, const qw_entity_state *from,
                          qw_entity_state *to);

#endif
