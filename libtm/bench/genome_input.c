/* The genome benchmark's input: a gene without repeated stretches and its segments. */
#include "genome.h"

#include <stdlib.h>
#include <string.h>

#include "bench_rng.h"

static const unsigned char nucleotides[4] = { 'a', 'c', 'g', 't' };

size_t genome_max_gap(size_t segment_length)
{
    return segment_length >= 8 ? segment_length / 4 : 1;
}

/* Two stretches of m bases out of n are equal by chance with probability about n^2 / 4^m:
 * 4^m >= 64 n^2 keeps it below 1/64, i.e. m >= log2(n) + 3. */
size_t genome_min_segment_length(size_t gene_length, size_t max_segment)
{
    size_t log2n = 0;
    while (((size_t)1 << log2n) < gene_length)
        log2n++;
    for (size_t s = 4; s <= max_segment; s++)
        if (s - genome_max_gap(s) >= log2n + 3)
            return s;
    return 0;
}

uint64_t genome_hash(const unsigned char *bases, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, then a final mix */
    for (size_t i = 0; i < n; i++)
        h = (h ^ bases[i]) * 0x100000001b3ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 32);
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether some stretch of m bases occurs twice (or two share a hash, which counts too). */
static bool has_repeat(const unsigned char *gene, size_t length, size_t m, uint64_t *scratch)
{
    size_t n = length - m + 1;
    for (size_t p = 0; p < n; p++)
        scratch[p] = genome_hash(gene + p, m);
    qsort(scratch, n, sizeof *scratch, compare_u64);
    for (size_t i = 1; i < n; i++)
        if (scratch[i] == scratch[i - 1])
            return true;
    return false;
}

static bool draw_gene(struct genome_input *in, uint64_t seed, FILE *err)
{
    size_t m = in->segment_length - genome_max_gap(in->segment_length);
    uint64_t *scratch = malloc(in->gene_length * sizeof *scratch);
    if (!scratch) {
        fprintf(err, "genome: out of memory checking a gene of %zu bases\n", in->gene_length);
        return false;
    }
    uint64_t rng = rng_seed(seed, UINT64_MAX);
    for (int attempt = 0; attempt < 64; attempt++) {
        for (size_t i = 0; i < in->gene_length; i++)
            in->gene[i] = nucleotides[rng_below(&rng, 4)];
        if (!has_repeat(in->gene, in->gene_length, m, scratch)) {
            free(scratch);
            return true;
        }
    }
    free(scratch);
    fprintf(err, "genome: every gene of %zu bases drawn repeats a stretch of %zu bases; use a "
            "longer --segment-length\n", in->gene_length, m);
    return false;
}

static void add_segment(struct genome_input *in, size_t start)
{
    memcpy(in->bases + in->segments * in->segment_length, in->gene + start, in->segment_length);
    in->segments++;
}

bool genome_input_create(struct genome_input *in, size_t gene_length, size_t segment_length,
                         size_t drawn, uint64_t seed, FILE *err)
{
    *in = (struct genome_input){ .gene_length = gene_length, .segment_length = segment_length,
                                 .drawn = drawn };
    size_t positions = gene_length - segment_length + 1;
    size_t gap = genome_max_gap(segment_length);
    size_t most = drawn + positions / gap + 2;
    in->gene = malloc(gene_length);
    in->bases = malloc(most * segment_length);
    bool *covered = calloc(positions, sizeof *covered);
    if (!in->gene || !in->bases || !covered) {
        fprintf(err, "genome: out of memory for %zu segments of %zu bases\n", most, segment_length);
        free(covered);
        genome_input_destroy(in);
        return false;
    }
    if (!draw_gene(in, seed, err)) {
        free(covered);
        genome_input_destroy(in);
        return false;
    }
    for (size_t i = 0; i < drawn; i++) {
        uint64_t rng = rng_seed(seed, i);
        size_t start = (size_t)rng_below(&rng, positions);
        covered[start] = true;
        add_segment(in, start);
    }
    /* Consecutive starts at most `gap` apart, from the gene's first base to its last segment. */
    size_t previous = 0;
    for (size_t p = 0; p < positions; p++) {
        if (!covered[p] && (p == 0 || p - previous == gap || p == positions - 1)) {
            covered[p] = true;
            add_segment(in, p);
        }
        if (covered[p])
            previous = p;
    }
    for (size_t p = 0; p < positions; p++)
        in->distinct += covered[p];
    free(covered);
    return true;
}

void genome_input_destroy(struct genome_input *in)
{
    free(in->gene);
    free(in->bases);
    in->gene = in->bases = NULL;
}
