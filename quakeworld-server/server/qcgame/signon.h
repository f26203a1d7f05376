/* The QuakeC game's sign-on: what QuakeC writes while the map spawns (MSG_INIT, makestatic,
 * ambientsound) and the baselines, kept whole, then cut into the chunks "prespawn" sends, at
 * message boundaries. Serial (map load). */
#ifndef SV_QCGAME_SIGNON_H
#define SV_QCGAME_SIGNON_H

#include <stddef.h>
#include <stdint.h>

#include <libtm.h>

/* A new map's sign-on starts empty. */
void qcg_signon_begin(void);
/* Appends to the sign-on (the rest is dropped when it is full, as an overflowing one). */
LIBTM_SAFE void qcg_signon_write(const void *data, size_t len);
/* A message ends here: a chunk may be cut after it. */
void qcg_signon_mark_end(void);
/* Cuts the sign-on into sv.signon_data's chunks. */
void qcg_signon_cut(void);

#endif
