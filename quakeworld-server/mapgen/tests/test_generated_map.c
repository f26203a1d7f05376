/* Maps written by libqwmapgen load with our loader and collide where the boxes are, in every
 * hull; arena layouts are deterministic and their spawn points are free. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsp.h"
#include "mapgen.h"
#include "pvs.h"
#include "qw_map_checksum.h"
#include "trace.h"

static qwmg_map map;

/* A 512 x 512 x 256 room with one pillar at x 64..128, y -32..32 and a 32-unit crate. */
static qw_bsp *fixed_map(int with_faces)
{
    char err[256];
    qwmg_map_init(&map, 512, 256);
    map.with_faces = with_faces;
    float pmin[3] = {64, -32, 0}, pmax[3] = {128, 32, 256};
    float cmin[3] = {-160, -160, 0}, cmax[3] = {-128, -128, 32};
    assert_int_equal(qwmg_add_box(&map, pmin, pmax, err, sizeof err), 0);
    assert_int_equal(qwmg_add_box(&map, cmin, cmax, err, sizeof err), 0);
    float spawn[3] = {-100, 100, 24};
    assert_int_equal(qwmg_add_entity(&map, "info_player_deathmatch", spawn, 90, err, sizeof err), 0);
    uint8_t *file;
    size_t len;
    if (qwmg_build_bsp(&map, &file, &len, err, sizeof err) < 0)
        fail_msg("%s", err);
    qw_bsp *bsp = qw_bsp_load_memory(file, len, "fixed.bsp", err, sizeof err);
    if (!bsp)
        fail_msg("%s", err);
    uint32_t c1, c2;
    assert_int_equal(qw_map_checksums(file, len, &c1, &c2), 0);
    assert_int_equal(c1, bsp->checksum);
    free(file);
    return bsp;
}

static void point_contents(void **state)
{
    (void)state;
    qw_bsp *bsp = fixed_map(1);
    const float inside_pillar[3] = {96, 0, 100}, in_room[3] = {0, 100, 100};
    const float in_crate[3] = {-144, -144, 16}, above_crate[3] = {-144, -144, 40};
    const float outside[3] = {300, 0, 100}, below[3] = {0, 0, -8}, above[3] = {0, 0, 300};
    assert_int_equal(qw_point_contents(bsp, inside_pillar), QW_CONTENTS_SOLID);
    assert_int_equal(qw_point_contents(bsp, in_room), QW_CONTENTS_EMPTY);
    assert_int_equal(qw_point_contents(bsp, in_crate), QW_CONTENTS_SOLID);
    assert_int_equal(qw_point_contents(bsp, above_crate), QW_CONTENTS_EMPTY);
    assert_int_equal(qw_point_contents(bsp, outside), QW_CONTENTS_SOLID);
    assert_int_equal(qw_point_contents(bsp, below), QW_CONTENTS_SOLID);
    assert_int_equal(qw_point_contents(bsp, above), QW_CONTENTS_SOLID);
    /* Hull 1 (player): its origin cannot come within 16 of the pillar's side. */
    const float near_pillar[3] = {50, 0, 100}, clear_of_pillar[3] = {40, 0, 100};
    assert_int_equal(qw_hull_point_contents(&bsp->hulls[1], bsp->hulls[1].firstclipnode, near_pillar),
                     QW_CONTENTS_SOLID);
    assert_int_equal(qw_hull_point_contents(&bsp->hulls[1], bsp->hulls[1].firstclipnode,
                                            clear_of_pillar), QW_CONTENTS_EMPTY);
    assert_int_equal(qw_bsp_num_submodels(bsp), 0);
    qw_bsp_free(bsp);
}

