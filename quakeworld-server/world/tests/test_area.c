/* The areanode tree: box queries find exactly the linked objects that overlap (checked against
 * brute force), relinking moves objects between nodes, and world moves hit linked objects with
 * the pass-object/owner rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>

#include "area.h"
#include "test_util.h"

static uint32_t lcg = 777;
static float frand(float lo, float hi)
{
    lcg = lcg * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(lcg >> 8) / (float)(1u << 24);
}

static qw_bsp *bsp;
static qw_area area;

static int setup(void **state)
{
    (void)state;
    const float boxes[][6] = {{-32, -32, 0, 32, 32, 256}};
    bsp = room_with_boxes(2048, 256, boxes, 1);
    return 0;
}

/* A fresh tree for each test, so that a failed test cannot leave its objects linked. */
static int fresh_area(void **state)
{
    (void)state;
    qw_area_init(&area, bsp);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    qw_bsp_free(bsp);
    return 0;
}

static void set_box(qw_area_object *o, float x, float y, float z, float half)
{
    o->origin[0] = x;
    o->origin[1] = y;
    o->origin[2] = z;
    for (int k = 0; k < 3; k++) {
        o->mins[k] = -half;
        o->maxs[k] = half;
    }
}

static void tree_shape(void **state)
{
    (void)state;
    assert_int_equal(area.num_nodes, QW_AREA_NODES);
    assert_int_equal(area.nodes[0].axis == 0 || area.nodes[0].axis == 1, 1);
    /* The two levels below the root split the other axis (square world: alternating). */
    assert_int_equal(area.nodes[0].children[0]->axis, 1 - area.nodes[0].axis);
    int leaves = 0;
    for (int i = 0; i < area.num_nodes; i++)
        leaves += area.nodes[i].axis == -1;
    assert_int_equal(leaves, 1 << QW_AREA_DEPTH);
}

#define NOBJ 200
static qw_area_object objs[NOBJ];

static int brute_force(const float mins[3], const float maxs[3], int kind, int *found)
{
    int n = 0;
    for (int i = 0; i < NOBJ; i++) {
        const qw_area_object *o = &objs[i];
        if (!o->node || o->solid == QW_SOLID_NOT)
            continue;
        if ((kind == QW_SOLID_TRIGGER) != (o->solid == QW_SOLID_TRIGGER))
            continue;
        int overlap = 1;
        for (int k = 0; k < 3; k++)
            if (o->absmin[k] > maxs[k] || o->absmax[k] < mins[k])
                overlap = 0;
        if (overlap)
            found[n++] = i;
    }
    return n;
}

static void queries_match_brute_force(void **state)
{
    (void)state;
    for (int i = 0; i < NOBJ; i++) {
        qw_area_object_init(&objs[i]);
        set_box(&objs[i], frand(-1000, 1000), frand(-1000, 1000), frand(24, 200), frand(4, 80));
        objs[i].solid = i % 5 == 0 ? QW_SOLID_TRIGGER : QW_SOLID_BBOX;
        qw_area_link_object(&area, &objs[i]);
        assert_non_null(objs[i].node);
    }
    for (int round = 0; round < 3; round++) {
        for (int q = 0; q < 300; q++) {
            float c[3] = {frand(-1100, 1100), frand(-1100, 1100), frand(0, 256)};
            float half = frand(1, 400);
            float mins[3] = {c[0] - half, c[1] - half, c[2] - half};
            float maxs[3] = {c[0] + half, c[1] + half, c[2] + half};
            for (int kind = QW_SOLID_TRIGGER; kind <= QW_SOLID_BBOX; kind++) {
                qw_area_object *out[NOBJ];
                int expect[NOBJ];
                int n = qw_area_query_box(&area, mins, maxs, kind, out, NOBJ);
                int m = brute_force(mins, maxs, kind, expect);
                assert_int_equal(n, m);
                for (int i = 0; i < m; i++) {
                    int seen = 0;
                    for (int j = 0; j < n; j++)
                        seen |= out[j] == &objs[expect[i]];
                    assert_true(seen);
                }
                /* A short output array still reports the full count. */
                if (n > 2)
                    assert_int_equal(qw_area_query_box(&area, mins, maxs, kind, out, 2), n);
            }
        }
        /* Move everything and check again; unlink some. */
        for (int i = 0; i < NOBJ; i++) {
            float to[3] = {frand(-1000, 1000), frand(-1000, 1000), frand(24, 200)};
            qw_area_relink_object(&area, &objs[i], to);
            if (i % 7 == round)
                qw_area_unlink_object(&objs[i]);
        }
    }
    for (int i = 0; i < NOBJ; i++)
        qw_area_unlink_object(&objs[i]);
    float all_min[3] = {-5000, -5000, -5000}, all_max[3] = {5000, 5000, 5000};
    qw_area_object *out[1];
    assert_int_equal(qw_area_query_box(&area, all_min, all_max, QW_SOLID_BBOX, out, 1), 0);
}

