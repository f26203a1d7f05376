/* Graph construction, the shape of the standard TM suites' scalable graph analysis kernel,
 * written here: a large directed, weighted multigraph is built into adjacency arrays from a
 * list of random edges. Each thread takes a share of the edges and
 *   1. counts out-degrees, one tiny atomic block per edge (degree + 1);
 *   2. with the other threads, turns the degrees into offsets (prefix sums, no transactions);
 *   3. places each edge into its source's adjacency array, one tiny atomic block per edge
 *      (next free slot, target and weight, the source's total weight).
 * The vertices are many, so transactions rarely meet, and their data rarely sits in a cache:
 * memory-bound, low conflict, little time inside transactions. */
#ifndef BENCH_GRAPH_H
#define BENCH_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bench_sync.h"

/* 32 bytes: one vertex is one 32-byte aligned block (an ownership stripe of libtm's orec). */
struct graph_vertex {
    uint64_t offset;     /* its edges: edge[offset .. offset + degree) */
    uint64_t weight_sum; /* of its placed edges */
    uint32_t degree;     /* edges from it, counted in step 1 */
    uint32_t fill;       /* edges placed in step 3 */
    uint64_t unused;
};

struct graph_edge {
    uint32_t target;
    uint32_t weight;
};

struct graph {
    size_t vertices, edges;
    uint64_t seed;
    struct graph_vertex *vertex;
    struct graph_edge *edge;
};

/* Edge i of the input, which depends only on the seed and i: every thread count builds the
 * same graph. Weights are 1..255. */
struct graph_input_edge {
    uint32_t source, target, weight;
};
struct graph_input_edge graph_input_edge(const struct graph *g, size_t i);

/* Zeroed vertices and room for the edges; NULL when out of memory. */
struct graph *graph_create(size_t vertices, size_t edges, uint64_t seed);
void graph_destroy(struct graph *g);

/* Step 1, one atomic block each. */
TM_SAFE void graph_count_edge(struct graph *g, uint32_t source);
/* Step 2, outside transactions: the sum of the degrees of vertices [first, end), then their
 * offsets starting at `base`. */
uint64_t graph_degree_sum(const struct graph *g, size_t first, size_t end);
void graph_set_offsets(struct graph *g, size_t first, size_t end, uint64_t base);
/* Step 3, one atomic block each; false when the source has no free slot left (a count that
 * went wrong). */
TM_SAFE bool graph_place_edge(struct graph *g, uint32_t source, uint32_t target, uint32_t weight);

/* After the run, single-threaded: every vertex's degree, offsets, total weight and the
 * multiset of its (target, weight) pairs against the input edges. Reports the first
 * violation on err. */
bool graph_verify(const struct graph *g, FILE *err);

#endif
