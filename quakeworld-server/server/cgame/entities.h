/* Non-player entities: entity numbers, freeing, linking into the areanode tree, the brush
 * entities of the map, and the player behind a linked object. */
#ifndef SV_CGAME_ENTITIES_H
#define SV_CGAME_ENTITIES_H

#include "server.h"

/* A free entity (its number not reused for half a second after it was freed, so clients do
 * not blend the old entity into the new one), or NULL when all are in use. */
LIBTM_SAFE sv_entity *sv_entity_alloc(sv_entity_kind kind);
LIBTM_SAFE void sv_entity_free(sv_entity *e);
/* Links the entity's link object with its origin and box (copied from the entity). */
LIBTM_SAFE void sv_entity_link(sv_entity *e, int solid);
/* An invisible box that players touch (a trigger): kind, the box in world coordinates,
 * linked; NULL when out of entities. */
sv_entity *sv_entity_spawn_trigger(sv_entity_kind kind, const float mins[3], const float maxs[3]);
/* The same for a brush model's box (a map's trigger_* entities); NULL if it has none. */
sv_entity *sv_entity_spawn_model_trigger(sv_entity_kind kind, int submodel);

#endif