/* A box moving +X from the room centre toward the pillar face at x = 64. */
static void traces_stop_at_walls(void **state)
{
    (void)state;
    qw_bsp *bsp = fixed_map(0);
    for (int hull = 0; hull < QW_MAX_HULLS; hull++) {
        const float *mins = qw_hull_mins[hull], *maxs = qw_hull_maxs[hull];
        float start[3] = {-100, 0, 100}, end[3] = {200, 0, 100};
        qw_trace tr;
        qw_trace_world(bsp, start, mins, maxs, end, &tr);
        float expect = 64 - maxs[0];
        assert_false(tr.startsolid);
        assert_false(tr.allsolid);
        assert_true(tr.fraction < 1);
        if (fabsf(tr.endpos[0] - expect) > 0.05f)
            fail_msg("hull %d: stopped at x=%g, expected %g", hull, tr.endpos[0], expect);
        assert_true(tr.endpos[0] < expect);       /* backed off, never inside */
        assert_float_equal(tr.plane.normal[0], -1, 1e-6);
        assert_float_equal(tr.fraction, (tr.endpos[0] - start[0]) / (end[0] - start[0]), 1e-4);

        /* Falling onto the floor: the box rests with its bottom on z = 0. */
        float top[3] = {0, 150, 100}, down[3] = {0, 150, -100};
        qw_trace_world(bsp, top, mins, maxs, down, &tr);
        if (fabsf(tr.endpos[2] - (0 - mins[2])) > 0.05f)
            fail_msg("hull %d: landed at z=%g, expected %g", hull, tr.endpos[2], -mins[2]);
        assert_float_equal(tr.plane.normal[2], 1, 1e-6);

        /* Toward the outer wall at x = -256. */
        float west[3] = {-400, 150, 100};
        qw_trace_world(bsp, top, mins, maxs, west, &tr);
        assert_true(fabsf(tr.endpos[0] - (-256 - mins[0])) < 0.05f);

        /* A clear move goes all the way. */
        float a[3] = {-50, 150, 100}, b[3] = {0, 150, 120};
        qw_trace_world(bsp, a, mins, maxs, b, &tr);
        assert_float_equal(tr.fraction, 1, 0);
        assert_float_equal(tr.endpos[0], 0, 0);
        assert_true(tr.inopen);
    }
    /* Starting inside the pillar: startsolid and allsolid. */
    float in[3] = {96, 0, 100}, out[3] = {96, 0, 110};
    qw_trace tr;
    qw_trace_world(bsp, in, qw_hull_mins[0], qw_hull_maxs[0], out, &tr);
    assert_true(tr.startsolid);
    assert_true(tr.allsolid);
    /* Starting inside, leaving: startsolid only. */
    float leave[3] = {0, 0, 100};
    qw_trace_world(bsp, in, qw_hull_mins[0], qw_hull_maxs[0], leave, &tr);
    assert_true(tr.startsolid);
    assert_false(tr.allsolid);
    qw_bsp_free(bsp);
}

static void vis_everything_visible(void **state)
{
    (void)state;
    qw_bsp *bsp = fixed_map(1);
    char err[256];
    qw_pvs *pvs = qw_pvs_create(bsp, err, sizeof err);
    assert_non_null(pvs);
    const float a[3] = {-200, -200, 100}, b[3] = {200, 200, 200};
    int la = qw_bsp_leaf_for_point(bsp, a), lb = qw_bsp_leaf_for_point(bsp, b);
    assert_true(la > 0 && lb > 0 && la != lb);
    assert_true(qw_pvs_row_has(qw_pvs_row(pvs, la), lb - 1));
    assert_true(qw_pvs_row_has(qw_pvs_row(pvs, lb), la - 1));
    qw_pvs_free(pvs);
    qw_bsp_free(bsp);
}

static void arena_deterministic_and_spawns_free(void **state)
{
    (void)state;
    char err[256];
    qwmg_arena_options opt;
    qwmg_arena_defaults(&opt);
    opt.seed = 7;
    uint8_t *f1, *f2, *f3;
    size_t l1, l2, l3;
    static qwmg_map m2;
    assert_int_equal(qwmg_arena_layout(&map, &opt, err, sizeof err), 0);
    assert_int_equal(qwmg_build_bsp(&map, &f1, &l1, err, sizeof err), 0);
    assert_int_equal(qwmg_arena_layout(&m2, &opt, err, sizeof err), 0);
    assert_int_equal(qwmg_build_bsp(&m2, &f2, &l2, err, sizeof err), 0);
    assert_int_equal(l1, l2);
    assert_memory_equal(f1, f2, l1);
    opt.seed = 8;
    assert_int_equal(qwmg_arena_layout(&m2, &opt, err, sizeof err), 0);
    assert_int_equal(qwmg_build_bsp(&m2, &f3, &l3, err, sizeof err), 0);
    assert_true(l1 != l3 || memcmp(f1, f3, l1) != 0);

    qw_bsp *bsp = qw_bsp_load_memory(f1, l1, "arena.bsp", err, sizeof err);
    if (!bsp)
        fail_msg("%s", err);
    assert_int_equal(map.num_boxes, opt.pillars + opt.crates);
    qw_entity_iter it;
    static qw_entity_fields fields;
    qw_entity_iter_init(&it, qw_bsp_entity_string(bsp));
    int spawns = 0, items = 0, n = 0, r;
    while ((r = qw_entity_next(&it, &fields)) == 1) {
        const char *cls = qw_entity_get(&fields, "classname");
        if (n++ == 0)
            assert_string_equal(cls, "worldspawn");
        const char *org = qw_entity_get(&fields, "origin");
        if (!org)
            continue;
        float o[3];
        assert_int_equal(sscanf(org, "%f %f %f", &o[0], &o[1], &o[2]), 3);
        if (strcmp(cls, "info_player_deathmatch") == 0) {
            spawns++;
            /* The player fits at the spawn and stands on the floor. */
            assert_int_equal(qw_hull_point_contents(&bsp->hulls[1], bsp->hulls[1].firstclipnode, o),
                             QW_CONTENTS_EMPTY);
            float below[3] = {o[0], o[1], o[2] - 64};
            qw_trace tr;
            qw_trace_world(bsp, o, qw_hull_mins[1], qw_hull_maxs[1], below, &tr);
            assert_true(tr.fraction < 0.05f);
        } else if (strncmp(cls, "item_", 5) == 0 || strncmp(cls, "weapon_", 7) == 0) {
            items++;
            assert_int_equal(qw_point_contents(bsp, o), QW_CONTENTS_EMPTY);
        }
    }
    assert_int_equal(r, 0);
    assert_int_equal(spawns, opt.spawns);
    assert_int_equal(items, 6);
    qw_bsp_free(bsp);
    free(f1);
    free(f2);
    free(f3);
}

