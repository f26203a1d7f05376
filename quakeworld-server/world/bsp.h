/* BSP29 map files: loading (every lump bounds-checked), the collision hulls built from them,
 * submodels, the entity lump parser, and the QuakeWorld map checksums of the loaded file
 * (computed by libqwproto's qw_map_checksum.h, as clients compute them).
 *
 * Everything a loaded map holds is read-only after qw_bsp_load, so traces and PVS lookups may
 * read it from many threads (and inside transactions) without locking. */
#ifndef QW_BSP_H
#define QW_BSP_H

#include <stddef.h>
#include <stdint.h>

#define QW_BSP_VERSION 29

/* The world's functions that the server calls inside __transaction_atomic are LIBTM_SAFE
 * (declaration and definition must both carry it; harmless when compiled without -fgnu-tm).
 * Those marked LIBTM_PURE run uninstrumented even inside a transaction (no read/write
 * barriers). Only for functions that read nothing but the loaded map (immutable after loading)
 * and the caller's arguments, and write only the caller's outputs: inside a transaction every
 * pointer passed to them must be thread-private (locals of the transaction) or immutable,
 * never shared state such as entities or the areanode tree (copy those fields to locals
 * first). This relies on the runtime writing in place (libtm and GCC's libitm do): pure code
 * reads locals that instrumented code filled. Their loops are bounded and their indexes
 * checked, so even a doomed transaction's inconsistent copies cannot make them crash or spin. */
#include <libtm.h>

/* Lump numbers of the BSP29 header. */
enum {
    QW_LUMP_ENTITIES = 0, QW_LUMP_PLANES, QW_LUMP_TEXTURES, QW_LUMP_VERTEXES, QW_LUMP_VISIBILITY,
    QW_LUMP_NODES, QW_LUMP_TEXINFO, QW_LUMP_FACES, QW_LUMP_LIGHTING, QW_LUMP_CLIPNODES,
    QW_LUMP_LEAFS, QW_LUMP_MARKSURFACES, QW_LUMP_EDGES, QW_LUMP_SURFEDGES, QW_LUMP_MODELS,
    QW_BSP_NUM_LUMPS
};

/* Leaf / hull contents. */
#define QW_CONTENTS_EMPTY  (-1)
#define QW_CONTENTS_SOLID  (-2)
#define QW_CONTENTS_WATER  (-3)
#define QW_CONTENTS_SLIME  (-4)
#define QW_CONTENTS_LAVA   (-5)
#define QW_CONTENTS_SKY    (-6)

/* Collision hulls: 0 = point (from the nodes), 1 = player box, 2 = large box (clipnodes). */
#define QW_MAX_HULLS 3
extern const float qw_hull_mins[QW_MAX_HULLS][3];   /* (0,0,0) (-16,-16,-24) (-32,-32,-24) */
extern const float qw_hull_maxs[QW_MAX_HULLS][3];   /* (0,0,0) ( 16, 16, 32) ( 32, 32, 64) */

/* Plane types: 0/1/2 = axial (normal along X/Y/Z), 3..5 = closest to X/Y/Z. */
typedef struct qw_bsp_plane {
    float normal[3];
    float dist;
    int type;
} qw_bsp_plane;

/* A rendering-tree node. children[i] >= 0 is a node index, < 0 is leaf -(child+1). */
typedef struct qw_bsp_node {
    int planenum;
    int children[2];           /* [0] front (dist >= 0), [1] back */
    float mins[3], maxs[3];
} qw_bsp_node;

/* A collision node: children >= 0 are clipnode indexes, < 0 are QW_CONTENTS_* values. */
typedef struct qw_bsp_clipnode {
    int planenum;
    int children[2];
} qw_bsp_clipnode;

typedef struct qw_bsp_leaf {
    int contents;
    int visofs;                /* offset into the visibility lump, -1 = none */
    float mins[3], maxs[3];
} qw_bsp_leaf;

