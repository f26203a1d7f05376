/* Player movement on generated rooms: gravity and landing, walking into a wall, stepping up an
 * 18-unit stair (but not a 24-unit one), jumping, friction, other players as boxes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "pmove.h"
#include "test_util.h"

static qw_movevars mv;

static void run(qw_pmove *pm, int frames, int msec)
{
    for (int i = 0; i < frames; i++) {
        pm->cmd.msec = msec;
        qw_pmove_run(pm, &mv);
    }
}

static int setup(void **state)
{
    (void)state;
    qw_movevars_default(&mv);
    return 0;
}

static void falls_and_lands(void **state)
{
    (void)state;
    qw_bsp *bsp = room_with_boxes(512, 512, NULL, 0);
    static qw_pmove pm;
    const float start[3] = {0, 0, 300};
    qw_pmove_init(&pm, bsp, start);
    run(&pm, 1, 20);
    assert_int_equal(pm.onground, -1);
    assert_float_equal(pm.velocity[2], -800 * 0.020f, 0.01);
    assert_true(pm.origin[2] < 300);
    float prev_vz = pm.velocity[2];
    run(&pm, 1, 20);
    assert_true(pm.velocity[2] < prev_vz);     /* accelerating downward */
    run(&pm, 100, 20);                          /* 2 s: long enough to land from 276 */
    assert_int_equal(pm.onground, 0);           /* on the world */
    assert_float_equal(pm.origin[2], 24, 0.05); /* feet (origin - 24) on the floor */
    assert_float_equal(pm.velocity[2], 0, 0.001);
    assert_float_equal(pm.origin[0], 0, 0.001);
    qw_bsp_free(bsp);
}

static void walks_into_wall(void **state)
{
    (void)state;
    qw_bsp *bsp = room_with_boxes(512, 256, NULL, 0);
    static qw_pmove pm;
    const float start[3] = {0, 0, 24};
    qw_pmove_init(&pm, bsp, start);
    pm.cmd.angles[1] = 0;           /* facing +X */
    pm.cmd.forwardmove = 400;       /* more than maxspeed: clamped to 320 */
    run(&pm, 1, 13);
    assert_int_equal(pm.onground, 0);
    run(&pm, 30, 13);
    float speed = sqrtf(pm.velocity[0] * pm.velocity[0] + pm.velocity[1] * pm.velocity[1]);
    assert_float_equal(speed, 320, 1);
    assert_float_equal(pm.velocity[1], 0, 0.01);
    run(&pm, 200, 13);              /* 2.6 s at 320 covers far more than 256 */
    assert_true(pm.origin[0] <= 256 - 16);
    assert_true(pm.origin[0] > 256 - 16 - 0.1f);
    assert_float_equal(pm.origin[2], 24, 0.05);
    assert_float_equal(pm.velocity[0], 0, 0.001);
    assert_true(pm.numtouch >= 1 && pm.touchindex[0] == 0);  /* touched the world */

    /* Walking diagonally into the wall slides along it. */
    pm.cmd.angles[1] = 45;
    float y0 = pm.origin[1];
    run(&pm, 20, 13);
    assert_true(pm.origin[1] > y0 + 10);
    assert_true(pm.origin[0] <= 240);
    qw_bsp_free(bsp);
}

static void steps_up_stairs(void **state)
{
    (void)state;
    const float stair18[][6] = {{100, -256, 0, 200, 256, 18}};
    const float step24[][6] = {{100, -256, 0, 200, 256, 24}};
    for (int variant = 0; variant < 2; variant++) {
        qw_bsp *bsp = room_with_boxes(512, 256, variant ? step24 : stair18, 1);
        static qw_pmove pm;
        const float start[3] = {0, 0, 24};
        qw_pmove_init(&pm, bsp, start);
        pm.cmd.forwardmove = 320;
        run(&pm, 40, 13);   /* 0.52 s: past x = 100 onto the step, not yet at its end */
        if (variant == 0) {
            assert_true(pm.origin[0] > 100);
            assert_float_equal(pm.origin[2], 18 + 24, 0.05);
            assert_int_equal(pm.onground, 0);
        } else {
            assert_true(pm.origin[0] <= 100 - 16);
            assert_float_equal(pm.origin[2], 24, 0.05);
        }
        qw_bsp_free(bsp);
    }
}

