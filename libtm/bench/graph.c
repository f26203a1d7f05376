/* The graph benchmark's adjacency arrays, its two transactions and the verifier. */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

#include "bench_rng.h"

_Static_assert(sizeof(struct graph_vertex) == 32, "a vertex is one 32-byte block");

struct graph_input_edge graph_input_edge(const struct graph *g, size_t i)
{
    uint64_t rng = rng_seed(g->seed, i);
    struct graph_input_edge e;
    e.source = (uint32_t)rng_below(&rng, g->vertices);
    e.target = (uint32_t)rng_below(&rng, g->vertices);
    e.weight = 1 + (uint32_t)rng_below(&rng, 255);
    return e;
}

struct graph *graph_create(size_t vertices, size_t edges, uint64_t seed)
{
    struct graph *g = malloc(sizeof *g);
    if (!g)
        return NULL;
    *g = (struct graph){ .vertices = vertices, .edges = edges, .seed = seed };
    g->vertex = aligned_alloc(64, vertices * sizeof *g->vertex);
    g->edge = malloc(edges * sizeof *g->edge);
    if (!g->vertex || !g->edge) {
        graph_destroy(g);
        return NULL;
    }
    /* Touched now, so that the run does not take the page faults. */
    memset(g->vertex, 0, vertices * sizeof *g->vertex);
    memset(g->edge, 0, edges * sizeof *g->edge);
    return g;
}

void graph_destroy(struct graph *g)
{
    if (!g)
        return;
    free(g->vertex);
    free(g->edge);
    free(g);
}

TM_SAFE void graph_count_edge(struct graph *g, uint32_t source)
{
    g->vertex[source].degree++;
}

uint64_t graph_degree_sum(const struct graph *g, size_t first, size_t end)
{
    uint64_t sum = 0;
    for (size_t v = first; v < end; v++)
        sum += g->vertex[v].degree;
    return sum;
}

void graph_set_offsets(struct graph *g, size_t first, size_t end, uint64_t base)
{
    for (size_t v = first; v < end; v++) {
        g->vertex[v].offset = base;
        base += g->vertex[v].degree;
    }
}

TM_SAFE bool graph_place_edge(struct graph *g, uint32_t source, uint32_t target, uint32_t weight)
{
    struct graph_vertex *v = &g->vertex[source];
    uint32_t slot = v->fill;
    if (slot >= v->degree)
        return false;
    struct graph_edge *e = &g->edge[v->offset + slot];
    e->target = target;
    e->weight = weight;
    v->fill = slot + 1;
    v->weight_sum += weight;
    return true;
}

/* ---- verification ------------------------------------------------------------------------- */

/* An order-independent fingerprint of a vertex's edges: the sum of a strong mix of each
 * (target, weight) pair. A lost, changed or misplaced edge changes it. */
static uint64_t edge_mix(uint32_t target, uint32_t weight)
{
    return rng_seed(((uint64_t)target << 32) | weight, 0x5bd1e995);
}

struct expected_vertex {
    uint64_t degree, weight_sum, fingerprint;
};

bool graph_verify(const struct graph *g, FILE *err)
{
    struct expected_vertex *expect = calloc(g->vertices, sizeof *expect);
    if (!expect) {
        fprintf(err, "graph: out of memory verifying %zu vertices\n", g->vertices);
        return false;
    }
    for (size_t i = 0; i < g->edges; i++) {
        struct graph_input_edge e = graph_input_edge(g, i);
        struct expected_vertex *x = &expect[e.source];
        x->degree++;
        x->weight_sum += e.weight;
        x->fingerprint += edge_mix(e.target, e.weight);
    }
    bool ok = true;
    uint64_t offset = 0;
    for (size_t v = 0; v < g->vertices && ok; v++) {
        const struct graph_vertex *gv = &g->vertex[v];
        const struct expected_vertex *x = &expect[v];
        uint64_t fingerprint = 0;
        if (gv->degree != x->degree || gv->fill != gv->degree || gv->offset != offset) {
            fprintf(err, "graph: vertex %zu has degree %u, %u edges placed and offset %llu; "
                    "expected degree %llu and offset %llu\n", v, gv->degree, gv->fill,
                    (unsigned long long)gv->offset, (unsigned long long)x->degree,
                    (unsigned long long)offset);
            ok = false;
            break;
        }
        for (uint64_t i = gv->offset; i < gv->offset + gv->degree; i++)
            fingerprint += edge_mix(g->edge[i].target, g->edge[i].weight);
        if (gv->weight_sum != x->weight_sum) {
            fprintf(err, "graph: vertex %zu has a total weight of %llu, its input edges %llu\n", v,
                    (unsigned long long)gv->weight_sum, (unsigned long long)x->weight_sum);
            ok = false;
        } else if (fingerprint != x->fingerprint) {
            fprintf(err, "graph: vertex %zu holds other edges than the input gives it (an edge "
                    "changed, lost or placed at the wrong vertex)\n", v);
            ok = false;
        }
        offset += gv->degree;
    }
    if (ok && offset != g->edges) {
        fprintf(err, "graph: the vertices hold %llu edges, the input has %zu\n",
                (unsigned long long)offset, g->edges);
        ok = false;
    }
    free(expect);
    return ok;
}
