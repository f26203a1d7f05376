/* Players (QuakeC's client.qc): entering the world at a spawn point, one movement command
 * (think, pmove, touching, shooting), leaving, and the stats their client shows. Everything
 * reachable from sv_game_run_command runs inside CS_MOVE_COMMAND (see game/game.h). */
#include <math.h>
#include <string.h>

#include "cgame/combat.h"
#include "cgame/entities.h"
#include "cgame/cgame.h"
#include "cgame/liquids.h"
#include "cgame/relink.h"
#include "cgame/triggers.h"
#include "cgame/weapons.h"
#include "net/events.h"
#include "qw_math.h"
#include "sched/job_plan.h"
#include "store.h"

#define VIEW_HEIGHT 22.0f
/* What pmove collides with: everything within this range of the player (QuakeWorld's), or
 * nearer (qw_pmove_reach). */
#define PMOVE_RANGE 256.0f
/* Quake's sv_maxvelocity, per axis: also bounds how far one command can move a player. */
#define MAX_VELOCITY 2000.0f
/* -sched lpt: how far from where the player moves a command reaches what other commands
 * may change: its own box (16 to each side, 24 down, 32 up) and what that touches (items
 * carry their pickup widening in their own box), and the axe, whose trace reaches 65 from
 * the eye, 16 above the origin (81 up). Pmove looks further (PMOVE_RANGE, QuakeWorld's 256),
 * but only reads what other jobs leave alone during RP (meet_job_players_where_they_are),
 * so it needs no grouping: with the whole 256, 160 players on lqdm6 formed one big job. */
#define ACTION_RANGE 84.0f
/* Added when a job is built, so that a command a little longer than the last one (13 ms
 * after 12 ms) still fits. */
#define ACTION_SLACK 16.0f

static float distance_sq(const float *a, const float *b)
{
    float d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return qw_vec_dot(d, d);
}

/* The first spawn point, in rotation, with nobody within 84 units (else the next in turn). */
static const sv_spawnpoint *select_spawn_point(int slot)
{
    int n = sv.num_spawnpoints, chosen = sv.spawn_rotation % n;
    for (int k = 0; k < n; k++) {
        int s = (sv.spawn_rotation + k) % n;
        bool free_spot = true;
        for (int j = 0; j < SV_MAX_CLIENTS; j++) {
            sv_player *o = &sv.players[j];
            if (j != slot && o->active && !o->dead &&
                distance_sq(o->origin, sv.spawnpoints[s].origin) < 84.0f * 84.0f)
                free_spot = false;
        }
        if (free_spot) {
            chosen = s;
            break;
        }
    }
    sv.spawn_rotation = chosen + 1;
    return &sv.spawnpoints[chosen];
}

LIBTM_SAFE bool sv_cgame_spawn_player(int slot)
{
    sv_player *p = &sv.players[slot];
    const sv_spawnpoint *sp = select_spawn_point(slot);

    if (p->random_state == 0)
        p->random_state = 0x12345u + (uint32_t)slot * 7919u;
    qw_vec_copy(sp->origin, p->origin);
    p->origin[2] += 1;
    memset(p->velocity, 0, sizeof p->velocity);
    p->angles[0] = 0;
    p->angles[1] = sp->angle;
    p->angles[2] = 0;
    p->health = 100;
    p->armor = 0;
    p->armortype = 0;
    p->items = IT_AXE | IT_SHOTGUN;
    p->shells = 25;
    p->rockets = 0;
    p->weapon = IT_SHOTGUN;
    p->dead = false;
    p->attack_finished = p->time + 0.2;
    p->weaponframe = 0;
    p->frame = 0;
    p->effects = 0;
    p->onground = 0;
    p->waterjumptime = 0;
    p->waterlevel = 0;
    sv_liquids_reset(p);
    p->setangle = true;
    p->active = true;
    sv_relink_player(p);

    bool ok = sv_combat_telefrag(slot, p->origin); /* whoever still stands there */
    sv_event_temp_entity(TE_TELEPORT, p->origin);
    return ok;
}

