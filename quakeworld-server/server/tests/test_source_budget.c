/* CMocka units of the budget of sources outside play (net/source_budget.h), on made-up
 * times: a source within its rate is never dropped, a flood gets exactly its burst and rate,
 * a flood from one address leaves the others theirs, floods are reported once with every
 * dropped packet, a full table loses no report, and many addresses together meet the
 * shared budget. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "net/source_budget.h"

typedef struct report {
    int count;
    uint32_t ip[4096];
    uint64_t dropped[4096];
    uint64_t total;
} report;

static void ended(uint32_t ip, uint64_t dropped, double seconds, void *ctx)
{
    report *r = ctx;
    (void)seconds;
    if (r->count < 4096) {
        r->ip[r->count] = ip;
        r->dropped[r->count] = dropped;
    }
    r->count++;
    r->total += dropped;
}

static sv_source_budget b;
static report rep;

static void init(double rate, double burst, double all_rate, double all_burst)
{
    memset(&rep, 0, sizeof rep);
    sv_source_budget_init(&b, rate, burst, all_rate, all_burst, ended, &rep);
}

/* Sends n packets from ip at `now`; returns how many passed. */
static int send(uint32_t ip, int n, double now)
{
    int passed = 0;
    bool begins;
    for (int i = 0; i < n; i++)
        passed += sv_source_take(&b, ip, now, &begins) == SV_SOURCE_PASS;
    return passed;
}

static void test_within_rate_never_dropped(void **state)
{
    (void)state;
    init(100, 200, 2000, 4000);
    /* 99 packets a second for a minute, in frames of 13 ms */
    int passed = 0, sent = 0;
    for (double t = 0; t < 60; t += 0.013) {
        int n = (int)(99 * (t + 0.013)) - (int)(99 * t);
        passed += send(0x0100007f, n, t);
        sent += n;
    }
    assert_int_equal(passed, sent);
    assert_int_equal(b.dropped, 0);
    sv_source_sweep(&b, 61, true);
    assert_int_equal(rep.count, 0);
}

static void test_flood_gets_burst_then_rate(void **state)
{
    (void)state;
    /* times in 1/128 s: exact in binary, so the counts below are exact */
    init(128, 256, 1e9, 1e9);
    bool begins = false;
    assert_int_equal(send(0x0200007f, 256, 10.0), 256);
    assert_int_equal(sv_source_take(&b, 0x0200007f, 10.0, &begins), SV_SOURCE_DROP);
    assert_true(begins);
    assert_int_equal(sv_source_take(&b, 0x0200007f, 10.0, &begins), SV_SOURCE_DROP);
    assert_false(begins); /* a flood starts once */
    /* 12,800 a second for 5 s: 128 a second pass */
    int passed = 0;
    for (int s = 1; s <= 640; s++)
        passed += send(0x0200007f, 100, 10.0 + s / 128.0);
    assert_int_equal(passed, 640);
    assert_int_equal(b.dropped, 2 + 64000 - 640);
    /* still flooding: no report; 2 s after its last packet the bucket is full again */
    sv_source_sweep(&b, 16.0, false);
    assert_int_equal(rep.count, 0);
    sv_source_sweep(&b, 17.1, false);
    assert_int_equal(rep.count, 1);
    assert_int_equal(rep.ip[0], 0x0200007f);
    assert_int_equal(rep.dropped[0], b.dropped);
    sv_source_sweep(&b, 30, true);
    assert_int_equal(rep.count, 1); /* reported once */
}

static void test_flood_leaves_others_theirs(void **state)
{
    (void)state;
    init(100, 200, 2000, 4000);
    for (int s = 0; s < 100; s++) {
        double t = s * 0.01;
        send(0x0200007f, 1000, t); /* 100,000 a second */
        /* a server browser and a connecting client from two other addresses */
        assert_int_equal(send(0x0300007f, 1, t), 1);
        assert_int_equal(send(0x0400007f, 1, t), 1);
    }
    sv_source_sweep(&b, 100, true);
    assert_int_equal(rep.count, 1);
    assert_int_equal(rep.ip[0], 0x0200007f);
    assert_int_equal(rep.total, b.dropped);
}

static void test_full_table_loses_no_report(void **state)
{
    (void)state;
    init(100, 200, 1e12, 1e12);
    /* more flooding addresses than slots: every drop is reported once, on eviction or at
     * the end */
    uint64_t passed = 0, sent = 0;
    for (int round = 0; round < 3; round++)
        for (uint32_t ip = 1; ip <= 3 * SV_SOURCE_SLOTS; ip++) {
            passed += (uint64_t)send(ip * 7919u, 300, round * 0.001);
            sent += 300;
        }
    sv_source_sweep(&b, 1.0, true);
    assert_int_equal(b.dropped, sent - passed);
    assert_int_equal(rep.total, b.dropped);
    assert_true(rep.count >= 3 * SV_SOURCE_SLOTS);
}

static void test_all_sources_together(void **state)
{
    (void)state;
    init(100, 200, 2000, 4000);
    /* 10,000 addresses with 10 packets each at once: 4000 pass, the rest is dropped as
     * the flood of all sources together */
    int passed = 0;
    bool begins = false, began = false;
    for (uint32_t ip = 1; ip <= 10000; ip++)
        for (int i = 0; i < 10; i++) {
            sv_source_verdict v = sv_source_take(&b, ip << 8, 5.0, &begins);
            passed += v == SV_SOURCE_PASS;
            if (v == SV_SOURCE_DROP_ALL && begins)
                began = true;
        }
    assert_int_equal(passed, 4000);
    assert_true(began);
    sv_source_sweep(&b, 7.1, false); /* 2 s at 2000/s fill the shared bucket again */
    assert_int_equal(rep.count, 1);
    assert_int_equal(rep.ip[0], 0);
    assert_int_equal(rep.dropped[0], 100000 - 4000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_within_rate_never_dropped),
        cmocka_unit_test(test_flood_gets_burst_then_rate),
        cmocka_unit_test(test_flood_leaves_others_theirs),
        cmocka_unit_test(test_full_table_loses_no_report),
        cmocka_unit_test(test_all_sources_together),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
