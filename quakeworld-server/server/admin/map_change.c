/* Map changes, match end and rotation (see admin/map_change.h). */
#include "admin/map_change.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/cvar.h"
#include "clock.h"
#include "game/game.h"
#include "log.h"
#include "map.h"
#include "net/client.h"
#include "net/reliable.h"
#include "net/scoreboard.h"
#include "server.h"
#include "sync/region.h"

static char pending[64];
static double map_start;

/* Loads map `name`; with QuakeWorld's game also tries a player on it: a map that loads but
 * that nobody can enter (worldspawn, ClientConnect or PutClientInServer fails) is refused. */
static bool load(const char *name, char *err, size_t errlen)
{
    return sv_map_load(sv.opt.basedir, name, err, errlen) &&
           (!sv_game->try_player || sv_game->try_player(err, errlen));
}

bool sv_mapchange_request(const char *name, char *err, size_t errlen)
{
    if (!sv_map_validate(sv.opt.basedir, name, err, errlen))
        return false;
    snprintf(pending, sizeof pending, "%s", name);
    return true;
}

const char *sv_mapchange_pending(void)
{
    return pending;
}

double sv_mapchange_map_seconds(void)
{
    return sv_clock() - map_start;
}

bool sv_mapchange_load_first(char *err, size_t errlen)
{
    if (!pending[0]) {
        snprintf(err, errlen, "no map to run: give -map NAME or +map NAME (or a \"map NAME\" "
                              "line in server.cfg)");
        return false;
    }
    char name[64];
    snprintf(name, sizeof name, "%s", pending);
    pending[0] = 0;
    if (!load(name, err, errlen))
        return false;
    map_start = sv_clock();
    return true;
}

void sv_mapchange_next_in_rotation(const char *list, const char *current, char *out,
                                   size_t size)
{
    char words[64][64];
    int n = 0;
    for (const char *p = list; *p && n < 64;) {
        p += strspn(p, " \t,");
        size_t len = strcspn(p, " \t,");
        if (!len)
            break;
        snprintf(words[n++], sizeof words[0], "%.*s", (int)(len < 63 ? len : 63), p);
        p += len;
    }
    const char *next = n ? words[0] : current;
    for (int i = 0; i < n; i++)
        if (!strcmp(words[i], current)) {
            next = words[(i + 1) % n];
            break;
        }
    snprintf(out, size, "%s", next);
}

/* A match ends: scores to the log and to the players, then the rotation's next map. */
static void end_match(const char *announcement, const char *reason)
{
    char scores[1024] = "";
    size_t len = 0;
    for (int i = 0; i < SV_CLIENT_SLOTS && len < sizeof scores - 64; i++) {
        sv_client *cl = &sv.clients[i];
        if (cl->state == CL_SPAWNED && !cl->spectator)
            len += (size_t)snprintf(scores + len, sizeof scores - len, "%s%s %d",
                                    len ? ", " : "", cl->name, sv_scoreboard_frags(i));
    }
    sv_log("match over on %s: %s; frags: %s", sv.mapname, reason, len ? scores : "(no players)");
    char text[128];
    snprintf(text, sizeof text, "%s\n", announcement);
    sv_broadcast_print(PRINT_HIGH, text);

    /* the next map of the rotation that loads (a missing one is skipped, and said so) */
    const char *list = sv_cvar_string("sv_maplist");
    char name[64], err[1024];
    char first[64] = "";
    snprintf(name, sizeof name, "%s", sv.mapname);
    for (;;) {
        char next[64];
        sv_mapchange_next_in_rotation(list, name, next, sizeof next);
        if (!strcmp(next, first) || (first[0] && !strcmp(next, sv.mapname)))
            break; /* once round the list: none loads */
        if (sv_mapchange_request(next, err, sizeof err))
            return;
        sv_log("sv_maplist: skipping %s: %s", next, err);
        if (!first[0])
            snprintf(first, sizeof first, "%s", next);
        snprintf(name, sizeof name, "%s", next);
    }
    snprintf(pending, sizeof pending, "%s", sv.mapname); /* the same map again */
}

static void check_limits(void)
{
    double timelimit = sv_cvar_number("timelimit");
    int fraglimit = (int)sv_cvar_number("fraglimit");
    if (timelimit > 0 && sv_mapchange_map_seconds() >= timelimit * 60) {
        char reason[64];
        snprintf(reason, sizeof reason, "timelimit %s min reached", sv_cvar_string("timelimit"));
        end_match("Timelimit hit.", reason);
        return;
    }
    if (fraglimit <= 0)
        return;
    for (int i = 0; i < SV_CLIENT_SLOTS; i++)
        if (sv.clients[i].state == CL_SPAWNED && !sv.clients[i].spectator &&
            sv_scoreboard_frags(i) >= fraglimit) {
            char reason[96];
            snprintf(reason, sizeof reason, "fraglimit %d reached by %s", fraglimit,
                     sv.clients[i].name);
            end_match("Fraglimit hit.", reason);
            return;
        }
}

/* Back to the sign-on: the client keeps its slot and connection and signs on again. */
static void send_to_new_map(sv_client *cl)
{
    cl->state = CL_CONNECTED;
    cl->delta_sequence = -1;
    cl->stats_valid = false;
    cl->events_sent_frame = sv.framenum;
    free(cl->download);
    cl->download = NULL;
    sv_reliable_clear(cl); /* what is still queued is about the old map */
    sv_reliable_stufftext(cl, "changing\n");
    sv_reliable_stufftext(cl, "reconnect\n");
}

void sv_mapchange_frame(void)
{
    if (!pending[0] && !sv_game->own_messages_and_rotation)
        check_limits(); /* QuakeWorld's game keeps its own limits (and intermission) */
    if (!pending[0])
        return;
    char name[64], previous[64], err[1024];
    snprintf(name, sizeof name, "%s", pending);
    snprintf(previous, sizeof previous, "%s", sv.mapname);
    pending[0] = 0;
    if (sv_game->map_ending)
        sv_game->map_ending(); /* the players' spawn parms for the next map */
    sv_map_unload();
    if (!load(name, err, sizeof err)) {
        /* its file was checked when requested: it changed since, or its game fails */
        sv_log("map change to %s refused: %s; back to %s", name, err, previous);
        sv_map_unload();
        if (!load(previous, err, sizeof err)) {
            sv_log("cannot reload %s either: %s; stopping", previous, err);
            exit(1);
        }
    }
    if (sv.opt.sync == SYNC_REGION)
        sv_region_init(); /* the locks follow the new map's areanode tree */
    map_start = sv_clock();
    int moved = 0;
    for (int i = 0; i < SV_CLIENT_SLOTS; i++)
        if (sv.clients[i].state >= CL_CONNECTED) {
            send_to_new_map(&sv.clients[i]);
            moved++;
        }
    sv_log("map changed to %s: %d client(s) sent to it", sv.mapname, moved);
}
