/* The genome benchmark's shared structures: the set of unique segments, the rounds' start
 * index, the links, and the verifier. */
#include "genome.h"

#include <stdlib.h>
#include <string.h>

static size_t power_of_two_at_least(size_t n)
{
    size_t p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

bool genome_set_init(struct genome_set *set, size_t expected, size_t segment_length)
{
    size_t buckets = power_of_two_at_least(expected);
    set->mask = buckets - 1;
    set->segment_length = segment_length;
    set->bucket = calloc(buckets, sizeof *set->bucket);
    return set->bucket != NULL;
}

void genome_set_destroy(struct genome_set *set)
{
    free(set->bucket);
    set->bucket = NULL;
}

bool genome_start_index_init(struct genome_start_index *index, size_t expected)
{
    size_t buckets = power_of_two_at_least(expected);
    index->mask = buckets - 1;
    index->bucket = calloc(buckets, sizeof *index->bucket);
    return index->bucket != NULL;
}

void genome_start_index_destroy(struct genome_start_index *index)
{
    free(index->bucket);
    index->bucket = NULL;
}

void genome_segment_init(struct genome_segment *s, const unsigned char *bases, uint64_t hash)
{
    *s = (struct genome_segment){ .hash = hash, .bases = bases, .chain_head = s, .chain_tail = s };
}

/* Byte by byte, as a string comparison does: inside a transaction every byte is a read. */
TM_SAFE static bool same_bases(const unsigned char *a, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

TM_SAFE bool genome_set_insert(struct genome_set *set, struct genome_segment *node)
{
    uint64_t hash = node->hash;
    struct genome_segment **head = &set->bucket[hash & set->mask];
    for (struct genome_segment *s = *head; s; s = s->set_next)
        if (s->hash == hash && same_bases(s->bases, node->bases, set->segment_length))
            return false;
    node->set_next = *head;
    *head = node;
    return true;
}

struct genome_segment *genome_set_find(const struct genome_set *set, const unsigned char *bases,
                                       uint64_t hash)
{
    for (struct genome_segment *s = set->bucket[hash & set->mask]; s; s = s->set_next)
        if (s->hash == hash && memcmp(s->bases, bases, set->segment_length) == 0)
            return s;
    return NULL;
}

TM_SAFE void genome_start_index_add(struct genome_start_index *index, struct genome_segment *s,
                                    uint64_t hash)
{
    struct genome_segment **bucket = &index->bucket[hash & index->mask];
    s->start_next = *bucket;
    *bucket = s;
}

TM_SAFE bool genome_link(struct genome_segment *s, struct genome_segment *c, long overlap)
{
    if (s->next || c->prev)
        return false;
    struct genome_segment *head = s->chain_head, *tail = c->chain_tail;
    if (head == c)
        return false;
    s->next = c;
    c->prev = s;
    s->overlap = overlap;
    head->chain_tail = tail;
    tail->chain_head = head;
    return true;
}

/* ---- verification ------------------------------------------------------------------------- */

/* Every node in its bucket with its own hash, no two equal; the count. */
static bool set_sound(const struct genome_set *set, size_t *count, FILE *err)
{
    size_t length = set->segment_length;
    *count = 0;
    for (size_t b = 0; b <= set->mask; b++) {
        for (const struct genome_segment *s = set->bucket[b]; s; s = s->set_next) {
            if (s->hash != genome_hash(s->bases, length) || (s->hash & set->mask) != b) {
                fprintf(err, "genome: a segment in bucket %zu has the wrong hash or bucket\n", b);
                return false;
            }
            for (const struct genome_segment *t = s->set_next; t; t = t->set_next) {
                if (t->hash == s->hash && memcmp(t->bases, s->bases, length) == 0) {
                    fprintf(err, "genome: bucket %zu holds the same segment twice\n", b);
                    return false;
                }
            }
            ++*count;
        }
    }
    return true;
}

static bool set_complete(const struct genome_set *set, const struct genome_input *in,
                         size_t count, size_t unique, FILE *err)
{
    if (count != in->distinct || count != unique) {
        fprintf(err, "genome: the set holds %zu segments; the input has %zu distinct ones and the "
                "threads inserted %zu\n", count, in->distinct, unique);
        return false;
    }
    for (size_t i = 0; i < in->segments; i++) {
        const unsigned char *bases = genome_segment_bases(in, i);
        if (!genome_set_find(set, bases, genome_hash(bases, in->segment_length))) {
            fprintf(err, "genome: input segment %zu is missing from the set\n", i);
            return false;
        }
    }
    return true;
}

/* The chain's first segment: the only one without predecessor. */
static const struct genome_segment *chain_start(const struct genome_set *set, FILE *err)
{
    const struct genome_segment *start = NULL;
    for (size_t b = 0; b <= set->mask; b++) {
        for (const struct genome_segment *s = set->bucket[b]; s; s = s->set_next) {
            if (s->prev)
                continue;
            if (start) {
                fprintf(err, "genome: the segments form more than one chain\n");
                return NULL;
            }
            start = s;
        }
    }
    if (!start)
        fprintf(err, "genome: every segment has a predecessor (a cycle)\n");
    return start;
}

/* Walks the chain from `start`, checking each link, and compares what it spells with the
 * gene. */
static bool chain_spells_gene(const struct genome_segment *start, const struct genome_input *in,
                              size_t count, FILE *err)
{
    size_t length = in->segment_length, spelled = length, walked = 1;
    if (memcmp(start->bases, in->gene, length) != 0) {
        fprintf(err, "genome: the chain does not start with the gene's first bases\n");
        return false;
    }
    const struct genome_segment *s = start;
    for (; s->next; s = s->next) {
        const struct genome_segment *n = s->next;
        size_t overlap = (size_t)s->overlap;
        if (n->prev != s || s->overlap < 1 || overlap >= length ||
            memcmp(s->bases + length - overlap, n->bases, overlap) != 0) {
            fprintf(err, "genome: a link of the chain is broken (overlap %ld)\n", s->overlap);
            return false;
        }
        size_t added = length - overlap;
        if (++walked > count || spelled + added > in->gene_length ||
            memcmp(n->bases + overlap, in->gene + spelled, added) != 0) {
            fprintf(err, "genome: the chain departs from the gene after %zu bases\n", spelled);
            return false;
        }
        spelled += added;
    }
    if (walked != count || spelled != in->gene_length) {
        fprintf(err, "genome: the chain holds %zu of %zu segments and spells %zu of %zu bases\n",
                walked, count, spelled, in->gene_length);
        return false;
    }
    if (start->chain_tail != s || s->chain_head != start) {
        fprintf(err, "genome: the chain's ends do not know each other\n");
        return false;
    }
    return true;
}

bool genome_verify(const struct genome_set *set, const struct genome_input *in, size_t unique,
                   FILE *err)
{
    size_t count;
    if (!set_sound(set, &count, err) || !set_complete(set, in, count, unique, err))
        return false;
    const struct genome_segment *start = chain_start(set, err);
    return start && chain_spells_gene(start, in, count, err);
}