static void relink_moves_between_nodes(void **state)
{
    (void)state;
    qw_area_object o;
    qw_area_object_init(&o);
    set_box(&o, -800, -800, 100, 16);
    o.solid = QW_SOLID_SLIDEBOX;
    qw_area_link_object(&area, &o);
    qw_areanode *first = o.node;
    assert_int_equal(first->axis, -1);           /* small object far from splits: a leaf node */
    float to[3] = {800, 800, 100};
    qw_area_relink_object(&area, &o, to);
    assert_true(o.node != first);
    assert_int_equal(o.node->axis, -1);
    float old_min[3] = {-850, -850, 50}, old_max[3] = {-750, -750, 150};
    float new_min[3] = {750, 750, 50}, new_max[3] = {850, 850, 150};
    qw_area_object *out[4];
    assert_int_equal(qw_area_query_box(&area, old_min, old_max, QW_SOLID_BBOX, out, 4), 0);
    assert_int_equal(qw_area_query_box(&area, new_min, new_max, QW_SOLID_BBOX, out, 4), 1);
    assert_ptr_equal(out[0], &o);
    /* Straddling the root's split: stays in the root. */
    float centre[3] = {100, 0, 100};
    qw_area_relink_object(&area, &o, centre);
    assert_ptr_equal(o.node, &area.nodes[0]);
    /* absmin/absmax are the box widened by 1. */
    assert_float_equal(o.absmin[0], 83, 0);
    assert_float_equal(o.absmax[2], 117, 0);
    int leafs = o.num_leafs;
    qw_area_unlink_object(&o);
    assert_true(leafs >= 1);
    assert_null(o.node);
    qw_area_unlink_object(&o);                    /* twice is harmless */
}

/* An object that leaves its node for the parent stays there while it fits only one level
 * lower (a box crossing a split back and forth writes no list), and goes down once it fits two
 * levels lower; queries find it wherever it is listed. */
static void relink_stays_one_level_up(void **state)
{
    (void)state;
    const qw_areanode *root = &area.nodes[0], *child = root->children[0];
    assert_int_not_equal(child->axis, -1);
    int a0 = root->axis, a1 = child->axis;
    float at[3] = {0, 0, 100};
    qw_area_object o;
    qw_area_object_init(&o);
    at[a0] = root->dist;              /* across the root's split */
    at[a1] = child->dist;
    set_box(&o, at[0], at[1], at[2], 16);
    o.solid = QW_SOLID_SLIDEBOX;
    qw_area_link_object(&area, &o);
    assert_ptr_equal(o.node, root);
    at[a0] = root->dist + 40;         /* now across the child's split only: fits the child */
    qw_area_relink_object(&area, &o, at);
    assert_ptr_equal(o.node, root);
    float lo[3] = {at[0] - 1, at[1] - 1, 99}, hi[3] = {at[0] + 1, at[1] + 1, 101};
    qw_area_object *out[2];
    assert_int_equal(qw_area_query_box(&area, lo, hi, QW_SOLID_BBOX, out, 2), 1);
    assert_ptr_equal(out[0], &o);
    at[a1] = child->dist + 40;        /* fits a grandchild of the root: moves down */
    qw_area_relink_object(&area, &o, at);
    assert_true(o.node != root && o.node != child);
    qw_area_unlink_object(&o);
}

