/* The budget of a packet source that is not a client in play: a token bucket per IPv4
 * address, and one for all such sources together (net/receive.c charges them; the server
 * README says why these numbers). Packets of a client in play -- from its own address and
 * port, with its qport -- are never charged: no other source can take their share. Plain
 * data and a clock passed in, so tests/test_source_budget.c drives it with made-up times. */
#ifndef SV_NET_SOURCE_BUDGET_H
#define SV_NET_SOURCE_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

#define SV_SOURCE_RATE 100.0   /* packets per second one address may send outside play */
#define SV_SOURCE_BURST 200.0  /* ... and at once, after a silence */
#define SV_SOURCES_RATE 2000.0 /* all addresses outside play together */
#define SV_SOURCES_BURST 4000.0
#define SV_SOURCE_SLOTS 1024   /* addresses remembered (a full bucket needs no slot) */
#define SV_SOURCE_PROBE 8      /* slots an address may take, from its hash on */

typedef struct sv_source {
    uint32_t ip;     /* network order; 0 = a free slot (0.0.0.0 never sends) */
    double tokens;   /* packets it may still send, as of `last` */
    double last;
    bool flooding;   /* dropped since it last had a full bucket */
    double flood_since;
    uint64_t dropped;
} sv_source;

/* A flood ended: `ip` (0 = all sources together) had `dropped` packets dropped over
 * `seconds`. Called when its bucket is full again (sv_source_sweep), when its slot is
 * taken by another address, and for every flood at sv_source_sweep(..., true). */
typedef void (*sv_source_ended_fn)(uint32_t ip, uint64_t dropped, double seconds, void *ctx);

typedef struct sv_source_budget {
    double rate, burst;        /* per address */
    sv_source all;             /* every address together (rate, burst below) */
    double all_rate, all_burst;
    sv_source slots[SV_SOURCE_SLOTS];
    sv_source_ended_fn ended;
    void *ctx;
    uint64_t dropped;          /* every packet dropped, by either bucket */
} sv_source_budget;

typedef enum sv_source_verdict {
    SV_SOURCE_PASS,            /* within its budget: process it */
    SV_SOURCE_DROP,            /* over its address's budget */
    SV_SOURCE_DROP_ALL,        /* its address has tokens, all sources together have none */
} sv_source_verdict;

void sv_source_budget_init(sv_source_budget *b, double rate, double burst, double all_rate,
                           double all_burst, sv_source_ended_fn ended, void *ctx);
/* Charges one packet from ip (network order) at time `now` (seconds, never decreasing).
 * *begins is set when this drop starts a flood of its address (or of all sources together,
 * with SV_SOURCE_DROP_ALL): the caller logs it once. */
sv_source_verdict sv_source_take(sv_source_budget *b, uint32_t ip, double now, bool *begins);
/* Reports (b->ended) the floods whose bucket is full again at `now`, or every flood when
 * `all` (at shutdown), and forgets them. */
void sv_source_sweep(sv_source_budget *b, double now, bool all);

#endif