/* Liquids are hull-0 contents only; they get faces from both sides. */
static void liquids(void **state)
{
    (void)state;
    char err[256];
    qwmg_map_init(&map, 512, 256);
    float wmin[3] = {-200, -200, 0}, wmax[3] = {0, 0, 64};
    float lmin[3] = {100, 100, 0}, lmax[3] = {200, 200, 16};
    float smin[3] = {-150, -150, 0}, smax[3] = {-100, -100, 100};   /* solid post in the pool */
    assert_int_equal(qwmg_add_liquid(&map, wmin, wmax, QW_CONTENTS_WATER, err, sizeof err), 0);
    assert_int_equal(qwmg_add_liquid(&map, lmin, lmax, QW_CONTENTS_LAVA, err, sizeof err), 0);
    assert_int_equal(qwmg_add_box(&map, smin, smax, err, sizeof err), 0);
    assert_int_equal(qwmg_add_liquid(&map, lmin, lmax, QW_CONTENTS_SOLID, err, sizeof err), -1);
    uint8_t *file;
    size_t len;
    assert_int_equal(qwmg_build_bsp(&map, &file, &len, err, sizeof err), 0);
    qw_bsp *bsp = qw_bsp_load_memory(file, len, "liquid.bsp", err, sizeof err);
    free(file);
    assert_non_null(bsp);
    const float in_water[3] = {-50, -50, 30}, in_lava[3] = {150, 150, 8}, above_lava[3] = {150, 150, 20};
    const float in_post[3] = {-125, -125, 30}, above_post[3] = {-125, -125, 80};
    assert_int_equal(qw_point_contents(bsp, in_water), QW_CONTENTS_WATER);
    assert_int_equal(qw_point_contents(bsp, in_lava), QW_CONTENTS_LAVA);
    assert_int_equal(qw_point_contents(bsp, above_lava), QW_CONTENTS_EMPTY);
    assert_int_equal(qw_point_contents(bsp, in_post), QW_CONTENTS_SOLID);
    assert_int_equal(qw_point_contents(bsp, above_post), QW_CONTENTS_SOLID);
    /* The player hull moves through water as through air. */
    const float wading[3] = {-50, -50, 24};
    assert_int_equal(qw_hull_point_contents(&bsp->hulls[1], bsp->hulls[1].firstclipnode, wading),
                     QW_CONTENTS_EMPTY);
    qw_trace tr;
    const float top[3] = {-50, -50, 200}, down[3] = {-50, -50, -100};
    qw_trace_world(bsp, top, qw_hull_mins[1], qw_hull_maxs[1], down, &tr);
    assert_float_equal(tr.endpos[2], 24, 0.05);   /* lands on the pool floor, not the surface */
    qw_trace_world(bsp, top, qw_hull_mins[0], qw_hull_maxs[0], down, &tr);
    assert_true(tr.inwater);
    qw_bsp_free(bsp);
}

/* --launchers and --teleporters: launcher n on spawn point n, each with a box of rockets; the
 * pads are brush models *1..*N (bounds = the pad, every hull solid inside the pad grown by the
 * hull's box and empty outside), trigger_teleport entities naming them and their target, and
 * each destination a quarter of the room from every pad that sends to it, with room for a
 * player. */
