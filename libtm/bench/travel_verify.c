/* Checks the travel tables after a run, and checks that this check catches damage. */
#include "travel.h"

#include <stdlib.h>

#include "bench_rng.h"
#include "rbtree.h"

/* Bookings found per offer, indexed by kind and id. */
struct tally {
    const struct travel *travel;
    long *booked[TRAVEL_KINDS];
    long bookings, money;
    enum travel_kind kind; /* the table being walked */
    FILE *err;
};

static bool check_offer(long key, void *value, void *ctx)
{
    struct tally *t = ctx;
    const struct travel_offer *o = value;
    const char *name = travel_kind_name(t->kind);
    if (o->id != key || key < 1 || key > t->travel->relations) {
        fprintf(t->err, "travel: %s %ld is filed under id %ld (ids run from 1 to %ld)\n",
                name, o->id, key, t->travel->relations);
        return false;
    }
    if (o->used < 0 || o->free < 0) {
        fprintf(t->err, "travel: %s %ld has a negative count: used %ld, free %ld\n",
                name, key, o->used, o->free);
        return false;
    }
    if (o->used + o->free != o->total || o->total <= 0) {
        fprintf(t->err, "travel: %s %ld has used %ld + free %ld against a capacity of %ld\n",
                name, key, o->used, o->free, o->total);
        return false;
    }
    if (o->price <= 0) {
        fprintf(t->err, "travel: %s %ld has the price %ld\n", name, key, o->price);
        return false;
    }
    if (o->used != t->booked[t->kind][key]) {
        fprintf(t->err, "travel: %s %ld counts %ld bookings, but customers hold %ld\n",
                name, key, o->used, t->booked[t->kind][key]);
        return false;
    }
    return true;
}

static bool check_customer(long key, void *value, void *ctx)
{
    struct tally *t = ctx;
    const struct travel_customer *c = value;
    if (c->id != key) {
        fprintf(t->err, "travel: customer %ld is filed under id %ld\n", c->id, key);
        return false;
    }
    long bill = 0;
    for (const struct travel_booking *b = c->bookings; b; b = b->next) {
        if (b->kind < 0 || b->kind >= TRAVEL_KINDS) {
            fprintf(t->err, "travel: customer %ld holds a booking of unknown kind %ld\n", key, b->kind);
            return false;
        }
        if (b->offer_id < 1 || b->offer_id > t->travel->relations
            || !rbmap_get(t->travel->offers[b->kind], b->offer_id)) {
            fprintf(t->err, "travel: customer %ld holds a booking of %s %ld, which is not in its table\n",
                    key, travel_kind_name((enum travel_kind)b->kind), b->offer_id);
            return false;
        }
        t->booked[b->kind][b->offer_id]++;
        t->bookings++;
        bill += b->price;
    }
    if (bill != c->bill) {
        fprintf(t->err, "travel: customer %ld is billed %ld, but the bookings cost %ld\n", key, c->bill, bill);
        return false;
    }
    t->money += bill;
    return true;
}

static bool check_tables(const struct travel *travel, const struct travel_expect *expect,
                         struct tally *t)
{
    for (int k = 0; k < TRAVEL_KINDS; k++) {
        if (!rbmap_verify(travel->offers[k], (size_t)expect->offers[k], t->err)) {
            fprintf(t->err, "travel: the %s table's tree is broken (see above)\n", travel_kind_name(k));
            return false;
        }
    }
    if (!rbmap_verify(travel->customers, (size_t)expect->customers, t->err)) {
        fprintf(t->err, "travel: the customer table's tree is broken (see above)\n");
        return false;
    }
    /* Offers are checked after the customers, once their bookings have been counted. */
    if (!rbmap_for_each(travel->customers, check_customer, t))
        return false;
    for (int k = 0; k < TRAVEL_KINDS; k++) {
        t->kind = (enum travel_kind)k;
        if (!rbmap_for_each(travel->offers[k], check_offer, t))
            return false;
    }
    if (t->bookings != expect->bookings) {
        fprintf(t->err, "travel: customers hold %ld bookings; the transactions made %ld\n",
                t->bookings, expect->bookings);
        return false;
    }
    if (t->money != expect->money) {
        fprintf(t->err, "travel: customers were billed %ld in all; the transactions took %ld\n",
                t->money, expect->money);
        return false;
    }
    return true;
}

bool travel_verify(const struct travel *travel, const struct travel_expect *expect, FILE *err)
{
    struct tally t = { .travel = travel, .err = err };
    bool ok = true;
    for (int k = 0; ok && k < TRAVEL_KINDS; k++)
        ok = (t.booked[k] = calloc((size_t)travel->relations + 1, sizeof(long))) != NULL;
    if (!ok)
        fprintf(err, "travel: out of memory while verifying\n");
    else
        ok = check_tables(travel, expect, &t);
    for (int k = 0; k < TRAVEL_KINDS; k++)
        free(t.booked[k]);
    return ok;
}

/* ---- the verifier's own test ---------------------------------------------------------- */

struct damage_target {
    struct travel *travel;
    struct travel_expect *expect;
    struct travel_offer *offer;       /* an offer with bookings and free capacity */
    struct travel_customer *customer; /* a customer with bookings */
    long saved_free, saved_total;
};