LIBTM_SAFE void sv_cgame_spawn_spectator(int slot)
{
    sv_player *p = &sv.players[slot];
    const sv_spawnpoint *sp = &sv.spawnpoints[slot % sv.num_spawnpoints];
    qw_vec_copy(sp->origin, p->origin);
    p->origin[2] += 32;
    memset(p->velocity, 0, sizeof p->velocity);
    p->angles[0] = p->angles[2] = 0;
    p->angles[1] = sp->angle;
    p->setangle = true;
    p->spectator = true;
    p->active = false;
    p->dead = false;
    p->health = 0;
}

void sv_cgame_remove_player(int slot)
{
    sv_player *p = &sv.players[slot];
    qw_area_unlink_object(&p->link);
    p->relink_pending = false;
    p->spectator = false;
    p->active = false;
    p->dead = false;
    p->frags = 0;
    /* rockets in flight keep flying but no longer credit a frag */
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++)
        if (sv.entities[n].kind == ENT_ROCKET && sv.entities[n].owner_slot == slot)
            sv.entities[n].owner_slot = -1;
}

/* The part of a qw_pmove that comes from the player and its command (copied: pmove is pure
 * and must see only this transaction's locals); the world is physents[0]. */
static void pmove_input(qw_pmove *pm, const sv_player *p, const qw_usercmd *cmd, int pm_type)
{
    qw_vec_copy(p->origin, pm->origin);
    for (int i = 0; i < 3; i++)
        pm->velocity[i] = p->velocity[i] > MAX_VELOCITY    ? MAX_VELOCITY
                          : p->velocity[i] < -MAX_VELOCITY ? -MAX_VELOCITY
                                                           : p->velocity[i];
    qw_vec_copy(cmd->angles, pm->angles);
    pm->oldbuttons = p->oldbuttons;
    pm->waterjumptime = pm_type == QW_PM_SPECTATOR ? 0 : p->waterjumptime;
    pm->pm_type = pm_type;
    pm->cmd.msec = cmd->msec;
    qw_vec_copy(cmd->angles, pm->cmd.angles);
    pm->cmd.forwardmove = cmd->forwardmove;
    pm->cmd.sidemove = cmd->sidemove;
    pm->cmd.upmove = cmd->upmove;
    pm->cmd.buttons = cmd->buttons;
    pm->bsp = sv.bsp;
    pm->numphysent = 1;
    memset(&pm->physents[0], 0, sizeof pm->physents[0]);
}

/* A spectator flies (QuakeWorld's spectator movement: through walls, at spectatormaxspeed)
 * and, not being in the areanode tree, meets nothing. */
static void move_spectator(sv_player *p, const qw_usercmd *cmd)
{
    qw_pmove pm;
    pmove_input(&pm, p, cmd, QW_PM_SPECTATOR);
    qw_pmove_run(&pm, &sv.movevars);  /* pure, on this transaction's local pm */
    qw_vec_copy(pm.origin, p->origin);
    qw_vec_copy(pm.velocity, p->velocity);
    p->oldbuttons = pm.oldbuttons;
}

/* -sched lpt: during RP the areanode tree shows every player where it stood at the start of
 * the frame, and nobody changes it (game/relink.h): other jobs read it. A player of
 * another job is met there -- it was outside this job's boxes, more than ACTION_RANGE from
 * this move, too far to touch -- while the players of this job are met where they are now,
 * and no more once dead. */
static void meet_job_players_where_they_are(qw_pmove *pm)
{
    for (int i = 1; i < pm->numphysent; i++) {
        sv_player *o = sv_player_for_object(pm->physents[i].object);
        if (!o || !sv_in_same_job((int)(o - sv.players)))
            continue;
        if (o->dead)
            pm->physents[i--] = pm->physents[--pm->numphysent];
        else
            qw_vec_copy(o->origin, pm->physents[i].origin);
    }
}

void sv_cgame_finish_jobs(int threads)
{
    sv_relink_deferred();
    sv_weapons_run_deferred(threads);
}

/* pmove for one command: the shared state goes into a local qw_pmove, the pure movement code
 * runs on it, and the result is copied back (its relink comes last, in sv_game_run_command). */
