/* PVS decompression, PHS construction and the point/box leaf queries over the world's nodes. */
#include "pvs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void qw_bsp_decompress_vis(const qw_bsp *bsp, int leaf, uint8_t *out, int out_bytes)
{
    int visbytes = (bsp->models[0].visleafs + 7) >> 3;
    if (visbytes > out_bytes)
        visbytes = out_bytes;
    int ofs = leaf >= 0 && leaf < bsp->num_leafs ? bsp->leafs[leaf].visofs : -1;
    if (leaf == 0 || ofs < 0) {
        /* No data: everything is visible (like an unvised map). */
        memset(out, 0, (size_t)out_bytes);
        memset(out, 0xff, (size_t)visbytes);
        return;
    }
    memset(out, 0, (size_t)out_bytes);
    const uint8_t *in = bsp->visdata + ofs, *end = bsp->visdata + bsp->visdata_len;
    int n = 0;
    while (n < visbytes && in < end) {
        if (*in) {
            out[n++] = *in++;
            continue;
        }
        if (in + 1 >= end)
            break;
        n += in[1];  /* a zero byte then the count of zero bytes (already zeroed) */
        in += 2;
    }
}

/* Bits past the last leaf are cleared so that rows can be compared and counted. */
static void clear_tail(uint8_t *row, int num_bits, int row_bytes)
{
    for (int b = num_bits; b < row_bytes * 8; b++)
        row[b >> 3] &= (uint8_t)~(1u << (b & 7));
}

qw_pvs *qw_pvs_create(const qw_bsp *bsp, char *err, size_t errlen)
{
    qw_pvs *pvs = calloc(1, sizeof *pvs);
    int visleafs = bsp->models[0].visleafs;
    if (pvs) {
        pvs->bsp = bsp;
        pvs->num_leafs = visleafs + 1;
        pvs->row_bytes = ((visleafs + 63) >> 6) * 8;
        if (pvs->row_bytes == 0)
            pvs->row_bytes = 8;
        size_t table = (size_t)pvs->num_leafs * (size_t)pvs->row_bytes;
        pvs->pvs = malloc(table);
        pvs->phs = malloc(table);
        pvs->all = malloc((size_t)pvs->row_bytes);
    }
    if (!pvs || !pvs->pvs || !pvs->phs || !pvs->all) {
        if (err && errlen)
            snprintf(err, errlen, "%s: out of memory for the PVS/PHS tables", bsp->name);
        qw_pvs_free(pvs);
        return NULL;
    }
    int rb = pvs->row_bytes;
    memset(pvs->all, 0xff, (size_t)rb);
    clear_tail(pvs->all, visleafs, rb);
    for (int i = 0; i < pvs->num_leafs; i++) {
        qw_bsp_decompress_vis(bsp, i, pvs->pvs + (size_t)i * rb, rb);
        clear_tail(pvs->pvs + (size_t)i * rb, visleafs, rb);
    }
    /* PHS row i = union of the PVS rows of every leaf visible from i. */
    int words = rb / 8;
    for (int i = 0; i < pvs->num_leafs; i++) {
        const uint8_t *src = pvs->pvs + (size_t)i * rb;
        uint64_t *dest = (uint64_t *)(pvs->phs + (size_t)i * rb);
        memcpy(dest, src, (size_t)rb);
        for (int bit = 0; bit < visleafs; bit++) {
            if (!qw_pvs_row_has(src, bit))
                continue;
            const uint64_t *other = (const uint64_t *)(pvs->pvs + (size_t)(bit + 1) * rb);
            for (int w = 0; w < words; w++)
                dest[w] |= other[w];
        }
    }
    return pvs;
}

void qw_pvs_free(qw_pvs *pvs)
{
    if (!pvs)
        return;
    free(pvs->pvs);
    free(pvs->phs);
    free(pvs->all);
    free(pvs);
}

static float node_distance(const qw_bsp *bsp, const qw_bsp_node *node, const float p[3])
{
    const qw_bsp_plane *pl = &bsp->planes[node->planenum];
    if (pl->type < 3)
        return p[pl->type] - pl->dist;
    return pl->normal[0] * p[0] + pl->normal[1] * p[1] + pl->normal[2] * p[2] - pl->dist;
}

