/* Kills, deaths and pickups by looking (see stats/game_work.h). */
#include "stats/game_work.h"

#include "net/scoreboard.h"
#include "stats/counters.h"

/* One line per slot: the workers note different slots at once in S. */
static struct {
    int userid;                       /* whose they are (0: nobody noted yet) */
    int frags;
    bool dead;
} __attribute__((aligned(64))) players[SV_MAX_CLIENTS];
static bool item_taken[SV_MAX_ENTITIES];

void sv_game_work_note_player(const sv_client *cl)
{
    int slot = cl->slot;
    int frags = sv_scoreboard_frags(slot);
    bool dead = sv.players[slot].dead;
    if (players[slot].userid == cl->userid) {
        sv_thread_stats *st = sv_stats_thread();
        if (frags > players[slot].frags)
            st->kills += (uint64_t)(frags - players[slot].frags);
        st->deaths += dead && !players[slot].dead;
    }
    players[slot].userid = cl->userid;
    players[slot].frags = frags;
    players[slot].dead = dead;
}

void sv_game_work_look_items(void)
{
    sv_thread_stats *st = sv_stats_thread();
    for (int n = SV_FIRST_NONPLAYER; n < sv.num_entities; n++) {
        const sv_entity *e = &sv.entities[n];
        bool taken = e->kind == ENT_ITEM && !e->visible;
        st->pickups += taken && !item_taken[n];
        item_taken[n] = taken;
    }
}
