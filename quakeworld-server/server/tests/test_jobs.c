/* CMocka test of -sched lpt on a map (argv[1] = basedir holding id1/maps/field.bsp, an open
 * 2048-unit room without items, see test-jobs.sh): how the frame's clients form jobs (two
 * groups far apart are two jobs, two players in contact one, a bystander or an item between
 * two players joins them), which commands may run in a job, and a frame run the way the
 * server runs it -- real packets through sv_sched_run_rp with -sync none, then the serial
 * phase: moves leave the areanode tree alone until then, shotgun pellets and string commands
 * wait for it, a kill's broadcast waits in the worker's outbox until S. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cgame/entities.h"
#include "game_world.h"
#include "net/reliable.h"
#include "sched/jobs.h"
#include "sched/sched.h"

#define PLAYERS 5

static const char *basedir;
static qw_netchan client_side[PLAYERS];   /* the clients' ends of the netchans */

static void place(int slot, float x, float y)
{
    place_at(slot, x, y, 24.5f);
}

static int setup(void **state)
{
    (void)state;
    if (!game_world_load(basedir, "field"))
        return -1;
    sv.opt.maxclients = 8;
    for (int i = 2; i < PLAYERS; i++) {
        sv_client *cl = &sv.clients[i];
        cl->slot = i;
        cl->state = CL_SPAWNED;
        snprintf(cl->name, sizeof cl->name, "player%d", i);
        qw_netchan_init(&cl->netchan, false, i);
        if (!sv_game->spawn_player(i))
            return -1;
    }
    for (int i = 0; i < PLAYERS; i++)
        qw_netchan_init(&client_side[i], true, i);
    sv_sync_init(SYNC_NONE); /* what -sched lpt allows with any number of threads */
    sv_sched_init(SCHED_LPT, JOB_WEIGHT_CLIENTS);
    return 0;
}

/* Every player standing (alive, still, full health, no packets queued), far apart. */
static int reset_players(void **state)
{
    (void)state;
    for (int i = 0; i < PLAYERS; i++) {
        sv_player *p = &sv.players[i];
        if (p->dead)
            sv_game->spawn_player(i);
        p->health = 100;
        p->armor = 0;
        p->weapon = IT_SHOTGUN;
        p->shells = 25;
        p->attack_finished = p->time;
        sv.clients[i].inbox_count = 0;
        sv_reliable_clear(&sv.clients[i]);
        place(i, -900 + 400 * i, 900);
    }
    return 0;
}

static bool same_job(const sv_job_plan *plan, int a, int b)
{
    return plan->job_of_player[a] >= 0 && plan->job_of_player[a] == plan->job_of_player[b];
}

/* The plan with these players having a packet queued. */
static void build(sv_job_plan *plan, const int *slots, int n)
{
    for (int i = 0; i < PLAYERS; i++)
        sv.clients[i].inbox_count = 0;
    for (int k = 0; k < n; k++)
        sv.clients[slots[k]].inbox_count = 1;
    sv_jobs_build(plan, JOB_WEIGHT_CLIENTS);
    for (int i = 0; i < PLAYERS; i++)
        sv.clients[i].inbox_count = 0;
}

static void test_far_groups_are_two_jobs(void **state)
{
    (void)state;
    static sv_job_plan plan;
    /* two pairs in contact (40 apart), the pairs 1200 apart */
    place(0, -600, -600);
    place(1, -560, -600);
    place(2, 600, 600);
    place(3, 640, 600);
    const int four[] = {0, 1, 2, 3};
    build(&plan, four, 4);
    assert_int_equal(plan.num_jobs, 2);
    assert_true(plan.jobs[0].weight == 2 && plan.jobs[1].weight == 2);
    assert_true(same_job(&plan, 0, 1));
    assert_true(same_job(&plan, 2, 3));
    assert_false(same_job(&plan, 0, 2));
    /* apart, each is a job of its own */
    place(1, 0, -600);
    place(3, 0, 600);
    build(&plan, four, 4);
    assert_int_equal(plan.num_jobs, 4);
    assert_int_equal(plan.job_of_player[4], -1); /* far from all: in no job */
}

static void test_contact_is_one_job(void **state)
{
    (void)state;
    static sv_job_plan plan;
    place(0, 0, 0);
    place(1, 40, 0);
    const int two[] = {0, 1};
    build(&plan, two, 2);
    assert_int_equal(plan.num_jobs, 1);
    assert_int_equal(plan.jobs[0].count, 2);
    assert_true(plan.jobs[0].weight == 2);
    /* 400 apart: two jobs */
    place(1, 400, 0);
    build(&plan, two, 2);
    assert_int_equal(plan.num_jobs, 2);
}

