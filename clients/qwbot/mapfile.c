/* Map lookup under -basedir and its prespawn checksum (see mapfile.h). */
#include "mapfile.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "qw_crc.h"
#include "qw_map_checksum.h"
#include "whole_file.h"

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int find_map(const char *basedir, const char *map, char *path, size_t pathlen)
{
    static const char *const first[] = {"", "/id1", "/qw"};
    for (size_t i = 0; i < sizeof first / sizeof first[0]; i++) {
        snprintf(path, pathlen, "%s%s/maps/%s.bsp", basedir, first[i], map);
        if (is_file(path))
            return 0;
    }
    DIR *d = opendir(basedir);
    if (!d)
        return -1;
    struct dirent *e;
    int found = -1;
    while (found != 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, pathlen, "%s/%s/maps/%s.bsp", basedir, e->d_name, map);
        if (is_file(path))
            found = 0;
    }
    closedir(d);
    return found;
}

int qwbot_map_checksum(const char *basedir, const char *map, char *path, size_t pathlen,
                       uint32_t *checksum2, char *err, size_t errlen)
{
    if (find_map(basedir, map, path, pathlen) != 0) {
        snprintf(err, errlen, "map %s not found: looked for maps/%s.bsp in %s, %s/id1, %s/qw "
                 "and the other subdirectories of %s (give the server's -basedir)", map, map,
                 basedir, basedir, basedir, basedir);
        return -1;
    }
    uint8_t *data;
    size_t len;
    if (!whole_file_read(path, (size_t)1 << 30, "larger than 1 GiB, not a BSP29 map", &data, &len,
                         err, errlen))
        return -1;
    uint32_t checksum;
    if (len < 4 || data[0] != 29 || data[1] || data[2] || data[3]) {
        snprintf(err, errlen, "%s: not a BSP29 map (version word is not 29)", path);
        free(data);
        return -1;
    }
    if (qw_map_checksums(data, len, &checksum, checksum2) != 0) {
        snprintf(err, errlen, "%s: corrupt BSP29 header (a lump lies outside the file)", path);
        free(data);
        return -1;
    }
    free(data);
    return 0;
}

long qwbot_model_crc(const char *map_path, const char *model)
{
    /* map_path is GAMEDIR/maps/NAME.bsp */
    char path[4200];
    snprintf(path, sizeof path, "%s", map_path);
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(path, '/');
        if (!slash)
            return -1;
        *slash = 0;
    }
    size_t n = strlen(path);
    snprintf(path + n, sizeof path - n, "/progs/%s", model);
    uint8_t *data;
    size_t len;
    if (!whole_file_read(path, (size_t)1 << 20, "", &data, &len, NULL, 0))
        return -1;
    long crc = len ? qw_crc16(data, len) : -1;
    free(data);
    return crc;
}
