/* CMocka units of -sched lpt's two algorithms: union-find (sched/union_find.h: sets, path
 * compression, union by rank) and Longest Processing Time first (sched/lpt.h: order, ties,
 * loads, and Graham's bound against the best assignment found by brute force). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sched/lpt.h"
#include "sched/union_find.h"

#define N 64

static void test_uf_starts_apart(void **state)
{
    (void)state;
    int parent[N];
    uint8_t rank[N];
    sv_union_find uf;
    sv_uf_init(&uf, parent, rank, N);
    for (int i = 0; i < N; i++)
        assert_int_equal(sv_uf_find(&uf, i), i);
}

static void test_uf_union_joins_sets(void **state)
{
    (void)state;
    int parent[N];
    uint8_t rank[N];
    sv_union_find uf;
    sv_uf_init(&uf, parent, rank, N);
    assert_true(sv_uf_union(&uf, 1, 2));
    assert_true(sv_uf_union(&uf, 3, 4));
    assert_int_equal(sv_uf_find(&uf, 1), sv_uf_find(&uf, 2));
    assert_int_not_equal(sv_uf_find(&uf, 2), sv_uf_find(&uf, 3));
    assert_true(sv_uf_union(&uf, 2, 4));
    for (int i = 1; i <= 4; i++)
        assert_int_equal(sv_uf_find(&uf, i), sv_uf_find(&uf, 1));
    /* joining what is one set already changes nothing */
    assert_false(sv_uf_union(&uf, 4, 1));
    assert_false(sv_uf_union(&uf, 5, 5));
    assert_int_equal(sv_uf_find(&uf, 5), 5);
    assert_int_equal(sv_uf_find(&uf, 0), 0);
}

static void test_uf_union_by_rank(void **state)
{
    (void)state;
    int parent[N];
    uint8_t rank[N];
    sv_union_find uf;
    sv_uf_init(&uf, parent, rank, N);
    /* two trees of rank 1 make one of rank 2; a lone element goes under it */
    sv_uf_union(&uf, 0, 1);
    sv_uf_union(&uf, 2, 3);
    int r01 = sv_uf_find(&uf, 0), r23 = sv_uf_find(&uf, 2);
    assert_int_equal(rank[r01], 1);
    sv_uf_union(&uf, 0, 2);
    int root = sv_uf_find(&uf, 3);
    assert_true(root == r01 || root == r23);
    assert_int_equal(rank[root], 2);
    sv_uf_union(&uf, 9, 3);
    assert_int_equal(sv_uf_find(&uf, 9), root);
    assert_int_equal(rank[root], 2);
    assert_int_equal(parent[9], root);
}

static void test_uf_path_compression(void **state)
{
    (void)state;
    int parent[N];
    uint8_t rank[N];
    sv_union_find uf;
    sv_uf_init(&uf, parent, rank, N);
    /* a chain 0 <- 1 <- 2 <- ... built by hand: find flattens the whole path */
    for (int i = 1; i < 10; i++)
        parent[i] = i - 1;
    assert_int_equal(sv_uf_find(&uf, 9), 0);
    for (int i = 1; i < 10; i++)
        assert_int_equal(parent[i], 0);
}

static void test_uf_many(void **state)
{
    (void)state;
    int parent[N];
    uint8_t rank[N];
    sv_union_find uf;
    sv_uf_init(&uf, parent, rank, N);
    /* evens with evens, odds with odds */
    for (int i = 2; i < N; i++)
        sv_uf_union(&uf, i, i - 2);
    for (int i = 0; i < N; i++)
        assert_int_equal(sv_uf_find(&uf, i), sv_uf_find(&uf, i % 2));
    assert_int_not_equal(sv_uf_find(&uf, 0), sv_uf_find(&uf, 1));
    for (int i = 0; i < N; i++)
        assert_true(rank[i] <= 6); /* union by rank: log2(32) at most */
}

static double makespan(const double *loads, int workers)
{
    double max = 0;
    for (int w = 0; w < workers; w++)
        max = loads[w] > max ? loads[w] : max;
    return max;
}

