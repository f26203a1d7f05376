/* Targets (see targets.h). */
#include "cgame/targets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgame/entities.h"

static char names[256][32];
static int num_names;

int sv_target_id(const char *name)
{
    if (!name || !*name)
        return 0;
    for (int i = 0; i < num_names; i++)
        if (!strncmp(names[i], name, sizeof names[i] - 1))
            return i + 1;
    if (num_names == (int)(sizeof names / sizeof names[0]))
        return 0; /* a map with more names than this: the rest stays unconnected */
    snprintf(names[num_names], sizeof names[0], "%s", name);
    return ++num_names;
}

/* A relay was fired: fires its own targets now or after its delay; a counter only when
 * its count runs out (once). */
static void use_relay(sv_entity *e)
{
    if (e->count > 0 && --e->count > 0)
        return;
    if (e->delay > 0)
        e->next_think = sv.time + e->delay;
    else
        sv_targets_fire(e->target);
}

void sv_game_spawn_relay(const qw_entity_fields *f, bool counter)
{
    sv_entity *e = sv_entity_alloc(ENT_RELAY);
    if (!e)
        return;
    e->visible = false;
    e->modelindex = 0;
    e->target = sv_target_id(qw_entity_get(f, "target"));
    e->targetname = sv_target_id(qw_entity_get(f, "targetname"));
    const char *v = qw_entity_get(f, "delay");
    e->delay = v ? (float)atof(v) : 0;
    v = qw_entity_get(f, "count");
    e->count = counter ? (v ? atoi(v) : 2) : 0;
    e->next_think = 0;
    e->use = use_relay;
}

void sv_targets_relay_think(sv_entity *e)
{
    if (e->next_think > 0 && sv.time >= e->next_think) {
        e->next_think = 0;
        sv_targets_fire(e->target);
    }
}

void sv_targets_fire(int target)
{
    /* relays firing relays: a map whose names go round in a circle stops here */
    static int depth;
    if (!target || depth >= 8)
        return;
    depth++;
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++) {
        sv_entity *e = &sv.entities[n];
        if (e->targetname == target && e->use)
            e->use(e);
    }
    depth--;
}
