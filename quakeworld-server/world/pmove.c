/* QuakeWorld player movement, following the behaviour of id's pmove: categorize position,
 * jump, friction, then walk (with step-up) / fly / swim, then categorize again. */
#include "pmove.h"
#include "qw_math.h"

#include <stdbool.h>

static const float player_mins[3] = {-16, -16, -24};
static const float player_maxs[3] = {16, 16, 32};

#define STOP_EPSILON 0.1f
#define MAX_CLIP_PLANES 5
#define MAX_BUMPS 4

void qw_movevars_default(qw_movevars *mv)
{
    mv->gravity = 800;
    mv->stopspeed = 100;
    mv->maxspeed = 320;
    mv->spectatormaxspeed = 500;
    mv->accelerate = 10;
    mv->airaccelerate = 10;
    mv->wateraccelerate = 10;
    mv->friction = 4;
    mv->waterfriction = 4;
    mv->entgravity = 1;
}

void qw_pmove_init(qw_pmove *pm, const qw_bsp *bsp, const float origin[3])
{
    for (int i = 0; i < 3; i++) {
        pm->origin[i] = origin[i];
        pm->velocity[i] = 0;
        pm->angles[i] = 0;
        pm->cmd.angles[i] = 0;
    }
    pm->oldbuttons = 0;
    pm->waterjumptime = 0;
    pm->pm_type = QW_PM_NORMAL;
    pm->cmd.msec = 0;
    pm->cmd.forwardmove = pm->cmd.sidemove = pm->cmd.upmove = 0;
    pm->cmd.buttons = 0;
    pm->bsp = bsp;
    pm->numphysent = 1;
    qw_physent *world = &pm->physents[0];
    for (int i = 0; i < 3; i++)
        world->origin[i] = world->mins[i] = world->maxs[i] = 0;
    world->model = 0;
    world->info = 0;
    world->object = NULL;
    pm->onground = -1;
    pm->waterlevel = 0;
    pm->watertype = QW_CONTENTS_EMPTY;
    pm->numtouch = 0;
}

/* Per-run state: the command's duration and view vectors. */
typedef struct pm_frame {
    qw_pmove *pm;
    const qw_movevars *mv;
    float frametime;
    float forward[3], right[3], up[3];
    int dead;
} pm_frame;

/* The hull a physent presents to the player box, and its offset. */
static int physent_hull(const qw_pmove *pm, const qw_physent *pe, qw_box_hull *box,
                        qw_bsp_hull *hull)
{
    if (pe->model >= 0)
        return qw_bsp_model_hull(pm->bsp, pe->model, 1, hull);
    float mins[3], maxs[3];
    for (int i = 0; i < 3; i++) {
        mins[i] = pe->mins[i] - player_maxs[i];
        maxs[i] = pe->maxs[i] - player_mins[i];
    }
    qw_box_hull_init(box, mins, maxs);
    *hull = box->hull;
    return 0;
}

/* Walking the physents that have a hull (numphysent of them, at most QW_MAX_PHYSENTS): each
 * next_physent gives the next one's index, entry and hull (box holds a box's planes). */
typedef struct physent_walk {
    const qw_pmove *pm;
    int next, index;
    const qw_physent *pe;
    qw_box_hull box;
    qw_bsp_hull hull;
} physent_walk;

static bool next_physent(physent_walk *w)
{
    while (w->next < w->pm->numphysent && w->next < QW_MAX_PHYSENTS) {
        w->index = w->next++;
        w->pe = &w->pm->physents[w->index];
        if (physent_hull(w->pm, w->pe, &w->box, &w->hull) == 0)
            return true;
    }
    return false;
}

