/* CMocka units of RP's hand-over (sched/sched.c): a worker that comes to a client while
 * another thread runs commands alone -- it holds the global lock (-sync lock), or an
 * irrevocable transaction (-sync stm on libtm) -- claims nothing more and leaves the rest to
 * that thread; the last worker still serving never does, so every client's packets are
 * processed once in the frame, whoever holds what and whenever it lets go. Each client gets
 * one unreadable packet, so a processed packet shows as one bad packet of the thread that
 * processed it. Nothing here depends on timing: a helper thread holds the lock (or the
 * transaction) until told to let go, and what is asserted holds whether a waiting worker
 * got there before or after. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cgame/cgame.h"
#include "sched/sched.h"
#include "server.h"
#include "stats/libtm_extensions.h"
#include "stats/counters.h"
#include "sync/critical_sections.h"

sv_server sv;
const struct sv_game *sv_game = &sv_cgame;
__thread int sv_thread_index;

#define CLIENTS 8

/* a helper thread holding the global lock, or an irrevocable transaction, until `release` */
static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static bool holding, release;

static void wait_for(bool *flag)
{
    pthread_mutex_lock(&gate);
    while (!*flag)
        pthread_cond_wait(&changed, &gate);
    pthread_mutex_unlock(&gate);
}

static void set(bool *flag)
{
    pthread_mutex_lock(&gate);
    *flag = true;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&gate);
}

/* not transaction-safe: the transaction that calls it becomes irrevocable (runs alone) */
static void hold_until_released(void)
{
    set(&holding);
    wait_for(&release);
}

static void *holder_main(void *arg)
{
    bool in_transaction = *(bool *)arg;
    if (in_transaction)
        __transaction_relaxed { hold_until_released(); }
    else {
        sv_global_lock();
        hold_until_released();
        sv_global_unlock();
    }
    return NULL;
}

static pthread_t start_holder(bool *in_transaction)
{
    holding = release = false;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, holder_main, in_transaction), 0);
    wait_for(&holding);
    return t;
}

static void new_frame(void)
{
    static const uint8_t junk[] = {0xff, 0x01, 0x02};
    for (int i = 0; i < CLIENTS; i++) {
        sv_client *cl = &sv.clients[i];
        cl->state = CL_CONNECTED;
        cl->worker = i % 2;
        cl->inbox_count = 1;
        memcpy(cl->inbox[0].data, junk, sizeof junk);
        cl->inbox[0].len = sizeof junk;
        cl->inbox[0].port = cl->addr.sin_port;
    }
    sv_stats_init(2);
    sv_sched_plan_frame();
}

static int unprocessed(void)
{
    int n = 0;
    for (int i = 0; i < CLIENTS; i++)
        n += sv.clients[i].inbox_count;
    return n;
}

static sv_thread_stats *stats_of(int worker)
{
    sv_thread_index = worker;
    return sv_stats_thread();
}

static void run_rp_as(int worker)
{
    sv_thread_index = worker;
    sv_sched_run_rp(worker);
}

static void *worker0_main(void *unused)
{
    (void)unused;
    run_rp_as(0);
    return NULL;
}

static int setup(void **state)
{
    (void)state;
    memset(&sv, 0, sizeof sv);
    sv.opt.threads = 2;
    sv.opt.handover = true;
    sv.opt.client_timeout = 1e9;
    sv_sched_init(SCHED_STATIC, JOB_WEIGHT_CLIENTS);
    return 0;
}

/* Worker 1 finds the lock taken at its first client and goes; worker 0, the last one
 * serving, waits for the lock (in another thread, so that the holder can be let go at any
 * moment) and processes all eight packets. */
static void run_frame_with_holder(bool in_transaction)
{
    new_frame();
    pthread_t holder = start_holder(&in_transaction);
    run_rp_as(1); /* returns at once: it hands over */
    assert_int_equal(stats_of(1)->rp_handovers, 1);
    assert_int_equal(stats_of(1)->bad_packets, 0);
    assert_int_equal(unprocessed(), CLIENTS);

    pthread_t worker0;
    assert_int_equal(pthread_create(&worker0, NULL, worker0_main, NULL), 0);
    set(&release); /* before or after worker 0 reached the lock: the same outcome */
    pthread_join(holder, NULL);
    pthread_join(worker0, NULL);
    assert_int_equal(stats_of(0)->rp_handovers, 0);
    assert_int_equal(stats_of(0)->bad_packets, CLIENTS);
    assert_int_equal(unprocessed(), 0);
}

static void test_lock_holder_gets_the_rest(void **state)
{
    (void)state;
    sv_sync_init(SYNC_LOCK);
    run_frame_with_holder(false);
    sv_sync_init(SYNC_NONE);
}

static void test_irrevocable_transaction_gets_the_rest(void **state)
{
    (void)state;
    if (!sv_libtm.serial_elsewhere)
        skip(); /* another TM runtime: stm does not hand over */
    /* both threads known to libtm, as the server's workers are: a thread alone runs on the
     * lock's read side, without the word */
    static int dummy;
    __transaction_atomic { dummy++; }
    sv_sync_init(SYNC_STM);
    run_frame_with_holder(true);
    sv_sync_init(SYNC_NONE);
}

/* Nobody holds anything: both workers serve, each packet once; without -handover nobody hands over
 * (worker 1 then waits for the lock like any section). */
static void test_no_holder_no_handover(void **state)
{
    (void)state;
    sv_sync_init(SYNC_LOCK);
    new_frame();
    run_rp_as(1);
    run_rp_as(0);
    assert_int_equal(stats_of(0)->bad_packets + stats_of(1)->bad_packets, CLIENTS);
    assert_int_equal(stats_of(0)->rp_handovers + stats_of(1)->rp_handovers, 0);
    assert_int_equal(unprocessed(), 0);

    sv.opt.handover = false;
    new_frame();
    bool plain = false;
    pthread_t holder = start_holder(&plain);
    pthread_t worker0;
    assert_int_equal(pthread_create(&worker0, NULL, worker0_main, NULL), 0);
    set(&release);
    pthread_join(holder, NULL);
    pthread_join(worker0, NULL);
    run_rp_as(1);
    assert_int_equal(stats_of(0)->rp_handovers + stats_of(1)->rp_handovers, 0);
    assert_int_equal(unprocessed(), 0);
    sv.opt.handover = true;
    sv_sync_init(SYNC_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_lock_holder_gets_the_rest, setup),
        cmocka_unit_test_setup(test_irrevocable_transaction_gets_the_rest, setup),
        cmocka_unit_test_setup(test_no_holder_no_handover, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