static void test_bystander_and_item_join(void **state)
{
    (void)state;
    static sv_job_plan plan;
    /* player 4 has no packet but stands within reach of both 0 and 1 */
    place(0, -150, 0);
    place(1, 150, 0);
    place(4, 0, 0);
    const int two[] = {0, 1};
    build(&plan, two, 2);
    assert_int_equal(plan.num_jobs, 1);
    assert_true(same_job(&plan, 0, 4));
    /* without it, two jobs */
    place(4, 0, -900);
    build(&plan, two, 2);
    assert_int_equal(plan.num_jobs, 2);
    assert_int_equal(plan.job_of_player[4], -1);
    /* an item both may pick up joins them again */
    float at[3] = {-16, -16, 0};
    sv_game_spawn_item(ITEM_HEALTH, at);
    build(&plan, two, 2);
    assert_int_equal(plan.num_jobs, 1);
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++)
        if (sv.entities[n].kind == ENT_ITEM)
            sv_entity_free(&sv.entities[n]);
}

static void test_which_commands_fit(void **state)
{
    (void)state;
    static sv_job_plan plan;
    place(0, 0, 0);
    const int one[] = {0};
    build(&plan, one, 1);
    const float *mins = plan.box_mins[0], *maxs = plan.box_maxs[0];
    qw_usercmd walk = {.msec = 13, .forwardmove = 320};
    assert_true(sv_game->command_fits(0, &walk, mins, maxs));
    /* a long command may go further than the job's box */
    qw_usercmd long_one = {.msec = 250, .forwardmove = 320};
    assert_false(sv_game->command_fits(0, &long_one, mins, maxs));
    /* a dead player pressing fire a second after dying respawns: never in a job */
    sv_player *p = &sv.players[0];
    p->dead = true;
    p->death_time = p->time - 2;
    p->oldbuttons = 0;
    qw_usercmd fire = {.msec = 13, .buttons = QW_BUTTON_ATTACK};
    assert_false(sv_game->command_fits(0, &fire, mins, maxs));
    p->death_time = p->time; /* too early: it stays dead, which the job may do */
    assert_true(sv_game->command_fits(0, &fire, mins, maxs));
    p->dead = false;
}

/* Queues a packet from client `slot`: a string command (or none) and a move of `cmd`. */
static void queue_packet(int slot, const char *text, const qw_usercmd *cmd)
{
    uint8_t msg[256];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, msg, sizeof msg);
    if (text) {
        qw_write_byte(&sb, clc_stringcmd);
        qw_write_string(&sb, text);
    }
    static const qw_usercmd zero;
    qw_write_byte(&sb, clc_move);
    qw_write_byte(&sb, 0); /* checksum (no table loaded: not checked) */
    qw_write_byte(&sb, 0); /* packet loss */
    qw_usercmd_write_delta(&sb, &zero, cmd);
    qw_usercmd_write_delta(&sb, cmd, cmd);
    qw_usercmd_write_delta(&sb, cmd, cmd);
    sv_client *cl = &sv.clients[slot];
    sv_inbox_packet *pkt = &cl->inbox[cl->inbox_count++];
    pkt->len = (uint16_t)qw_netchan_transmit(&client_side[slot], msg, sb.cursize, pkt->data,
                                             sizeof pkt->data);
}

/* RP of one worker, as the frame runs it after U. */
static void run_rp(void)
{
    sv_sched_plan_frame();
    sv_sched_run_rp(0);
}

