/* qw_netchan: header bytes, sequencing (stale/duplicate/bogus rejected), loss counting and
 * retransmission of a lost reliable block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "qw_netchan.h"

typedef struct link {
    qw_netchan client, server;
    uint8_t pkt[QW_MAX_PACKET];
    size_t len;
} link;

static void link_init(link *l)
{
    qw_netchan_init(&l->client, true, 0x1234);
    qw_netchan_init(&l->server, false, 0x1234);
}

static void test_client_header_bytes(void **state)
{
    (void)state;
    link l;
    link_init(&l);
    l.len = qw_netchan_transmit(&l.client, (const uint8_t *)"\x01", 1, l.pkt, sizeof l.pkt);
    static const uint8_t expect[] = {1, 0, 0, 0, 0, 0, 0, 0, 0x34, 0x12, 0x01};
    assert_int_equal(l.len, sizeof expect);
    assert_memory_equal(l.pkt, expect, sizeof expect);
    assert_int_equal(qw_netchan_peek_qport(l.pkt, l.len), 0x1234);

    qw_msgreader payload;
    int qport = 0;
    assert_true(qw_netchan_process(&l.server, l.pkt, l.len, 1.0, &payload, &qport));
    assert_int_equal(qport, 0x1234);
    assert_int_equal(qw_reader_remaining(&payload), 1);
    assert_int_equal(qw_read_byte(&payload), 1);
    /* a duplicate is rejected */
    assert_false(qw_netchan_process(&l.server, l.pkt, l.len, 1.0, &payload, NULL));
    assert_int_equal(l.server.stale_count, 1);
}

static void test_gaps_and_bogus_packets(void **state)
{
    (void)state;
    link l;
    link_init(&l);
    qw_msgreader payload;
    uint8_t p1[QW_MAX_PACKET], p3[QW_MAX_PACKET];
    size_t n1 = qw_netchan_transmit(&l.client, NULL, 0, p1, sizeof p1);
    (void)qw_netchan_transmit(&l.client, NULL, 0, l.pkt, sizeof l.pkt); /* lost */
    size_t n3 = qw_netchan_transmit(&l.client, NULL, 0, p3, sizeof p3);
    assert_true(qw_netchan_process(&l.server, p1, n1, 0, &payload, NULL));
    assert_true(qw_netchan_process(&l.server, p3, n3, 0, &payload, NULL));
    assert_int_equal(l.server.dropped, 1);
    assert_int_equal(l.server.drop_count, 1);
    /* the old packet arriving late is stale */
    assert_false(qw_netchan_process(&l.server, p1, n1, 0, &payload, NULL));

    /* truncated header */
    assert_false(qw_netchan_process(&l.server, p3, 9, 0, &payload, NULL));
    /* acknowledging a server packet never sent */
    uint8_t bogus[] = {10, 0, 0, 0, 0xe8, 0x03, 0, 0, 0x34, 0x12};
    assert_false(qw_netchan_process(&l.server, bogus, sizeof bogus, 0, &payload, NULL));
    assert_int_equal(l.server.bogus_count, 2);
    assert_int_equal(l.server.incoming_sequence, 3);
}

/* A client cannot push the sequences to the 31-bit limit (the server answers with the
 * client's sequence, and counting on from 2^31 - 1 overflowed). */
static void test_sequence_jumps_bounded(void **state)
{
    (void)state;
    link l;
    link_init(&l);
    qw_msgreader payload;
    uint8_t pkt[QW_MAX_PACKET];
    size_t n = qw_netchan_transmit(&l.client, NULL, 0, pkt, sizeof pkt);
    assert_true(qw_netchan_process(&l.server, pkt, n, 0, &payload, NULL));

    l.client.outgoing_sequence = 0x7fffffff; /* a hostile client's next packet */
    n = qw_netchan_transmit(&l.client, NULL, 0, pkt, sizeof pkt);
    assert_false(qw_netchan_process(&l.server, pkt, n, 0, &payload, NULL));
    assert_int_equal(l.server.incoming_sequence, 1);
    assert_int_equal(l.server.bogus_count, 1);

    /* the largest gap allowed, after 100 s of silence */
    l.client.outgoing_sequence = 1 + QW_NETCHAN_MAX_GAP;
    n = qw_netchan_transmit(&l.client, NULL, 0, pkt, sizeof pkt);
    assert_true(qw_netchan_process(&l.server, pkt, n, 100.0, &payload, NULL));
    assert_int_equal(l.server.dropped, QW_NETCHAN_MAX_GAP - 1);

    /* At the limit the sequence stays there instead of overflowing. */
    l.server.outgoing_sequence = 0x7fffffff;
    n = qw_netchan_transmit(&l.server, NULL, 0, pkt, sizeof pkt);
    assert_int_equal(l.server.outgoing_sequence, 0x7fffffff);
    assert_int_equal(pkt[0] | pkt[1] << 8 | pkt[2] << 16 | (pkt[3] & 0x7f) << 24, 0x7fffffff);
}

static size_t server_send(link *l)
{
    return qw_netchan_transmit(&l->server, (const uint8_t *)"U", 1, l->pkt, sizeof l->pkt);
}

static size_t client_send(link *l)
{
    return qw_netchan_transmit(&l->client, NULL, 0, l->pkt, sizeof l->pkt);
}

/* The jump a packet may make grows with the time since the last accepted one: a forged
 * packet during play cannot push the sequence far beyond the real client's. */
