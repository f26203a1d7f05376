/* Serialises a box map into a BSP29 file: the three hull trees, the world model and one brush
 * model per trigger volume (its own small trees, no faces), a visibility row shared by every
 * leaf (everything sees everything), the textures, the entity lump and, when asked, drawable
 * faces attached to the hull-0 nodes of their plane. */
#include "bytebuf.h"
#include "faces.h"
#include "mapgen.h"
#include "tree.h"
#include "bsp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TEXTURE_SIZE 16

typedef struct writer {
    const qwmg_map *map;
    float world_mins[3], world_maxs[3];
    /* planes: one per distinct (axis, dist) */
    int num_planes, cap_planes;
    struct { int axis; float dist; } *planes;
    mg_buf nodes, leafs, clipnodes;
    int num_nodes, num_leafs, num_clipnodes;
    /* hull-0 node index of each tree node that splits on a given plane: for faces */
    int *plane_first_node;     /* per plane: first hull-0 node using it, -1 = none */
    char *err;
    size_t errlen;
    int overflow;
} writer;

static int find_plane(writer *w, int axis, float dist)
{
    for (int i = 0; i < w->num_planes; i++)
        if (w->planes[i].axis == axis && w->planes[i].dist == dist)
            return i;
    if (w->num_planes == w->cap_planes) {
        int cap = w->cap_planes ? w->cap_planes * 2 : 64;
        void *p = realloc(w->planes, sizeof *w->planes * (size_t)cap);
        if (!p) {
            w->overflow = 1;
            return 0;
        }
        w->planes = p;
        w->cap_planes = cap;
    }
    w->planes[w->num_planes].axis = axis;
    w->planes[w->num_planes].dist = dist;
    return w->num_planes++;
}

static int clamp_short(float v)
{
    long r = lroundf(v);
    return r < -32768 ? -32768 : r > 32767 ? 32767 : (int)r;
}

/* Writes one 24-byte node record at index `at` (reserved before its children). */
static void patch_node(writer *w, int at, int plane, int child0, int child1, const mg_tnode *t)
{
    mg_buf rec = {0};
    mg_buf_i32(&rec, plane);
    mg_buf_i16(&rec, child0);
    mg_buf_i16(&rec, child1);
    for (int i = 0; i < 3; i++)
        mg_buf_i16(&rec, clamp_short(floorf(t->mins[i])));
    for (int i = 0; i < 3; i++)
        mg_buf_i16(&rec, clamp_short(ceilf(t->maxs[i])));
    mg_buf_i16(&rec, 0);  /* firstface, numfaces: patched when faces are attached */
    mg_buf_i16(&rec, 0);
    if (rec.oom || (size_t)at * 24 + 24 > w->nodes.len)
        w->overflow = 1;
    else
        memcpy(w->nodes.data + (size_t)at * 24, rec.data, 24);
    mg_buf_free(&rec);
}

static void put_leaf(writer *w, int contents, int visofs, const mg_tnode *t, int nummarks)
{
    mg_buf_i32(&w->leafs, contents);
    mg_buf_i32(&w->leafs, visofs);
    for (int i = 0; i < 3; i++)
        mg_buf_i16(&w->leafs, t ? clamp_short(floorf(t->mins[i])) : 0);
    for (int i = 0; i < 3; i++)
        mg_buf_i16(&w->leafs, t ? clamp_short(ceilf(t->maxs[i])) : 0);
    mg_buf_i16(&w->leafs, 0);          /* firstmarksurface: all leafs share the list */
    mg_buf_i16(&w->leafs, nummarks);
    for (int i = 0; i < 4; i++)
        mg_buf_u8(&w->leafs, 0);       /* ambient sound levels */
    w->num_leafs++;
}

/* Hull 0 in pre-order, so the root is node 0 and children follow their parent. Returns the
 * child reference: a node index, or -(leaf + 1); every solid leaf is the shared leaf 0. */
