/* Per-client reliable queues (see net/reliable.h). */
#include "net/reliable.h"

#include <stdatomic.h>
#include <string.h>

#include "sched/job_plan.h"
#include "sync/region.h"

/* The queue's lock in -sync region (a no-op otherwise): its slot, not cl->slot, which a
 * never used slot has not set. */
LIBTM_SAFE static int slot_of(const sv_client *cl)
{
    return (int)(cl - sv.clients);
}

/* Appends one whole message (the queue's lock held in -sync region). */
LIBTM_SAFE static bool append(sv_client *cl, const void *data, size_t len)
{
    sv_reliable *q = &cl->reliable;
    if (len > QW_MAX_MSGLEN || q->overflowed) {
        q->overflowed = true;
        return false;
    }
    if (q->count > 0) {
        sv_reliable_block *last = &q->blocks[(q->first + q->count - 1) % SV_RELIABLE_BLOCKS];
        if (last->len + len <= QW_MAX_MSGLEN) {
            memcpy(last->data + last->len, data, len);
            last->len = (uint16_t)(last->len + len);
            return true;
        }
    }
    if (q->count == SV_RELIABLE_BLOCKS) {
        q->overflowed = true;
        return false;
    }
    sv_reliable_block *b = &q->blocks[(q->first + q->count) % SV_RELIABLE_BLOCKS];
    memcpy(b->data, data, len);
    b->len = (uint16_t)len;
    q->count++;
    return true;
}

LIBTM_SAFE bool sv_reliable_write(sv_client *cl, const void *data, size_t len)
{
    sv_region_lock_client(slot_of(cl));
    /* a client that left has nobody to deliver to: not an error */
    bool ok = cl->state == CL_FREE || append(cl, data, len);
    sv_region_unlock_client(slot_of(cl));
    return ok;
}

LIBTM_SAFE void sv_reliable_mark_spawned(sv_client *cl)
{
    sv_region_lock_client(slot_of(cl));
    cl->state = CL_SPAWNED;
    sv_region_unlock_client(slot_of(cl));
}

/* Builds svc_print (level, text) in buf; returns its length, 0 if it does not fit. */
LIBTM_SAFE static size_t print_message(uint8_t *buf, size_t size, int level, const char *text)
{
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, size);
    qw_write_byte(&sb, svc_print);
    qw_write_byte(&sb, level);
    qw_write_string(&sb, text);
    return sb.overflowed ? 0 : sb.cursize;
}

LIBTM_SAFE bool sv_reliable_print(sv_client *cl, int level, const char *text)
{
    uint8_t buf[QW_MAX_MSGLEN];
    size_t len = print_message(buf, sizeof buf, level, text);
    return len > 0 && sv_reliable_write(cl, buf, len);
}

LIBTM_SAFE bool sv_reliable_stufftext(sv_client *cl, const char *text)
{
    uint8_t buf[QW_MAX_MSGLEN];
    qw_sizebuf sb;
    qw_sizebuf_init(&sb, buf, sizeof buf);
    qw_write_byte(&sb, svc_stufftext);
    qw_write_string(&sb, text);
    return !sb.overflowed && sv_reliable_write(cl, buf, sb.cursize);
}

/* Whether a message naming player slot `about` (-1: nobody) may go to cl: a client that knows
 * only QuakeWorld's 32 slots never hears of a big slot. */
LIBTM_SAFE static bool may_hear_of(const sv_client *cl, int about)
{
    return about < QW_MAX_CLIENTS || cl->bigslots;
}

/* -sched lpt: a job writes no other job's clients, so its broadcasts wait in its worker's
 * outbox, and in S every client's own worker copies all outboxes into its queue. A message
 * is stored as its slot (int16), its length (uint16) and its bytes. The room is what one
 * queue holds: a fuller outbox would overflow every queue anyway. */
#define OUTBOX_BYTES (SV_RELIABLE_BLOCKS * QW_MAX_MSGLEN)
static struct {
    size_t used;
    uint8_t data[OUTBOX_BYTES];
} __attribute__((aligned(64))) outboxes[SV_MAX_THREADS];