LIBTM_PURE void qw_pmove_trace(const qw_pmove *pm, const float start[3], const float end[3],
                               qw_trace *total, int *physent)
{
    total->allsolid = total->startsolid = total->inopen = total->inwater = 0;
    total->fraction = 1;
    qw_vec_copy(end, total->endpos);
    total->plane.normal[0] = total->plane.normal[1] = total->plane.normal[2] = 0;
    total->plane.dist = 0;
    total->plane.type = 0;
    int hit = -1;
    for (physent_walk w = { .pm = pm }; next_physent(&w);) {
        const qw_physent *pe = w.pe;
        float start_l[3], end_l[3];  /* in the physent's frame */
        qw_vec_subtract(start, pe->origin, start_l);
        qw_vec_subtract(end, pe->origin, end_l);
        qw_trace tr;
        qw_hull_trace(&w.hull, start_l, end_l, &tr);
        if (tr.allsolid)
            tr.startsolid = 1;
        if (tr.startsolid)
            tr.fraction = 0;
        if (tr.fraction < total->fraction) {
            qw_vec_add(tr.endpos, pe->origin, tr.endpos);
            tr.plane.dist += qw_vec_dot(tr.plane.normal, pe->origin);
            *total = tr;
            hit = w.index;
        }
    }
    total->ent = hit >= 0 ? pm->physents[hit].object : NULL;
    if (physent)
        *physent = hit;
}

LIBTM_PURE int qw_pmove_test_position(const qw_pmove *pm, const float pos[3])
{
    for (physent_walk w = { .pm = pm }; next_physent(&w);) {
        float p[3];
        qw_vec_subtract(pos, w.pe->origin, p);
        if (qw_hull_point_contents(&w.hull, w.hull.firstclipnode, p) == QW_CONTENTS_SOLID)
            return 0;
    }
    return 1;
}

/* Contents of the world's hull 0 (liquids are only in the world). */
static int point_contents(const qw_pmove *pm, const float p[3])
{
    float local[3];
    qw_vec_subtract(p, pm->physents[0].origin, local);
    return qw_point_contents(pm->bsp, local);
}

static void add_touch(qw_pmove *pm, int physent)
{
    if (physent >= 0 && pm->numtouch < QW_MAX_PHYSENTS)
        pm->touchindex[pm->numtouch++] = physent;
}

/* Removes the part of `in` going into the plane (overbounce 1 = slide along it). */
static void clip_velocity(const float in[3], const float normal[3], float out[3],
                          float overbounce)
{
    float backoff = qw_vec_dot(in, normal) * overbounce;
    for (int i = 0; i < 3; i++) {
        out[i] = in[i] - normal[i] * backoff;
        if (out[i] > -STOP_EPSILON && out[i] < STOP_EPSILON)
            out[i] = 0;
    }
}

/* Moves along velocity for the frame, sliding along whatever is hit. */
static void fly_move(pm_frame *f)
{
    qw_pmove *pm = f->pm;
    float planes[MAX_CLIP_PLANES][3];
    float original_velocity[3], primal_velocity[3];
    qw_vec_copy(pm->velocity, original_velocity);
    qw_vec_copy(pm->velocity, primal_velocity);
    int numplanes = 0;
    float time_left = f->frametime;

    for (int bump = 0; bump < MAX_BUMPS; bump++) {
        float end[3];
        for (int i = 0; i < 3; i++)
            end[i] = pm->origin[i] + time_left * pm->velocity[i];
        qw_trace tr;
        int hit;
        qw_pmove_trace(pm, pm->origin, end, &tr, &hit);
        if (tr.startsolid || tr.allsolid) {
            /* Trapped in a solid: stop. */
            pm->velocity[0] = pm->velocity[1] = pm->velocity[2] = 0;
            return;
        }
        if (tr.fraction > 0) {
            qw_vec_copy(tr.endpos, pm->origin);
            numplanes = 0;
        }
        if (tr.fraction == 1)
            break;
        add_touch(pm, hit);
        time_left -= time_left * tr.fraction;
        if (numplanes >= MAX_CLIP_PLANES) {
            pm->velocity[0] = pm->velocity[1] = pm->velocity[2] = 0;
            break;
        }
        qw_vec_copy(tr.plane.normal, planes[numplanes]);
        numplanes++;

        /* Find a velocity that runs along every plane hit so far. */
        int i;
        for (i = 0; i < numplanes; i++) {
            clip_velocity(original_velocity, planes[i], pm->velocity, 1);
            int j;
            for (j = 0; j < numplanes; j++)
                if (j != i && qw_vec_dot(pm->velocity, planes[j]) < 0)
                    break;
            if (j == numplanes)
                break;
        }
        if (i == numplanes) {
            /* No single plane works: go along the crease of two, or stop. */
            if (numplanes != 2) {
                pm->velocity[0] = pm->velocity[1] = pm->velocity[2] = 0;
                break;
            }
            float dir[3] = {planes[0][1] * planes[1][2] - planes[0][2] * planes[1][1],
                            planes[0][2] * planes[1][0] - planes[0][0] * planes[1][2],
                            planes[0][0] * planes[1][1] - planes[0][1] * planes[1][0]};
            float d = qw_vec_dot(dir, pm->velocity);
            for (int k = 0; k < 3; k++)
                pm->velocity[k] = dir[k] * d;
        }
        /* Turned back against the original direction: stop, avoiding jitter in corners. */
        if (qw_vec_dot(pm->velocity, primal_velocity) <= 0) {
            pm->velocity[0] = pm->velocity[1] = pm->velocity[2] = 0;
            break;
        }
    }
    if (pm->waterjumptime)
        qw_vec_copy(primal_velocity, pm->velocity);
}

