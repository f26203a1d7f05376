/* BSP29 loader: reads the lumps the server needs into native structs, checking every offset,
 * length, count and index so that traces over the result can never leave the arrays. */
#include "bsp.h"
#include "qw_map_checksum.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const float qw_hull_mins[QW_MAX_HULLS][3] = {{0, 0, 0}, {-16, -16, -24}, {-32, -32, -24}};
const float qw_hull_maxs[QW_MAX_HULLS][3] = {{0, 0, 0}, {16, 16, 32}, {32, 32, 64}};

static const char *const lump_names[QW_BSP_NUM_LUMPS] = {
    "entities", "planes", "textures", "vertexes", "visibility", "nodes", "texinfo", "faces",
    "lighting", "clipnodes", "leafs", "marksurfaces", "edges", "surfedges", "models"};

/* On-disk record sizes of the lumps we parse. */
enum { PLANE_SIZE = 20, NODE_SIZE = 24, CLIPNODE_SIZE = 8, LEAF_SIZE = 28, MODEL_SIZE = 64 };
/* Sanity limits: far above any real map, low enough that counts fit the int16 child links. */
enum { MAX_MAP_MODELS = 4096, MAX_MAP_ENTSTRING = 4 * 1024 * 1024 };

typedef struct loader {
    const uint8_t *file;
    size_t len;
    const char *name;
    char *err;
    size_t errlen;
    uint32_t lump_offset[QW_BSP_NUM_LUMPS];
    uint32_t lump_length[QW_BSP_NUM_LUMPS];
} loader;