static void test_move_relinks_in_serial_phase(void **state)
{
    (void)state;
    sv_player *p = &sv.players[0];
    sv_client *cl = &sv.clients[0];
    place(0, 0, 0);
    qw_usercmd walk = {.msec = 13, .forwardmove = 320};
    for (int i = 0; i < 3; i++)
        queue_packet(0, NULL, &walk);
    cl->lastcmd.msec = 13; /* the job's box is built for three packets of 13 ms */
    run_rp();
    assert_false(cl->resume.pending);
    assert_int_equal(cl->inbox_count, 0);
    assert_true(p->origin[0] > 0);
    assert_true(p->link.origin[0] == 0); /* the tree still shows the start of the frame */
    assert_true(p->relink_pending);
    sv_sched_serial_phase();
    assert_false(p->relink_pending);
    assert_true(p->link.origin[0] == p->origin[0]);

    /* a command far longer than the last one may leave the box: it and what follows wait */
    float before = p->origin[0];
    qw_usercmd long_walk = {.msec = 200, .forwardmove = 320};
    queue_packet(0, NULL, &walk);
    queue_packet(0, NULL, &long_walk);
    run_rp();
    assert_true(cl->resume.pending);
    assert_int_equal(cl->resume.packet, 1);
    assert_true(p->origin[0] > before); /* the first packet ran in the job */
    float after_job = p->origin[0];
    sv_sched_serial_phase();
    assert_false(cl->resume.pending);
    assert_int_equal(cl->inbox_count, 0);
    assert_true(p->origin[0] > after_job);
    assert_true(p->link.origin[0] == p->origin[0]);
}

static void test_shot_waits_for_serial_phase(void **state)
{
    (void)state;
    place(0, -200, 0);
    place(1, 0, 0);
    qw_usercmd fire = {.msec = 13, .buttons = QW_BUTTON_ATTACK};
    queue_packet(0, NULL, &fire);
    run_rp();
    assert_int_equal(sv.players[0].shells, 24);
    assert_int_equal(sv.players[1].health, 100); /* the pellets fly in the serial phase */
    int clients, shots, rockets;
    sv_sched_deferred(&clients, &shots, &rockets);
    assert_int_equal(shots, 1);
    sv_sched_serial_phase();
    assert_int_equal(sv.players[1].health, 100 - 24);
    sv_sched_deferred(&clients, &shots, &rockets);
    assert_int_equal(shots, 0);
}

static void test_string_command_waits_for_serial_phase(void **state)
{
    (void)state;
    place(0, 0, 0);
    qw_usercmd walk = {.msec = 13, .forwardmove = 320};
    queue_packet(0, "say hello jobs", &walk);
    run_rp();
    sv_client *cl = &sv.clients[0];
    assert_true(cl->resume.pending);
    assert_int_equal(cl->inbox_count, 1);
    assert_true(sv.players[0].origin[0] == 0); /* the move comes after the chat */
    const char chat[] = "player0: hello jobs";
    assert_false(game_world_queued(1, chat, sizeof chat - 1));
    sv_sched_serial_phase();
    assert_false(cl->resume.pending);
    assert_int_equal(cl->inbox_count, 0);
    assert_true(game_world_queued(1, chat, sizeof chat - 1));
    assert_true(sv.players[0].origin[0] > 0);
}

static void test_kill_broadcast_waits_in_outbox(void **state)
{
    (void)state;
    place(0, 0, 0);
    place(1, 40, 0);
    sv.players[0].weapon = IT_AXE;
    sv.players[1].health = 10;
    int frags = sv.players[0].frags;
    qw_usercmd swing = {.msec = 13, .buttons = QW_BUTTON_ATTACK};
    queue_packet(0, NULL, &swing);
    run_rp();
    assert_true(sv.players[1].dead);
    assert_int_equal(sv.players[0].frags, frags + 1);
    /* still solid in the tree until the serial phase */
    assert_int_equal(sv.players[1].link.solid, QW_SOLID_SLIDEBOX);
    uint8_t frags_msg[4] = {svc_updatefrags, 0, (uint8_t)(frags + 1), 0};
    assert_false(game_world_queued(2, frags_msg, sizeof frags_msg));
    sv_reliable_deliver_outboxes(&sv.clients[2]); /* what S does for each client */
    assert_true(game_world_queued(2, frags_msg, sizeof frags_msg));
    sv_sched_serial_phase();
    assert_int_equal(sv.players[1].link.solid, QW_SOLID_NOT);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_jobs BASEDIR (holding id1/maps/field.bsp)\n");
        return 2;
    }
    basedir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_far_groups_are_two_jobs, reset_players),
        cmocka_unit_test_setup(test_contact_is_one_job, reset_players),
        cmocka_unit_test_setup(test_bystander_and_item_join, reset_players),
        cmocka_unit_test_setup(test_which_commands_fit, reset_players),
        cmocka_unit_test_setup(test_move_relinks_in_serial_phase, reset_players),
        cmocka_unit_test_setup(test_shot_waits_for_serial_phase, reset_players),
        cmocka_unit_test_setup(test_string_command_waits_for_serial_phase, reset_players),
        cmocka_unit_test_setup(test_kill_broadcast_waits_in_outbox, reset_players),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