static int emit_hull0(writer *w, const mg_tnode *t, int nummarks)
{
    if (t->contents == QW_CONTENTS_SOLID)
        return -1;
    if (t->contents != 0) {
        int leaf = w->num_leafs;
        put_leaf(w, t->contents, 0, t, nummarks);
        return -(leaf + 1);
    }
    int at = w->num_nodes++;
    if (at > 32767) {
        w->overflow = 1;
        return -1;
    }
    uint8_t blank[24] = {0};
    mg_buf_put(&w->nodes, blank, sizeof blank);
    int plane = find_plane(w, t->axis, t->dist);
    int c0 = emit_hull0(w, t->child[0], nummarks);
    int c1 = emit_hull0(w, t->child[1], nummarks);
    patch_node(w, at, plane, c0, c1, t);
    return at;
}

/* A clip hull in pre-order; leaves become their contents. */
static int emit_clip(writer *w, const mg_tnode *t)
{
    if (t->contents != 0)
        return t->contents;
    int at = w->num_clipnodes++;
    if (at > 32767) {
        w->overflow = 1;
        return QW_CONTENTS_SOLID;
    }
    uint8_t blank[8] = {0};
    mg_buf_put(&w->clipnodes, blank, sizeof blank);
    int plane = find_plane(w, t->axis, t->dist);
    int c0 = emit_clip(w, t->child[0]);
    int c1 = emit_clip(w, t->child[1]);
    if (w->clipnodes.oom) {
        w->overflow = 1;
        return at;
    }
    uint8_t *rec = w->clipnodes.data + (size_t)at * 8;
    uint32_t p = (uint32_t)plane;
    rec[0] = (uint8_t)p; rec[1] = (uint8_t)(p >> 8); rec[2] = (uint8_t)(p >> 16); rec[3] = (uint8_t)(p >> 24);
    rec[4] = (uint8_t)c0; rec[5] = (uint8_t)((unsigned)c0 >> 8);
    rec[6] = (uint8_t)c1; rec[7] = (uint8_t)((unsigned)c1 >> 8);
    return at;
}

/* First hull-0 node (pre-order, as emitted) splitting on each plane. */
static void index_node_planes(writer *w)
{
    for (int p = 0; p < w->num_planes; p++)
        w->plane_first_node[p] = -1;
    for (int n = w->num_nodes - 1; n >= 0; n--) {
        const uint8_t *rec = w->nodes.data + (size_t)n * 24;
        int plane = (int)((uint32_t)rec[0] | (uint32_t)rec[1] << 8 | (uint32_t)rec[2] << 16 |
                          (uint32_t)rec[3] << 24);
        w->plane_first_node[plane] = n;
    }
}

static void put_entities(const qwmg_map *map, mg_buf *b)
{
    char line[256];
    int n = snprintf(line, sizeof line, "{\n\"classname\" \"worldspawn\"\n\"message\" \"%s\"\n"
                     "\"sounds\" \"0\"\n}\n", map->message);
    mg_buf_put(b, line, (size_t)n);
    for (int i = 0; i < map->num_entities; i++) {
        const qwmg_entity *e = &map->entities[i];
        n = snprintf(line, sizeof line, "{\n\"classname\" \"%s\"\n", e->classname);
        mg_buf_put(b, line, (size_t)n);
        if (e->model[0])      /* a brush entity: its model says where it is */
            n = snprintf(line, sizeof line, "\"model\" \"%s\"\n", e->model);
        else
            n = snprintf(line, sizeof line, "\"origin\" \"%g %g %g\"\n\"angle\" \"%g\"\n",
                         e->origin[0], e->origin[1], e->origin[2], e->angle);
        mg_buf_put(b, line, (size_t)n);
        if (e->target[0]) {
            n = snprintf(line, sizeof line, "\"target\" \"%s\"\n", e->target);
            mg_buf_put(b, line, (size_t)n);
        }
        if (e->targetname[0]) {
            n = snprintf(line, sizeof line, "\"targetname\" \"%s\"\n", e->targetname);
            mg_buf_put(b, line, (size_t)n);
        }
        mg_buf_put(b, "}\n", 2);
    }
    mg_buf_u8(b, 0);
}