static void fail(loader *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(loader *ld, const char *fmt, ...)
{
    if (!ld->err || !ld->errlen)
        return;
    int n = snprintf(ld->err, ld->errlen, "%s: ", ld->name);
    if (n < 0 || (size_t)n >= ld->errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ld->err + n, ld->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

static int32_t rd_i32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}
static int16_t rd_i16(const uint8_t *p) { return (int16_t)((uint16_t)p[0] | (uint16_t)p[1] << 8); }
static float rd_f32(const uint8_t *p)
{
    uint32_t u = (uint32_t)rd_i32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Checks the header: version and that every lump lies inside the file (what
 * qw_map_checksums checks too, with no message). */
static int read_header(loader *ld)
{
    if (ld->len < 4 + 8 * QW_BSP_NUM_LUMPS) {
        fail(ld, "file is %zu bytes, too short for a BSP header (%d bytes)", ld->len,
             4 + 8 * QW_BSP_NUM_LUMPS);
        return -1;
    }
    int32_t version = rd_i32(ld->file);
    if (version != QW_BSP_VERSION) {
        fail(ld, "BSP version %d, expected %d (only Quake 1 BSP29 maps are supported)",
             (int)version, QW_BSP_VERSION);
        return -1;
    }
    for (int i = 0; i < QW_BSP_NUM_LUMPS; i++) {
        int32_t ofs = rd_i32(ld->file + 4 + 8 * i), len = rd_i32(ld->file + 8 + 8 * i);
        if (ofs < 0 || len < 0 || (uint64_t)ofs + (uint64_t)len > ld->len) {
            fail(ld, "lump %d (%s): offset %d length %d lies outside the %zu-byte file "
                 "(truncated or corrupt map)", i, lump_names[i], (int)ofs, (int)len, ld->len);
            return -1;
        }
        ld->lump_offset[i] = (uint32_t)ofs;
        ld->lump_length[i] = (uint32_t)len;
    }
    return 0;
}

/* Number of records of `size` bytes in a lump, or -1 (with a message) if it is not a whole
 * number of records or has fewer than `min` of them. */
static int lump_count(loader *ld, int lump, int size, int min)
{
    uint32_t len = ld->lump_length[lump];
    if (len % (uint32_t)size) {
        fail(ld, "lump %d (%s): length %u is not a multiple of the %d-byte record",
             lump, lump_names[lump], len, size);
        return -1;
    }
    uint32_t n = len / (uint32_t)size;
    if (n > INT_MAX / 2 || (int)n < min) {
        fail(ld, "lump %d (%s): %u records, need at least %d", lump, lump_names[lump], n, min);
        return -1;
    }
    return (int)n;
}

static const uint8_t *lump_data(const loader *ld, int lump)
{
    return ld->file + ld->lump_offset[lump];
}

static int load_entities(loader *ld, qw_bsp *bsp)
{
    uint32_t len = ld->lump_length[QW_LUMP_ENTITIES];
    if (len > MAX_MAP_ENTSTRING) {
        fail(ld, "lump 0 (entities): %u bytes, more than the %d allowed", len, MAX_MAP_ENTSTRING);
        return -1;
    }
    bsp->entities = malloc(len + 1);
    if (!bsp->entities) {
        fail(ld, "lump 0 (entities): out of memory");
        return -1;
    }
    memcpy(bsp->entities, lump_data(ld, QW_LUMP_ENTITIES), len);
    bsp->entities[len] = '\0';  /* the lump usually ends with its own NUL; stop there */
    return 0;
}

static int load_planes(loader *ld, qw_bsp *bsp)
{
    int n = lump_count(ld, QW_LUMP_PLANES, PLANE_SIZE, 1);
    if (n < 0)
        return -1;
    bsp->planes = calloc((size_t)n, sizeof *bsp->planes);
    if (!bsp->planes) {
        fail(ld, "lump 1 (planes): out of memory");
        return -1;
    }
    const uint8_t *p = lump_data(ld, QW_LUMP_PLANES);
    for (int i = 0; i < n; i++, p += PLANE_SIZE) {
        qw_bsp_plane *pl = &bsp->planes[i];
        for (int k = 0; k < 3; k++)
            pl->normal[k] = rd_f32(p + 4 * k);
        pl->dist = rd_f32(p + 12);
        pl->type = rd_i32(p + 16);
        /* The trace code takes the axial shortcut for types 0..2; anything else is generic. */
        if (pl->type < 0 || pl->type > 5)
            pl->type = 3;
        if (pl->type < 3 && pl->normal[pl->type] != 1.0f)
            pl->type = 3;
    }
    bsp->num_planes = n;
    return 0;
}

static int load_leafs(loader *ld, qw_bsp *bsp)
{
    int n = lump_count(ld, QW_LUMP_LEAFS, LEAF_SIZE, 1);
    if (n < 0)
        return -1;
    if (n > 32767) {
        fail(ld, "lump 10 (leafs): %d leafs, BSP29 node links address at most 32767", n);
        return -1;
    }
    bsp->leafs = calloc((size_t)n, sizeof *bsp->leafs);
    if (!bsp->leafs) {
        fail(ld, "lump 10 (leafs): out of memory");
        return -1;
    }
    const uint8_t *p = lump_data(ld, QW_LUMP_LEAFS);
    for (int i = 0; i < n; i++, p += LEAF_SIZE) {
        qw_bsp_leaf *lf = &bsp->leafs[i];
        lf->contents = rd_i32(p);
        lf->visofs = rd_i32(p + 4);
        for (int k = 0; k < 3; k++) {
            lf->mins[k] = rd_i16(p + 8 + 2 * k);
            lf->maxs[k] = rd_i16(p + 14 + 2 * k);
        }
        if (lf->contents > QW_CONTENTS_EMPTY || lf->contents < -14) {
            fail(ld, "lump 10 (leafs): leaf %d has contents %d, not a Quake contents value",
                 i, lf->contents);
            return -1;
        }
        if (lf->visofs < -1) {
            fail(ld, "lump 10 (leafs): leaf %d has visibility offset %d (must be >= -1)",
                 i, lf->visofs);
            return -1;
        }
        /* Unvised maps point every leaf at offset 0 of an empty lump: no information,
         * which the PVS code treats as "sees everything". */
        if (lf->visofs >= bsp->visdata_len)
            lf->visofs = -1;
    }
    bsp->num_leafs = n;
    return 0;
}

static int load_visibility(loader *ld, qw_bsp *bsp)
{
    uint32_t len = ld->lump_length[QW_LUMP_VISIBILITY];
    bsp->visdata = malloc(len ? len : 1);
    if (!bsp->visdata) {
        fail(ld, "lump 4 (visibility): out of memory");
        return -1;
    }
    memcpy(bsp->visdata, lump_data(ld, QW_LUMP_VISIBILITY), len);
    bsp->visdata_len = (int)len;
    return 0;
}

static int load_nodes(loader *ld, qw_bsp *bsp)
{
    int n = lump_count(ld, QW_LUMP_NODES, NODE_SIZE, 1);
    if (n < 0)
        return -1;
    if (n > 32768) {
        fail(ld, "lump 5 (nodes): %d nodes, BSP29 links address at most 32768", n);
        return -1;
    }
    bsp->nodes = calloc((size_t)n, sizeof *bsp->nodes);
    if (!bsp->nodes) {
        fail(ld, "lump 5 (nodes): out of memory");
        return -1;
    }
    const uint8_t *p = lump_data(ld, QW_LUMP_NODES);
    for (int i = 0; i < n; i++, p += NODE_SIZE) {
        qw_bsp_node *nd = &bsp->nodes[i];
        nd->planenum = rd_i32(p);
        if (nd->planenum < 0 || nd->planenum >= bsp->num_planes) {
            fail(ld, "lump 5 (nodes): node %d uses plane %d of %d", i, nd->planenum,
                 bsp->num_planes);
            return -1;
        }
        for (int c = 0; c < 2; c++) {
            int child = rd_i16(p + 4 + 2 * c);
            /* Children always come after their parent (trees are written in pre-order):
             * requiring it rules out cycles that would make traversal loop forever. */
            if (child >= 0 ? (child <= i || child >= n) : (-(child + 1) >= bsp->num_leafs)) {
                fail(ld, "lump 5 (nodes): node %d child %d = %d is not a later node or a leaf "
                     "(%d nodes, %d leafs)", i, c, child, n, bsp->num_leafs);
                return -1;
            }
            nd->children[c] = child;
        }
        for (int k = 0; k < 3; k++) {
            nd->mins[k] = rd_i16(p + 8 + 2 * k);
            nd->maxs[k] = rd_i16(p + 14 + 2 * k);
        }
    }
    bsp->num_nodes = n;
    return 0;
}

static int load_clipnodes(loader *ld, qw_bsp *bsp)
{
    int n = lump_count(ld, QW_LUMP_CLIPNODES, CLIPNODE_SIZE, 0);
    if (n < 0)
        return -1;
    if (n > 32768) {
        fail(ld, "lump 9 (clipnodes): %d clipnodes, BSP29 links address at most 32768", n);
        return -1;
    }
    bsp->clipnodes = calloc(n ? (size_t)n : 1, sizeof *bsp->clipnodes);
    if (!bsp->clipnodes) {
        fail(ld, "lump 9 (clipnodes): out of memory");
        return -1;
    }
    const uint8_t *p = lump_data(ld, QW_LUMP_CLIPNODES);
    for (int i = 0; i < n; i++, p += CLIPNODE_SIZE) {
        qw_bsp_clipnode *cn = &bsp->clipnodes[i];
        cn->planenum = rd_i32(p);
        if (cn->planenum < 0 || cn->planenum >= bsp->num_planes) {
            fail(ld, "lump 9 (clipnodes): clipnode %d uses plane %d of %d", i, cn->planenum,
                 bsp->num_planes);
            return -1;
        }
        for (int c = 0; c < 2; c++) {
            int child = rd_i16(p + 4 + 2 * c);
            if (child >= 0 ? (child <= i || child >= n) : (child < -14)) {
                fail(ld, "lump 9 (clipnodes): clipnode %d child %d = %d is not a later "
                     "clipnode or a contents value (%d clipnodes)", i, c, child, n);
                return -1;
            }
            cn->children[c] = child;
        }
    }
    bsp->num_clipnodes = n;
    return 0;
}

/* Hull 0 as clipnodes: the same tree as the nodes, with leaf links replaced by contents. */
static int build_hull0(loader *ld, qw_bsp *bsp)
{
    bsp->hull0 = calloc((size_t)bsp->num_nodes, sizeof *bsp->hull0);
    if (!bsp->hull0) {
        fail(ld, "hull 0: out of memory");
        return -1;
    }
    for (int i = 0; i < bsp->num_nodes; i++) {
        bsp->hull0[i].planenum = bsp->nodes[i].planenum;
        for (int c = 0; c < 2; c++) {
            int child = bsp->nodes[i].children[c];
            bsp->hull0[i].children[c] = child >= 0 ? child : bsp->leafs[-(child + 1)].contents;
        }
    }
    bsp->num_hull0 = bsp->num_nodes;
    return 0;
}

static int load_models(loader *ld, qw_bsp *bsp)
{
    int n = lump_count(ld, QW_LUMP_MODELS, MODEL_SIZE, 1);
    if (n < 0)
        return -1;
    if (n > MAX_MAP_MODELS) {
        fail(ld, "lump 14 (models): %d models, more than %d", n, MAX_MAP_MODELS);
        return -1;
    }
    bsp->models = calloc((size_t)n, sizeof *bsp->models);
    if (!bsp->models) {
        fail(ld, "lump 14 (models): out of memory");
        return -1;
    }
    const uint8_t *p = lump_data(ld, QW_LUMP_MODELS);
    for (int i = 0; i < n; i++, p += MODEL_SIZE) {
        qw_bsp_model *m = &bsp->models[i];
        for (int k = 0; k < 3; k++) {
            m->mins[k] = rd_f32(p + 4 * k);
            m->maxs[k] = rd_f32(p + 12 + 4 * k);
            m->origin[k] = rd_f32(p + 24 + 4 * k);
        }
        for (int h = 0; h < 4; h++)
            m->headnode[h] = rd_i32(p + 36 + 4 * h);
        m->visleafs = rd_i32(p + 52);
        m->firstface = rd_i32(p + 56);
        m->numfaces = rd_i32(p + 60);
        if (m->headnode[0] < 0 || m->headnode[0] >= bsp->num_nodes) {
            fail(ld, "lump 14 (models): model %d hull 0 head node %d outside the %d nodes",
                 i, m->headnode[0], bsp->num_nodes);
            return -1;
        }
        for (int h = 1; h < QW_MAX_HULLS; h++) {
            /* A negative head is a hull that is all one contents (e.g. no clipnodes). */
            int head = m->headnode[h];
            if (head >= bsp->num_clipnodes || head < -14) {
                fail(ld, "lump 14 (models): model %d hull %d head clipnode %d outside the %d "
                     "clipnodes", i, h, head, bsp->num_clipnodes);
                return -1;
            }
        }
    }
    if (bsp->models[0].visleafs < 0 || bsp->models[0].visleafs >= bsp->num_leafs) {
        fail(ld, "lump 14 (models): world model has %d visleafs but the map has %d leafs",
             bsp->models[0].visleafs, bsp->num_leafs);
        return -1;
    }
    bsp->num_models = n;
    return 0;
}

static void setup_world_hulls(qw_bsp *bsp)
{
    for (int h = 0; h < QW_MAX_HULLS; h++)
        qw_bsp_model_hull(bsp, 0, h, &bsp->hulls[h]);
}

qw_bsp *qw_bsp_load_memory(const uint8_t *file, size_t len, const char *name,
                           char *err, size_t errlen)
{
    loader ld = {.file = file, .len = len, .name = name ? name : "(memory)", .err = err,
                 .errlen = errlen};
    if (err && errlen)
        err[0] = '\0';
    if (read_header(&ld) < 0)
        return NULL;
    qw_bsp *bsp = calloc(1, sizeof *bsp);
    if (!bsp) {
        fail(&ld, "out of memory");
        return NULL;
    }
    snprintf(bsp->name, sizeof bsp->name, "%s", ld.name);
    if (load_entities(&ld, bsp) < 0 || load_planes(&ld, bsp) < 0 ||
        load_visibility(&ld, bsp) < 0 || load_leafs(&ld, bsp) < 0 || load_nodes(&ld, bsp) < 0 ||
        load_clipnodes(&ld, bsp) < 0 || build_hull0(&ld, bsp) < 0 || load_models(&ld, bsp) < 0) {
        qw_bsp_free(bsp);
        return NULL;
    }
    setup_world_hulls(bsp);
    qw_map_checksums(file, len, &bsp->checksum, &bsp->checksum2);
    return bsp;
}

qw_bsp *qw_bsp_load(const char *path, char *err, size_t errlen)
{
    loader ld = {.name = path, .err = err, .errlen = errlen};
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(&ld, "cannot open: %s", strerror(errno));
        return NULL;
    }
    uint8_t *buf = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fail(&ld, "cannot determine the file size (not a regular file?)");
        fclose(f);
        return NULL;
    }
    buf = malloc(size ? (size_t)size : 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fail(&ld, buf ? "read error" : "out of memory for %ld bytes", size);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    qw_bsp *bsp = qw_bsp_load_memory(buf, (size_t)size, path, err, errlen);
    free(buf);
    return bsp;
}

void qw_bsp_free(qw_bsp *bsp)
{
    if (!bsp)
        return;
    free(bsp->entities);
    free(bsp->planes);
    free(bsp->nodes);
    free(bsp->leafs);
    free(bsp->clipnodes);
    free(bsp->hull0);
    free(bsp->models);
    free(bsp->visdata);
    free(bsp);
}

const char *qw_bsp_entity_string(const qw_bsp *bsp) { return bsp->entities; }

int qw_bsp_num_submodels(const qw_bsp *bsp) { return bsp->num_models - 1; }

LIBTM_PURE const qw_bsp_model *qw_bsp_get_model(const qw_bsp *bsp, int index)
{
    if (index < 0 || index >= bsp->num_models)
        return NULL;
    return &bsp->models[index];
}

LIBTM_PURE int qw_bsp_model_hull(const qw_bsp *bsp, int index, int hullnum, qw_bsp_hull *out)
{
    if (index < 0 || index >= bsp->num_models || hullnum < 0 || hullnum >= QW_MAX_HULLS)
        return -1;
    const qw_bsp_model *m = &bsp->models[index];
    out->planes = bsp->planes;
    if (hullnum == 0) {
        out->clipnodes = bsp->hull0;
        out->lastclipnode = bsp->num_hull0 - 1;
    } else {
        out->clipnodes = bsp->clipnodes;
        out->lastclipnode = bsp->num_clipnodes - 1;
    }
    out->firstclipnode = m->headnode[hullnum];
    for (int k = 0; k < 3; k++) {
        out->clip_mins[k] = qw_hull_mins[hullnum][k];
        out->clip_maxs[k] = qw_hull_maxs[hullnum][k];
    }
    return 0;
}