/* Walking: try the plain move, else the better of a slide and a step-up slide. */
static void ground_move(pm_frame *f)
{
    qw_pmove *pm = f->pm;
    pm->velocity[2] = 0;
    if (!pm->velocity[0] && !pm->velocity[1])
        return;

    float dest[3] = {pm->origin[0] + pm->velocity[0] * f->frametime,
                     pm->origin[1] + pm->velocity[1] * f->frametime, pm->origin[2]};
    qw_trace tr;
    qw_pmove_trace(pm, pm->origin, dest, &tr, 0);
    if (tr.fraction == 1) {
        qw_vec_copy(tr.endpos, pm->origin);
        return;
    }

    float original[3], originalvel[3], down[3], downvel[3];
    qw_vec_copy(pm->origin, original);
    qw_vec_copy(pm->velocity, originalvel);

    fly_move(f);  /* slide along the floor */
    qw_vec_copy(pm->origin, down);
    qw_vec_copy(pm->velocity, downvel);

    qw_vec_copy(original, pm->origin);  /* now: up a step, slide, back down */
    qw_vec_copy(originalvel, pm->velocity);
    qw_vec_copy(pm->origin, dest);
    dest[2] += QW_PM_STEPSIZE;
    qw_pmove_trace(pm, pm->origin, dest, &tr, 0);
    if (!tr.startsolid && !tr.allsolid)
        qw_vec_copy(tr.endpos, pm->origin);
    fly_move(f);
    qw_vec_copy(pm->origin, dest);
    dest[2] -= QW_PM_STEPSIZE;
    qw_pmove_trace(pm, pm->origin, dest, &tr, 0);
    int use_down = tr.plane.normal[2] < 0.7f;  /* landed on no floor: keep the slide */
    if (!use_down) {
        if (!tr.startsolid && !tr.allsolid)
            qw_vec_copy(tr.endpos, pm->origin);
        float dd = (down[0] - original[0]) * (down[0] - original[0]) +
                   (down[1] - original[1]) * (down[1] - original[1]);
        float ud = (pm->origin[0] - original[0]) * (pm->origin[0] - original[0]) +
                   (pm->origin[1] - original[1]) * (pm->origin[1] - original[1]);
        use_down = dd > ud;
    }
    if (use_down) {
        qw_vec_copy(down, pm->origin);
        qw_vec_copy(downvel, pm->velocity);
    } else {
        pm->velocity[2] = downvel[2];
    }
}

static void friction(pm_frame *f)
{
    qw_pmove *pm = f->pm;
    if (pm->waterjumptime)
        return;
    float speed = qw_vec_length(pm->velocity);
    if (speed < 1) {
        pm->velocity[0] = pm->velocity[1] = 0;
        return;
    }
    float fric = f->mv->friction;
    if (pm->onground != -1) {
        /* The leading edge is over a drop: double friction so players don't slide off. */
        float start[3], stop[3];
        start[0] = stop[0] = pm->origin[0] + pm->velocity[0] / speed * 16;
        start[1] = stop[1] = pm->origin[1] + pm->velocity[1] / speed * 16;
        start[2] = pm->origin[2] + player_mins[2];
        stop[2] = start[2] - 34;
        qw_trace tr;
        qw_pmove_trace(pm, start, stop, &tr, 0);
        if (tr.fraction == 1)
            fric *= 2;
    }
    float drop = 0;
    if (pm->waterlevel >= 2) {
        drop += speed * f->mv->waterfriction * (float)pm->waterlevel * f->frametime;
    } else if (pm->onground != -1) {
        float control = speed < f->mv->stopspeed ? f->mv->stopspeed : speed;
        drop += control * fric * f->frametime;
    }
    float newspeed = speed - drop;
    if (newspeed < 0)
        newspeed = 0;
    newspeed /= speed;
    for (int i = 0; i < 3; i++)
        pm->velocity[i] *= newspeed;
}

