/* -movers: bots that use the map's movers and watch them work (see movers.h). */
#include "movers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "qw_clc_move.h"
#include "run.h"

#define RUN_SPEED 320
#define BUTTON_ATTACK 1
#define BUTTON_JUMP 2
#define TELEPORT_JUMP 160.0f    /* a move this long in one packet is no walk */
#define ITEM_SIGHT 700.0f       /* an item this near and in sight is in the bot's PVS */
#define SHOOT_RANGE 300.0f      /* a button this near and in sight is shot from there */

static double seconds_of(const qwbot_bot *b, uint32_t frames)
{
    return frames * (b->run->interval_ms / 1000.0);
}

static uint32_t frames_of(const qwbot_bot *b, double seconds)
{
    return (uint32_t)(seconds * 1000.0 / (b->run->interval_ms ? b->run->interval_ms : 13));
}

qwbot_visitor *qwbot_visitor_new(uint64_t seed, unsigned bot_index)
{
    qwbot_visitor *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    qwbot_rng_seed(&v->rng, seed ^ 0x6d6f7665u, bot_index);
    v->next_kind = bot_index % QWBOT_GOAL_KINDS;
    v->goal = -1;
    return v;
}

static void free_goal_state(qwbot_visitor *v)
{
    free(v->visits);
    free(v->reached_at);
    free(v->first_origin);
    free(v->seen_first);
    free(v->moved);
    free(v->rode);
    free(v->reach_z);
    free(v->item_entity);
    free(v->item_state);
    v->visits = NULL;
    v->reached_at = NULL;
    v->first_origin = NULL;
    v->seen_first = v->moved = v->rode = v->item_state = NULL;
    v->reach_z = NULL;
    v->item_entity = NULL;
}

void qwbot_visitor_free(qwbot_visitor *v)
{
    if (!v)
        return;
    free_goal_state(v);
    free(v);
}

/* The map of the server's current map (loaded once per map for all bots); NULL if it cannot
 * be read (said once). */
static const qwbot_nav *current_nav(qwbot_bot *b)
{
    qwbot_run *run = b->run;
    if (!run->nav || strcmp(run->nav->path, run->map_path) != 0) {
        if (run->nav_failed[0] && !strcmp(run->nav_failed, run->map_path))
            return NULL;
        qwbot_nav_free(run->nav);
        char err[1024];
        run->nav = qwbot_nav_load(run->map_path, err, sizeof err);
        if (!run->nav) {
            fprintf(stderr, "qwbot: -movers: %s (the bots roam instead)\n", err);
            snprintf(run->nav_failed, sizeof run->nav_failed, "%s", run->map_path);
            return NULL;
        }
        fprintf(stderr, "qwbot: -movers: %s: %d goals, %d nodes, %d edges\n", run->map_path,
                run->nav->ngoals, run->nav->nnodes, run->nav->nedges);
    }
    qwbot_visitor *v = b->visitor;
    if (v->nav != run->nav) {
        free_goal_state(v);
        size_t n = (size_t)run->nav->ngoals + 1;
        v->visits = calloc(n, sizeof *v->visits);
        v->reached_at = calloc(n, sizeof *v->reached_at);
        v->first_origin = calloc(n * 3, sizeof *v->first_origin);
        v->seen_first = calloc(n, 1);
        v->moved = calloc(n, 1);
        v->rode = calloc(n, 1);
        v->reach_z = calloc(n, sizeof *v->reach_z);
        v->item_entity = malloc(n * sizeof *v->item_entity);
        v->item_state = calloc(n, 1);
        if (!v->visits || !v->reached_at || !v->first_origin || !v->seen_first || !v->moved ||
            !v->rode || !v->reach_z || !v->item_entity || !v->item_state) {
            free_goal_state(v);
            v->nav = NULL;
            return NULL;
        }
        for (size_t i = 0; i < n; i++)
            v->item_entity[i] = -1;
        v->nav = run->nav;
        v->goal = -1;
        memset(v->ent_seen, 0, sizeof v->ent_seen);
    }
    return run->nav;
}

