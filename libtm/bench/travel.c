/* The travel tables and their three transactions. */
#include "travel.h"

#include <stdlib.h>

#include "bench_rng.h"
#include "rbtree.h"

/* Capacities and prices of new offers: 50..400 seats or cars, prices 20..200. */
#define CAPACITY_STEP 50
#define CAPACITY_STEPS 8
#define PRICE_BASE 20
#define PRICE_STEP 5
#define PRICE_STEPS 37

static const char *const kind_names[TRAVEL_KINDS] = {
    [TRAVEL_CAR] = "car",
    [TRAVEL_FLIGHT] = "flight",
    [TRAVEL_ROOM] = "room",
};

const char *travel_kind_name(enum travel_kind kind)
{
    return kind_names[kind];
}

TM_SAFE static long draw_capacity(uint64_t *rng)
{
    return CAPACITY_STEP * (1 + (long)rng_below(rng, CAPACITY_STEPS));
}

TM_SAFE static long draw_price(uint64_t *rng)
{
    return PRICE_BASE + PRICE_STEP * (long)rng_below(rng, PRICE_STEPS);
}

TM_SAFE static long draw_id(uint64_t *rng, long range)
{
    return 1 + (long)rng_below(rng, (uint64_t)range);
}

/* Adds one offer; false when out of memory. */
TM_SAFE static bool add_offer(struct rbmap *table, long id, long capacity, long price)
{
    struct travel_offer *offer = malloc(sizeof *offer);
    if (!offer)
        return false;
    offer->id = id;
    offer->total = capacity;
    offer->used = 0;
    offer->free = capacity;
    offer->price = price;
    if (rbmap_put(table, id, offer))
        return true;
    free(offer);
    return false;
}

TM_SAFE static struct travel_customer *add_customer(struct rbmap *customers, long id)
{
    struct travel_customer *customer = malloc(sizeof *customer);
    if (!customer)
        return NULL;
    customer->id = id;
    customer->bill = 0;
    customer->bookings = NULL;
    if (rbmap_put(customers, id, customer))
        return customer;
    free(customer);
    return NULL;
}

static void free_customer(void *value)
{
    struct travel_customer *customer = value;
    while (customer->bookings) {
        struct travel_booking *next = customer->bookings->next;
        free(customer->bookings);
        customer->bookings = next;
    }
    free(customer);
}

void travel_destroy(struct travel *travel)
{
    if (!travel)
        return;
    for (int k = 0; k < TRAVEL_KINDS; k++)
        rbmap_destroy(travel->offers[k], free);
    rbmap_destroy(travel->customers, free_customer);
    free(travel);
}

/* The ids 1..n in a random order (Fisher-Yates), so that the trees' nodes do not sit in
 * memory in key order as they would after inserting in order. */
static long *shuffled_ids(long n, uint64_t *rng)
{
    long *ids = malloc((size_t)n * sizeof *ids);
    if (!ids)
        return NULL;
    for (long i = 0; i < n; i++)
        ids[i] = i + 1;
    for (long i = n - 1; i > 0; i--) {
        long j = (long)rng_below(rng, (uint64_t)i + 1);
        long swap = ids[i];
        ids[i] = ids[j];
        ids[j] = swap;
    }
    return ids;
}

struct travel *travel_create(long relations, uint64_t seed)
{
    struct travel *travel = calloc(1, sizeof *travel);
    if (!travel)
        return NULL;
    travel->relations = relations;
    uint64_t rng = rng_seed(seed, UINT32_MAX);
    long *ids = shuffled_ids(relations, &rng);
    bool ok = ids != NULL;
    for (int k = 0; ok && k < TRAVEL_KINDS; k++) {
        ok = (travel->offers[k] = rbmap_create()) != NULL;
        for (long i = 0; ok && i < relations; i++)
            ok = add_offer(travel->offers[k], ids[i], draw_capacity(&rng), draw_price(&rng));
    }
    ok = ok && (travel->customers = rbmap_create()) != NULL;
    for (long i = 0; ok && i < relations; i++)
        ok = add_customer(travel->customers, ids[i]) != NULL;
    free(ids);
    if (!ok) {
        travel_destroy(travel);
        return NULL;
    }
    return travel;
}