/* The velocity the command asks for along forward/right (callers add the vertical part). */
static void wish_velocity(const qw_pmove *pm, const float forward[3], const float right[3],
                          float wishvel[3])
{
    for (int i = 0; i < 3; i++)
        wishvel[i] = forward[i] * pm->cmd.forwardmove + right[i] * pm->cmd.sidemove;
}

/* Splits wishvel into a unit direction and a speed capped at maxspeed (returned). */
static float wish_direction(const float wishvel[3], float wishdir[3], float maxspeed)
{
    qw_vec_copy(wishvel, wishdir);
    float wishspeed = qw_vec_normalize(wishdir);
    return wishspeed > maxspeed ? maxspeed : wishspeed;
}

/* Adds at most accelspeed along wishdir, up to `wanted` speed in that direction. */
static void accelerate_toward(float velocity[3], const float wishdir[3], float wanted,
                              float accelspeed)
{
    float addspeed = wanted - qw_vec_dot(velocity, wishdir);
    if (addspeed <= 0)
        return;
    if (accelspeed > addspeed)
        accelspeed = addspeed;
    qw_vec_ma(velocity, accelspeed, wishdir, velocity);
}

static void accelerate(pm_frame *f, const float wishdir[3], float wishspeed, float accel)
{
    qw_pmove *pm = f->pm;
    if (f->dead || pm->waterjumptime)
        return;
    accelerate_toward(pm->velocity, wishdir, wishspeed, accel * f->frametime * wishspeed);
}

/* In the air the wanted speed is capped at 30 (what makes air control and strafe-jumps). */
static void air_accelerate(pm_frame *f, const float wishdir[3], float wishspeed,
                           float accel)
{
    qw_pmove *pm = f->pm;
    if (f->dead || pm->waterjumptime)
        return;
    float wishspd = wishspeed > 30 ? 30 : wishspeed;
    accelerate_toward(pm->velocity, wishdir, wishspd, accel * wishspeed * f->frametime);
}

static void water_move(pm_frame *f)
{
    qw_pmove *pm = f->pm;
    float wishvel[3], wishdir[3];
    wish_velocity(pm, f->forward, f->right, wishvel);
    if (!pm->cmd.forwardmove && !pm->cmd.sidemove && !pm->cmd.upmove)
        wishvel[2] -= 60;  /* sink slowly */
    else
        wishvel[2] += pm->cmd.upmove;
    float wishspeed = wish_direction(wishvel, wishdir, f->mv->maxspeed) * 0.7f;
    accelerate(f, wishdir, wishspeed, f->mv->wateraccelerate);

    /* Assume a stair or slope: press down from a step above the destination. */
    float dest[3], start[3];
    for (int i = 0; i < 3; i++)
        dest[i] = pm->origin[i] + f->frametime * pm->velocity[i];
    qw_vec_copy(dest, start);
    start[2] += QW_PM_STEPSIZE + 1;
    qw_trace tr;
    qw_pmove_trace(pm, start, dest, &tr, 0);
    if (!tr.startsolid && !tr.allsolid) {
        qw_vec_copy(tr.endpos, pm->origin);
        return;
    }
    fly_move(f);
}

static void air_move(pm_frame *f)
{
    qw_pmove *pm = f->pm;
    float fwd[3] = {f->forward[0], f->forward[1], 0}, rgt[3] = {f->right[0], f->right[1], 0};
    qw_vec_normalize(fwd);
    qw_vec_normalize(rgt);
    float wishvel[3], wishdir[3];
    wish_velocity(pm, fwd, rgt, wishvel);
    wishvel[2] = 0;
    float wishspeed = wish_direction(wishvel, wishdir, f->mv->maxspeed);

    float gravity = f->mv->entgravity * f->mv->gravity * f->frametime;
    if (pm->onground != -1) {
        pm->velocity[2] = 0;
        accelerate(f, wishdir, wishspeed, f->mv->accelerate);
        pm->velocity[2] -= gravity;
        ground_move(f);
    } else {
        air_accelerate(f, wishdir, wishspeed, f->mv->airaccelerate);
        pm->velocity[2] -= gravity;
        fly_move(f);
    }
}

