/* CMocka test of the global state buffer's multicast (argv[1] = basedir, argv[2] = a map
 * with visibility data, such as e1m2): a sound reaches a client only where its origin's PHS
 * holds the client's leaf, a gunshot only where its PVS does, and a client that skipped
 * frames still gets the events of the frames it missed. The events are written inside
 * transactions, as in the server (--tm: also on libtm's software path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "game_world.h"

static const char *basedir, *mapname;

/* Bytes of the current frame's events that a client at `at` receives. */
static size_t received_at(const float at[3])
{
    uint8_t data[QW_MAX_MSGLEN];
    qw_sizebuf out;
    qw_sizebuf_init(&out, data, sizeof data);
    unsigned last = sv.framenum - 1;
    sv_events_copy_for(at, &last, &out);
    assert_int_equal(last, sv.framenum);
    return out.cursize;
}

/* The events are written as the server writes them in RP: inside a move command's critical
 * section (a transaction: game_world_load runs -sync stm). Out of line: a transaction begins
 * like setjmp. */
static __attribute__((noinline)) void cs_sound(const float at[3])
{
    CRITICAL_SECTION(CS_MOVE_COMMAND, sv_event_sound(1, 0, sv.sound_pain, at););
}

static __attribute__((noinline)) void cs_temp_entity(int type, const float at[3])
{
    CRITICAL_SECTION(CS_MOVE_COMMAND, sv_event_temp_entity(type, at););
}

static bool in_row(const uint8_t *row, const float at[3])
{
    int leaf = qw_bsp_leaf_for_point(sv.bsp, at);
    return leaf <= 0 || qw_pvs_row_has(row, leaf - 1);
}

static void test_sounds_follow_the_phs(void **state)
{
    (void)state;
    int pairs_heard = 0, pairs_unheard = 0, pairs_unseen = 0;
    for (int a = 0; a < sv.num_spawnpoints; a++) {
        const float *from = sv.spawnpoints[a].origin;
        int leaf = qw_bsp_leaf_for_point(sv.bsp, from);
        for (int b = 0; b < sv.num_spawnpoints; b++) {
            const float *to = sv.spawnpoints[b].origin;
            sv.framenum++;
            sv_events_begin_frame();
            cs_sound(from);
            bool hears = in_row(qw_phs_row(sv.pvs, leaf), to);
            assert_int_equal(received_at(to) > 0, hears);
            pairs_heard += hears;
            pairs_unheard += !hears;

            sv.framenum++;
            sv_events_begin_frame();
            cs_temp_entity(TE_GUNSHOT, from);
            bool sees = in_row(qw_pvs_row(sv.pvs, leaf), to);
            assert_int_equal(received_at(to) > 0, sees);
            pairs_unseen += !sees;
            /* what can be seen can be heard */
            assert_true(!sees || hears);
        }
    }
    printf("spawn point pairs: %d hear each other, %d do not, %d do not see each other\n",
           pairs_heard, pairs_unheard, pairs_unseen);
    /* the map must show both cases, or the test proves nothing */
    assert_true(pairs_heard > 0);
    assert_true(pairs_unheard > 0);
}

static void test_missed_frames_are_sent(void **state)
{
    (void)state;
    const float *at = sv.spawnpoints[0].origin;
    unsigned last = sv.framenum;
    for (int f = 0; f < 3; f++) {
        sv.framenum++;
        sv_events_begin_frame();
        cs_sound(at);
    }
    uint8_t data[QW_MAX_MSGLEN];
    qw_sizebuf out;
    qw_sizebuf_init(&out, data, sizeof data);
    sv_events_copy_for(at, &last, &out);
    assert_int_equal(out.cursize, 3 * 10); /* three sounds of 10 bytes */
    assert_int_equal(last, sv.framenum);
}

static int setup(void **state)
{
    (void)state;
    return game_world_load(basedir, mapname) ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_events BASEDIR MAP (a map with visibility data)\n");
        return 2;
    }
    basedir = argv[1];
    mapname = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sounds_follow_the_phs),
        cmocka_unit_test(test_missed_frames_are_sent),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