/* Each damage toggles: the second call undoes the first. */
static void damage_used(struct damage_target *d, int way)
{
    d->offer->used += way;
    d->offer->free -= way;
}

static void damage_negative_free(struct damage_target *d, int way)
{
    if (way > 0) {
        d->saved_free = d->offer->free;
        d->saved_total = d->offer->total;
        d->offer->free = -1;
        d->offer->total = d->offer->used - 1;
    } else {
        d->offer->free = d->saved_free;
        d->offer->total = d->saved_total;
    }
}

static void damage_bill(struct damage_target *d, int way)
{
    d->customer->bill += way;
}

static void damage_money(struct damage_target *d, int way)
{
    d->customer->bookings->price += 7 * way;
    d->customer->bill += 7 * way;
}

static void damage_missing_offer(struct damage_target *d, int way)
{
    d->customer->bookings->offer_id += way * (d->travel->relations + 1);
}

static void damage_booking_count(struct damage_target *d, int way)
{
    d->expect->bookings += way;
}

static void damage_customer_count(struct damage_target *d, int way)
{
    d->expect->customers += way;
}

static void damage_tree_colour(struct damage_target *d, int way)
{
    (void)way;
    rbmap_damage_color(d->travel->customers);
}

static void damage_tree_order(struct damage_target *d, int way)
{
    (void)way;
    rbmap_damage_order(d->travel->offers[TRAVEL_ROOM]);
}

static bool find_offer(long key, void *value, void *ctx)
{
    (void)key;
    struct travel_offer *o = value;
    if (o->used > 0 && o->free > 0) {
        *(struct travel_offer **)ctx = o;
        return false;
    }
    return true;
}

static bool find_customer(long key, void *value, void *ctx)
{
    (void)key;
    struct travel_customer *c = value;
    if (c->bookings) {
        *(struct travel_customer **)ctx = c;
        return false;
    }
    return true;
}

int travel_test_verifier(long relations, unsigned queries, uint64_t seed, FILE *out)
{
    struct travel *travel = travel_create(relations, seed);
    if (!travel) {
        fprintf(stderr, "travel: out of memory building %ld relations\n", relations);
        return 1;
    }
    struct travel_expect expect = { .customers = relations };
    for (int k = 0; k < TRAVEL_KINDS; k++)
        expect.offers[k] = relations;

    /* A mix of every transaction, run sequentially. */
    struct travel_totals sum = { 0 };
    uint64_t rng = rng_seed(seed, 0);
    for (int i = 0; i < 4 * relations; i++) {
        struct travel_change change;
        long customer = 1 + (long)rng_below(&rng, (uint64_t)relations);
        unsigned dice = (unsigned)rng_below(&rng, 10);
        if (dice < 8)
            change = travel_reserve(travel, customer, rng_next(&rng), queries, relations);
        else if (dice < 9)
            change = travel_delete_customer(travel, customer);
        else
            change = travel_update_offers(travel, rng_next(&rng), queries, relations);
        travel_totals_add(&sum, change);
    }
    expect.bookings = sum.bookings;
    expect.money = sum.money;
    expect.customers += sum.customers;
    for (int k = 0; k < TRAVEL_KINDS; k++)
        expect.offers[k] += sum.offers[k];

    int failures = 0;
    if (!travel_verify(travel, &expect, stderr)) {
        fprintf(stderr, "FAIL: tables after %d sequential transactions do not verify\n", 4 * (int)relations);
        failures++;
    }
    struct damage_target d = { travel, &expect, NULL, NULL, 0, 0 };
    for (int k = 0; k < TRAVEL_KINDS && !d.offer; k++)
        rbmap_for_each(travel->offers[k], find_offer, &d.offer);
    rbmap_for_each(travel->customers, find_customer, &d.customer);
    if (!d.offer || !d.customer) {
        fprintf(stderr, "FAIL: the transactions left no booked offer or customer to damage\n");
        travel_destroy(travel);
        return failures + 1;
    }
    const struct { const char *what; void (*damage)(struct damage_target *, int); } damages[] = {
        { "an offer's used count differs from its bookings", damage_used },
        { "a negative free count", damage_negative_free },
        { "a customer's bill differs from the bookings", damage_bill },
        { "money from nowhere", damage_money },
        { "a booking of an offer that is not in the table", damage_missing_offer },
        { "a booking missing from the customers", damage_booking_count },
        { "a customer missing from the table", damage_customer_count },
        { "a wrong node colour in the customer tree", damage_tree_colour },
        { "keys out of order in the room tree", damage_tree_order },
    };
    for (size_t i = 0; i < sizeof damages / sizeof damages[0]; i++) {
        damages[i].damage(&d, 1);
        fprintf(out, "expected complaint (%s): ", damages[i].what);
        fflush(out);
        if (travel_verify(travel, &expect, out)) {
            fprintf(stderr, "FAIL: %s passed verification\n", damages[i].what);
            failures++;
        }
        damages[i].damage(&d, -1);
        if (!travel_verify(travel, &expect, stderr)) {
            fprintf(stderr, "FAIL: the tables do not verify after undoing %s\n", damages[i].what);
            failures++;
        }
    }
    travel_destroy(travel);
    return failures;
}