TM_SAFE struct travel_change travel_reserve(struct travel *travel, long customer_id,
                                            uint64_t seed, unsigned queries, long range)
{
    struct travel_change change = { 0 };
    struct travel_offer *best[TRAVEL_KINDS];
    long best_price[TRAVEL_KINDS];
    bool found = false;
    uint64_t rng = seed;

    /* The read-mostly part: every table's queried offers, keeping the dearest free one. */
    for (int k = 0; k < TRAVEL_KINDS; k++) {
        best[k] = NULL;
        best_price[k] = 0;
        for (unsigned q = 0; q < queries; q++) {
            struct travel_offer *offer = rbmap_get(travel->offers[k], draw_id(&rng, range));
            if (!offer || offer->free <= 0)
                continue;
            long price = offer->price;
            if (price > best_price[k]) {
                best[k] = offer;
                best_price[k] = price;
            }
        }
        found |= best[k] != NULL;
    }
    if (!found)
        return change;

    struct travel_customer *customer = rbmap_get(travel->customers, customer_id);
    if (!customer) {
        customer = add_customer(travel->customers, customer_id);
        if (!customer)
            return change;
        change.customers = 1;
    }
    for (int k = 0; k < TRAVEL_KINDS; k++) {
        if (!best[k])
            continue;
        struct travel_booking *booking = malloc(sizeof *booking);
        if (!booking)
            break;
        booking->kind = k;
        booking->offer_id = best[k]->id;
        booking->price = best_price[k];
        booking->next = customer->bookings;
        customer->bookings = booking;
        customer->bill += best_price[k];
        best[k]->used++;
        best[k]->free--;
        change.bookings++;
        change.money += best_price[k];
    }
    return change;
}

TM_SAFE struct travel_change travel_delete_customer(struct travel *travel, long customer_id)
{
    struct travel_change change = { 0 };
    struct travel_customer *customer = rbmap_remove(travel->customers, customer_id);
    if (!customer)
        return change;
    struct travel_booking *booking = customer->bookings;
    while (booking) {
        /* Offers with bookings are never withdrawn; the verifier reports it if one was. */
        struct travel_offer *offer = rbmap_get(travel->offers[booking->kind], booking->offer_id);
        if (offer) {
            offer->used--;
            offer->free++;
        }
        change.bookings--;
        change.money -= booking->price;
        struct travel_booking *next = booking->next;
        free(booking);
        booking = next;
    }
    free(customer);
    change.customers = -1;
    return change;
}

TM_SAFE struct travel_change travel_update_offers(struct travel *travel, uint64_t seed,
                                                  unsigned updates, long range)
{
    struct travel_change change = { 0 };
    uint64_t rng = seed;
    for (unsigned u = 0; u < updates; u++) {
        int k = (int)rng_below(&rng, TRAVEL_KINDS);
        long id = draw_id(&rng, range);
        bool add = rng_below(&rng, 2) == 0;
        long amount = draw_capacity(&rng);
        long price = draw_price(&rng);
        struct travel_offer *offer = rbmap_get(travel->offers[k], id);
        if (add && offer) {
            offer->total += amount;
            offer->free += amount;
            if (offer->price != price)
                offer->price = price;
        } else if (add) {
            change.offers[k] += add_offer(travel->offers[k], id, amount, price);
        } else if (offer && offer->free > 0) {
            /* Withdraw only free capacity: bookings stay valid. */
            long take = offer->free < amount ? offer->free : amount;
            offer->total -= take;
            offer->free -= take;
            if (offer->total == 0) {
                rbmap_remove(travel->offers[k], id);
                free(offer);
                change.offers[k]--;
            }
        }
    }
    return change;
}

void travel_totals_add(struct travel_totals *sum, struct travel_change change)
{
    sum->money += change.money;
    sum->bookings += change.bookings;
    sum->customers += change.customers;
    for (int k = 0; k < TRAVEL_KINDS; k++)
        sum->offers[k] += change.offers[k];
}

void travel_totals_merge(struct travel_totals *sum, const struct travel_totals *more)
{
    sum->money += more->money;
    sum->bookings += more->bookings;
    sum->customers += more->customers;
    for (int k = 0; k < TRAVEL_KINDS; k++)
        sum->offers[k] += more->offers[k];
}