/* A relink to where the object already is stores nothing: an object that a transaction
 * writes conflicts with every transaction that scans it (its page is read-only here). */
static void relink_in_place_writes_nothing(void **state)
{
    (void)state;
    qw_area_object *o = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(o != MAP_FAILED);
    qw_area_object_init(o);
    set_box(o, -800, -800, 100, 16);
    o->solid = QW_SOLID_SLIDEBOX;
    qw_area_link_object(&area, o);
    float at[3] = {-800, -800, 100};
    assert_int_equal(mprotect(o, 4096, PROT_READ), 0);
    qw_area_relink_object(&area, o, at);   /* a store would fault */
    assert_int_equal(mprotect(o, 4096, PROT_READ | PROT_WRITE), 0);
    at[0] = -790;
    qw_area_relink_object(&area, o, at);
    assert_float_equal(o->absmin[0], -807, 0);
    qw_area_unlink_object(o);
    munmap(o, 4096);
}

/* A walking object rewrites its fence only once its box leaves it, queries test the fence
 * first and the box after, and a query or a world move beyond the fence looks no further than
 * the fence (shown with a box made to cover the whole room behind it). */
static void fence_written_once_the_box_leaves_it(void **state)
{
    (void)state;
    assert_int_equal(offsetof(qw_area_object, fence_min) % QW_AREA_STRIPE, 0);
    /* across the root's split, walking along it: listed in the root, which every query and
     * every world move visits */
    const qw_areanode *root = &area.nodes[0];
    int a0 = root->axis, a1 = 1 - root->axis;
    float at[3] = {0, 0, 100};
    at[a0] = root->dist;
    at[a1] = -800;
    qw_area_object o;
    qw_area_object_init(&o);
    set_box(&o, at[0], at[1], at[2], 16);
    o.solid = QW_SOLID_SLIDEBOX;
    qw_area_link_object(&area, &o);
    assert_ptr_equal(o.node, root);
    assert_float_equal(o.fence_min[a1], -817 - QW_AREA_FENCE, 0);
    assert_float_equal(o.fence_max[2], 117 + QW_AREA_FENCE, 0);
    /* steps of 4: the fence holds the box for QW_AREA_FENCE / 4 of them */
    float fence0 = o.fence_min[a1];
    int steps = 0;
    while (o.fence_min[a1] == fence0 && steps < 100) {
        at[a1] += 4;
        qw_area_relink_object(&area, &o, at);
        assert_float_equal(o.absmin[a1], at[a1] - 17, 0);
        steps++;
    }
    assert_int_equal(steps, (int)(QW_AREA_FENCE / 4) + 1);
    assert_float_equal(o.fence_min[a1], at[a1] - 17 - QW_AREA_FENCE, 0);
    assert_ptr_equal(o.node, root);
    /* inside the fence but clear of the box: nothing; on the box: the object */
    float lo[3] = {at[0] - 5, at[1] - 5, 95}, hi[3] = {at[0] + 5, at[1] + 5, 105};
    lo[a1] = at[a1] + 20;
    hi[a1] = at[a1] + 30;
    qw_area_object *out[2];
    assert_int_equal(qw_area_query_box(&area, lo, hi, QW_SOLID_BBOX, out, 2), 0);
    lo[a1] = at[a1] + 10;
    hi[a1] = at[a1] + 12;
    assert_int_equal(qw_area_query_box(&area, lo, hi, QW_SOLID_BBOX, out, 2), 1);
    /* beyond the fence nothing else is looked at: a box made to cover the room stays unseen */
    for (int i = 0; i < 3; i++) {
        o.absmin[i] = -4096;
        o.absmax[i] = 4096;
    }
    lo[a1] = 700;
    hi[a1] = 710;
    assert_int_equal(qw_area_query_box(&area, lo, hi, QW_SOLID_BBOX, out, 2), 0);
    float start[3] = {at[0], at[1], 100}, end[3] = {at[0], at[1], 100}, zero[3] = {0, 0, 0};
    start[a1] = 600;
    end[a1] = 700;
    qw_trace tr;
    qw_world_move(&area, start, zero, zero, end, QW_MOVE_NORMAL, NULL, &tr);
    assert_null(tr.ent);
    assert_float_equal(tr.fraction, 1, 0);
    qw_area_unlink_object(&o);
}