static void move_player(sv_player *p, const qw_usercmd *cmd)
{
    qw_pmove pm;
    pmove_input(&pm, p, cmd, QW_PM_NORMAL);
    /* everything solid within reach of this move, from the areanode tree: the other living
     * players as boxes, brush entities as their submodels */
    qw_pmove_add_area_physents(&pm, &sv.area, &p->link,
                               qw_pmove_reach(&pm, &sv.movevars, PMOVE_RANGE));
    if (sv_in_job())
        meet_job_players_where_they_are(&pm);
    /* transaction_pure: pm is this transaction's local (its shared inputs were copied in
     * above, instrumented) and movevars never change after the map is loaded */
    qw_pmove_run(&pm, &sv.movevars);

    /* where a player is, every other command reads */
    qw_store_vec(p->origin, pm.origin);
    qw_store_vec(p->velocity, pm.velocity);
    p->oldbuttons = pm.oldbuttons;
    p->waterjumptime = pm.waterjumptime;
    p->onground = pm.onground != -1;
    p->waterlevel = pm.waterlevel;
    p->watertype = pm.watertype;
}

/* Whether a dead player's command brings it back: a fresh press of fire or jump, a second
 * after its death on its own clock, which the command advances by `ahead` seconds (0 when
 * it has done so already). */
LIBTM_SAFE static bool command_respawns(const sv_player *p, const qw_usercmd *cmd, double ahead)
{
    int pressed = cmd->buttons & ~p->oldbuttons & (QW_BUTTON_ATTACK | QW_BUTTON_JUMP);
    return pressed && p->time + ahead >= p->death_time + 1.0;
}

/* Back into the world after a death: a section inside the command's (spawning may telefrag,
 * whose news is one more inside). */
SV_SECTION_FN static bool spawn_again(int slot)
{
    bool ok;
    NESTED_SECTION(CS_SPAWN_PLAYER, ok = sv_cgame_spawn_player(slot););
    return ok;
}

LIBTM_SAFE bool sv_cgame_run_command(sv_client *cl, const qw_usercmd *cmd)
{
    sv_player *p = &sv.players[cl->slot];
    if (p->spectator) {
        p->angles[0] = cmd->angles[0];
        p->angles[1] = cmd->angles[1];
        p->angles[2] = cmd->angles[2];
        move_spectator(p, cmd);
        return true;
    }
    if (!p->active)
        return true;
    bool ok = true;
    p->time += cmd->msec / 1000.0;
    p->angles[0] = cmd->angles[0];
    p->angles[1] = cmd->angles[1];
    p->angles[2] = cmd->angles[2];

    if (p->dead) {
        bool respawn = command_respawns(p, cmd, 0);
        p->oldbuttons = cmd->buttons;
        return respawn ? spawn_again(cl->slot) : true;
    }
    if (cmd->impulse)
        sv_weapons_select(p, cmd->impulse);
    move_player(p, cmd);
    ok &= sv_liquids_hurt(cl->slot, p);
    if (!p->dead) {
        ok &= sv_triggers_touch(cl, p);
        if (cmd->buttons & QW_BUTTON_ATTACK)
            ok &= sv_weapons_fire(cl, p, cmd->angles);
    }
    /* Last: the player's box is what every other command scans, so it is written (and, in
     * an STM that locks on write, held) only for the end of the transaction. */
    sv_relink_moved(p);
    return ok;
}

/* The box around player p that `commands` movement commands lasting `seconds` in all cannot
 * leave, widened by `range`: at `speed`, plus what the commands add to it
 * (qw_pmove_speed_gain),
 * plus a stair step each. */
static void movement_box(const sv_player *p, float range, float speed, float seconds,
                         int commands, float mins[3], float maxs[3])
{
    float reach = range + (speed + qw_pmove_speed_gain(&sv.movevars)) * seconds +
                  (QW_PM_STEPSIZE + 1.0f) * commands;
    for (int i = 0; i < 3; i++) {
        mins[i] = p->origin[i] - reach;
        maxs[i] = p->origin[i] + reach;
    }
}

/* The player's speed as pmove sees it (each axis clamped to MAX_VELOCITY). */
static float clamped_speed(const sv_player *p)
{
    float v[3];
    for (int i = 0; i < 3; i++)
        v[i] = fminf(fmaxf(p->velocity[i], -MAX_VELOCITY), MAX_VELOCITY);
    return qw_vec_length(v);
}

