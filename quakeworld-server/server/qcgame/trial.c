/* A player tried on a map just spawned (see qcgame.h, sv_qcgame_try_player). */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "qcgame/qcg.h"
#include "qcgame/qcgame.h"

/* The engine call a backtrace ends in: its outermost frame ("  NAME (file) statement N",
 * innermost first), so that the error names ClientConnect or PutClientInServer. */
static void outermost(const char *backtrace, char *out, size_t size)
{
    snprintf(out, size, "ClientConnect/PutClientInServer");
    for (const char *line = backtrace; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 2 && !strncmp(line, "  ", 2) && strncmp(line, "  <-", 4)) {
            size_t name = strcspn(line + 2, " ");
            snprintf(out, size, "%.*s", (int)(name < size ? name : size - 1), line + 2);
        }
        line += len + (end != NULL);
    }
}

bool sv_qcgame_try_player(char *err, size_t errlen)
{
    int slot = -1;
    for (int i = QW_MAX_CLIENTS - 1; i >= 0 && slot < 0; i--)
        if (sv.clients[i].state == CL_FREE && !sv.players[i].active)
            slot = i;
    if (slot < 0)
        return true; /* every slot of QuakeWorld's game is a client's: they are the trial */
    /* the edicts it spawns (id's game: a telefrag trigger at the spot, which would kill the
     * first real player there) leave with it */
    static bool used_before[QCG_MAX_EDICTS];
    for (int n = 0; n < QCG_MAX_EDICTS; n++)
        used_before[n] = qcg_in_use(n);
    bool ok = sv_qcgame_spawn_player(slot);
    const qc_error *e = qc_ctx_error(qcg_ctx());
    /* a reliable queue that overflowed is not the program's fault: no verdict */
    bool failed = !ok && e->kind != QC_ERR_NONE;
    if (failed) {
        char call[64];
        outermost(e->backtrace, call, sizeof call);
        snprintf(err, errlen, "%s: no player can enter this map: QuakeC error in %s (%s, in %s): "
                 "%s", sv.mapname, call, qc_error_kind_name(e->kind), e->function, e->message);
        sv_log("%s", e->backtrace);
    }
    /* what it did leaves with it: its edict, its link, its parms, what it spawned (and what it
     * told everybody goes with the old map's reliable queues, which the map change empties) */
    sv_qcgame_remove_player(slot);
    for (int n = QCG_FIRST_NONPLAYER; n < QCG_MAX_EDICTS; n++)
        if (!used_before[n] && qcg_in_use(n))
            qcg_edict_free(n);
    return !failed;
}