/* 16x16 miptexes with their four mip levels: a checkered grid for walls, and plain liquids
 * ('*' names are drawn warped and unlit by the engines). */
static void put_textures(mg_buf *b)
{
    static const struct { const char *name; int line, fill; } tex[MG_NUM_TEXTURES] = {
        {"qwmg_grid", 2, 6}, {"*water0", 35, 38}, {"*slime0", 60, 63}, {"*lava1", 228, 231}};
    int size = 40 + TEXTURE_SIZE * TEXTURE_SIZE * 85 / 64;   /* header + 1 + 1/4 + 1/16 + 1/64 */
    mg_buf_i32(b, MG_NUM_TEXTURES);
    for (int t = 0; t < MG_NUM_TEXTURES; t++)
        mg_buf_i32(b, 4 + 4 * MG_NUM_TEXTURES + t * size);
    for (int t = 0; t < MG_NUM_TEXTURES; t++) {
        char name[16] = {0};
        snprintf(name, sizeof name, "%s", tex[t].name);
        mg_buf_put(b, name, 16);
        mg_buf_i32(b, TEXTURE_SIZE);
        mg_buf_i32(b, TEXTURE_SIZE);
        int ofs = 40;
        for (int mip = 0; mip < 4; mip++) {
            mg_buf_i32(b, ofs);
            ofs += (TEXTURE_SIZE >> mip) * (TEXTURE_SIZE >> mip);
        }
        for (int mip = 0; mip < 4; mip++) {
            int n = TEXTURE_SIZE >> mip;
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++)   /* palette indexes; a line marks each tile */
                    mg_buf_u8(b, x == 0 || y == 0 ? tex[t].line : tex[t].fill);
        }
    }
}

/* Texture axes per plane axis, as Quake's editors project them. */
static const float tex_s[3][3] = {{0, 1, 0}, {1, 0, 0}, {1, 0, 0}};
static const float tex_t[3][3] = {{0, 0, -1}, {0, 0, -1}, {0, -1, 0}};

/* Texinfo MG_NUM_TEXTURES * 3: texture t projected along axis a is texinfo 3 * t + a. */
static void put_texinfo(mg_buf *b)
{
    for (int t = 0; t < MG_NUM_TEXTURES; t++)
        for (int axis = 0; axis < 3; axis++) {
            for (int i = 0; i < 3; i++)
                mg_buf_f32(b, tex_s[axis][i]);
            mg_buf_f32(b, 0);
            for (int i = 0; i < 3; i++)
                mg_buf_f32(b, tex_t[axis][i]);
            mg_buf_f32(b, 0);
            mg_buf_i32(b, t);                        /* miptex */
            mg_buf_i32(b, t == MG_TEX_GRID ? 0 : 1); /* TEX_SPECIAL: no lightmap */
        }
}

typedef struct face_lumps {
    mg_buf vertexes, edges, surfedges, faces, marksurfaces;
    int num_faces;
} face_lumps;