static void jumps(void **state)
{
    (void)state;
    qw_bsp *bsp = room_with_boxes(512, 256, NULL, 0);
    static qw_pmove pm;
    const float start[3] = {0, 0, 24};
    qw_pmove_init(&pm, bsp, start);
    run(&pm, 2, 13);
    assert_int_equal(pm.onground, 0);
    pm.cmd.buttons = QW_PM_BUTTON_JUMP;
    run(&pm, 1, 13);
    /* +270 up, then one frame of gravity. */
    assert_float_equal(pm.velocity[2], 270 - 800 * 0.013f, 0.01);
    assert_int_equal(pm.onground, -1);
    float top = pm.origin[2];
    for (int i = 0; i < 100; i++) {
        run(&pm, 1, 13);
        if (pm.origin[2] > top)
            top = pm.origin[2];
    }
    /* Peak height v^2 / 2g = 45.6 above the start (discrete steps land close to it). */
    assert_true(top - 24 > 42 && top - 24 < 48);
    /* Holding the button does not jump again after landing. */
    assert_int_equal(pm.onground, 0);
    run(&pm, 5, 13);
    assert_float_equal(pm.origin[2], 24, 0.05);
    /* Released and pressed again: jumps. */
    pm.cmd.buttons = 0;
    run(&pm, 1, 13);
    pm.cmd.buttons = QW_PM_BUTTON_JUMP;
    run(&pm, 1, 13);
    assert_true(pm.velocity[2] > 200);
    /* Dead players do not jump. */
    qw_pmove_init(&pm, bsp, start);
    pm.pm_type = QW_PM_DEAD;
    run(&pm, 2, 13);
    pm.cmd.buttons = QW_PM_BUTTON_JUMP;
    run(&pm, 1, 13);
    assert_float_equal(pm.velocity[2], 0, 0.001);
    qw_bsp_free(bsp);
}

static void friction_stops(void **state)
{
    (void)state;
    qw_bsp *bsp = room_with_boxes(2048, 256, NULL, 0);
    static qw_pmove pm;
    const float start[3] = {-800, 0, 24};
    qw_pmove_init(&pm, bsp, start);
    run(&pm, 1, 13);
    pm.velocity[0] = 300;
    run(&pm, 1, 13);
    assert_true(pm.velocity[0] < 300 && pm.velocity[0] > 250);
    float last = pm.velocity[0];
    run(&pm, 5, 13);
    assert_true(pm.velocity[0] < last);
    run(&pm, 100, 13);     /* 1.3 s: friction 4 with stopspeed 100 stops it well before */
    assert_float_equal(pm.velocity[0], 0, 0);
    float x = pm.origin[0];
    assert_true(x > -800 + 50);
    run(&pm, 10, 13);
    assert_float_equal(pm.origin[0], x, 0);
    /* In the air there is no friction. */
    const float high[3] = {0, 0, 200};
    qw_pmove_init(&pm, bsp, high);
    pm.velocity[0] = 300;
    run(&pm, 3, 13);
    assert_float_equal(pm.velocity[0], 300, 0.001);
    qw_bsp_free(bsp);
}

static void other_players_block(void **state)
{
    (void)state;
    qw_bsp *bsp = room_with_boxes(1024, 256, NULL, 0);
    static qw_pmove pm;
    const float start[3] = {0, 0, 24};
    qw_pmove_init(&pm, bsp, start);
    qw_physent *other = &pm.physents[1];
    other->model = -1;
    other->origin[0] = 200;
    other->origin[1] = 0;
    other->origin[2] = 24;
    memcpy(other->mins, qw_hull_mins[1], sizeof other->mins);
    memcpy(other->maxs, qw_hull_maxs[1], sizeof other->maxs);
    other->info = 42;
    pm.numphysent = 2;
    pm.cmd.forwardmove = 320;
    run(&pm, 100, 13);
    assert_true(pm.origin[0] <= 200 - 32);
    assert_true(pm.origin[0] > 200 - 32 - 0.1f);
    int touched = 0;
    for (int i = 0; i < pm.numtouch; i++)
        touched |= pm.touchindex[i] == 1;
    assert_true(touched);
    assert_true(qw_pmove_test_position(&pm, pm.origin));
    float inside[3] = {200, 10, 24};
    assert_false(qw_pmove_test_position(&pm, inside));
    qw_bsp_free(bsp);
}

/* Physents from the areanode tree: other players block, the player itself and its own
 * missiles do not, objects far away are not added. */