void sv_cgame_command_reach(int slot, const qw_usercmd *cmd, sv_reach *out)
{
    const sv_player *p = &sv.players[slot];
    /* pmove looks PMOVE_RANGE around the start; the move itself stays within what the
     * clamped speed, plus gravity, a jump and acceleration, covers in cmd->msec, plus a step */
    out->everywhere = false;
    out->num_boxes = 1;
    movement_box(p, PMOVE_RANGE, MAX_VELOCITY, cmd ? cmd->msec / 1000.0f : 0.0f, 1,
                 out->mins[0], out->maxs[0]);
    /* a teleporter puts the player (and its shots) anywhere */
    if (cmd && sv_triggers_teleport_meets(out->mins[0], out->maxs[0]))
        out->everywhere = true;
    else if (cmd && sv_weapons_reach(p, cmd, out->mins[1], out->maxs[1]))
        out->num_boxes = 2;
}

void sv_cgame_action_box(int slot, float seconds, int commands, float mins[3], float maxs[3])
{
    const sv_player *p = &sv.players[slot];
    movement_box(p, ACTION_RANGE + ACTION_SLACK, clamped_speed(p), seconds, commands, mins, maxs);
}

bool sv_cgame_command_fits(int slot, const qw_usercmd *cmd, const float mins[3],
                          const float maxs[3])
{
    const sv_player *p = &sv.players[slot];
    if (p->spectator || !p->active)
        return true; /* a spectator meets nothing; an inactive player does nothing */
    if (p->dead && command_respawns(p, cmd, cmd->msec / 1000.0))
        return false; /* the spawn point is chosen looking at every player */
    float lo[3], hi[3];
    movement_box(p, ACTION_RANGE, clamped_speed(p), cmd->msec / 1000.0f, 1, lo, hi);
    for (int i = 0; i < 3; i++)
        if (lo[i] < mins[i] || hi[i] > maxs[i])
            return false;
    return true; /* a teleporter met on the way is in the box: its arrival box joined too */
}

void sv_cgame_arrival_box(const sv_entity *teleporter, float mins[3], float maxs[3])
{
    for (int i = 0; i < 3; i++) {
        mins[i] = teleporter->dest_origin[i] - ACTION_RANGE;
        maxs[i] = teleporter->dest_origin[i] + ACTION_RANGE;
    }
}

/* Animation frame of progs/player.mdl from the player's state (id's frame order: axe run
 * 0-5, rocket run 6-11, stand 12-16, ..., the first death sequence ends on frame 60). */
int sv_cgame_player_frame(int slot)
{
    const sv_player *p = &sv.players[slot];
    if (p->dead)
        return 60;
    float speed2 = p->velocity[0] * p->velocity[0] + p->velocity[1] * p->velocity[1];
    int tick = (int)(sv.time * 10);
    if (speed2 > 50.0f * 50.0f)
        return (p->weapon == IT_AXE ? 0 : 6) + tick % 6;
    return 12 + tick % 5;
}

void sv_cgame_player_stats(int slot, int stats[QW_MAX_CL_STATS])
{
    sv_player *p = &sv.players[slot];
    memset(stats, 0, sizeof(int) * QW_MAX_CL_STATS);
    stats[STAT_HEALTH] = p->health < -99 ? -99 : p->health;
    stats[STAT_FRAGS] = p->frags;
    stats[STAT_ARMOR] = p->armor;
    stats[STAT_SHELLS] = p->shells;
    stats[STAT_ROCKETS] = p->rockets;
    stats[STAT_ACTIVEWEAPON] = p->weapon;
    /* the armour icon follows the armour worn (damage changes it; weapons are p->items) */
    int armour = p->armortype >= 0.8f ? IT_ARMOR3 : p->armortype >= 0.6f ? IT_ARMOR2
                 : p->armortype > 0    ? IT_ARMOR1 : 0;
    stats[STAT_ITEMS] = p->items | armour | IT_SHELLS;
    stats[STAT_AMMO] = p->weapon == IT_ROCKET_LAUNCHER ? p->rockets
                       : p->weapon == IT_AXE        ? 0
                                                    : p->shells;
    stats[STAT_WEAPON] = p->weapon == IT_ROCKET_LAUNCHER ? sv.model_v_rock
                         : p->weapon == IT_AXE           ? sv.model_v_axe
                                                         : sv.model_v_shot;
    stats[STAT_WEAPONFRAME] = p->weaponframe;
    stats[STAT_VIEWHEIGHT] = (int)VIEW_HEIGHT;
}
