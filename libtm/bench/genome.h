/* Genome assembly, the shape of the standard TM suites' gene sequencer, written here: a gene
 * (a string over a, c, g, t) is cut into many overlapping segments, most of them duplicates.
 * Phase 1 puts every segment into a shared hash set of unique segments, one atomic block per
 * segment (the hash is computed outside; inside, the bucket's segments are compared byte by
 * byte: long read sets). Phase 2 links the unique segments by overlap, longest overlap first:
 * each round indexes the segments that still lack a predecessor by their first k bases, and
 * links every segment that still lacks a successor to one whose first k bases equal its last
 * k, one atomic block per link, keeping the chains' ends up to date so that no link closes a
 * cycle. Afterwards the chain spells the gene. */
#ifndef BENCH_GENOME_H
#define BENCH_GENOME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "bench_sync.h"

/* ---- the input ----------------------------------------------------------------------------- */

struct genome_input {
    size_t gene_length, segment_length;
    unsigned char *gene;  /* gene_length bases */
    size_t segments;      /* drawn ones, then those added so that every gap is covered */
    size_t drawn;
    unsigned char *bases; /* segment i at i * segment_length */
    size_t distinct;      /* distinct start positions among the segments */
};

/* The longest stretch of the gene between two segment starts: consecutive segments overlap
 * by at least segment_length - this. */
size_t genome_max_gap(size_t segment_length);
/* The shortest segment for which no overlap of consecutive segments can be taken for another
 * (no repeated stretch of segment_length - max gap bases, with high probability), or 0 when
 * the gene is too long for any segment of at most max_segment bases. */
size_t genome_min_segment_length(size_t gene_length, size_t max_segment);

/* Draws a gene without repeated stretches of (segment_length - max gap) bases, then `drawn`
 * segments at random starts (segment i's start depends only on seed and i, so every thread
 * count does the same work) and the segments that cover every gap longer than the max gap.
 * False when out of memory or no such gene was found (the message says which). */
bool genome_input_create(struct genome_input *in, size_t gene_length, size_t segment_length,
                         size_t drawn, uint64_t seed, FILE *err);
void genome_input_destroy(struct genome_input *in);
static inline const unsigned char *genome_segment_bases(const struct genome_input *in, size_t i)
{
    return in->bases + i * in->segment_length;
}
/* Hash of n bases (computed outside transactions). */
uint64_t genome_hash(const unsigned char *bases, size_t n);

/* ---- the unique segments ------------------------------------------------------------------- */

/* A unique segment: a node of the set and, in phase 2, of a chain. */
struct genome_segment {
    struct genome_segment *set_next; /* the set's bucket */
    uint64_t hash;
    const unsigned char *bases;      /* the first copy inserted */
    struct genome_segment *next, *prev; /* the chain: successor and predecessor */
    long overlap;                    /* bases shared with next */
    struct genome_segment *chain_head; /* meaningful on a chain's last segment */
    struct genome_segment *chain_tail; /* meaningful on a chain's first segment */
    struct genome_segment *start_next; /* the round's start index bucket */
};

/* A fixed power-of-two array of unsorted chains (no resizing). */
struct genome_set {
    size_t mask;
    size_t segment_length;
    struct genome_segment **bucket;
};

/* A round's index of segments without predecessor, by the hash of their first k bases. */
struct genome_start_index {
    size_t mask;
    struct genome_segment **bucket;
};

bool genome_set_init(struct genome_set *set, size_t expected, size_t segment_length);
void genome_set_destroy(struct genome_set *set);
bool genome_start_index_init(struct genome_start_index *index, size_t expected);
void genome_start_index_destroy(struct genome_start_index *index);

/* Phase 1: inserts `node` (its hash and bases set, by its thread) unless an equal segment is
 * in the set already. True when inserted. */
TM_SAFE bool genome_set_insert(struct genome_set *set, struct genome_segment *node);
/* Outside transactions: the equal segment in the set, or NULL. */
struct genome_segment *genome_set_find(const struct genome_set *set, const unsigned char *bases,
                                       uint64_t hash);

/* Phase 2, indexing: pushes s onto the bucket of `hash` (of its first k bases). */
TM_SAFE void genome_start_index_add(struct genome_start_index *index, struct genome_segment *s,
                                    uint64_t hash);
static inline struct genome_segment *genome_start_index_bucket(
    const struct genome_start_index *index, uint64_t hash)
{
    return index->bucket[hash & index->mask];
}
/* Phase 2, linking: makes c the successor of s, overlapping by `overlap` bases, if s still has
 * no successor, c no predecessor, and c does not head s's own chain (a cycle). */
TM_SAFE bool genome_link(struct genome_segment *s, struct genome_segment *c, long overlap);

/* A new segment of its own chain. */
void genome_segment_init(struct genome_segment *s, const unsigned char *bases, uint64_t hash);

/* After the run, single-threaded: the set holds exactly the input's distinct segments
 * (`unique` of them, each findable, no two equal, each in its own bucket), they form one
 * chain whose ends know each other, and the chain spells the gene. Reports the first
 * violation on err. */
bool genome_verify(const struct genome_set *set, const struct genome_input *in, size_t unique,
                   FILE *err);

#endif
