/* Combat (see combat.h). Runs inside CS_MOVE_COMMAND (or in U for rockets), so it calls only
 * transaction_safe code: no stdio, no strlen, logging through sv_log_deferred. */
#include "cgame/combat.h"

#include "cgame/cgame.h"
#include "cgame/relink.h"
#include "log.h"
#include "net/events.h"
#include "net/reliable.h"
#include "qw_math.h"
#include "sched/job_plan.h"
#include "stats/counters.h"

/* Appends s to dst (a transaction_safe strncat: no snprintf/strlen inside transactions). */
static size_t text_append(char *dst, size_t size, size_t pos, const char *s)
{
    while (*s && pos + 1 < size)
        dst[pos++] = *s++;
    dst[pos] = 0;
    return pos;
}

static float distance_sq(const float *a, const float *b)
{
    float d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return qw_vec_dot(d, d);
}

static bool send_frags(int slot)
{
    uint8_t msg[4];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, msg, sizeof msg);
    qw_write_byte(&sb, svc_updatefrags);
    qw_write_byte(&sb, slot);
    qw_write_short(&sb, sv.players[slot].frags);
    return sv_reliable_broadcast_about(slot, msg, sb.cursize);
}

/* A kill's news for everybody: a small section inside the command's, as in the paper. */
SV_SECTION_FN static bool send_kill_news(int scorer, const char *text)
{
    bool ok = true;
    NESTED_SECTION(CS_BROADCAST, ok &= send_frags(scorer);
                                 ok &= sv_broadcast_print(PRINT_MEDIUM, text););
    return ok;
}

static bool kill_player(int target, int attacker, sv_damage_cause cause)
{
    sv_player *p = &sv.players[target];
    bool ok = true;
    p->dead = true;
    p->death_time = p->time;
    sv_relink_dead(p);
    p->velocity[2] += 100;
    p->weaponframe = 0;
    if (cause == DMG_ROCKET)
        sv_stats_thread()->rocket_kills++;
    else if (cause == DMG_TELEFRAG)
        sv_stats_thread()->telefrags++;

    char text[160];
    size_t n = 0;
    const char *victim = sv.clients[target].name;
    int scorer = attacker < 0 ? target : attacker;  /* whose frags change */
    if (attacker < 0 || attacker == target) {
        /* killed by the world or by oneself: a frag less */
        static const char *const how[] = {
            [DMG_SHOTGUN] = " becomes bored with life\n", [DMG_AXE] = " becomes bored with life\n",
            [DMG_ROCKET] = " becomes bored with life\n", [DMG_TELEFRAG] = " was telefragged\n",
            [DMG_SUICIDE] = " becomes bored with life\n", [DMG_DROWN] = " drowned\n",
            [DMG_SLIME] = " dissolved in slime\n", [DMG_LAVA] = " burned in lava\n",
            [DMG_CRUSH] = " was squished\n"};
        sv.players[target].frags -= 1;
        n = text_append(text, sizeof text, n, victim);
        n = text_append(text, sizeof text, n, how[cause]);
    } else {
        sv.players[attacker].frags += 1;
        static const char *const before[] = {
            [DMG_SHOTGUN] = " chewed on ", [DMG_AXE] = " was ax-murdered by ",
            [DMG_ROCKET] = " rides ", [DMG_TELEFRAG] = " was telefragged by ",
            [DMG_SUICIDE] = " was killed by ", [DMG_DROWN] = " was killed by ",
            [DMG_SLIME] = " was killed by ", [DMG_LAVA] = " was killed by ",
            [DMG_CRUSH] = " was killed by "};
        static const char *const after[] = {
            [DMG_SHOTGUN] = "'s boomstick\n", [DMG_AXE] = "\n", [DMG_ROCKET] = "'s rocket\n",
            [DMG_TELEFRAG] = "\n", [DMG_SUICIDE] = "\n", [DMG_DROWN] = "\n",
            [DMG_SLIME] = "\n", [DMG_LAVA] = "\n", [DMG_CRUSH] = "\n"};
        n = text_append(text, sizeof text, n, victim);
        n = text_append(text, sizeof text, n, before[cause]);
        n = text_append(text, sizeof text, n, sv.clients[attacker].name);
        n = text_append(text, sizeof text, n, after[cause]);
    }
    ok &= send_kill_news(scorer, text);

    sv_log_deferred("frag: ", text);
    sv_event_sound(sv_player_entnum(target), 2, sv.sound_death, p->origin);
    return ok;
}

LIBTM_SAFE bool sv_game_damage(int target, int attacker, int amount, const float from[3],
                               sv_damage_cause cause)
{
    sv_player *p = &sv.players[target];
    if (!p->active || p->dead || amount <= 0)
        return true;
    int save = (int)(p->armortype * amount + 0.999f);
    if (save > p->armor)
        save = p->armor;
    p->armor -= save;
    if (p->armor == 0)
        p->armortype = 0;
    int take = amount - save;
    p->health -= take;
    p->dmg_take += take;
    p->dmg_save += save;
    qw_vec_copy(from, p->dmg_origin);

    /* knockback away from the source */
    float dir[3] = {p->origin[0] - from[0], p->origin[1] - from[1], p->origin[2] - from[2]};
    if (qw_vec_normalize(dir) > 0 && amount < 200) {
        float push = (float)amount * (attacker == target ? 8.0f : 4.0f);
        qw_vec_ma(p->velocity, push, dir, p->velocity);
    }
    if (p->health <= 0)
        return kill_player(target, attacker, cause);
    sv_event_sound(sv_player_entnum(target), 2, sv.sound_pain, p->origin);
    return true;
}

LIBTM_SAFE bool sv_combat_telefrag(int slot, const float origin[3])
{
    bool ok = true;
    for (int j = 0; j < SV_MAX_CLIENTS; j++) {
        sv_player *o = &sv.players[j];
        /* in a job, whoever stands there is in the job (the teleporter's arrival box joined
         * it); the other jobs' players are theirs to move */
        if (sv_in_job() && !sv_in_same_job(j))
            continue;
        if (j != slot && o->active && !o->dead && distance_sq(o->origin, origin) < 32.0f * 32.0f)
            ok &= sv_game_damage(j, slot, 1000, origin, DMG_TELEFRAG);
    }
    return ok;
}

LIBTM_SAFE bool sv_combat_radius_damage(const float at[3], int attacker, float damage,
                                        const sv_player *direct)
{
    bool ok = true;
    for (int j = 0; j < SV_MAX_CLIENTS; j++) {
        sv_player *o = &sv.players[j];
        if (!o->active || o->dead || o == direct)
            continue;
        float centre[3] = {o->origin[0], o->origin[1], o->origin[2] + 4};
        float d[3] = {centre[0] - at[0], centre[1] - at[1], centre[2] - at[2]};
        float points = damage - 0.5f * qw_vec_length(d);
        if (j == attacker)
            points *= 0.5f;
        if (points > 0)
            ok &= sv_game_damage(j, attacker, (int)points, at, DMG_ROCKET);
    }
    return ok;
}
