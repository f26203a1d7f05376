/* genome benchmark: threads deduplicate the segments of a gene in a shared hash set, then
 * link the unique ones by overlap (genome.h); every insert, index entry and link is one atomic
 * block. A fixed amount of work: the figure is the time to completion. Afterwards the chain
 * must spell the gene. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bench_sync.h"
#include "genome.h"

#define MAX_SEGMENT_LENGTH 1024

struct genome_options {
    unsigned long gene_length, segment_length, segments;
    struct bench_run_options run;
};

/* The unique segments a thread inserted, in blocks that never move (others link to them). */
#define ARENA_BLOCK 4096
struct arena_block {
    struct arena_block *next;
    size_t used;
    struct genome_segment node[ARENA_BLOCK];
};

struct genome_run {
    const struct genome_input *in;
    struct genome_set set;
    struct genome_start_index index;
    pthread_barrier_t barrier;
    unsigned threads;
    _Atomic size_t unique, links;
};

/* One per thread, on its own cache lines so that counting does not cause false sharing. */
struct genome_worker {
    struct genome_run *run;
    unsigned index;
    size_t first, end;             /* its input segments */
    struct arena_block *blocks;    /* newest first; node[used] of the newest is the spare */
    unsigned long transactions, inserted, indexed, linked;
} __attribute__((aligned(128)));

#define FIELD(f) CMDLINE_FIELD(struct genome_options, f)
static const cmdline_option options[] = {
    { "--gene-length", "N", "bases of the gene (256..67108864, default 65536)", CMDLINE_WHOLE,
      FIELD(gene_length), .min = 256, .max = 1ul << 26, .init = 65536 },
    { "--segment-length", "N", "bases per segment (8..{max}, default 32; long enough that no two\n"
      "stretches of the gene can be mistaken for each other)", CMDLINE_WHOLE,
      FIELD(segment_length), .min = 8, .max = MAX_SEGMENT_LENGTH, .init = 32 },
    { "--segments", "N", "segments drawn at random starts (1..268435456, default 1048576);\n"
      "a few more are added so that every gap of the gene is covered", CMDLINE_WHOLE,
      FIELD(segments), .min = 1, .max = 1ul << 28, .init = 1048576 },
    BENCH_OPTION_THREADS(struct genome_options, "worker threads"),
    BENCH_OPTION_NO_DURATION,
    BENCH_OPTIONS_END(struct genome_options, "damage"),
};

static bool parse_options(int argc, char **argv, const char *program, struct genome_options *opt)
{
    const struct bench_cli cli = {
        program, options, 22,
        "Genome-assembly benchmark (" BENCH_SYNC_NAME " build): a random gene over a, c, g, t "
        "is cut into\n"
        "overlapping segments at random starts, most of them duplicates. Threads then\n"
        "  1. insert every segment into a shared hash set of unique segments, one atomic block\n"
        "     per segment (hashed outside; inside, the bucket's segments are compared byte by\n"
        "     byte: long read sets);\n"
        "  2. link the unique segments by overlap, longest first: per overlap length k, index\n"
        "     the segments without predecessor by their first k bases (one atomic block each),\n"
        "     then link each segment without successor to one whose first k bases equal its\n"
        "     last k (one atomic block each; chain ends are kept so that no link closes a cycle).\n"
        "A fixed amount of work: the figure is the time to completion. Afterwards the set must\n"
        "hold exactly the distinct segments and their chain must spell the gene.\n",
        "Prints one parseable line (ops = atomic blocks run; update = percent of them that\n"
        "wrote; size = gene length):\n"
        "  structure=genome threads=.. update=.. size=.. ops=.. seconds=.. ops_per_s=.. sync=..\n"
        "  cpu_s=.. segments=.. segment_length=.. unique=..\n",
        "--segments",
    };
    if (!bench_parse_command_line(&cli, argc, argv, opt, &opt->run))
        return false;
    size_t shortest = genome_min_segment_length(opt->gene_length, MAX_SEGMENT_LENGTH);
    if (opt->segment_length < shortest || opt->segment_length * 2 > opt->gene_length) {
        fprintf(stderr, "%s: --segment-length %lu does not fit a gene of %lu bases: use %zu to %lu "
                "(shorter segments of so long a gene would overlap ambiguously)\n", program,
                opt->segment_length, opt->gene_length, shortest, opt->gene_length / 2);
        return false;
    }
    if (opt->segments > (1ul << 32) / opt->segment_length) {
        fprintf(stderr, "%s: --segments %lu of %lu bases would take more than 4 GiB; use fewer or "
                "shorter segments\n", program, opt->segments, opt->segment_length);
        return false;
    }
    return true;
}