typedef struct qw_bsp_model {
    float mins[3], maxs[3];
    float origin[3];
    int headnode[4];           /* [0] node index (hull 0), [1]/[2] clipnode indexes */
    int visleafs;              /* leafs of the world model, not counting leaf 0 */
    int firstface, numfaces;
} qw_bsp_model;

/* One collision hull. Hull 0's clipnodes are derived from the nodes at load time so that all
 * three hulls are traced by the same code. A model's hull = this + firstclipnode = headnode. */
typedef struct qw_bsp_hull {
    const qw_bsp_clipnode *clipnodes;
    const qw_bsp_plane *planes;
    int firstclipnode;
    int lastclipnode;
    float clip_mins[3], clip_maxs[3];
} qw_bsp_hull;

typedef struct qw_bsp {
    char name[256];            /* the path it was loaded from (for messages) */
    char *entities;            /* NUL-terminated copy of the entity lump */
    qw_bsp_plane *planes;       int num_planes;
    qw_bsp_node *nodes;         int num_nodes;
    qw_bsp_leaf *leafs;         int num_leafs;
    qw_bsp_clipnode *clipnodes; int num_clipnodes;   /* hulls 1 and 2 */
    qw_bsp_clipnode *hull0;     int num_hull0;       /* = num_nodes, derived from the nodes */
    qw_bsp_model *models;       int num_models;      /* model 0 = world, 1..N = "*1".."*N" */
    uint8_t *visdata;           int visdata_len;     /* compressed PVS rows */
    qw_bsp_hull hulls[QW_MAX_HULLS];                 /* the world's hulls (model 0) */
    uint32_t checksum, checksum2;
} qw_bsp;

/* Loads a BSP29 file. On failure returns NULL and writes a message naming the file, the lump
 * and what is wrong into err (if non-NULL). */
qw_bsp *qw_bsp_load(const char *path, char *err, size_t errlen);
/* Same from memory (name is only used in messages). The bytes are copied. */
qw_bsp *qw_bsp_load_memory(const uint8_t *file, size_t len, const char *name,
                           char *err, size_t errlen);
void qw_bsp_free(qw_bsp *bsp);

const char *qw_bsp_entity_string(const qw_bsp *bsp);
/* Number of brush submodels "*1".."*N" (models minus the world). */
int qw_bsp_num_submodels(const qw_bsp *bsp);
/* Model 0 = world, 1..N = submodels; NULL when out of range.
 * Pure: reads only the immutable model table. */
LIBTM_PURE
const qw_bsp_model *qw_bsp_get_model(const qw_bsp *bsp, int index);
/* Hull `hullnum` (0..2) of model `index` (head node from the model). Returns 0, or -1 if out
 * of range. Pure: reads the immutable map, writes only *out (the caller's). */
LIBTM_PURE
int qw_bsp_model_hull(const qw_bsp *bsp, int index, int hullnum, qw_bsp_hull *out);

/* ---- entity lump parser: { "key" "value" ... } blocks ---- */
#define QW_ENTITY_MAX_FIELDS 64
#define QW_ENTITY_MAX_KEY    64
#define QW_ENTITY_MAX_VALUE  1024

typedef struct qw_entity_fields {
    int count;
    char key[QW_ENTITY_MAX_FIELDS][QW_ENTITY_MAX_KEY];
    char value[QW_ENTITY_MAX_FIELDS][QW_ENTITY_MAX_VALUE];
} qw_entity_fields;

typedef struct qw_entity_iter {
    const char *pos;
    int line;                  /* current line, for messages */
    int index;                 /* number of blocks returned so far */
    char error[160];           /* set when qw_entity_next returns -1 */
} qw_entity_iter;

void qw_entity_iter_init(qw_entity_iter *it, const char *text);
/* Parses the next block into *out. Returns 1 on a block, 0 at the end, -1 on a syntax error
 * (it->error says where). Keys or values that are too long are an error, not truncated. */
int qw_entity_next(qw_entity_iter *it, qw_entity_fields *out);
/* Value of `key` in a parsed block, NULL if absent. */
const char *qw_entity_get(const qw_entity_fields *fields, const char *key);

#endif