static void launchers_and_teleporters(void **state)
{
    (void)state;
    char err[256];
    qwmg_arena_options opt;
    qwmg_arena_defaults(&opt);
    opt.size = 1536;
    opt.spawns = 12;
    opt.items = "item_health";   /* the default list has a launcher of its own */
    opt.launchers = 3;
    opt.teleporters = 6;
    opt.teleport_destinations = 2;
    assert_int_equal(qwmg_arena_layout(&map, &opt, err, sizeof err), 0);
    assert_int_equal(map.num_triggers, 6);
    uint8_t *file;
    size_t len;
    if (qwmg_build_bsp(&map, &file, &len, err, sizeof err) < 0)
        fail_msg("%s", err);
    qw_bsp *bsp = qw_bsp_load_memory(file, len, "pads.bsp", err, sizeof err);
    free(file);
    if (!bsp)
        fail_msg("%s", err);
    assert_int_equal(qw_bsp_num_submodels(bsp), 6);

    qw_entity_iter it;
    static qw_entity_fields fields;
    qw_entity_iter_init(&it, qw_bsp_entity_string(bsp));
    float spawn[16][3], dest[2][3], pad_centre[6][3];
    int spawns = 0, launchers = 0, rockets = 0, pads = 0, dests = 0, r;
    char pad_target[6][16];
    while ((r = qw_entity_next(&it, &fields)) == 1) {
        const char *cls = qw_entity_get(&fields, "classname");
        const char *org = qw_entity_get(&fields, "origin");
        float o[3] = {0, 0, 0};
        if (org)
            assert_int_equal(sscanf(org, "%f %f %f", &o[0], &o[1], &o[2]), 3);
        if (!strcmp(cls, "info_player_deathmatch")) {
            memcpy(spawn[spawns++], o, sizeof o);
        } else if (!strcmp(cls, "weapon_rocketlauncher")) {
            /* on spawn point n (spawns come first in the entity list) */
            assert_true(launchers < spawns);
            assert_float_equal(o[0], spawn[launchers][0], 0);
            assert_float_equal(o[1], spawn[launchers][1], 0);
            assert_int_equal(qw_point_contents(bsp, o), QW_CONTENTS_EMPTY);
            launchers++;
        } else if (!strcmp(cls, "item_rockets")) {
            rockets++;
        } else if (!strcmp(cls, "trigger_teleport")) {
            /* a brush entity: its model, no origin */
            assert_null(org);
            const char *model = qw_entity_get(&fields, "model"), *target =
                qw_entity_get(&fields, "target");
            assert_non_null(model);
            assert_non_null(target);
            int n = atoi(model + 1);
            assert_int_equal(model[0], '*');
            assert_int_equal(n, pads + 1);
            snprintf(pad_target[pads], sizeof pad_target[0], "%s", target);
            const qw_bsp_model *m = qw_bsp_get_model(bsp, n);
            for (int i = 0; i < 3; i++) {
                assert_float_equal(m->maxs[i] - m->mins[i], 64, 0);
                pad_centre[pads][i] = (m->mins[i] + m->maxs[i]) / 2;
            }
            assert_float_equal(m->mins[2], 0, 0);
            assert_int_equal(m->numfaces, 0);
            /* every hull: solid inside the pad grown by the hull box, empty just outside */
            for (int h = 0; h < QW_MAX_HULLS; h++) {
                qw_bsp_hull hull;
                assert_int_equal(qw_bsp_model_hull(bsp, n, h, &hull), 0);
                float in[3] = {pad_centre[pads][0], pad_centre[pads][1], 32};
                float edge[3] = {m->maxs[0] - qw_hull_mins[h][0] - 1, pad_centre[pads][1], 32};
                float out[3] = {m->maxs[0] - qw_hull_mins[h][0] + 1, pad_centre[pads][1], 32};
                assert_int_equal(qw_hull_point_contents(&hull, hull.firstclipnode, in),
                                 QW_CONTENTS_SOLID);
                assert_int_equal(qw_hull_point_contents(&hull, hull.firstclipnode, edge),
                                 QW_CONTENTS_SOLID);
                assert_int_equal(qw_hull_point_contents(&hull, hull.firstclipnode, out),
                                 QW_CONTENTS_EMPTY);
            }
            /* the world's hulls do not see the pad: players walk onto it */
            float on_pad[3] = {pad_centre[pads][0], pad_centre[pads][1], 24};
            assert_int_equal(qw_hull_point_contents(&bsp->hulls[1], bsp->hulls[1].firstclipnode,
                                                    on_pad), QW_CONTENTS_EMPTY);
            pads++;
        } else if (!strcmp(cls, "info_teleport_destination")) {
            const char *name = qw_entity_get(&fields, "targetname");
            assert_non_null(name);
            char want[16];
            snprintf(want, sizeof want, "tele%d", dests + 1);
            assert_string_equal(name, want);
            /* a player arriving 27 above it fits */
            float arrive[3] = {o[0], o[1], o[2] + 27};
            assert_int_equal(qw_hull_point_contents(&bsp->hulls[1], bsp->hulls[1].firstclipnode,
                                                    arrive), QW_CONTENTS_EMPTY);
            memcpy(dest[dests++], o, sizeof o);
        }
    }
    assert_int_equal(r, 0);
    assert_int_equal(spawns, 12);
    assert_int_equal(launchers, 3);
    assert_int_equal(rockets, 3);
    assert_int_equal(pads, 6);
    assert_int_equal(dests, 2);
    for (int n = 0; n < pads; n++) {
        /* pad n sends to destination n mod 2, a quarter of the room (384) away or more */
        char want[16];
        snprintf(want, sizeof want, "tele%d", n % 2 + 1);
        assert_string_equal(pad_target[n], want);
        const float *d = dest[n % 2];
        float dx = d[0] - pad_centre[n][0], dy = d[1] - pad_centre[n][1];
        assert_true(dx * dx + dy * dy >= 384.0f * 384.0f);
    }
    qw_bsp_free(bsp);
}