/* ---- the threads' arenas of unique segments ------------------------------------------------ */

/* A node for the next insert: the spare of the newest block, or a new block's first. */
static struct genome_segment *arena_spare(struct genome_worker *w)
{
    if (!w->blocks || w->blocks->used == ARENA_BLOCK) {
        struct arena_block *block = malloc(sizeof *block);
        if (!block) {
            fprintf(stderr, "genome: out of memory for unique segments\n");
            exit(1);
        }
        block->next = w->blocks;
        block->used = 0;
        w->blocks = block;
    }
    return &w->blocks->node[w->blocks->used];
}

/* The spare was inserted: it stays. */
static void arena_keep(struct genome_worker *w)
{
    w->blocks->used++;
}

static void arena_free(struct genome_worker *w)
{
    while (w->blocks) {
        struct arena_block *next = w->blocks->next;
        free(w->blocks);
        w->blocks = next;
    }
}

#define FOR_EACH_MINE(w, s)                                                          \
    for (struct arena_block *b_ = (w)->blocks; b_; b_ = b_->next)                   \
        for (struct genome_segment *s = b_->node; s < b_->node + b_->used; s++)

/* ---- the phases ---------------------------------------------------------------------------- */

/* Each atomic block in a function of its own: the callers' loop variables then do not live
 * across the begin, which returns twice. */
static __attribute__((noinline)) bool atomic_insert(struct genome_set *set,
                                                    struct genome_segment *node)
{
    bool inserted;
    ATOMIC_BEGIN
        inserted = genome_set_insert(set, node);
    ATOMIC_END
    return inserted;
}

static __attribute__((noinline)) void atomic_index_add(struct genome_start_index *index,
                                                       struct genome_segment *s, uint64_t hash)
{
    ATOMIC_BEGIN
        genome_start_index_add(index, s, hash);
    ATOMIC_END
}

static __attribute__((noinline)) bool atomic_link(struct genome_segment *s,
                                                  struct genome_segment *c, long overlap)
{
    bool done;
    ATOMIC_BEGIN
        done = genome_link(s, c, overlap);
    ATOMIC_END
    return done;
}

static void insert_segments(struct genome_worker *w)
{
    struct genome_run *run = w->run;
    const struct genome_input *in = run->in;
    for (size_t i = w->first; i < w->end; i++) {
        const unsigned char *bases = genome_segment_bases(in, i);
        struct genome_segment *node = arena_spare(w);
        genome_segment_init(node, bases, genome_hash(bases, in->segment_length));
        w->transactions++;
        if (atomic_insert(&run->set, node)) {
            arena_keep(w);
            w->inserted++;
        }
    }
}

/* This thread's share of the start index's buckets. */
static void clear_index_share(struct genome_worker *w)
{
    struct genome_run *run = w->run;
    size_t buckets = run->index.mask + 1;
    size_t first = buckets * w->index / run->threads, end = buckets * (w->index + 1) / run->threads;
    memset(run->index.bucket + first, 0, (end - first) * sizeof *run->index.bucket);
}

/* Segments without predecessor, by their first k bases. (prev is stable between the
 * barriers: only the linking step writes it.) */
static void index_starts(struct genome_worker *w, size_t k)
{
    struct genome_run *run = w->run;
    FOR_EACH_MINE(w, s) {
        if (s->prev)
            continue;
        atomic_index_add(&run->index, s, genome_hash(s->bases, k));
        w->transactions++;
        w->indexed++;
    }
}

/* Each segment without successor to a segment whose first k bases are its last k. Only this
 * thread links its own segments as predecessors, so s->next changes only here; the index and
 * the bases do not change during the step. */