static float dist3(const float a[3], const float b[3])
{
    float d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

static float dist_xy(const float a[3], const float b[3])
{
    return hypotf(a[0] - b[0], a[1] - b[1]);
}

/* ---- choosing a goal and walking there ---- */

static bool plan(qwbot_bot *b, const qwbot_nav *nav, bool keep_goal)
{
    qwbot_visitor *v = b->visitor;
    int start = qwbot_nav_start(nav, b->origin);
    if (start < 0)
        return false;
    int *dist = malloc((size_t)nav->nnodes * sizeof *dist);
    int *prev = malloc((size_t)nav->nnodes * sizeof *prev);
    if (!dist || !prev) {
        free(dist);
        free(prev);
        return false;
    }
    qwbot_nav_bfs(nav, start, dist, prev);
    int goal = keep_goal ? v->goal : -1;
    for (unsigned k = 0; goal < 0 && k < QWBOT_GOAL_KINDS; k++) {
        unsigned kind = (v->next_kind + k) % QWBOT_GOAL_KINDS;
        long best = -1;
        for (int g = 0; g < nav->ngoals; g++) {
            const qwbot_goal *goal_g = &nav->goals[g];
            if ((unsigned)goal_g->kind != kind || goal_g->node < 0 || dist[goal_g->node] < 0)
                continue;
            long score = (long)v->visits[g] * 1000 + dist[goal_g->node] * 10 +
                         qwbot_rng_range(&v->rng, 0, 9);
            if (best < 0 || score < best) {
                best = score;
                goal = g;
            }
        }
        if (goal >= 0)
            v->next_kind = (kind + 1) % QWBOT_GOAL_KINDS;
    }
    if (goal < 0 || dist[nav->goals[goal].node] < 0) {
        free(dist);
        free(prev);
        return false;
    }
    int len = 0, at = nav->goals[goal].node;
    int rev[512];
    while (at >= 0 && len < 512) {
        rev[len++] = at;
        at = prev[at];
    }
    v->path_len = len;
    for (int i = 0; i < len; i++)
        v->path[i] = rev[len - 1 - i];
    v->path_pos = len > 1 ? 1 : 0;
    if (v->goal != goal) {
        v->goal = goal;
        v->goal_frame = v->frame;
        v->replans = 0;
        qwbot_bot_log(b, "movers: to %s *%d %s (%d nodes away)", nav->goals[goal].classname,
                      nav->goals[goal].model, qwbot_goal_kind_name(nav->goals[goal].kind),
                      len - 1);
    }
    v->at_goal = false;
    v->progress_frame = v->frame;
    v->best_dist = 1e30f;
    free(dist);
    free(prev);
    return true;
}

static void done_with_goal(qwbot_visitor *v, uint32_t extra_visits)
{
    if (v->goal >= 0)
        v->visits[v->goal] += 1 + extra_visits;
    v->goal = -1;
    v->at_goal = false;
}

static void run_to(qwbot_visitor *v, const qwbot_bot *b, const float to[3], qw_rec_cmd *out)
{
    float pitch;
    qw_aim_degrees(b->origin, to, &v->yaw, &pitch);
    out->forwardmove = dist_xy(b->origin, to) > 12 ? RUN_SPEED : 0;
}

/* At the goal: use it; true when done with it. */
static bool use_goal(qwbot_bot *b, const qwbot_nav *nav, qw_rec_cmd *out)
{
    qwbot_visitor *v = b->visitor;
    const qwbot_goal *g = &nav->goals[v->goal];
    double there = seconds_of(b, v->frame - v->at_frame);
    float pitch = 0;
    switch (g->kind) {
    case QWBOT_GOAL_DOOR:
    case QWBOT_GOAL_TRIGGER:
        run_to(v, b, g->center, out);
        return there > 1.5 || v->moved[v->goal];
    case QWBOT_GOAL_PLAT:
        return there > 8 || v->rode[v->goal];
    case QWBOT_GOAL_BUTTON:
        if (g->shoot) {
            float eye[3] = {b->origin[0], b->origin[1], b->origin[2] + 22};
            qw_aim_degrees(eye, g->center, &v->yaw, &pitch);
            out->angles[0] = qw_angle_to_wire(pitch);
            out->buttons = v->frame & 8 ? BUTTON_ATTACK : 0;
        } else {
            run_to(v, b, g->center, out);
        }
        return there > 4 || v->moved[v->goal];
    case QWBOT_GOAL_TELEPORT:
        run_to(v, b, g->center, out);
        return there > 3 || (v->teleported_at > 0 && qwbot_now() - v->teleported_at < there + 1);
    case QWBOT_GOAL_ITEM:
        if (v->item_state[v->goal] != 2) {
            if (there > 3)
                return true;
            run_to(v, b, g->center, out);
            return false;
        }
        /* taken: wait in sight of its spot, off it, until it respawns */
        if (v->back_node >= 0 && dist_xy(b->origin, nav->node[v->back_node]) > 16)
            run_to(v, b, nav->node[v->back_node], out);
        else
            qw_aim_degrees(b->origin, g->center, &v->yaw, &pitch);
        return there > 45;
    default:
        return true;
    }
}

void qwbot_movers_next(qwbot_bot *b, uint8_t msec, qw_rec_cmd *out, char *cmd, size_t cmdlen)
{
    qwbot_visitor *v = b->visitor;
    memset(out, 0, sizeof *out);
    out->msec = msec;
    cmd[0] = 0;
    uint32_t frame = v->frame++;
    const qwbot_nav *nav = current_nav(b);
    if (b->health <= 0) {
        out->buttons = frame & 1 ? BUTTON_ATTACK : 0;
        v->goal = -1;
        v->at_goal = false;
    } else if (!nav) {
        out->forwardmove = RUN_SPEED;
        v->yaw += 1;
    } else {
        if (v->goal < 0 && !plan(b, nav, false)) {
            /* nowhere to walk from here (or nothing left): roam, and after a while respawn
             * elsewhere */
            if (!v->no_start_since)
                v->no_start_since = frame ? frame : 1;
            out->forwardmove = RUN_SPEED;
            v->yaw += 2;
            if (frame - v->no_start_since > frames_of(b, 6)) {
                snprintf(cmd, cmdlen, "kill");
                v->no_start_since = 0;
            }
        } else if (v->goal >= 0) {
            v->no_start_since = 0;
            const qwbot_goal *g = &nav->goals[v->goal];
            if (!v->at_goal) {
                const float *to = nav->node[v->path[v->path_pos]];
                /* cut corners: walk to the one after when it is in reach already */
                if (frame % 8 == 0 && v->path_pos + 1 < v->path_len &&
                    qwbot_nav_walkable(nav, b->origin, nav->node[v->path[v->path_pos + 1]])) {
                    v->path_pos++;
                    to = nav->node[v->path[v->path_pos]];
                    v->best_dist = 1e30f;
                }
                float d = dist_xy(b->origin, to);
                /* a button that is shot is reached once in sight and in range */
                float eye[3] = {b->origin[0], b->origin[1], b->origin[2] + 22};
                bool in_sight = g->shoot && frame % 8 == 4 &&
                                dist3(eye, g->center) < SHOOT_RANGE &&
                                qwbot_nav_sees_goal(nav, eye, g);
                if (in_sight)
                    v->path_pos = v->path_len - 1;
                if (in_sight || (d < 20 && fabsf(b->origin[2] - to[2]) < 56)) {
                    if (++v->path_pos >= v->path_len) {
                        v->at_goal = true;
                        v->at_frame = frame;
                        v->back_node = v->path_len >= 2 ? v->path[v->path_len - 2] : -1;
                        v->counts.reached[g->kind]++;
                        v->reached_at[v->goal] = qwbot_now();
                        v->reach_z[v->goal] = b->origin[2];
                        if (g->kind == QWBOT_GOAL_TRIGGER)
                            v->last_trigger = qwbot_now();
                        qwbot_bot_log(b, "movers: reached %s *%d", g->classname, g->model);
                    }
                    v->best_dist = 1e30f;
                    v->progress_frame = frame;
                } else {
                    if (d < v->best_dist - 8) {
                        v->best_dist = d;
                        v->progress_frame = frame;
                    }
                    run_to(v, b, to, out);
                    uint32_t still = frame - v->progress_frame;
                    if (still > frames_of(b, 1.0) && frame % 20 < 3)
                        out->buttons |= BUTTON_JUMP;
                    if (still > frames_of(b, 1.5))
                        out->sidemove = (int16_t)((frame / 40) % 2 ? RUN_SPEED : -RUN_SPEED);
                    if (still > frames_of(b, 4)) {
                        if (++v->replans > 3 || !plan(b, nav, true))
                            done_with_goal(v, 4);
                    }
                }
            } else if (use_goal(b, nav, out)) {
                qwbot_bot_log(b, "movers: done with %s *%d", g->classname, g->model);
                done_with_goal(v, 0);
            }
        }
    }
    v->yaw = fmodf(v->yaw + 360.0f, 360.0f);
    out->angles[1] = qw_angle_to_wire(v->yaw);
}

/* ---- watching what the server sends ---- */

void qwbot_movers_baseline(qwbot_bot *b, const qw_entity_state *s)
{
    if (s->number > 0 && s->number < QWBOT_MAX_EDICTS)
        b->visitor->baseline[s->number] = *s;
}

void qwbot_movers_entity(qwbot_bot *b, const qw_entity_delta *d)
{
    qwbot_visitor *v = b->visitor;
    if (d->remove || d->number <= 0 || d->number >= QWBOT_MAX_EDICTS)
        return;
    qw_entity_delta_apply(&v->baseline[d->number], d, &v->ent[d->number]);
    v->ent_seen[d->number] = b->nc.incoming_sequence;
}

static const char *model_name(const qwbot_bot *b, int index)
{
    return index > 0 && index < QWBOT_MAX_MODELS ? b->run->model_names[index] : "";
}

static void count_moved(qwbot_bot *b, const qwbot_nav *nav, int gi, const float origin[3])
{
    qwbot_visitor *v = b->visitor;
    const qwbot_goal *g = &nav->goals[gi];
    double now = qwbot_now();
    bool reached = v->reached_at[gi] > 0 && now - v->reached_at[gi] < 15;
    /* a targeted door of the map opens when the bot touched a trigger: counted for it */
    bool after_trigger = v->last_trigger > 0 && now - v->last_trigger < 10;
    if (!reached && !after_trigger)
        return;
    v->moved[gi] = 1;
    qwbot_goal_kind kind = reached ? g->kind : QWBOT_GOAL_TRIGGER;
    v->counts.moved[kind]++;
    const float *first = &v->first_origin[gi * 3];
    qwbot_bot_log(b, "movers: %s *%d moved (%.0f %.0f %.0f) -> (%.0f %.0f %.0f) after the bot "
                  "reached %s", g->classname, g->model, first[0], first[1], first[2],
                  origin[0], origin[1], origin[2], reached ? "it" : "a trigger");
}

/* A targeted door (not a goal) moving after a trigger counts for the trigger. */
static void watch_other_brush(qwbot_bot *b, int model, const float origin[3])
{
    qwbot_visitor *v = b->visitor;
    double now = qwbot_now();
    if (!(v->last_trigger > 0 && now - v->last_trigger < 10) || model <= 0 ||
        model >= QWBOT_MAX_MODELS)
        return;
    if (!b->run->brush_first_seen[model]) {
        memcpy(b->run->brush_first[model], origin, sizeof(float) * 3);
        b->run->brush_first_seen[model] = 1;
    } else if (b->run->brush_first_seen[model] == 1 &&
               dist3(b->run->brush_first[model], origin) > 2) {
        b->run->brush_first_seen[model] = 2;
        v->counts.moved[QWBOT_GOAL_TRIGGER]++;
        qwbot_bot_log(b, "movers: *%d moved after the bot reached a trigger", model);
    }
}

void qwbot_movers_entities_done(qwbot_bot *b)
{
    qwbot_visitor *v = b->visitor;
    const qwbot_nav *nav = current_nav(b);
    if (!nav)
        return;
    int32_t seq = b->nc.incoming_sequence;
    for (int e = 1; e < QWBOT_MAX_EDICTS; e++) {
        if (v->ent_seen[e] != seq)
            continue;
        const qw_entity_state *s = &v->ent[e];
        const char *name = model_name(b, s->modelindex);
        if (name[0] != '*')
            continue;
        int model = atoi(name + 1);
        bool is_goal = false;
        for (int gi = 0; gi < nav->ngoals; gi++) {
            const qwbot_goal *g = &nav->goals[gi];
            if (g->model != model || g->kind == QWBOT_GOAL_ITEM)
                continue;
            is_goal = true;
            float *first = &v->first_origin[gi * 3];
            if (!v->seen_first[gi]) {
                memcpy(first, s->origin, sizeof s->origin);
                v->seen_first[gi] = 1;
            } else if (!v->moved[gi] && dist3(first, s->origin) > 2) {
                count_moved(b, nav, gi, s->origin);
            }
            /* on the plat: rising with it */
            if (g->kind == QWBOT_GOAL_PLAT && !v->rode[gi] && v->reached_at[gi] > 0 &&
                b->origin[0] >= g->mins[0] && b->origin[0] <= g->maxs[0] &&
                b->origin[1] >= g->mins[1] && b->origin[1] <= g->maxs[1] &&
                b->origin[2] - v->reach_z[gi] > 48) {
                v->rode[gi] = 1;
                v->counts.plat_rides++;
                qwbot_bot_log(b, "movers: rode %s *%d up %.0f units", g->classname, model,
                              b->origin[2] - v->reach_z[gi]);
            }
        }
        if (!is_goal)
            watch_other_brush(b, model, s->origin);
    }
    /* items: found by their spot; gone from a list while in sight, then back */
    float eye[3] = {b->origin[0], b->origin[1], b->origin[2] + 22};
    for (int gi = 0; gi < nav->ngoals; gi++) {
        const qwbot_goal *g = &nav->goals[gi];
        if (g->kind != QWBOT_GOAL_ITEM)
            continue;
        int e = v->item_entity[gi];
        if (e < 0) {
            for (int n = 1; n < QWBOT_MAX_EDICTS && e < 0; n++) {
                const qw_entity_state *s = &v->ent[n];
                const char *name = model_name(b, s->modelindex);
                if (v->ent_seen[n] == seq && name[0] && name[0] != '*' &&
                    fabsf(s->origin[0] - g->center[0]) < 1 &&
                    fabsf(s->origin[1] - g->center[1]) < 1 &&
                    s->origin[2] <= g->center[2] + 8 && s->origin[2] >= g->center[2] - 96)
                    e = n;
            }
            if (e < 0)
                continue;
            v->item_entity[gi] = (int16_t)e;
            v->item_state[gi] = 1;
            qwbot_bot_log(b, "movers: %s is entity %d (%s)", g->classname, e,
                          model_name(b, v->ent[e].modelindex));
            continue;
        }
        bool present = v->ent_seen[e] == seq && v->ent[e].modelindex > 0;
        float spot[3] = {g->center[0], g->center[1], g->center[2] + 8};
        if (present && v->item_state[gi] == 2) {
            v->item_state[gi] = 1;
            v->counts.items_back++;
            qwbot_bot_log(b, "movers: %s (entity %d) is back", g->classname, e);
        } else if (!present && v->item_state[gi] == 1 && dist3(b->origin, spot) < ITEM_SIGHT &&
                   qwbot_nav_visible(nav, eye, spot)) {
            v->item_state[gi] = 2;
            v->counts.items_gone++;
            qwbot_bot_log(b, "movers: %s (entity %d) is gone", g->classname, e);
        }
    }
}

void qwbot_movers_origin(qwbot_bot *b, const float origin[3])
{
    qwbot_visitor *v = b->visitor;
    const qwbot_nav *nav = v->nav;
    if (!nav || !b->have_origin || b->health <= 0 || dist3(b->origin, origin) < TELEPORT_JUMP)
        return;
    for (int i = 0; i < nav->ndests; i++)
        if (dist3(origin, nav->dest[i]) < 64) {
            v->counts.teleports++;
            v->teleported_at = qwbot_now();
            qwbot_bot_log(b, "movers: teleported (%.0f %.0f %.0f) -> (%.0f %.0f %.0f)",
                          b->origin[0], b->origin[1], b->origin[2], origin[0], origin[1],
                          origin[2]);
            return;
        }
}

void qwbot_movers_print(qwbot_bot *b, const char *text)
{
    if (!strncmp(text, "You got ", 8) || !strncmp(text, "You receive ", 12))
        b->visitor->counts.pickups++;
}
