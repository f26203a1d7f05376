/* Visibility: the leaf containing a point, the decompressed PVS of every leaf, the "fat" PVS
 * around an eye point and the PHS (leafs that can hear: PVS of everything in the PVS).
 *
 * Rows are bitsets over the world's visible leafs: bit n stands for leaf n + 1 (leaf 0 is the
 * shared solid leaf and has no bit). A leaf without visibility data sees everything. */
#ifndef QW_PVS_H
#define QW_PVS_H

#include <stddef.h>
#include <stdint.h>

#include "bsp.h"

typedef struct qw_pvs {
    const qw_bsp *bsp;
    int num_leafs;     /* rows = leafs 0..num_leafs-1 (world visleafs + leaf 0) */
    int row_bytes;     /* bytes per row, a multiple of 8 */
    uint8_t *pvs;      /* num_leafs rows */
    uint8_t *phs;      /* num_leafs rows */
    uint8_t *all;      /* one row of all ones (leafs out of range see everything) */
} qw_pvs;

/* Decompresses every leaf's PVS and computes the PHS. NULL with a message on failure. */
qw_pvs *qw_pvs_create(const qw_bsp *bsp, char *err, size_t errlen);
void qw_pvs_free(qw_pvs *pvs);

/* Index of the world leaf containing p (0 = the solid leaf).
 * Pure (bsp.h): walks the immutable nodes; p must be a local or immutable in a transaction. */
LIBTM_PURE int qw_bsp_leaf_for_point(const qw_bsp *bsp, const float p[3]);

/* Decompresses the run-length coded PVS of `leaf` into out[0..out_bytes), bounded by the
 * visibility lump (data missing at its end reads as "not visible"). */
void qw_bsp_decompress_vis(const qw_bsp *bsp, int leaf, uint8_t *out, int out_bytes);

/* Rows of the tables (leaf out of range: the all-visible row).
 * Pure: the tables are built once at load and never written again. */
LIBTM_PURE const uint8_t *qw_pvs_row(const qw_pvs *pvs, int leaf);
LIBTM_PURE const uint8_t *qw_phs_row(const qw_pvs *pvs, int leaf);

/* The union of the PVS rows of every non-solid leaf within 8 units of org (what the server
 * uses to decide which entities a client may see). out must hold row_bytes bytes.
 * Pure: reads the immutable tables and org, writes only out (a local in a transaction). */
LIBTM_PURE void qw_pvs_fat(const qw_pvs *pvs, const float org[3], uint8_t *out);

/* Leaf numbers (leaf index - 1, i.e. PVS bit numbers) of the world leafs the box touches.
 * Returns the count, or -1 if there are more than max (then treat the box as visible from
 * everywhere). Solid leafs are skipped.
 * Pure: reads the immutable nodes and the box, writes only leafnums; inside a transaction
 * pass local copies (qw_area_link_object copies the result into the shared object). */
LIBTM_PURE int qw_bsp_box_leafs(const qw_bsp *bsp, const float mins[3], const float maxs[3],
                                short *leafnums, int max);

/* Whether bit `leafnum` (leaf index - 1) is set in a row (rows are immutable: pure). */
LIBTM_PURE static inline int qw_pvs_row_has(const uint8_t *row, int leafnum)
{
    return (row[leafnum >> 3] >> (leafnum & 7)) & 1;
}

#endif
