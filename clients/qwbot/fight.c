/* -fight: the live deathmatch script (see fight.h). */
#include "fight.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bot.h"
#include "qw_clc_move.h"
#include "script.h"

#define RUN_SPEED 320          /* sv_maxspeed */
#define BUTTON_ATTACK 1
#define BUTTON_JUMP 2
#define ROCKET_MIN_RANGE 200.0f  /* closer, the splash would hurt the shooter */
#define FIRE_RANGE 1500.0f

void qwbot_fighter_init(qwbot_fighter *f, uint64_t seed, unsigned bot_index)
{
    memset(f, 0, sizeof *f);
    /* another stream than the wander script's for the same seed and bot */
    qwbot_rng_seed(&f->rng, seed ^ 0x66696768u, bot_index);
    f->yaw = (float)qwbot_rng_range(&f->rng, 0, 359);
    f->strafe = qwbot_rng_range(&f->rng, 0, 1) ? 1 : -1;
}

/* The nearest living player shown in the last packets, or -1. */
static int nearest_target(const qwbot_bot *b, float *dist_out)
{
    int best = -1;
    float best_d = 1e30f;
    for (int i = 0; i < QWBOT_MAX_SLOTS; i++) {
        const qwbot_other *o = &b->others[i];
        if (i == b->playernum || !o->seen || !o->alive ||
            b->nc.incoming_sequence - o->seen > 2)
            continue;
        float d[3] = {o->origin[0] - b->origin[0], o->origin[1] - b->origin[1],
                      o->origin[2] - b->origin[2]};
        float dist = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (dist > 1 && dist < best_d) {
            best_d = dist;
            best = i;
        }
    }
    *dist_out = best_d;
    return best;
}

static void aim_at(const qwbot_bot *b, const float to[3], float *yaw, float *pitch)
{
    qw_aim_degrees(b->origin, to, yaw, pitch);
}

bool qwbot_fight_aim(const qwbot_bot *b, uint16_t angles[3])
{
    float dist, yaw, pitch;
    int t = b->health > 0 ? nearest_target(b, &dist) : -1;
    if (t < 0)
        return false;
    aim_at(b, b->others[t].origin, &yaw, &pitch);
    angles[0] = qw_angle_to_wire(pitch);
    angles[1] = qw_angle_to_wire(yaw);
    angles[2] = 0;
    return true;
}

/* Impulse that brings the weapon this distance calls for into hand, or 0. */
static int choose_weapon(qwbot_fighter *f, const qwbot_bot *b, float dist)
{
    bool have_rl = (b->stats[STAT_ITEMS] & IT_ROCKET_LAUNCHER) && b->stats[STAT_ROCKETS] > 0;
    int want = have_rl && dist > ROCKET_MIN_RANGE ? IT_ROCKET_LAUNCHER : IT_SHOTGUN;
    if (b->stats[STAT_ACTIVEWEAPON] == want || f->frame - f->weapon_switched_at < 20)
        return 0;
    f->weapon_switched_at = f->frame;
    return want == IT_ROCKET_LAUNCHER ? 7 : 2;
}

void qwbot_fight_next(qwbot_fighter *f, const qwbot_bot *b, uint8_t msec,
                      qw_rec_cmd *out, char *say, size_t saylen)
{
    memset(out, 0, sizeof *out);
    out->msec = msec;
    say[0] = 0;
    uint32_t frame = f->frame++;
    bool moved = memcmp(f->last_origin, b->origin, sizeof f->last_origin) != 0;
    memcpy(f->last_origin, b->origin, sizeof f->last_origin);
    float pitch = 0;

    if (b->health <= 0) {
        /* dead: a fresh press of fire respawns */
        out->buttons = frame & 1 ? BUTTON_ATTACK : 0;
    } else {
        float dist;
        int t = nearest_target(b, &dist);
        if (t >= 0) {
            aim_at(b, b->others[t].origin, &f->yaw, &pitch);
            f->yaw += (float)qwbot_rng_range(&f->rng, -3, 3);
            if (frame >= f->strafe_until) {
                f->strafe = -f->strafe;
                f->strafe_until = frame + (uint32_t)qwbot_rng_range(&f->rng, 30, 90);
            }
            out->forwardmove = dist > 400 ? RUN_SPEED : dist > 150 ? RUN_SPEED / 2 : -RUN_SPEED / 2;
            out->sidemove = (int16_t)(f->strafe * (dist > 400 ? RUN_SPEED / 2 : RUN_SPEED));
            out->impulse = (uint8_t)choose_weapon(f, b, dist);
            /* held fire, let go now and then (weapons refire while it is held) */
            if (dist < FIRE_RANGE && frame % 6 != 5)
                out->buttons = BUTTON_ATTACK;
            f->blocked = 0;
        } else {
            /* roam: run, turn slowly, turn away from whatever stops us */
            f->blocked = moved ? 0 : f->blocked + 1;
            if (f->blocked > 3) {
                f->yaw += (float)qwbot_rng_range(&f->rng, 90, 180);
                f->blocked = 0;
            }
            if (frame >= f->turn_until) {
                f->wander_turn = (float)qwbot_rng_range(&f->rng, -30, 30) / 10.0f;
                f->turn_until = frame + (uint32_t)qwbot_rng_range(&f->rng, 40, 120);
            }
            f->yaw += f->wander_turn;
            out->forwardmove = RUN_SPEED;
        }
        if (qwbot_rng_range(&f->rng, 0, 79) == 0)
            out->buttons |= BUTTON_JUMP;
    }
    f->yaw = fmodf(f->yaw + 360.0f, 360.0f);
    out->angles[0] = qw_angle_to_wire(pitch);
    out->angles[1] = qw_angle_to_wire(f->yaw);
    if (qwbot_rng_range(&f->rng, 0, 1999) == 0)
        snprintf(say, saylen, "qwbot %u frame %u", b->index, frame);
}
