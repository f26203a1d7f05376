/* Travel reservations: three tables of offers (cars, flights, rooms) and one of customers,
 * each a red-black map from id to record. Three kinds of transaction work on them: a
 * reservation queries several offers of every table and books the dearest free one of each; a
 * customer's deletion cancels all of the customer's bookings; a table update adds or withdraws
 * capacity. Ids run from 1 to the number of relations. */
#ifndef BENCH_TRAVEL_H
#define BENCH_TRAVEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "bench_sync.h"

enum travel_kind { TRAVEL_CAR, TRAVEL_FLIGHT, TRAVEL_ROOM, TRAVEL_KINDS };

/* One car, flight or room. An offer stays in its table while total > 0, so used = 0 when it
 * goes and no booking ever refers to a missing offer. */
struct travel_offer {
    long id;
    long total; /* capacity: used + free */
    long used;  /* bookings that customers hold */
    long free;
    long price;
};

/* One booking held by a customer: a singly linked list, newest first. */
struct travel_booking {
    struct travel_booking *next;
    long kind; /* enum travel_kind, stored as a whole word */
    long offer_id;
    long price; /* what the customer paid, refunded on cancellation */
};

struct travel_customer {
    long id;
    long bill; /* the sum of the bookings' prices */
    struct travel_booking *bookings;
};

struct travel {
    long relations;
    struct rbmap *offers[TRAVEL_KINDS];
    struct rbmap *customers;
};

/* What one transaction changed. Sixteen bytes, so that it comes back in two registers: a
 * larger result would be written through memory, and those writes would count in the
 * transaction's write set. */
struct travel_change {
    int64_t money;                 /* paid minus refunded */
    int32_t bookings;              /* made minus cancelled */
    int8_t customers;              /* created minus deleted */
    int8_t offers[TRAVEL_KINDS];   /* added minus withdrawn, per table (|n| <= 100 updates) */
};

/* The changes of a run, added up per thread. */
struct travel_totals {
    long money, bookings, customers;
    long offers[TRAVEL_KINDS];
};

/* Every table holds ids 1..relations (inserted in a random order); customers start without
 * bookings. NULL when out of memory. */
struct travel *travel_create(long relations, uint64_t seed);
void travel_destroy(struct travel *travel);
const char *travel_kind_name(enum travel_kind kind);

/* The transactions. Ids come from 1..range; the random choices are drawn from seed inside
 * the transaction, so that a restart makes the same ones and nothing is read from a
 * caller's array. */
/* Queries `queries` random offers of each table; books the dearest one with free capacity of
 * each table for the customer (created if absent). */
TM_SAFE struct travel_change travel_reserve(struct travel *travel, long customer_id,
                                            uint64_t seed, unsigned queries, long range);
/* Cancels all of the customer's bookings and removes the customer. */
TM_SAFE struct travel_change travel_delete_customer(struct travel *travel, long customer_id);
/* `updates` (at most 100) times: on a random table, adds capacity to an offer (creating it, at a new price)
 * or withdraws free capacity from it (removing it once its capacity is 0). */
TM_SAFE struct travel_change travel_update_offers(struct travel *travel, uint64_t seed,
                                                  unsigned updates, long range);

/* Taken by value, so that the caller's copy can stay in registers. */
void travel_totals_add(struct travel_totals *sum, struct travel_change change);
void travel_totals_merge(struct travel_totals *sum, const struct travel_totals *more);

/* What the tables must hold after a run: the initial contents plus every change. */
struct travel_expect {
    long offers[TRAVEL_KINDS];
    long customers;
    long bookings;
    long money;
};

/* Single-threaded, after the run: the trees, every offer's counts against the bookings that
 * refer to it, every customer's bill, and the totals. Reports the first violation on err. */
bool travel_verify(const struct travel *travel, const struct travel_expect *expect, FILE *err);

/* Builds small tables, runs transactions on them, and checks that the verifier accepts them
 * and catches each of a list of deliberate damages (undoing each one). Prints the expected
 * complaints on out; returns the number of damages that went unnoticed. */
int travel_test_verifier(long relations, unsigned queries, uint64_t seed, FILE *out);

#endif
