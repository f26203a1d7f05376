/* CMocka units of the server: tokenizer, client message parser (known bytes, checksum,
 * malformed input), the reliable queues, the scoreboard messages, and the regression corpus
 * replayed through the parser (argv[1] = corpus dir, argv[2] = chktbl.bin or ""). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cgame/cgame.h"
#include "net/client.h"
#include "net/parse.h"
#include "net/reliable.h"
#include "net/scoreboard.h"
#include "net/tokenize.h"
#include "qw_svc.h"
#include "server.h"

sv_server sv;
const struct sv_game *sv_game = &sv_cgame;
__thread int sv_thread_index;
double sv_clock(void) { return 0; }

static const char *corpus_dir, *chktbl_path;

static void test_tokenize(void **state)
{
    (void)state;
    sv_args a;
    assert_true(sv_tokenize("prespawn 3 0 12345", &a));
    assert_int_equal(a.argc, 4);
    assert_string_equal(a.argv[0], "prespawn");
    assert_string_equal(sv_arg(&a, 3), "12345");
    assert_string_equal(sv_arg(&a, 9), "");
    assert_true(sv_tokenize("say \"hello world\" // comment", &a));
    assert_int_equal(a.argc, 2);
    assert_string_equal(a.argv[1], "hello world");
    assert_string_equal(a.rest, "\"hello world\" // comment");
    assert_true(sv_tokenize("connect 28 1 2 \"\\name\\x\"\nextra", &a));
    assert_int_equal(a.argc, 5);
    assert_string_equal(a.argv[4], "\\name\\x");
    char big[600];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    assert_false(sv_tokenize(big, &a));
    assert_int_equal(a.argc, 0);
    assert_false(sv_tokenize("a b c d e f g h i j k l m n o p q r s", &a));
}

/* A clc_move with three commands and a checksum computed like a client does. */
static size_t build_move(uint8_t *buf, size_t size, const qw_chktbl *tbl, int32_t seq)
{
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, size);
    qw_write_byte(&sb, clc_stringcmd);
    qw_write_string(&sb, "say hi");
    qw_write_byte(&sb, clc_move);
    size_t at = sb.cursize;
    qw_write_byte(&sb, 0);
    qw_write_byte(&sb, 5);
    qw_usercmd zero = {0}, c = {.msec = 13, .forwardmove = 400, .angles = {0, 90, 0}};
    qw_usercmd_write_delta(&sb, &zero, &c);
    qw_usercmd_write_delta(&sb, &c, &c);
    qw_usercmd c2 = c;
    c2.buttons = QW_BUTTON_ATTACK;
    qw_usercmd_write_delta(&sb, &c, &c2);
    if (tbl)
        buf[at] = qw_sequence_crc_byte(tbl, buf + at + 1, sb.cursize - at - 1, seq);
    qw_write_byte(&sb, clc_delta);
    qw_write_byte(&sb, 77);
    return sb.cursize;
}

static void test_parse_valid_message(void **state)
{
    (void)state;
    uint8_t buf[256];
    size_t n = build_move(buf, sizeof buf, NULL, 0);
    static sv_parsed_message m;
    assert_true(sv_parse_client_message(buf, n, NULL, 10, &m));
    assert_null(m.error);
    assert_true(m.has_move);
    assert_true(m.move_checksum_ok);
    assert_int_equal(m.move_loss, 5);
    assert_int_equal(m.cmds[2].buttons, QW_BUTTON_ATTACK);
    assert_int_equal(m.cmds[0].forwardmove, 400);
    assert_int_equal(m.delta_sequence, 77);
    assert_int_equal(m.num_stringcmds, 1);
    assert_string_equal(m.stringcmds[0], "say hi");
}

static void test_parse_checksum(void **state)
{
    (void)state;
    qw_chktbl tbl;
    char err[300];
    if (!chktbl_path || !*chktbl_path || !qw_chktbl_load(&tbl, chktbl_path, err, sizeof err)) {
        printf("skipping the checksum check: no chktbl.bin (shared/quake/protocol)\n");
        skip();
    }
    uint8_t buf[256];
    static sv_parsed_message m;
    size_t n = build_move(buf, sizeof buf, &tbl, 1234);
    assert_true(sv_parse_client_message(buf, n, &tbl, 1234, &m));
    assert_true(m.move_checksum_ok);
    /* the same bytes under another sequence number fail the check */
    assert_true(sv_parse_client_message(buf, n, &tbl, 1235, &m));
    assert_false(m.move_checksum_ok);
}