/* Flying with collision (QW_PM_FLY): like swimming without gravity or sinking. */
static void fly_type_move(pm_frame *f)
{
    qw_pmove *pm = f->pm;
    float wishvel[3], wishdir[3];
    wish_velocity(pm, f->forward, f->right, wishvel);
    wishvel[2] += pm->cmd.upmove;
    float wishspeed = wish_direction(wishvel, wishdir, f->mv->maxspeed);
    accelerate(f, wishdir, wishspeed, f->mv->accelerate);
    fly_move(f);
}

/* Sets onground (snapping down onto the floor), watertype and waterlevel. */
static void categorize_position(pm_frame *f)
{
    qw_pmove *pm = f->pm;
    float point[3] = {pm->origin[0], pm->origin[1], pm->origin[2] - 1};
    if (pm->velocity[2] > 180) {
        pm->onground = -1;  /* moving up fast: not on ground even if touching */
    } else {
        qw_trace tr;
        int hit;
        qw_pmove_trace(pm, pm->origin, point, &tr, &hit);
        pm->onground = tr.plane.normal[2] < 0.7f ? -1 : hit;
        if (pm->onground != -1) {
            pm->waterjumptime = 0;
            if (!tr.startsolid && !tr.allsolid)
                qw_vec_copy(tr.endpos, pm->origin);
        }
        if (hit > 0)
            add_touch(pm, hit);  /* standing on something other than the world */
    }

    pm->waterlevel = 0;
    pm->watertype = QW_CONTENTS_EMPTY;
    point[0] = pm->origin[0];
    point[1] = pm->origin[1];
    point[2] = pm->origin[2] + player_mins[2] + 1;
    int cont = point_contents(pm, point);
    if (cont <= QW_CONTENTS_WATER) {
        pm->watertype = cont;
        pm->waterlevel = 1;
        point[2] = pm->origin[2] + (player_mins[2] + player_maxs[2]) * 0.5f;
        cont = point_contents(pm, point);
        if (cont <= QW_CONTENTS_WATER) {
            pm->waterlevel = 2;
            point[2] = pm->origin[2] + 22;
            cont = point_contents(pm, point);
            if (cont <= QW_CONTENTS_WATER)
                pm->waterlevel = 3;
        }
    }
}

static void jump_button(pm_frame *f)
{
    qw_pmove *pm = f->pm;
    if (f->dead) {
        pm->oldbuttons |= QW_PM_BUTTON_JUMP;  /* no jump until released after respawn */
        return;
    }
    if (pm->waterjumptime) {
        pm->waterjumptime -= f->frametime;
        if (pm->waterjumptime < 0)
            pm->waterjumptime = 0;
        return;
    }
    if (pm->waterlevel >= 2) {  /* swimming up */
        pm->onground = -1;
        pm->velocity[2] = pm->watertype == QW_CONTENTS_WATER ? 100
                        : pm->watertype == QW_CONTENTS_SLIME ? 80 : 50;
        return;
    }
    if (pm->onground == -1)
        return;
    if (pm->oldbuttons & QW_PM_BUTTON_JUMP)
        return;  /* no pogo-sticking: release the button first */
    pm->onground = -1;
    pm->velocity[2] += QW_PM_JUMP_VELOCITY;
    pm->oldbuttons |= QW_PM_BUTTON_JUMP;
}

/* Swimming toward a ledge with solid at the waist and air above: hop out. */
static void check_water_jump(pm_frame *f)
{
    qw_pmove *pm = f->pm;
    if (pm->waterjumptime || pm->velocity[2] < -180)
        return;
    float flat[3] = {f->forward[0], f->forward[1], 0};
    qw_vec_normalize(flat);
    float spot[3];
    for (int i = 0; i < 3; i++)
        spot[i] = pm->origin[i] + 24 * flat[i];
    spot[2] += 8;
    if (point_contents(pm, spot) != QW_CONTENTS_SOLID)
        return;
    spot[2] += 24;
    if (point_contents(pm, spot) != QW_CONTENTS_EMPTY)
        return;
    pm->velocity[0] = flat[0] * 50;
    pm->velocity[1] = flat[1] * 50;
    pm->velocity[2] = 310;
    pm->waterjumptime = 2;
    pm->oldbuttons |= QW_PM_BUTTON_JUMP;
}