LIBTM_SAFE static bool outbox_add(int about, const void *data, size_t len)
{
    __typeof__(outboxes[0]) *o = &outboxes[sv_thread_index];
    if (len > QW_MAX_MSGLEN || o->used + 4 + len > OUTBOX_BYTES)
        return false;
    uint8_t *at = o->data + o->used;
    at[0] = (uint8_t)(about & 0xff);
    at[1] = (uint8_t)((about >> 8) & 0xff);
    at[2] = (uint8_t)(len & 0xff);
    at[3] = (uint8_t)(len >> 8);
    memcpy(at + 4, data, len);
    o->used += 4 + len;
    return true;
}

LIBTM_SAFE static bool broadcast(int about, const void *data, size_t len)
{
    if (sv_in_job())
        return outbox_add(about, data, len);
    bool ok = true;
    for (int i = 0; i < SV_MAX_CLIENTS; i++) {
        sv_client *cl = &sv.clients[i];
        sv_region_lock_client(i);
        if ((cl->state == CL_CONNECTED || cl->state == CL_SPAWNED) && may_hear_of(cl, about))
            ok &= append(cl, data, len);
        sv_region_unlock_client(i);
    }
    return ok;
}

LIBTM_SAFE bool sv_reliable_broadcast(const void *data, size_t len)
{
    return broadcast(-1, data, len);
}

LIBTM_SAFE bool sv_reliable_broadcast_about(int slot, const void *data, size_t len)
{
    return broadcast(slot, data, len);
}

void sv_reliable_clear_outbox(void)
{
    outboxes[sv_thread_index].used = 0;
}

void sv_reliable_deliver_outboxes(sv_client *cl)
{
    if (cl->state != CL_CONNECTED && cl->state != CL_SPAWNED)
        return;
    for (int t = 0; t < sv.opt.threads; t++) {
        const uint8_t *at = outboxes[t].data, *end = at + outboxes[t].used;
        while (at < end) {
            int about = (int16_t)(at[0] | at[1] << 8);
            size_t len = (size_t)(at[2] | at[3] << 8);
            if (may_hear_of(cl, about))
                append(cl, at + 4, len);
            at += 4 + len;
        }
    }
}

LIBTM_SAFE bool sv_broadcast_print(int level, const char *text)
{
    uint8_t buf[QW_MAX_MSGLEN];
    size_t len = print_message(buf, sizeof buf, level, text);
    return len > 0 && sv_reliable_broadcast(buf, len);
}

/* Queues marked tight, counted so that the move commands' question (is every queue roomy?)
 * does not read every slot's queue (192 of them, far apart in memory). The owners change the
 * marks in S, in parallel. */
static atomic_int tight_queues;

static void mark_tight(sv_reliable *q, bool tight)
{
    if (q->tight != tight) {
        q->tight = tight;
        atomic_fetch_add(&tight_queues, tight ? 1 : -1);
    }
}

void sv_reliable_to_netchan(sv_client *cl)
{
    sv_reliable *q = &cl->reliable;
    /* Only hand over a block when the netchan has nothing queued: the netchan sends its
     * message as one reliable block, so blocks stay whole and in order. */
    while (q->count > 0 && cl->netchan.message.cursize == 0) {
        sv_reliable_block *b = &q->blocks[q->first];
        qw_write_data(&cl->netchan.message, b->data, b->len);
        q->first = (q->first + 1) % SV_RELIABLE_BLOCKS;
        q->count--;
    }
    mark_tight(q, q->count > SV_RELIABLE_BLOCKS - SV_RELIABLE_SPARE);
}

bool sv_reliable_queues_roomy(void)
{
    return atomic_load(&tight_queues) == 0;
}

void sv_reliable_clear(sv_client *cl)
{
    cl->reliable.first = cl->reliable.count = 0;
    cl->reliable.overflowed = false;
    mark_tight(&cl->reliable, false);
}