LIBTM_PURE int qw_bsp_leaf_for_point(const qw_bsp *bsp, const float p[3])
{
    int num = bsp->models[0].headnode[0];
    while (num >= 0) {
        const qw_bsp_node *node = &bsp->nodes[num];
        num = node->children[node_distance(bsp, node, p) < 0 ? 1 : 0];
    }
    return -(num + 1);
}

LIBTM_PURE const uint8_t *qw_pvs_row(const qw_pvs *pvs, int leaf)
{
    if (leaf <= 0 || leaf >= pvs->num_leafs)
        return pvs->all;
    return pvs->pvs + (size_t)leaf * pvs->row_bytes;
}

LIBTM_PURE const uint8_t *qw_phs_row(const qw_pvs *pvs, int leaf)
{
    if (leaf <= 0 || leaf >= pvs->num_leafs)
        return pvs->all;
    return pvs->phs + (size_t)leaf * pvs->row_bytes;
}

static void add_to_fat_pvs(const qw_pvs *pvs, const float org[3], int num, uint8_t *out)
{
    const qw_bsp *bsp = pvs->bsp;
    for (;;) {
        if (num < 0) {
            int leaf = -(num + 1);
            if (bsp->leafs[leaf].contents != QW_CONTENTS_SOLID) {
                const uint8_t *row = qw_pvs_row(pvs, leaf);
                for (int i = 0; i < pvs->row_bytes; i++)
                    out[i] |= row[i];
            }
            return;
        }
        const qw_bsp_node *node = &bsp->nodes[num];
        float d = node_distance(bsp, node, org);
        if (d > 8) {
            num = node->children[0];
        } else if (d < -8) {
            num = node->children[1];
        } else {
            add_to_fat_pvs(pvs, org, node->children[0], out);
            num = node->children[1];
        }
    }
}

LIBTM_PURE void qw_pvs_fat(const qw_pvs *pvs, const float org[3], uint8_t *out)
{
    for (int i = 0; i < pvs->row_bytes; i++)
        out[i] = 0;
    add_to_fat_pvs(pvs, org, pvs->bsp->models[0].headnode[0], out);
}

typedef struct box_leafs {
    const qw_bsp *bsp;
    const float *mins, *maxs;
    short *leafnums;
    int max, count, overflow;
} box_leafs;

/* Box-on-plane side: 1 = in front, 2 = behind, 3 = both. */
static int box_side(const qw_bsp_plane *pl, const float mins[3], const float maxs[3])
{
    float dfront = 0, dback = 0;
    for (int i = 0; i < 3; i++) {
        float n = pl->normal[i];
        dfront += n * (n >= 0 ? maxs[i] : mins[i]);
        dback += n * (n >= 0 ? mins[i] : maxs[i]);
    }
    int sides = 0;
    if (dfront >= pl->dist)
        sides |= 1;
    if (dback < pl->dist)
        sides |= 2;
    return sides;
}

static void find_box_leafs(box_leafs *bl, int num)
{
    while (num >= 0) {
        const qw_bsp_node *node = &bl->bsp->nodes[num];
        int sides = box_side(&bl->bsp->planes[node->planenum], bl->mins, bl->maxs);
        if (sides == 3) {
            find_box_leafs(bl, node->children[0]);
            num = node->children[1];
        } else {
            num = node->children[sides == 1 ? 0 : 1];
        }
    }
    int leaf = -(num + 1);
    if (leaf == 0 || leaf > bl->bsp->models[0].visleafs ||
        bl->bsp->leafs[leaf].contents == QW_CONTENTS_SOLID)
        return;
    if (bl->count >= bl->max) {
        bl->overflow = 1;
        return;
    }
    bl->leafnums[bl->count++] = (short)(leaf - 1);
}

LIBTM_PURE int qw_bsp_box_leafs(const qw_bsp *bsp, const float mins[3], const float maxs[3],
                                short *leafnums, int max)
{
    box_leafs bl = {bsp, mins, maxs, leafnums, max, 0, 0};
    find_box_leafs(&bl, bsp->models[0].headnode[0]);
    return bl.overflow ? -1 : bl.count;
}