static void link_ends(struct genome_worker *w, size_t k)
{
    struct genome_run *run = w->run;
    size_t length = run->in->segment_length;
    size_t linked = 0;
    FOR_EACH_MINE(w, s) {
        if (s->next)
            continue;
        const unsigned char *end = s->bases + length - k;
        uint64_t hash = genome_hash(end, k);
        for (struct genome_segment *c = genome_start_index_bucket(&run->index, hash); c;
             c = c->start_next) {
            if (c == s || memcmp(c->bases, end, k) != 0)
                continue;
            w->transactions++;
            if (atomic_link(s, c, (long)k)) {
                linked++;
                break;
            }
        }
    }
    w->linked += linked;
    atomic_fetch_add_explicit(&run->links, linked, memory_order_relaxed);
}

static void genome_worker_run(void *arg, const atomic_bool *stop)
{
    (void)stop; /* a fixed amount of work */
    struct genome_worker *w = arg;
    struct genome_run *run = w->run;
    insert_segments(w);
    atomic_fetch_add_explicit(&run->unique, w->inserted, memory_order_relaxed);
    /* Every round's steps are separated by barriers; the rounds end once the segments form
     * one chain (every thread reads the same count: it changes only after two more barriers). */
    for (size_t k = run->in->segment_length - 1; k >= 1; k--) {
        pthread_barrier_wait(&run->barrier);
        size_t unique = atomic_load_explicit(&run->unique, memory_order_relaxed);
        if (atomic_load_explicit(&run->links, memory_order_relaxed) + 1 >= unique)
            break;
        clear_index_share(w);
        pthread_barrier_wait(&run->barrier);
        index_starts(w, k);
        pthread_barrier_wait(&run->barrier);
        link_ends(w, k);
    }
}

/* ---- a run --------------------------------------------------------------------------------- */

struct genome_result {
    double seconds, cpu_seconds;
    unsigned long transactions, inserted, indexed, linked;
    size_t unique;
};

/* Runs both phases on `threads` threads; the set (with the chain) stays in *run for the
 * verifier, the unique segments in workers' arenas (freed by the caller). */
static bool genome_run(struct genome_run *run, struct genome_worker *workers, unsigned threads,
                       const struct genome_input *in, struct genome_result *result)
{
    *run = (struct genome_run){ .in = in, .threads = threads };
    if (!genome_set_init(&run->set, in->distinct, in->segment_length) ||
        !genome_start_index_init(&run->index, in->distinct) ||
        pthread_barrier_init(&run->barrier, NULL, threads) != 0)
        return false;
    for (unsigned i = 0; i < threads; i++)
        workers[i] = (struct genome_worker){ .run = run, .index = i,
                                             .first = in->segments * i / threads,
                                             .end = in->segments * (i + 1) / threads };
    *result = (struct genome_result){ 0 };
    result->seconds = bench_run_threads(threads, 0, genome_worker_run, workers, sizeof *workers,
                                        &result->cpu_seconds);
    pthread_barrier_destroy(&run->barrier);
    if (result->seconds < 0)
        return false;
    for (unsigned i = 0; i < threads; i++) {
        result->transactions += workers[i].transactions;
        result->inserted += workers[i].inserted;
        result->indexed += workers[i].indexed;
        result->linked += workers[i].linked;
    }
    result->unique = atomic_load(&run->unique);
    return true;
}

static void genome_run_destroy(struct genome_run *run, struct genome_worker *workers,
                               unsigned threads)
{
    for (unsigned i = 0; i < threads; i++)
        arena_free(&workers[i]);
    genome_set_destroy(&run->set);
    genome_start_index_destroy(&run->index);
}

/* ---- the verifier's own test --------------------------------------------------------------- */

/* Checks that the verifier accepts a good run and reports each damage; returns the number of
 * damages it missed. */
