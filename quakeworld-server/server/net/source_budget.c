/* Token buckets per source address (see net/source_budget.h). */
#include "net/source_budget.h"

#include <string.h>

void sv_source_budget_init(sv_source_budget *b, double rate, double burst, double all_rate,
                           double all_burst, sv_source_ended_fn ended, void *ctx)
{
    memset(b, 0, sizeof *b);
    b->rate = rate;
    b->burst = burst;
    b->all_rate = all_rate;
    b->all_burst = all_burst;
    b->all.tokens = all_burst;
    b->ended = ended;
    b->ctx = ctx;
}

/* s's tokens at `now`: what it had, plus what the time since gave back, up to a full bucket. */
static double refill(sv_source *s, double now, double rate, double burst)
{
    if (now > s->last) {
        s->tokens += (now - s->last) * rate;
        s->last = now;
    }
    if (s->tokens > burst)
        s->tokens = burst;
    return s->tokens;
}

static void end_flood(sv_source_budget *b, sv_source *s, double now)
{
    if (s->flooding && b->ended)
        b->ended(s->ip, s->dropped, now - s->flood_since, b->ctx);
    s->flooding = false;
    s->dropped = 0;
}

static unsigned slot_of(uint32_t ip)
{
    /* Fibonacci hashing: the low bits of neighbouring addresses spread over the table */
    return (unsigned)((ip * 2654435761u) >> 22) % SV_SOURCE_SLOTS;
}

/* The slot of ip: its own, else a free one, else the one nearest a full bucket in ip's probe
 * window (a full bucket is what a new slot starts with: taking it loses nothing but the
 * report of a flood, which end_flood gives first). */
static sv_source *find(sv_source_budget *b, uint32_t ip, double now)
{
    unsigned h = slot_of(ip);
    sv_source *victim = NULL;
    double most = -1;
    for (unsigned i = 0; i < SV_SOURCE_PROBE; i++) {
        sv_source *s = &b->slots[(h + i) % SV_SOURCE_SLOTS];
        if (s->ip == ip)
            return s;
        double t = s->ip ? refill(s, now, b->rate, b->burst) : b->burst + 1;
        if (t > most) {
            most = t;
            victim = s;
        }
    }
    if (victim->ip)
        end_flood(b, victim, now);
    *victim = (sv_source){.ip = ip, .tokens = b->burst, .last = now};
    return victim;
}

static void drop(sv_source_budget *b, sv_source *s, double now, bool *begins)
{
    if (!s->flooding) {
        s->flooding = true;
        s->flood_since = now;
        *begins = true;
    }
    s->dropped++;
    b->dropped++;
}

sv_source_verdict sv_source_take(sv_source_budget *b, uint32_t ip, double now, bool *begins)
{
    *begins = false;
    sv_source *s = find(b, ip, now);
    /* the address's own bucket first: a flood from one address is dropped before it can
     * spend what all addresses share */
    if (refill(s, now, b->rate, b->burst) < 1) {
        drop(b, s, now, begins);
        return SV_SOURCE_DROP;
    }
    if (refill(&b->all, now, b->all_rate, b->all_burst) < 1) {
        drop(b, &b->all, now, begins);
        return SV_SOURCE_DROP_ALL;
    }
    s->tokens -= 1;
    b->all.tokens -= 1;
    return SV_SOURCE_PASS;
}

void sv_source_sweep(sv_source_budget *b, double now, bool all)
{
    for (int i = 0; i < SV_SOURCE_SLOTS; i++) {
        sv_source *s = &b->slots[i];
        if (s->ip && s->flooding && (all || refill(s, now, b->rate, b->burst) >= b->burst))
            end_flood(b, s, now);
    }
    if (b->all.flooding && (all || refill(&b->all, now, b->all_rate, b->all_burst) >= b->all_burst))
        end_flood(b, &b->all, now);
}