static void bad_options_rejected(void **state)
{
    (void)state;
    char err[256] = "";
    qwmg_arena_options opt;
    qwmg_arena_defaults(&opt);
    opt.size = 300;
    opt.pillars = 50;
    assert_int_equal(qwmg_arena_layout(&map, &opt, err, sizeof err), -1);
    assert_non_null(strstr(err, "--size"));
    qwmg_map_init(&map, 512, 256);
    float a[3] = {0, 0, 0}, b[3] = {0, 10, 10}, c[3] = {600, 10, 10};
    assert_int_equal(qwmg_add_box(&map, a, b, err, sizeof err), -1);
    assert_int_equal(qwmg_add_box(&map, a, c, err, sizeof err), -1);
    assert_int_equal(qwmg_add_entity(&map, "bad\"name", a, 0, err, sizeof err), -1);

    /* more teleporters than trigger volumes, more destinations than pads, too many pads
     * for the room: each message names the option */
    qwmg_arena_defaults(&opt);
    opt.teleporters = QWMG_MAX_TRIGGERS + 1;
    assert_int_equal(qwmg_arena_layout(&map, &opt, err, sizeof err), -1);
    assert_non_null(strstr(err, "--teleporters"));
    assert_non_null(strstr(err, "0..32"));
    opt.teleporters = 2;
    opt.teleport_destinations = 3;
    assert_int_equal(qwmg_arena_layout(&map, &opt, err, sizeof err), -1);
    assert_non_null(strstr(err, "--teleport-destinations"));
    opt.teleport_destinations = 0;
    opt.launchers = -1;
    assert_int_equal(qwmg_arena_layout(&map, &opt, err, sizeof err), -1);
    assert_non_null(strstr(err, "--launchers"));
    opt.launchers = 0;
    opt.size = 256;
    opt.pillars = opt.crates = 0;
    opt.spawns = 1;
    opt.items = "";
    opt.teleporters = 32;
    assert_int_equal(qwmg_arena_layout(&map, &opt, err, sizeof err), -1);
    assert_non_null(strstr(err, "trigger_teleport"));
    float lo[3] = {0, 0, 0}, hi[3] = {10, 10, 10};
    qwmg_map_init(&map, 512, 256);
    for (int i = 0; i < QWMG_MAX_TRIGGERS; i++)
        assert_non_null(qwmg_add_trigger(&map, "trigger_teleport", lo, hi, "t", err, sizeof err));
    assert_null(qwmg_add_trigger(&map, "trigger_teleport", lo, hi, "t", err, sizeof err));
    assert_non_null(strstr(err, "at most 32"));
    qwmg_map_init(&map, 512, 256);
    assert_null(qwmg_add_trigger(&map, "trigger_teleport", lo, a, "t", err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(point_contents),
        cmocka_unit_test(traces_stop_at_walls),
        cmocka_unit_test(vis_everything_visible),
        cmocka_unit_test(arena_deterministic_and_spawns_free),
        cmocka_unit_test(liquids),
        cmocka_unit_test(launchers_and_teleporters),
        cmocka_unit_test(bad_options_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