static void area_physents(void **state)
{
    (void)state;
    qw_bsp *bsp = room_with_boxes(2048, 256, NULL, 0);
    static qw_area area;
    qw_area_init(&area, bsp);
    static qw_area_object me, other, missile, far_away, trigger;
    qw_area_object *all[] = {&me, &other, &missile, &far_away, &trigger};
    const float where[][3] = {{0, 0, 24}, {150, 0, 24}, {40, 0, 24}, {900, 900, 24}, {80, 0, 24}};
    for (int i = 0; i < 5; i++) {
        qw_area_object_init(all[i]);
        memcpy(all[i]->origin, where[i], sizeof where[i]);
        memcpy(all[i]->mins, qw_hull_mins[1], sizeof all[i]->mins);
        memcpy(all[i]->maxs, qw_hull_maxs[1], sizeof all[i]->maxs);
        all[i]->solid = QW_SOLID_SLIDEBOX;
    }
    missile.owner = &me;
    trigger.solid = QW_SOLID_TRIGGER;
    for (int i = 0; i < 5; i++)
        qw_area_link_object(&area, all[i]);
    static qw_pmove pm;
    qw_pmove_init(&pm, bsp, where[0]);
    assert_int_equal(qw_pmove_add_area_physents(&pm, &area, &me, 256), 1);
    assert_int_equal(pm.numphysent, 2);
    assert_ptr_equal(pm.physents[1].object, &other);
    assert_int_equal(pm.physents[1].model, -1);
    pm.cmd.forwardmove = 320;
    run(&pm, 60, 13);
    assert_true(pm.origin[0] <= 150 - 32 && pm.origin[0] > 150 - 32 - 0.1f);
    /* The trace reports the object hit. */
    qw_trace tr;
    float ahead[3] = {pm.origin[0] + 50, pm.origin[1], pm.origin[2]};
    qw_pmove_trace(&pm, pm.origin, ahead, &tr, NULL);
    assert_ptr_equal(tr.ent, &other);
    for (int i = 0; i < 5; i++)
        qw_area_unlink_object(all[i]);
    qw_bsp_free(bsp);
}

/* A pool (water volume standing on the floor): wading in raises the water level, the player
 * sinks when idle, swims up with the jump button, and hops out onto a ledge. */
static void swims(void **state)
{
    (void)state;
    const float pool[6] = {100, -256, 0, 256, 256, 40};       /* 40 deep: waist */
    qw_bsp *bsp = room_with_liquid(512, 256, NULL, 0, pool, QW_CONTENTS_WATER);
    static qw_pmove pm;
    const float start[3] = {0, 0, 24};
    qw_pmove_init(&pm, bsp, start);
    run(&pm, 1, 13);
    assert_int_equal(pm.waterlevel, 0);
    assert_int_equal(pm.watertype, QW_CONTENTS_EMPTY);
    pm.cmd.forwardmove = 320;
    run(&pm, 70, 13);
    if (!(pm.origin[0] > 140 && pm.origin[0] < 240))
        fail_msg("x = %g, z = %g, waterlevel %d", pm.origin[0], pm.origin[2], pm.waterlevel);
    assert_int_equal(pm.waterlevel, 2);        /* feet and waist under, eyes (z 46) above */
    assert_int_equal(pm.watertype, QW_CONTENTS_WATER);
    /* Wading at waist level is slower: water friction and 0.7 of the wanted speed. */
    float speed = sqrtf(pm.velocity[0] * pm.velocity[0] + pm.velocity[1] * pm.velocity[1]);
    assert_true(speed < 320 * 0.7f + 1);
    qw_bsp_free(bsp);

    const float deep[6] = {-256, -256, 0, 256, 256, 200};      /* the whole room: underwater */
    bsp = room_with_liquid(512, 256, NULL, 0, deep, QW_CONTENTS_SLIME);
    const float mid[3] = {0, 0, 100};
    qw_pmove_init(&pm, bsp, mid);
    run(&pm, 1, 13);
    assert_int_equal(pm.waterlevel, 3);
    assert_int_equal(pm.watertype, QW_CONTENTS_SLIME);
    run(&pm, 50, 13);
    assert_true(pm.origin[2] < 100);           /* idle: drifts down (60 u/s), no free fall */
    assert_true(pm.velocity[2] > -61);
    pm.cmd.buttons = QW_PM_BUTTON_JUMP;
    run(&pm, 1, 13);
    /* Swimming up in slime sets 80 up, less this frame's water friction and drift. */
    assert_true(pm.velocity[2] > 50 && pm.velocity[2] <= 80);
    qw_bsp_free(bsp);
}

static void spectator_flies_through_walls(void **state)
{
    (void)state;
    qw_bsp *bsp = room_with_boxes(512, 256, NULL, 0);
    static qw_pmove pm;
    const float start[3] = {0, 0, 100};
    qw_pmove_init(&pm, bsp, start);
    pm.pm_type = QW_PM_SPECTATOR;
    pm.cmd.forwardmove = 500;
    run(&pm, 150, 13);
    assert_true(pm.origin[0] > 300);          /* through the wall at 256 */
    assert_float_equal(pm.origin[2], 100, 0.001);  /* no gravity */
    qw_bsp_free(bsp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(falls_and_lands),
        cmocka_unit_test(walks_into_wall),
        cmocka_unit_test(steps_up_stairs),
        cmocka_unit_test(jumps),
        cmocka_unit_test(friction_stops),
        cmocka_unit_test(other_players_block),
        cmocka_unit_test(area_physents),
        cmocka_unit_test(swims),
        cmocka_unit_test(spectator_flies_through_walls),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