static void test_gap_bounded_by_silence(void **state)
{
    (void)state;
    link l;
    link_init(&l);
    qw_msgreader payload;
    uint8_t pkt[QW_MAX_PACKET];
    size_t n = qw_netchan_transmit(&l.client, NULL, 0, pkt, sizeof pkt);
    assert_true(qw_netchan_process(&l.server, pkt, n, 10.0, &payload, NULL));
    assert_int_equal(qw_netchan_max_gap(&l.server, 10.0), QW_NETCHAN_GAP_BASE);
    assert_int_equal(qw_netchan_max_gap(&l.server, 10.5), QW_NETCHAN_GAP_BASE + 500);

    l.client.outgoing_sequence = 2 + QW_NETCHAN_GAP_BASE; /* one more than allowed at once */
    n = qw_netchan_transmit(&l.client, NULL, 0, pkt, sizeof pkt);
    assert_false(qw_netchan_process(&l.server, pkt, n, 10.0, &payload, NULL));
    assert_int_equal(l.server.incoming_sequence, 1);
    /* 10 ms later the same packet fits (64 + 10) */
    assert_true(qw_netchan_process(&l.server, pkt, n, 10.01, &payload, NULL));
    assert_int_equal(l.server.incoming_sequence, 2 + QW_NETCHAN_GAP_BASE);
}

/* A server's netchan takes only its client's qport, and acknowledgements never go back. */
static void test_qport_and_old_acks_refused(void **state)
{
    (void)state;
    link l;
    link_init(&l);
    qw_msgreader payload;
    uint8_t pkt[QW_MAX_PACKET];
    /* the server sends two packets; the client acknowledges the second */
    for (int i = 0; i < 2; i++) {
        l.len = qw_netchan_transmit(&l.server, NULL, 0, l.pkt, sizeof l.pkt);
        assert_true(qw_netchan_process(&l.client, l.pkt, l.len, 0, &payload, NULL));
    }
    size_t n = qw_netchan_transmit(&l.client, NULL, 0, pkt, sizeof pkt);
    assert_true(qw_netchan_process(&l.server, pkt, n, 0, &payload, NULL));
    assert_int_equal(l.server.incoming_acknowledged, 2);

    n = qw_netchan_transmit(&l.client, NULL, 0, pkt, sizeof pkt);
    pkt[8] ^= 1; /* another qport */
    assert_false(qw_netchan_process(&l.server, pkt, n, 0, &payload, NULL));
    pkt[8] ^= 1;
    pkt[4] = 1; /* acknowledges 1 after 2 */
    assert_false(qw_netchan_process(&l.server, pkt, n, 0, &payload, NULL));
    assert_int_equal(l.server.bogus_count, 2);
    assert_int_equal(l.server.incoming_sequence, 1);
    pkt[4] = 2;
    assert_true(qw_netchan_process(&l.server, pkt, n, 0, &payload, NULL));
}

static void test_reliable_retransmission(void **state)
{
    (void)state;
    link l;
    link_init(&l);
    qw_msgreader payload;
    char s[16];

    /* the client must have sent something so the server's acks line up */
    l.len = client_send(&l);
    assert_true(qw_netchan_process(&l.server, l.pkt, l.len, 0, &payload, NULL));

    qw_write_string(&l.server.message, "hi");
    l.len = server_send(&l); /* carries the reliable block; lost */
    assert_true(l.pkt[3] & 0x80);
    assert_true(qw_netchan_reliable_pending(&l.server));

    l.len = client_send(&l); /* acks nothing new */
    assert_true(qw_netchan_process(&l.server, l.pkt, l.len, 0, &payload, NULL));

    l.len = server_send(&l); /* block still in flight, not yet known lost: unreliable only */
    assert_false(l.pkt[3] & 0x80);
    assert_int_equal(l.len, 9);
    assert_true(qw_netchan_process(&l.client, l.pkt, l.len, 0, &payload, NULL));

    l.len = client_send(&l); /* acks a packet sent after the block, old toggle */
    assert_true(qw_netchan_process(&l.server, l.pkt, l.len, 0, &payload, NULL));

    l.len = server_send(&l); /* resent */
    assert_true(l.pkt[3] & 0x80);
    assert_true(qw_netchan_process(&l.client, l.pkt, l.len, 0, &payload, NULL));
    assert_string_equal(qw_read_string(&payload, s, sizeof s), "hi");
    assert_int_equal(qw_read_byte(&payload), 'U');
    assert_int_equal(l.client.incoming_reliable_sequence, 1);

    l.len = client_send(&l); /* ack with the flipped toggle frees the block */
    assert_true(l.pkt[7] & 0x80);
    assert_true(qw_netchan_process(&l.server, l.pkt, l.len, 0, &payload, NULL));
    assert_false(qw_netchan_reliable_pending(&l.server));

    /* the next block uses the other toggle and is delivered once */
    qw_write_string(&l.server.message, "again");
    l.len = server_send(&l);
    assert_true(l.pkt[3] & 0x80);
    assert_int_equal(l.server.reliable_sequence, 0);
    assert_true(qw_netchan_process(&l.client, l.pkt, l.len, 0, &payload, NULL));
    assert_string_equal(qw_read_string(&payload, s, sizeof s), "again");
    assert_int_equal(l.client.incoming_reliable_sequence, 0);
}

static void test_reliable_overflow_reported(void **state)
{
    (void)state;
    qw_netchan nc;
    qw_netchan_init(&nc, false, 0);
    static uint8_t big[QW_MAX_MSGLEN + 1];
    qw_write_data(&nc.message, big, sizeof big);
    assert_true(qw_netchan_reliable_overflowed(&nc));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_client_header_bytes),
        cmocka_unit_test(test_gaps_and_bogus_packets),
        cmocka_unit_test(test_sequence_jumps_bounded),
        cmocka_unit_test(test_gap_bounded_by_silence),
        cmocka_unit_test(test_qport_and_old_acks_refused),
        cmocka_unit_test(test_reliable_retransmission),
        cmocka_unit_test(test_reliable_overflow_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