static int test_verifier(uint64_t seed)
{
    struct genome_input in;
    struct genome_run run;
    struct genome_worker worker;
    struct genome_result result;
    if (!genome_input_create(&in, 4096, 32, 16384, seed, stderr) ||
        !genome_run(&run, &worker, 1, &in, &result)) {
        fprintf(stderr, "genome: could not build the verifier's test run\n");
        return 1;
    }
    int missed = 0;
    if (!genome_verify(&run.set, &in, result.unique, stdout)) {
        printf("FAIL: the verifier rejects an intact run\n");
        missed++;
    }
    struct genome_segment *first = NULL;
    size_t bucket = 0;
    while (!(first = run.set.bucket[bucket]))
        bucket++;
    struct genome_segment *middle = first->next ? first : first->prev;
    long overlap = middle->overlap;
    struct genome_segment *next = middle->next, copy = *first;
    struct genome_segment *head = middle, *tail = middle;
    while (head->prev)
        head = head->prev;
    while (tail->next)
        tail = tail->next;

#define EXPECT_CAUGHT(what, damage, undo)                                                  \
    BENCH_EXPECT_CAUGHT(missed, what, genome_verify(&run.set, &in, result.unique, stdout), \
                        damage, undo)

    EXPECT_CAUGHT("a segment missing from the set", run.set.bucket[bucket] = first->set_next,
                  run.set.bucket[bucket] = first);
    copy.set_next = first;
    EXPECT_CAUGHT("a segment in the set twice", run.set.bucket[bucket] = &copy,
                  run.set.bucket[bucket] = first);
    EXPECT_CAUGHT("a segment with the wrong hash", first->hash ^= 1, first->hash ^= 1);
    EXPECT_CAUGHT("a broken link", middle->next = NULL, middle->next = next);
    EXPECT_CAUGHT("a link with the wrong overlap", middle->overlap = overlap - 1,
                  middle->overlap = overlap);
    EXPECT_CAUGHT("chain ends that do not know each other", head->chain_tail = head,
                  head->chain_tail = tail);
    EXPECT_CAUGHT("a wrong count of inserted segments", result.unique++, result.unique--);
#undef EXPECT_CAUGHT
    if (!genome_verify(&run.set, &in, result.unique, stdout)) {
        printf("FAIL: the test did not undo its damage\n");
        missed++;
    }
    genome_run_destroy(&run, &worker, 1);
    genome_input_destroy(&in);
    return missed;
}

int main(int argc, char **argv)
{
    const char *program = bench_program_name(argv[0]);
    struct genome_options opt;
    if (!parse_options(argc, argv, program, &opt))
        return BENCH_EXIT_USAGE;
    if (opt.run.test_verifier)
        return bench_verifier_verdict("genome", test_verifier(opt.run.seed), "catches every damage");

    struct genome_input in;
    if (!genome_input_create(&in, opt.gene_length, opt.segment_length, opt.segments,
                             opt.run.seed, stderr))
        return 1;
    unsigned threads = (unsigned)opt.run.threads;
    struct genome_worker *workers = aligned_alloc(128, threads * sizeof *workers);
    struct genome_run run;
    struct genome_result r;
    if (!workers || !genome_run(&run, workers, threads, &in, &r)) {
        fprintf(stderr, "%s: out of memory or could not start %u threads\n", program, threads);
        return 1;
    }
    unsigned long wrote = r.inserted + r.indexed + r.linked;
    printf("structure=genome threads=%u update=%lu size=%lu ops=%lu seconds=%.3f ops_per_s=%.0f "
           "sync=%s cpu_s=%.3f segments=%zu segment_length=%lu unique=%zu\n",
           threads, r.transactions ? 100 * wrote / r.transactions : 0, opt.gene_length,
           r.transactions, r.seconds, r.transactions / r.seconds, BENCH_SYNC_NAME, r.cpu_seconds,
           in.segments, opt.segment_length, r.unique);
    fflush(stdout);
    bool valid = genome_verify(&run.set, &in, r.unique, stderr);
    printf("genome (%s build): %u thread(s), a gene of %lu bases, %zu segments of %lu: %zu unique, "
           "%lu links; %lu atomic blocks in %.3f s (%.1f k/s); %s\n",
           BENCH_SYNC_NAME, threads, opt.gene_length, in.segments, opt.segment_length, r.unique,
           r.linked, r.transactions, r.seconds, r.transactions / r.seconds / 1e3,
           valid ? "verified: the chain spells the gene" : "VERIFICATION FAILED");
    genome_run_destroy(&run, workers, threads);
    free(workers);
    genome_input_destroy(&in);
    return valid ? 0 : BENCH_EXIT_BROKEN;
}
