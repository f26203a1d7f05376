/* The transaction_safe entry points really run inside __transaction_atomic: two threads move
 * players (pmove) and relink objects in the shared areanode tree in transactions; results
 * must equal the same work done outside transactions, and the tree must stay consistent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <string.h>

#include "area.h"
#include "pmove.h"
#include "pvs.h"
#include "test_util.h"

#define THREADS 2
#define OBJECTS_PER_THREAD 16
#define ROUNDS 3000

static qw_bsp *bsp;
static qw_area area;
static qw_movevars mv;
static qw_area_object objects[THREADS][OBJECTS_PER_THREAD];
static qw_pvs *pvs;

typedef struct worker {
    int id;
    qw_pmove pm;
    long hits;
    int bad;
} worker;

static void pmove_script(qw_pmove *pm, int step)
{
    pm->cmd.msec = 13;
    pm->cmd.angles[1] = (float)((step * 7) % 360);
    pm->cmd.forwardmove = 320;
    pm->cmd.sidemove = step % 3 == 0 ? 200 : 0;
    pm->cmd.buttons = step % 40 < 2 ? QW_PM_BUTTON_JUMP : 0;
}

/* One round: everything the server would do for a client command, as one transaction.
 * qw_pmove_run is transaction_pure: its writes are not undone when the transaction restarts,
 * so it works on a copy that the transaction makes afresh on every attempt (as the server
 * does), and the result is stored back with an instrumented write. */
__attribute__((noinline)) static void transactional_step(worker *w, qw_area_object *o, const float to[3], qw_trace *tr)
{
    static const float zero[3] = {0, 0, 0};
    float start[3] = {to[0], to[1], 300}, end[3] = {to[0], to[1], -100};
    __transaction_atomic {
        qw_area_relink_object(&area, o, to);
        /* A ray straight down through the object's own spot hits it (or another object
         * linked above it), never the floor. */
        qw_world_move(&area, start, zero, zero, end, QW_MOVE_NORMAL, NULL, tr);
        qw_pmove pm = w->pm;
        qw_pmove_run(&pm, &mv);
        w->pm = pm;
    }
}

/* Every other transaction_safe entry point, called in one transaction (this mostly checks at
 * compile time that they are callable from __transaction_atomic) with sanity checks. */
__attribute__((noinline)) static int other_entry_points(worker *w)
{
    static const float org[3] = {500, 500, 100}, mins[3] = {-16, -16, -24}, maxs[3] = {16, 16, 32};
    uint8_t fat[64];
    int ok;
    __transaction_atomic {
        qw_trace tr;
        qw_trace_box(org, mins, maxs, org, mins, maxs, org, &tr);
        int leaf = qw_bsp_leaf_for_point(bsp, org);
        qw_pvs_fat(pvs, org, fat);
        short leafs[8];
        int n = qw_bsp_box_leafs(bsp, mins, maxs, leafs, 8);
        qw_area_object *found[4];
        int near = qw_area_query_box(&area, mins, maxs, QW_SOLID_BBOX, found, 4);
        qw_pmove pm = w->pm; /* the pure functions write only this transaction's copy */
        int added = qw_pmove_add_area_physents(&pm, &area, NULL, 256);
        pm.numphysent = 1;
        ok = tr.startsolid && leaf > 0 && qw_pvs_row_has(fat, leaf - 1) &&
             qw_point_contents(bsp, org) == QW_CONTENTS_EMPTY && n >= 0 && near >= 0 &&
             added >= 0 && qw_pmove_test_position(&pm, pm.origin) &&
             qw_bsp_get_model(bsp, 0) != NULL && qw_hull_for_size(mins, maxs) == 1;
    }
    return ok;
}

static void *work(void *arg)
{
    worker *w = arg;
    uint32_t seed = 99u + (uint32_t)w->id;
    for (int r = 0; r < ROUNDS; r++) {
        seed = seed * 1664525u + 1013904223u;
        qw_area_object *o = &objects[w->id][r % OBJECTS_PER_THREAD];
        /* Spots in a ring around the pillar (|x| or |y| >= 100), inside the room. */
        float to[3] = {(float)(seed % 800) + 100.0f, (float)((seed >> 11) % 1800) - 900.0f, 100};
        if (seed & (1u << 30))
            to[0] = -to[0];
        qw_trace tr;
        pmove_script(&w->pm, r);
        transactional_step(w, o, to, &tr);
        if (r % 100 == 0 && !other_entry_points(w))
            w->bad++;
        if (tr.ent == NULL)
            w->bad++;
        else
            w->hits++;
    }
    return NULL;
}

static void transactional_matches_plain(void **state)
{
    (void)state;
    const float boxes[][6] = {{-64, -64, 0, 64, 64, 512}, {300, 300, 0, 340, 340, 40}};
    bsp = room_with_boxes(2048, 512, boxes, 2);
    qw_movevars_default(&mv);
    qw_area_init(&area, bsp);
    char err[128];
    pvs = qw_pvs_create(bsp, err, sizeof err);
    assert_non_null(pvs);
    assert_true(pvs->row_bytes <= 64);
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < OBJECTS_PER_THREAD; i++) {
            qw_area_object *o = &objects[t][i];
            qw_area_object_init(o);
            o->solid = QW_SOLID_SLIDEBOX;
            memcpy(o->mins, qw_hull_mins[1], sizeof o->mins);
            memcpy(o->maxs, qw_hull_maxs[1], sizeof o->maxs);
        }
    static worker workers[THREADS];
    pthread_t threads[THREADS];
    const float spawn[THREADS][3] = {{-500, -500, 24}, {500, -500, 24}};
    for (int t = 0; t < THREADS; t++) {
        workers[t].id = t;
        qw_pmove_init(&workers[t].pm, bsp, spawn[t]);
        assert_int_equal(pthread_create(&threads[t], NULL, work, &workers[t]), 0);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);

    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(workers[t].bad, 0);
        assert_int_equal(workers[t].hits, ROUNDS);
        /* The same commands without transactions give the same player state (the players
         * don't collide with the linked objects: pmove only sees the world here). */
        static qw_pmove plain;
        qw_pmove_init(&plain, bsp, spawn[t]);
        for (int r = 0; r < ROUNDS; r++) {
            pmove_script(&plain, r);
            qw_pmove_run(&plain, &mv);
        }
        assert_memory_equal(plain.origin, workers[t].pm.origin, sizeof plain.origin);
        assert_memory_equal(plain.velocity, workers[t].pm.velocity, sizeof plain.velocity);
    }
    /* Every object is linked exactly once and found where it is. */
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < OBJECTS_PER_THREAD; i++) {
            qw_area_object *o = &objects[t][i], *out[THREADS * OBJECTS_PER_THREAD];
            int n = qw_area_query_box(&area, o->absmin, o->absmax, QW_SOLID_BBOX, out,
                                      THREADS * OBJECTS_PER_THREAD);
            int found = 0;
            for (int k = 0; k < n; k++)
                found += out[k] == o;
            assert_int_equal(found, 1);
        }
    float all_min[3] = {-5000, -5000, -5000}, all_max[3] = {5000, 5000, 5000};
    assert_int_equal(qw_area_query_box(&area, all_min, all_max, QW_SOLID_BBOX, NULL, 0),
                     THREADS * OBJECTS_PER_THREAD);
    qw_pvs_free(pvs);
    qw_bsp_free(bsp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(transactional_matches_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
