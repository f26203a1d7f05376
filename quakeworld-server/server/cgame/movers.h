/* Movers: brush models that slide between two rest positions in U (QuakeC's SUB_CalcMove with
 * the engine's SV_PushMove): doors, plats and buttons build on this. Players standing on a
 * mover or caught by it are carried along; one that cannot be moved out of the way blocks
 * the mover, whose own rule then decides (hurt, turn back). */
#ifndef SV_CGAME_MOVERS_H
#define SV_CGAME_MOVERS_H

#include "server.h"

/* Map load: a mover entity for brush model `submodel`, solid, at rest at pos1 = its place in
 * the map; the caller sets pos2, speed and the rest. NULL when out of entities. */
sv_entity *sv_mover_spawn(sv_entity_kind kind, int submodel, const qw_entity_fields *f);
/* The direction of a map entity's "angle" (-1 up, -2 down, else a yaw). */
void sv_mover_direction(const qw_entity_fields *f, float dir[3]);
/* Doors and buttons: pos2 = pos1 moved along the entity's "angle" by the model's size that
 * way less "lip" (default_lip when the map gives none). */
void sv_mover_set_travel(sv_entity *e, const qw_entity_fields *f, float default_lip);
/* Puts a mover at rest somewhere else (map load: plats that start down, doors that start
 * open). */
void sv_mover_place(sv_entity *e, const float origin[3]);

/* Sets off toward pos2 or pos1, with `sound` at the mover's centre (0: silent). */
void sv_mover_go(sv_entity *e, bool to_pos2, int sound);

typedef enum { MOVER_RESTS, MOVER_MOVED, MOVER_ARRIVED, MOVER_BLOCKED } sv_mover_step;
/* U: moves e by dt toward its destination, carrying players. MOVER_BLOCKED (nothing moved)
 * names the player in the way in *blocker. */
sv_mover_step sv_mover_advance(sv_entity *e, double dt, int *blocker);
/* The middle of a mover's box where it is now (for sounds). */
void sv_mover_centre(const sv_entity *e, float out[3]);

/* The think of a mover that crushes (doors, plats), after the rules of its kind. U, per
 * frame: sv_mover_advance, then on arrival stop_sound at its centre and, at the end
 * waits_at, a wait of e->wait seconds; blocked, e->damage to the player in the way
 * (DMG_CRUSH) and, when turns_back allows (NULL: always), back the way it came; at rest,
 * rests() decides whether it sets off. */
typedef struct sv_crusher_rules {
    sv_mover_state waits_at;
    bool (*turns_back)(const sv_entity *e);
    void (*rests)(sv_entity *e);
} sv_crusher_rules;
void sv_mover_think_crusher(sv_entity *e, double dt, int stop_sound,
                            const sv_crusher_rules *rules);

#endif