static int cmp_face_node(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Writes faces, grouped by the node they belong to, and patches the nodes' face ranges. */
static void put_faces(writer *w, const mg_face_list *list, face_lumps *out)
{
    /* (node << 16 | face index) keys, sorted so each node's faces are contiguous. */
    int *keys = malloc(sizeof(int) * 2 * (size_t)(list->count ? list->count : 1));
    int nkeys = 0;
    if (!keys) {
        w->overflow = 1;
        return;
    }
    for (int i = 0; i < list->count; i++) {
        const mg_face *f = &list->faces[i];
        int plane = -1;
        for (int p = 0; p < w->num_planes; p++)
            if (w->planes[p].axis == f->axis && w->planes[p].dist == f->dist)
                plane = p;
        if (plane < 0 || w->plane_first_node[plane] < 0)
            continue;   /* plane never splits hull 0: the face is buried inside solid */
        keys[2 * nkeys] = w->plane_first_node[plane];
        keys[2 * nkeys + 1] = i;
        nkeys++;
    }
    qsort(keys, (size_t)nkeys, sizeof(int) * 2, cmp_face_node);
    if (nkeys > 65535)
        nkeys = 65535;

    mg_buf_i16(&out->edges, 0);   /* edge 0 is unused: surfedge signs need nonzero indexes */
    mg_buf_i16(&out->edges, 0);
    int num_vertexes = 0, num_edges = 1;
    for (int k = 0; k < nkeys; k++) {
        int node = keys[2 * k];
        const mg_face *f = &list->faces[keys[2 * k + 1]];
        int a = (f->axis + 1) % 3, b = (f->axis + 2) % 3;
        float corner[4][3];
        const float ua[4] = {f->mins[a], f->maxs[a], f->maxs[a], f->mins[a]};
        const float vb[4] = {f->mins[b], f->mins[b], f->maxs[b], f->maxs[b]};
        for (int c = 0; c < 4; c++) {
            corner[c][f->axis] = f->dist;
            corner[c][a] = ua[c];
            corner[c][b] = vb[c];
        }
        /* This order winds counter-clockwise seen from +axis; Quake wants clockwise seen
         * from the side the face looks at. */
        int reverse = f->side == 0;
        int first_surfedge = (int)(out->surfedges.len / 4);
        for (int c = 0; c < 4; c++) {
            const float *v = corner[reverse ? 3 - c : c];
            for (int i = 0; i < 3; i++)
                mg_buf_f32(&out->vertexes, v[i]);
        }
        for (int c = 0; c < 4; c++) {
            mg_buf_i16(&out->edges, num_vertexes + c);
            mg_buf_i16(&out->edges, num_vertexes + (c + 1) % 4);
            mg_buf_i32(&out->surfedges, num_edges + c);
        }
        num_vertexes += 4;
        num_edges += 4;

        int plane = -1;
        for (int p = 0; p < w->num_planes; p++)
            if (w->planes[p].axis == f->axis && w->planes[p].dist == f->dist)
                plane = p;
        mg_buf_i16(&out->faces, plane);
        mg_buf_i16(&out->faces, f->side);
        mg_buf_i32(&out->faces, first_surfedge);
        mg_buf_i16(&out->faces, 4);
        mg_buf_i16(&out->faces, 3 * f->texture + f->axis);
        mg_buf_u8(&out->faces, 0);         /* light style 0, the others unused */
        mg_buf_u8(&out->faces, 255);
        mg_buf_u8(&out->faces, 255);
        mg_buf_u8(&out->faces, 255);
        mg_buf_i32(&out->faces, -1);       /* no lightmap: engines draw it fully lit */

        /* Patch the node's face range (faces of one node are consecutive). */
        uint8_t *rec = w->nodes.data + (size_t)node * 24;
        int firstface = rec[20] | rec[21] << 8, numfaces = rec[22] | rec[23] << 8;
        if (numfaces == 0)
            firstface = k;
        numfaces++;
        rec[20] = (uint8_t)firstface; rec[21] = (uint8_t)(firstface >> 8);
        rec[22] = (uint8_t)numfaces; rec[23] = (uint8_t)(numfaces >> 8);
        mg_buf_i16(&out->marksurfaces, k);
    }
    out->num_faces = nkeys;
    free(keys);
}

static void put_lump(mg_buf *file, int lump, const void *data, size_t len)
{
    while (file->len % 4)
        mg_buf_u8(file, 0);
    uint32_t ofs = (uint32_t)file->len, l = (uint32_t)len;
    if (file->oom)
        return;
    uint8_t *hdr = file->data + 4 + 8 * lump;
    for (int i = 0; i < 4; i++) {
        hdr[i] = (uint8_t)(ofs >> (8 * i));
        hdr[4 + i] = (uint8_t)(l >> (8 * i));
    }
    if (len)
        mg_buf_put(file, data, len);
}

/* One model record: its bounds, the head of each hull's tree (hull 3 unused), its visible
 * leafs and its faces (from face 0). */
static void put_model(mg_buf *models, const float mins[3], const float maxs[3],
                      const int heads[QW_MAX_HULLS], int visleafs, int numfaces)
{
    for (int i = 0; i < 3; i++)
        mg_buf_f32(models, mins[i]);
    for (int i = 0; i < 3; i++)
        mg_buf_f32(models, maxs[i]);
    for (int i = 0; i < 3; i++)
        mg_buf_f32(models, 0);
    for (int h = 0; h < QW_MAX_HULLS; h++)
        mg_buf_i32(models, heads[h]);
    mg_buf_i32(models, 0);
    mg_buf_i32(models, visleafs);
    mg_buf_i32(models, 0);
    mg_buf_i32(models, numfaces);
}

int qwmg_build_bsp(const qwmg_map *map, uint8_t **out, size_t *len, char *err, size_t errlen)
{
    writer w = {.map = map, .err = err, .errlen = errlen};
    for (int i = 0; i < 3; i++) {
        w.world_mins[i] = map->room_mins[i] - map->wall;
        w.world_maxs[i] = map->room_maxs[i] + map->wall;
    }
    mg_tnode *trees[QW_MAX_HULLS] = {0};
    for (int h = 0; h < QW_MAX_HULLS; h++) {
        trees[h] = mg_build_hull_tree(map, qw_hull_mins[h], qw_hull_maxs[h], w.world_mins,
                                      w.world_maxs);
        if (!trees[h]) {
            for (int k = 0; k < h; k++)
                mg_tree_free(trees[k]);
            snprintf(err, errlen, "out of memory building hull %d", h);
            return -1;
        }
    }

    mg_face_list faces = {0};
    if (map->with_faces && mg_collect_faces(map, &faces) < 0)
        w.overflow = 1;

    /* Leaf 0: the shared solid leaf. Every empty leaf lists every face as visible. */
    put_leaf(&w, QW_CONTENTS_SOLID, -1, NULL, 0);
    int nummarks = faces.count > 65535 ? 65535 : faces.count;
    int head0 = emit_hull0(&w, trees[0], nummarks);
    int head1 = emit_clip(&w, trees[1]);
    int head2 = emit_clip(&w, trees[2]);
    for (int h = 0; h < QW_MAX_HULLS; h++)
        mg_tree_free(trees[h]);
    if (head0 < 0 && !w.overflow) {
        snprintf(err, errlen, "room too small: no empty space for hull 0");
        mg_face_list_free(&faces);
        free(w.planes);
        mg_buf_free(&w.nodes); mg_buf_free(&w.leafs); mg_buf_free(&w.clipnodes);
        return -1;
    }

    face_lumps fl = {0};
    w.plane_first_node = malloc(sizeof(int) * (size_t)(w.num_planes ? w.num_planes : 1));
    if (!w.plane_first_node) {
        w.overflow = 1;
    } else if (map->with_faces) {
        index_node_planes(&w);
        put_faces(&w, &faces, &fl);
        /* Leafs were written before the faces were filtered: fix the mark counts. */
        for (int l = 1; l < w.num_leafs && !w.leafs.oom; l++) {
            uint8_t *rec = w.leafs.data + (size_t)l * 28 + 22;
            rec[0] = (uint8_t)fl.num_faces;
            rec[1] = (uint8_t)(fl.num_faces >> 8);
        }
    }
    mg_face_list_free(&faces);

    int visleafs = w.num_leafs - 1;
    /* Brush models *1, *2, ...: each trigger volume with trees of its own, after the world's
     * leafs (the visible ones), and no faces: triggers are never drawn. */
    int sub_heads[QWMG_MAX_TRIGGERS][QW_MAX_HULLS];
    for (int t = 0; t < map->num_triggers; t++) {
        for (int h = 0; h < QW_MAX_HULLS; h++) {
            mg_tnode *tree = mg_build_box_tree(map->triggers[t].mins, map->triggers[t].maxs,
                                               qw_hull_mins[h], qw_hull_maxs[h], w.world_mins,
                                               w.world_maxs);
            if (!tree) {
                w.overflow = 1;
                sub_heads[t][h] = 0;
                continue;
            }
            sub_heads[t][h] = h == 0 ? emit_hull0(&w, tree, 0) : emit_clip(&w, tree);
            mg_tree_free(tree);
        }
    }
    mg_buf vis = {0};
    for (int i = 0; i < (visleafs + 7) / 8; i++)
        mg_buf_u8(&vis, 0xff);   /* one row, shared: every leaf sees every leaf */

    mg_buf planes = {0};
    for (int i = 0; i < w.num_planes; i++) {
        for (int k = 0; k < 3; k++)
            mg_buf_f32(&planes, k == w.planes[i].axis ? 1.0f : 0.0f);
        mg_buf_f32(&planes, w.planes[i].dist);
        mg_buf_i32(&planes, w.planes[i].axis);
    }

    mg_buf models = {0};
    int world_heads[QW_MAX_HULLS] = {head0, head1, head2};
    put_model(&models, w.world_mins, w.world_maxs, world_heads, visleafs, fl.num_faces);
    for (int t = 0; t < map->num_triggers; t++)
        put_model(&models, map->triggers[t].mins, map->triggers[t].maxs, sub_heads[t], 0, 0);

    mg_buf ents = {0}, tex = {0}, texinfo = {0};
    put_entities(map, &ents);
    put_textures(&tex);
    put_texinfo(&texinfo);

    mg_buf file = {0};
    uint8_t header[4 + 8 * QW_BSP_NUM_LUMPS] = {QW_BSP_VERSION};
    mg_buf_put(&file, header, sizeof header);
    put_lump(&file, QW_LUMP_PLANES, planes.data, planes.len);
    put_lump(&file, QW_LUMP_LEAFS, w.leafs.data, w.leafs.len);
    put_lump(&file, QW_LUMP_VERTEXES, fl.vertexes.data, fl.vertexes.len);
    put_lump(&file, QW_LUMP_NODES, w.nodes.data, w.nodes.len);
    put_lump(&file, QW_LUMP_TEXINFO, texinfo.data, texinfo.len);
    put_lump(&file, QW_LUMP_FACES, fl.faces.data, fl.faces.len);
    put_lump(&file, QW_LUMP_CLIPNODES, w.clipnodes.data, w.clipnodes.len);
    put_lump(&file, QW_LUMP_MARKSURFACES, fl.marksurfaces.data, fl.marksurfaces.len);
    put_lump(&file, QW_LUMP_SURFEDGES, fl.surfedges.data, fl.surfedges.len);
    put_lump(&file, QW_LUMP_EDGES, fl.edges.data, fl.edges.len);
    put_lump(&file, QW_LUMP_MODELS, models.data, models.len);
    put_lump(&file, QW_LUMP_LIGHTING, NULL, 0);
    put_lump(&file, QW_LUMP_VISIBILITY, vis.data, vis.len);
    put_lump(&file, QW_LUMP_ENTITIES, ents.data, ents.len);
    put_lump(&file, QW_LUMP_TEXTURES, tex.data, tex.len);
    while (file.len % 4)
        mg_buf_u8(&file, 0);

    int failed = w.overflow || w.nodes.oom || w.leafs.oom || w.clipnodes.oom || planes.oom ||
                 models.oom || ents.oom || tex.oom || texinfo.oom || vis.oom || file.oom ||
                 fl.vertexes.oom || fl.edges.oom || fl.surfedges.oom || fl.faces.oom ||
                 fl.marksurfaces.oom;
    mg_buf *bufs[] = {&w.nodes, &w.leafs, &w.clipnodes, &planes, &models, &ents, &tex, &texinfo,
                      &vis, &fl.vertexes, &fl.edges, &fl.surfedges, &fl.faces, &fl.marksurfaces};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        mg_buf_free(bufs[i]);
    free(w.planes);
    free(w.plane_first_node);
    if (failed) {
        mg_buf_free(&file);
        snprintf(err, errlen, "out of memory or BSP29 limits exceeded (more than 32767 nodes?) "
                 "while writing the map: use fewer or larger boxes");
        return -1;
    }
    *out = file.data;
    *len = file.len;
    return 0;
}