static void test_parse_rejects_malformed(void **state)
{
    (void)state;
    static sv_parsed_message m;
    uint8_t buf[256];
    size_t n = build_move(buf, sizeof buf, NULL, 0);
    for (size_t cut = 1; cut < n - 2; cut++) {
        bool ok = sv_parse_client_message(buf, cut, NULL, 0, &m);
        /* every cut inside the string or the move is rejected; cutting right after the
         * string command leaves a valid message */
        if (cut == 8)
            assert_true(ok);
        else
            assert_false(ok);
    }
    static const uint8_t unknown[] = {0x63};
    assert_false(sv_parse_client_message(unknown, 1, NULL, 0, &m));
    assert_string_equal(m.error, "unknown client message id");
    uint8_t two[512];
    memcpy(two, buf + 8, n - 8 - 2);
    memcpy(two + n - 10, buf + 8, n - 8 - 2);
    assert_false(sv_parse_client_message(two, 2 * (n - 10), NULL, 0, &m));
    static uint8_t long_string[QW_MAX_STRINGCMD + 10];
    long_string[0] = clc_stringcmd;
    memset(long_string + 1, 'a', QW_MAX_STRINGCMD + 5);
    long_string[QW_MAX_STRINGCMD + 6] = 0;
    assert_false(sv_parse_client_message(long_string, sizeof long_string, NULL, 0, &m));
}

static void test_reliable_queue(void **state)
{
    (void)state;
    sv_client *cl = &sv.clients[0];
    memset(cl, 0, sizeof *cl);
    cl->state = CL_CONNECTED;
    qw_netchan_init(&cl->netchan, false, 0);
    static uint8_t chunk[1000];
    /* two 1000-byte messages do not share a block */
    assert_true(sv_reliable_write(cl, chunk, sizeof chunk));
    assert_true(sv_reliable_write(cl, chunk, sizeof chunk));
    assert_int_equal(cl->reliable.count, 2);
    assert_true(sv_reliable_print(cl, PRINT_HIGH, "small\n"));
    assert_int_equal(cl->reliable.count, 2);
    assert_int_equal(cl->reliable.blocks[1].len, 1000 + 2 + 7);
    /* only one block goes to the netchan at a time */
    sv_reliable_to_netchan(cl);
    assert_int_equal(cl->netchan.message.cursize, 1000);
    assert_int_equal(cl->reliable.count, 1);
    sv_reliable_to_netchan(cl);
    assert_int_equal(cl->reliable.count, 1);
    /* S notes whether the queue has room to spare; move commands run cancellable when not */
    assert_true(sv_reliable_queues_roomy());
    for (int i = 0; i < SV_RELIABLE_BLOCKS - SV_RELIABLE_SPARE; i++)
        sv_reliable_write(cl, chunk, sizeof chunk);
    sv_reliable_to_netchan(cl); /* the netchan still holds the first block: nothing moves */
    assert_true(cl->reliable.tight);
    assert_false(sv_reliable_queues_roomy());
    /* the backlog is bounded: overflow marks the queue */
    for (int i = 0; i < SV_RELIABLE_BLOCKS; i++)
        sv_reliable_write(cl, chunk, sizeof chunk);
    assert_true(cl->reliable.overflowed);
    assert_false(sv_reliable_write(cl, chunk, 1));
    sv_reliable_clear(cl);
    assert_false(cl->reliable.overflowed);
    assert_true(sv_reliable_queues_roomy());
    /* free slots accept and ignore messages */
    cl->state = CL_FREE;
    assert_true(sv_reliable_write(cl, chunk, sizeof chunk));
    assert_int_equal(cl->reliable.count, 0);
}

/* What a client's reliable queue holds, decoded: the scoreboard messages. */
typedef struct heard {
    int frags[4][2], nfrags;          /* slot, value */
    int pings[4][2], nping;
    int userinfo_slot, userid;
    char info[QW_MAX_INFO_STRING];
} heard;

static bool hear(void *ctx, const qw_svc *m)
{
    heard *h = ctx;
    if (m->id == svc_updatefrags && h->nfrags < 4) {
        h->frags[h->nfrags][0] = m->u.player.slot;
        h->frags[h->nfrags++][1] = m->u.player.value;
    } else if (m->id == svc_updateping && h->nping < 4) {
        h->pings[h->nping][0] = m->u.player.slot;
        h->pings[h->nping++][1] = m->u.player.value;
    } else if (m->id == svc_updateuserinfo) {
        h->userinfo_slot = m->u.userinfo.slot;
        h->userid = m->u.userinfo.userid;
        snprintf(h->info, sizeof h->info, "%s", m->u.userinfo.info);
    }
    return true;
}