static void world_move_hits_objects(void **state)
{
    (void)state;
    qw_area_object target, shooter, rocket, trigger;
    qw_area_object_init(&target);
    qw_area_object_init(&shooter);
    qw_area_object_init(&rocket);
    qw_area_object_init(&trigger);
    set_box(&target, 300, 300, 100, 16);
    target.solid = QW_SOLID_SLIDEBOX;
    set_box(&shooter, 100, 300, 100, 16);
    shooter.solid = QW_SOLID_SLIDEBOX;
    set_box(&trigger, 200, 300, 100, 20);
    trigger.solid = QW_SOLID_TRIGGER;
    set_box(&rocket, 150, 300, 100, 0);
    rocket.solid = QW_SOLID_BBOX;
    rocket.owner = &shooter;
    qw_area_link_object(&area, &target);
    qw_area_link_object(&area, &shooter);
    qw_area_link_object(&area, &trigger);
    qw_area_link_object(&area, &rocket);

    /* A point from the shooter toward the target: hits the target's face at x = 284. */
    const float zero[3] = {0, 0, 0};
    float start[3] = {100, 300, 100}, end[3] = {600, 300, 100};
    qw_trace tr;
    qw_world_move(&area, start, zero, zero, end, QW_MOVE_NORMAL, &shooter, &tr);
    assert_ptr_equal(tr.ent, &target);
    assert_true(fabsf(tr.endpos[0] - 284) < 0.1f);
    /* NOMONSTERS: boxes are ignored, the world wall at x = 1024 stops it. */
    float far[3] = {1500, 300, 100};
    qw_world_move(&area, start, zero, zero, far, QW_MOVE_NOMONSTERS, &shooter, &tr);
    assert_null(tr.ent);
    assert_true(fabsf(tr.endpos[0] - 1024) < 0.1f);
    /* The target itself as pass object: the ray goes through it. */
    float s2[3] = {400, 300, 100}, e2[3] = {0, 300, 100};
    qw_world_move(&area, s2, zero, zero, e2, QW_MOVE_NORMAL, &target, &tr);
    /* ...but is stopped by the rocket's point? points never block points: it is stopped by
     * the shooter at x = 116. */
    assert_ptr_equal(tr.ent, &shooter);
    assert_true(fabsf(tr.endpos[0] - 116) < 0.1f);
    /* The rocket (owned by the shooter) flying back does not hit its owner. */
    float s3[3] = {150, 300, 100}, e3[3] = {50, 300, 100};
    qw_world_move(&area, s3, zero, zero, e3, QW_MOVE_NORMAL, &rocket, &tr);
    assert_float_equal(tr.fraction, 1, 0);
    /* The shooter moving through its own rocket is not blocked by it either. */
    const float pmins[3] = {-16, -16, -24}, pmaxs[3] = {16, 16, 32};
    float s4[3] = {100, 300, 100}, e4[3] = {200, 300, 100};
    qw_world_move(&area, s4, pmins, pmaxs, e4, QW_MOVE_NORMAL, &shooter, &tr);
    assert_float_equal(tr.fraction, 1, 0);
    /* Missile moves widen monsters by 15. */
    target.flags = QW_AREA_FLAG_MONSTER;
    qw_world_move(&area, start, zero, zero, end, QW_MOVE_MISSILE, &shooter, &tr);
    assert_ptr_equal(tr.ent, &target);
    assert_true(fabsf(tr.endpos[0] - 269) < 0.1f);
    /* Through the pillar in the middle of the room: the world blocks first. */
    float s5[3] = {-300, 0, 100}, e5[3] = {300, 0, 100};
    qw_world_move(&area, s5, zero, zero, e5, QW_MOVE_NORMAL, NULL, &tr);
    assert_null(tr.ent);
    assert_true(fabsf(tr.endpos[0] + 32) < 0.1f);
    /* Starting inside an object: startsolid, and the object is reported. */
    float s6[3] = {300, 300, 100}, e6[3] = {300, 300, 150};
    qw_world_move(&area, s6, zero, zero, e6, QW_MOVE_NORMAL, NULL, &tr);
    assert_true(tr.startsolid);
    assert_ptr_equal(tr.ent, &target);
    qw_area_unlink_object(&target);
    qw_area_unlink_object(&shooter);
    qw_area_unlink_object(&trigger);
    qw_area_unlink_object(&rocket);
}

