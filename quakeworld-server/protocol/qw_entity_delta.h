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

/* Reads the fields of one delta whose 16-bit `word` was already read (and is not 0 and has
 * no U_REMOVE): to = from + changes, to->number = word & 511. False on truncation. */
bool qw_entity_delta_read(qw_msgreader *r, int word, const qw_entity_state *from,
                          qw_entity_state *to);

#endif