static void test_lpt_example(void **state)
{
    (void)state;
    const double weights[] = {4, 7, 3, 6, 5};
    int order[5], worker_of[5];
    double loads[2];
    sv_lpt_assign(weights, 5, 2, order, worker_of, loads);
    /* heaviest first: 7 (job 1), 6 (3), 5 (4), 4 (0), 3 (2) */
    const int expect_order[] = {1, 3, 4, 0, 2};
    assert_memory_equal(order, expect_order, sizeof order);
    /* 7 -> w0, 6 -> w1, 5 -> w1 (6 < 7), 4 -> w0 (7 < 11), 3 -> w0 (11 = 11: lowest) */
    const int expect_worker[] = {0, 0, 0, 1, 1};
    assert_memory_equal(worker_of, expect_worker, sizeof worker_of);
    assert_true(loads[0] == 14 && loads[1] == 11);
}

/* Graham's worst case for two workers: 3,3,2,2,2 -- LPT 7, best 6 (= 4/3 - 1/6 of it). */
static void test_lpt_worst_case(void **state)
{
    (void)state;
    const double weights[] = {3, 3, 2, 2, 2};
    int order[5], worker_of[5];
    double loads[2];
    sv_lpt_assign(weights, 5, 2, order, worker_of, loads);
    assert_true(makespan(loads, 2) == 7);
}

static void test_lpt_ties_and_edges(void **state)
{
    (void)state;
    const double equal[] = {1, 1, 1, 1};
    int order[4], worker_of[4];
    double loads[3];
    sv_lpt_assign(equal, 4, 3, order, worker_of, loads);
    const int in_order[] = {0, 1, 2, 3}, round[] = {0, 1, 2, 0};
    assert_memory_equal(order, in_order, sizeof order);
    assert_memory_equal(worker_of, round, sizeof worker_of);
    /* one worker takes everything */
    double one[1];
    sv_lpt_assign(equal, 4, 1, order, worker_of, one);
    assert_true(one[0] == 4);
    /* no jobs: idle workers */
    loads[0] = loads[1] = loads[2] = 9;
    sv_lpt_assign(equal, 0, 3, order, worker_of, loads);
    assert_true(loads[0] == 0 && loads[1] == 0 && loads[2] == 0);
    /* more workers than jobs: one job each, heaviest to worker 0 */
    const double two[] = {2, 5};
    sv_lpt_assign(two, 2, 3, order, worker_of, loads);
    assert_int_equal(worker_of[1], 0);
    assert_int_equal(worker_of[0], 1);
    assert_true(loads[2] == 0);
}

/* The smallest makespan of any assignment of the jobs (brute force over workers^n). */
static double best_makespan(const double *weights, int n, int workers)
{
    int assign[8] = {0};
    double best = 1e300;
    for (;;) {
        double loads[4] = {0};
        for (int j = 0; j < n; j++)
            loads[assign[j]] += weights[j];
        double m = makespan(loads, workers);
        best = m < best ? m : best;
        int j = 0;
        while (j < n && ++assign[j] == workers)
            assign[j++] = 0;
        if (j == n)
            return best;
    }
}

static void test_lpt_bound(void **state)
{
    (void)state;
    uint32_t seed = 12345;
    for (int round = 0; round < 300; round++) {
        int n = 3 + round % 6, workers = 2 + round % 3;
        double weights[8], loads[4];
        int order[8], worker_of[8];
        for (int j = 0; j < n; j++) {
            seed = seed * 1103515245u + 12345u;
            weights[j] = 1 + (seed >> 16) % 20;
        }
        sv_lpt_assign(weights, n, workers, order, worker_of, loads);
        double sum = 0, check[4] = {0};
        for (int j = 0; j < n; j++) {
            check[worker_of[j]] += weights[j];
            sum += weights[j];
        }
        for (int w = 0; w < workers; w++)
            assert_true(check[w] == loads[w]);
        double bound = (4.0 / 3.0 - 1.0 / (3.0 * workers)) * best_makespan(weights, n, workers);
        assert_true(makespan(loads, workers) <= bound + 1e-9);
        assert_true(makespan(loads, workers) >= sum / workers);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uf_starts_apart),
        cmocka_unit_test(test_uf_union_joins_sets),
        cmocka_unit_test(test_uf_union_by_rank),
        cmocka_unit_test(test_uf_path_compression),
        cmocka_unit_test(test_uf_many),
        cmocka_unit_test(test_lpt_example),
        cmocka_unit_test(test_lpt_worst_case),
        cmocka_unit_test(test_lpt_ties_and_edges),
        cmocka_unit_test(test_lpt_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