/* Decodes and empties cl's queue. */
static heard queued_for(sv_client *cl)
{
    heard h = {.userinfo_slot = -1};
    sv_reliable *q = &cl->reliable;
    for (int i = 0; i < q->count; i++) {
        const sv_reliable_block *b = &q->blocks[(q->first + i) % SV_RELIABLE_BLOCKS];
        qw_msgreader r;
        qw_reader_init(&r, b->data, b->len);
        assert_int_equal(qw_svc_walk(&r, hear, &h, NULL), QW_SVC_END);
    }
    sv_reliable_clear(cl);
    return h;
}

static void put_client(int slot, sv_client_state state, bool spectator, const char *name)
{
    sv_client *cl = &sv.clients[slot];
    memset(cl, 0, sizeof *cl);
    cl->slot = slot;
    cl->state = state;
    cl->spectator = spectator;
    cl->userid = 10 + slot;
    snprintf(cl->name, sizeof cl->name, "%s", name);
    sv.players[slot].frags = 0;
}

static void test_scoreboard(void **state)
{
    (void)state;
    sv_sync_init(SYNC_NONE);
    sv.opt.maxclients = 2;
    sv.opt.maxspectators = 1;
    put_client(0, CL_SPAWNED, false, "alice");
    put_client(1, CL_CONNECTED, false, "bob");
    put_client(2, CL_SPAWNED, true, "sam");

    /* a game that only changes the number: the frame tells everybody, once */
    sv_scoreboard_game_announces_frags(false);
    sv.players[0].frags = 2;
    sv.players[2].frags = 7; /* a spectator has no frags to announce */
    sv_scoreboard_frame();
    for (int i = 0; i < 3; i++) {
        heard h = queued_for(&sv.clients[i]);
        assert_int_equal(h.nfrags, 1);
        assert_int_equal(h.frags[0][0], 0);
        assert_int_equal(h.frags[0][1], 2);
    }
    sv_scoreboard_frame();
    assert_int_equal(queued_for(&sv.clients[1]).nfrags, 0);
    /* a game that sends them itself (the C game) is not repeated */
    sv_scoreboard_game_announces_frags(true);
    sv.players[0].frags = 3;
    sv_scoreboard_frame();
    assert_int_equal(queued_for(&sv.clients[1]).nfrags, 0);

    /* a client leaves: its slot is cleared everywhere (empty userinfo, frags 0, ping 999) */
    sv_client_free(&sv.clients[1], NULL);
    heard h = queued_for(&sv.clients[0]);
    assert_int_equal(h.userinfo_slot, 1);
    assert_int_equal(h.userid, 11);
    assert_string_equal(h.info, "");
    assert_int_equal(h.nfrags, 1);
    assert_int_equal(h.frags[0][1], 0);
    assert_int_equal(h.pings[0][1], 999);
    assert_int_equal(queued_for(&sv.clients[2]).userinfo_slot, 1);

    /* a full update shows what others may see of a client, and marks a spectator */
    sv_scoreboard_entry e;
    sv.clients[2].topcolor = 13;
    snprintf(sv.clients[2].team, sizeof sv.clients[2].team, "red");
    sv_scoreboard_entry_of(&sv.clients[2], &e);
    uint8_t buf[256];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    sv_scoreboard_write_update(&sb, 2, &e);
    qw_msgreader r;
    qw_reader_init(&r, buf, sb.cursize);
    h = (heard){0};
    assert_int_equal(qw_svc_walk(&r, hear, &h, NULL), QW_SVC_END);
    assert_string_equal(h.info, "\\name\\sam\\team\\red\\topcolor\\13\\bottomcolor\\0\\*spectator\\1");
    assert_int_equal(h.frags[0][1], 0);

    /* players and spectators are counted apart */
    int players, spectators;
    sv_client_count(&players, &spectators);
    assert_int_equal(players, 1);
    assert_int_equal(spectators, 1);
    for (int i = 0; i < 3; i++)
        sv.clients[i].state = CL_FREE;
}

/* The failure-atomicity contract of CRITICAL_SECTION_CANCELLABLE: in the transactional
 * modes a body that fails is rolled back; with the lock its partial effects stay. */
static int shared_counter;
static uint8_t shared_bytes[64];

static LIBTM_SAFE bool half_done_then_fail(int value)
{
    shared_counter += value;
    memset(shared_bytes, value, sizeof shared_bytes);
    return false;
}

