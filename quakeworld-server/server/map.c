/* Map loading (see map.h). */
#include "map.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "admin/cvar.h"
#include "game/game.h"
#include "log.h"
#include "qw_map_checksum.h"
#include "server.h"

static bool read_file(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return false;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (size <= 0 || size > (64L << 20)) {
        snprintf(err, errlen, "%s: unexpected size %ld", path, size);
        fclose(f);
        return false;
    }
    *data = malloc((size_t)size);
    if (!*data || fread(*data, 1, (size_t)size, f) != (size_t)size) {
        snprintf(err, errlen, "cannot read %s", path);
        fclose(f);
        free(*data);
        return false;
    }
    fclose(f);
    *len = (size_t)size;
    return true;
}

static bool valid_map_name(const char *name, char *err, size_t errlen)
{
    if (!*name || strlen(name) > 50 || strchr(name, '/') || strstr(name, "..")) {
        snprintf(err, errlen, "\"%s\" is not a map name: give a plain name such as "
                 "crateprefab_dm (its file is -basedir's id1/maps/NAME.bsp)", name);
        return false;
    }
    return true;
}

/* Reads and parses the map without touching the running one. */
bool sv_map_validate(const char *basedir, const char *name, char *err, size_t errlen)
{
    if (!valid_map_name(name, err, errlen))
        return false;
    char path[512];
    uint8_t *data;
    size_t len;
    snprintf(path, sizeof path, "%s/id1/maps/%s.bsp", basedir, name);
    if (!read_file(path, &data, &len, err, errlen))
        return false;
    qw_bsp *bsp = qw_bsp_load_memory(data, len, path, err, errlen);
    if (bsp)
        qw_bsp_free(bsp);
    free(data);
    return bsp != NULL;
}

void sv_map_init_players(void)
{
    for (int i = 0; i < SV_MAX_CLIENTS; i++) {
        memset(&sv.players[i], 0, sizeof sv.players[i]);
        qw_area_object_init(&sv.players[i].link);
    }
    /* link objects are prepared once; unlinking leaves them ready for reuse, so entities
     * can be (re)allocated inside transactions without calling the unsafe init */
    for (int n = 0; n < SV_MAX_ENTITIES; n++)
        qw_area_object_init(&sv.entities[n].link);
}

void sv_map_unload(void)
{
    if (sv.pvs)
        qw_pvs_free(sv.pvs);
    if (sv.bsp)
        qw_bsp_free(sv.bsp);
    free(sv.mapfile);
    sv.pvs = NULL;
    sv.bsp = NULL;
    sv.mapfile = NULL;
    sv.mapfile_len = 0;
    memset(sv.entities, 0, sizeof sv.entities);
    sv.num_spawnpoints = 0;
    sv.spawn_rotation = 0;
    sv_map_init_players();
}

/* The sequence checksum table: QW_CHKTBL=FILE, else BASEDIR/protocol/chktbl.bin. Loaded
 * with the first map; without it clc_move checksums are not verified. */
/* The table is id Software's (GPL-2), not in this repository: the README says how to get it. */
#define CHKTBL_HOWTO "quakeworld-server/server/README.md, \"The free maps and the checksum table\""

static void load_chktbl(const char *basedir)
{
    static bool tried;
    if (tried)
        return;
    tried = true;
    char tblpath[600], tblerr[600];
    snprintf(tblpath, sizeof tblpath, "%s/protocol/chktbl.bin", basedir);
    const char *envtbl = getenv("QW_CHKTBL");
    const char *path = envtbl && *envtbl ? envtbl : tblpath;
    sv.have_chktbl = qw_chktbl_load(&sv.chktbl, path, tblerr, sizeof tblerr);
    if (!sv.have_chktbl && access(path, F_OK) != 0)
        sv_log("not verifying clc_move checksums: no table at %s (put the protocol's 1024-byte "
               "chktbl.bin there, or set QW_CHKTBL=FILE; how to make it: " CHKTBL_HOWTO ")",
               path);
    else if (!sv.have_chktbl)
        sv_log("not verifying clc_move checksums: %s is not a valid table (it must hold the "
               "protocol's 1024-byte table; or set QW_CHKTBL=FILE; how to make it: "
               CHKTBL_HOWTO ")", path);
}

bool sv_map_load(const char *basedir, const char *name, char *err, size_t errlen)
{
    if (!valid_map_name(name, err, errlen))
        return false;
    snprintf(sv.mapname, sizeof sv.mapname, "%s", name);
    snprintf(sv.mappath, sizeof sv.mappath, "%s/id1/maps/%s.bsp", basedir, name);
    if (!read_file(sv.mappath, &sv.mapfile, &sv.mapfile_len, err, errlen)) {
        size_t n = strlen(err);
        snprintf(err + n, errlen - n, " (-basedir must hold id1/maps/%s.bsp)", name);
        return false;
    }
    /* parsed first: its errors say what is wrong (a truncated file, a bad lump) */
    sv.bsp = qw_bsp_load_memory(sv.mapfile, sv.mapfile_len, sv.mappath, err, errlen);
    if (!sv.bsp)
        return false;
    qw_map_checksums(sv.mapfile, sv.mapfile_len, &sv.bsp_checksum, &sv.bsp_checksum2);
    sv.pvs = qw_pvs_create(sv.bsp, err, errlen);
    if (!sv.pvs)
        return false;
    qw_area_init(&sv.area, sv.bsp);
    qw_movevars_default(&sv.movevars);

    load_chktbl(basedir);

    /* Every map starts its game clock at 1 s, as id's and mvdsv's servers do: QuakeC's
     * timelimit, intermission and think times are times on this map. */
    sv.time = 1.0;
    if (!sv_game->spawn_map(err, errlen))
        return false;
    sv_cvar_build_serverinfo();
    sv.spawncount++; /* sign-on commands of an earlier map are stale */
    sv_log("map %s loaded: %d spawn points, %d entities, %d models, checksum2 %u", sv.mappath,
           sv.num_spawnpoints, sv.num_entities - SV_FIRST_NONPLAYER, sv.num_models,
           sv.bsp_checksum2);
    return true;
}