/* A brush submodel of a real map linked as an object, moved (by its origin) to a spawn point
 * where the world leaves room around it. */
static void brush_model_object(void **state)
{
    (void)state;
    qw_bsp *real = load_shared_map("lqdm2");
    if (!real)
        skip();
    static qw_area a2;
    qw_area_init(&a2, real);
    const qw_bsp_model *m = qw_bsp_get_model(real, 1);
    float c[3];
    for (int k = 0; k < 3; k++)
        c[k] = 0.5f * (m->mins[k] + m->maxs[k]);
    const float zero[3] = {0, 0, 0};

    qw_entity_iter it;
    static qw_entity_fields f;
    qw_entity_iter_init(&it, qw_bsp_entity_string(real));
    int tested = 0;
    while (!tested && qw_entity_next(&it, &f) == 1) {
        const char *cls = qw_entity_get(&f, "classname"), *org = qw_entity_get(&f, "origin");
        if (!cls || strcmp(cls, "info_player_deathmatch") || !org)
            continue;
        float spot[3], offset[3], start[3], end[3];
        sscanf(org, "%f %f %f", &spot[0], &spot[1], &spot[2]);
        for (int k = 0; k < 3; k++) {
            offset[k] = spot[k] - c[k];
            start[k] = end[k] = spot[k];
        }
        start[0] = m->mins[0] + offset[0] - 20;
        end[0] = m->maxs[0] + offset[0] + 20;
        qw_trace tr;
        qw_trace_world(real, start, zero, zero, end, &tr);
        if (tr.fraction < 1 || tr.startsolid)
            continue;   /* the world is in the way here */
        qw_area_object door;
        qw_area_object_init(&door);
        door.solid = QW_SOLID_BSP;
        door.bsp_model = 1;
        for (int k = 0; k < 3; k++) {
            door.mins[k] = m->mins[k];
            door.maxs[k] = m->maxs[k];
        }
        qw_area_relink_object(&a2, &door, offset);
        qw_world_move(&a2, start, zero, zero, end, QW_MOVE_NOMONSTERS, NULL, &tr);
        const qw_area_object *hit = tr.ent;
        float frac = tr.fraction;
        qw_area_unlink_object(&door);
        assert_ptr_equal(hit, &door);
        assert_true(frac < 1);
        qw_world_move(&a2, start, zero, zero, end, QW_MOVE_NOMONSTERS, NULL, &tr);
        assert_float_equal(tr.fraction, 1, 0);
        tested = 1;
    }
    assert_true(tested);
    qw_bsp_free(real);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(tree_shape, fresh_area),
        cmocka_unit_test_setup(queries_match_brute_force, fresh_area),
        cmocka_unit_test_setup(relink_moves_between_nodes, fresh_area),
        cmocka_unit_test_setup(relink_stays_one_level_up, fresh_area),
        cmocka_unit_test_setup(relink_in_place_writes_nothing, fresh_area),
        cmocka_unit_test_setup(fence_written_once_the_box_leaves_it, fresh_area),
        cmocka_unit_test_setup(world_move_hits_objects, fresh_area),
        cmocka_unit_test(brush_model_object),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