static LIBTM_SAFE bool succeed(int value)
{
    shared_counter += value;
    return true;
}

static void test_cancel_rolls_back(void **state)
{
    (void)state;
    sv_sync_init(SYNC_STM);
    bool ok = true;
    shared_counter = 5;
    memset(shared_bytes, 1, sizeof shared_bytes);
    CRITICAL_SECTION_CANCELLABLE(CS_MOVE_COMMAND, ok, half_done_then_fail(3));
    assert_false(ok);
    assert_int_equal(shared_counter, 5);
    assert_int_equal(shared_bytes[10], 1);
    CRITICAL_SECTION_CANCELLABLE(CS_MOVE_COMMAND, ok, succeed(3));
    assert_true(ok);
    assert_int_equal(shared_counter, 8);

    sv_sync_init(SYNC_STMLOCK);
    CRITICAL_SECTION_CANCELLABLE(CS_MOVE_COMMAND, ok, half_done_then_fail(3));
    assert_false(ok);
    assert_int_equal(shared_counter, 8);

    sv_sync_init(SYNC_LOCK);
    CRITICAL_SECTION_CANCELLABLE(CS_MOVE_COMMAND, ok, half_done_then_fail(3));
    assert_false(ok);
    assert_int_equal(shared_counter, 11); /* no rollback without transactions */
    assert_int_equal(shared_bytes[10], 3);
    /* the lock is re-entrant (sections nest through calls, e.g. a kill printing to all) */
    sv_global_lock();
    CRITICAL_SECTION(CS_BROADCAST, shared_counter++;);
    sv_global_unlock();
    assert_int_equal(shared_counter, 12);
    sv_sync_init(SYNC_NONE);
}

static void test_corpus_replay(void **state)
{
    (void)state;
    DIR *d = corpus_dir ? opendir(corpus_dir) : NULL;
    assert_non_null(d);
    struct dirent *e;
    int files = 0, rejected = 0;
    static sv_parsed_message m;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", corpus_dir, e->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        static uint8_t data[65536];
        size_t n = fread(data, 1, sizeof data, f);
        fclose(f);
        files++;
        if (!sv_parse_client_message(data, n, NULL, 1, &m)) {
            rejected++;
            assert_non_null(m.error);
            continue;
        }
        for (int i = 0; i < m.num_stringcmds; i++) {
            sv_args a;
            sv_tokenize(m.stringcmds[i], &a);
            assert_true(a.argc >= 0 && a.argc <= SV_MAX_ARGS);
        }
    }
    closedir(d);
    printf("corpus: %d files, %d rejected by the parser\n", files, rejected);
    assert_true(files >= 10);
    assert_true(rejected >= 8);
}

/* What other players' commands read of a player and what its own command writes every time
 * lie on different cache lines (and so in different STM stripes), and no line holds two
 * players (server.h): a write there made every shot and respawn conflict with the player's
 * own move. */
static size_t line_of(size_t offset)
{
    return offset / 64;
}

static void test_player_layout(void **state)
{
    (void)state;
    const size_t own[] = {offsetof(sv_player, time), offsetof(sv_player, angles),
                          offsetof(sv_player, random_state), offsetof(sv_player, oldbuttons),
                          offsetof(sv_player, attack_finished), offsetof(sv_player, shells)};
    const size_t read_by_others[] = {offsetof(sv_player, active), offsetof(sv_player, spectator),
                                     offsetof(sv_player, dead), offsetof(sv_player, link),
                                     offsetof(sv_player, origin), offsetof(sv_player, health),
                                     offsetof(sv_player, armor)};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        for (size_t j = 0; j < sizeof read_by_others / sizeof read_by_others[0]; j++)
            assert_true(line_of(own[i]) != line_of(read_by_others[j]));
    assert_int_equal(sizeof(sv_player) % 64, 0);
    assert_int_equal((uintptr_t)&sv.players[1] % 64, 0);
}

int main(int argc, char **argv)
{
    corpus_dir = argc > 1 ? argv[1] : NULL;
    chktbl_path = argc > 2 ? argv[2] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokenize),
        cmocka_unit_test(test_parse_valid_message),
        cmocka_unit_test(test_parse_checksum),
        cmocka_unit_test(test_parse_rejects_malformed),
        cmocka_unit_test(test_reliable_queue),
        cmocka_unit_test(test_cancel_rolls_back),
        cmocka_unit_test(test_scoreboard),
        cmocka_unit_test(test_corpus_replay),
        cmocka_unit_test(test_player_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
