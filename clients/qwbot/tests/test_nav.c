/* -movers' map knowledge (nav.h) on LibreQuake's lqdm6 and e1m2: the goals a deathmatch
 * keeps of their entity lumps, where a bot stands to reach them, and a graph that leads from
 * one goal to the others.
 *   test_nav MAPS_DIR   (../shared/quake/id1/maps; every case is skipped without it) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nav.h"

static const char *maps_dir;

static qwbot_nav *load(const char *map)
{
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/%s.bsp", maps_dir ? maps_dir : ".", map);
    FILE *f = maps_dir ? fopen(path, "rb") : NULL;
    if (!f)
        return NULL;
    fclose(f);
    qwbot_nav *nav = qwbot_nav_load(path, err, sizeof err);
    if (!nav)
        fail_msg("%s", err);
    return nav;
}

static int count_kind(const qwbot_nav *nav, qwbot_goal_kind kind)
{
    int n = 0;
    for (int i = 0; i < nav->ngoals; i++)
        n += nav->goals[i].kind == kind;
    return n;
}

/* Nodes reachable from the goal's node, of all goals that have one. */
static int reachable_goals(const qwbot_nav *nav, int from_goal)
{
    int *dist = malloc((size_t)nav->nnodes * sizeof *dist);
    int *prev = malloc((size_t)nav->nnodes * sizeof *prev);
    assert_non_null(dist);
    assert_non_null(prev);
    qwbot_nav_bfs(nav, nav->goals[from_goal].node, dist, prev);
    int n = 0;
    for (int i = 0; i < nav->ngoals; i++)
        n += nav->goals[i].node >= 0 && dist[nav->goals[i].node] >= 0;
    free(dist);
    free(prev);
    return n;
}

static void test_lqdm6(void **state)
{
    (void)state;
    qwbot_nav *nav = load("lqdm6");
    if (!nav)
        skip();
    /* two teleporters, no plats, buttons or untargeted doors; three touch triggers; the
     * items and weapons (no keys) */
    assert_int_equal(count_kind(nav, QWBOT_GOAL_TELEPORT), 2);
    assert_int_equal(count_kind(nav, QWBOT_GOAL_PLAT), 0);
    assert_int_equal(count_kind(nav, QWBOT_GOAL_BUTTON), 0);
    assert_int_equal(count_kind(nav, QWBOT_GOAL_DOOR), 0);
    assert_int_equal(count_kind(nav, QWBOT_GOAL_TRIGGER), 3);
    assert_true(count_kind(nav, QWBOT_GOAL_ITEM) >= 30);
    assert_int_equal(nav->ndests, 2);
    int teleport = -1;
    for (int i = 0; i < nav->ngoals; i++) {
        const qwbot_goal *g = &nav->goals[i];
        if (g->kind == QWBOT_GOAL_TELEPORT && teleport < 0)
            teleport = i;
        /* every goal has a place to stand, within 112 units of its box */
        assert_true(g->node >= 0);
        const float *p = nav->node[g->node];
        assert_true(p[0] > g->mins[0] - 112 && p[0] < g->maxs[0] + 112);
        assert_true(p[1] > g->mins[1] - 112 && p[1] < g->maxs[1] + 112);
    }
    /* from a teleporter a bot walks to most goals of the map */
    assert_true(reachable_goals(nav, teleport) * 4 >= nav->ngoals * 3);
    qwbot_nav_free(nav);
}

static void test_e1m2(void **state)
{
    (void)state;
    qwbot_nav *nav = load("e1m2");
    if (!nav)
        skip();
    /* a deathmatch keeps three plats (the one flagged 2048 goes), three buttons that are
     * shot (health 1), the untargeted doors, not the keys */
    assert_int_equal(count_kind(nav, QWBOT_GOAL_PLAT), 3);
    assert_int_equal(count_kind(nav, QWBOT_GOAL_BUTTON), 3);
    assert_true(count_kind(nav, QWBOT_GOAL_DOOR) >= 6);
    int plat = -1, buttons = 0;
    for (int i = 0; i < nav->ngoals; i++) {
        const qwbot_goal *g = &nav->goals[i];
        assert_true(strcmp(g->classname, "item_key1") != 0);
        if (g->kind == QWBOT_GOAL_BUTTON) {
            assert_true(g->shoot);
            /* the bot stands where it sees the button, past the bars and doors that stand
             * in front of some when the map starts (those have no node) */
            if (g->node < 0)
                continue;
            buttons++;
            const float *p = nav->node[g->node];
            float eye[3] = {p[0], p[1], p[2] + 22};
            assert_true(qwbot_nav_sees_goal(nav, eye, g));
        }
        if (g->kind == QWBOT_GOAL_PLAT && g->model == 21)
            plat = i;
    }
    assert_true(buttons >= 1);
    /* the plat *21 (a column of 270 units drawn raised, that runs 264 down): its node is at
     * the foot of its shaft, where the lowered plat's top is */
    assert_true(plat >= 0);
    const qwbot_goal *g = &nav->goals[plat];
    assert_true(g->node >= 0);
    const float *p = nav->node[g->node];
    assert_true(p[0] >= g->mins[0] && p[0] <= g->maxs[0]);
    assert_true(p[1] >= g->mins[1] && p[1] <= g->maxs[1]);
    assert_true(p[2] < g->mins[2] + 48);
    assert_true(reachable_goals(nav, plat) * 2 >= nav->ngoals);
    qwbot_nav_free(nav);
}

int main(int argc, char **argv)
{
    maps_dir = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lqdm6),
        cmocka_unit_test(test_e1m2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
