/* Client slots in use, and how many a client is told about (see net/slots.h). */
#include "net/slots.h"

static int slots_used;

void sv_slots_note_used(int slot)
{
    if (slot >= slots_used)
        slots_used = slot + 1;
}

int sv_slots_used(void)
{
    return slots_used;
}

int sv_client_slot_limit(bool bigslots)
{
    int n = sv.opt.maxclients + sv.opt.maxspectators;
    if (n > SV_CLIENT_SLOTS)
        n = SV_CLIENT_SLOTS;
    if (!bigslots && n > QW_MAX_CLIENTS)
        n = QW_MAX_CLIENTS;
    return n;
}

int sv_client_slots_known(bool bigslots)
{
    int n = sv_client_slot_limit(bigslots);
    if (n < slots_used) /* maxclients was lowered: those above stay connected */
        n = slots_used < QW_MAX_CLIENTS || bigslots ? slots_used : QW_MAX_CLIENTS;
    return n;
}