/* If the player starts stuck, try the positions 1/8 unit around (origins travel in 1/8). */
static void nudge_position(qw_pmove *pm)
{
    static const float sign[3] = {0, -1, 1};
    float base[3];
    qw_vec_copy(pm->origin, base);
    for (int z = 0; z < 3; z++)
        for (int x = 0; x < 3; x++)
            for (int y = 0; y < 3; y++) {
                pm->origin[0] = base[0] + sign[x] * 0.125f;
                pm->origin[1] = base[1] + sign[y] * 0.125f;
                pm->origin[2] = base[2] + sign[z] * 0.125f;
                if (qw_pmove_test_position(pm, pm->origin))
                    return;
            }
    qw_vec_copy(base, pm->origin);
}

/* Noclip flight with extra friction. */
static void spectator_move(pm_frame *f)
{
    qw_pmove *pm = f->pm;
    float speed = qw_vec_length(pm->velocity);
    if (speed < 1) {
        pm->velocity[0] = pm->velocity[1] = pm->velocity[2] = 0;
    } else {
        float control = speed < f->mv->stopspeed ? f->mv->stopspeed : speed;
        float newspeed = speed - control * f->mv->friction * 1.5f * f->frametime;
        if (newspeed < 0)
            newspeed = 0;
        newspeed /= speed;
        for (int i = 0; i < 3; i++)
            pm->velocity[i] *= newspeed;
    }
    float fwd[3], rgt[3], wishvel[3], wishdir[3];
    qw_vec_copy(f->forward, fwd);
    qw_vec_copy(f->right, rgt);
    qw_vec_normalize(fwd);
    qw_vec_normalize(rgt);
    wish_velocity(pm, fwd, rgt, wishvel);
    wishvel[2] += pm->cmd.upmove;
    float wishspeed = wish_direction(wishvel, wishdir, f->mv->spectatormaxspeed);
    accelerate_toward(pm->velocity, wishdir, wishspeed,
                      f->mv->accelerate * f->frametime * wishspeed);
    for (int i = 0; i < 3; i++)
        pm->origin[i] += f->frametime * pm->velocity[i];
}

LIBTM_PURE void qw_pmove_run(qw_pmove *pm, const qw_movevars *mv)
{
    pm_frame f;
    f.pm = pm;
    f.mv = mv;
    int msec = pm->cmd.msec < 0 ? 0 : pm->cmd.msec > 255 ? 255 : pm->cmd.msec;
    f.frametime = (float)msec * 0.001f;
    f.dead = pm->pm_type == QW_PM_DEAD || pm->pm_type == QW_PM_OLD_DEAD;
    pm->numtouch = 0;
    if (pm->numphysent < 1 || pm->numphysent > QW_MAX_PHYSENTS)
        pm->numphysent = pm->numphysent < 1 ? 0 : QW_MAX_PHYSENTS;
    qw_vec_copy(pm->cmd.angles, pm->angles);
    qw_angle_vectors(pm->angles, f.forward, f.right, f.up);

    if (pm->pm_type == QW_PM_NONE)
        return;
    if (pm->pm_type == QW_PM_SPECTATOR) {
        spectator_move(&f);
        return;
    }
    nudge_position(pm);
    categorize_position(&f);
    if (pm->pm_type == QW_PM_FLY) {
        fly_type_move(&f);
        categorize_position(&f);
        return;
    }
    if (pm->waterlevel == 2)
        check_water_jump(&f);
    if (pm->velocity[2] < 0)
        pm->waterjumptime = 0;
    if (pm->cmd.buttons & QW_PM_BUTTON_JUMP)
        jump_button(&f);
    else
        pm->oldbuttons &= ~QW_PM_BUTTON_JUMP;
    friction(&f);
    if (pm->waterlevel >= 2)
        water_move(&f);
    else
        air_move(&f);
    categorize_position(&f);
}
