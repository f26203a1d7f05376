/* graph benchmark: threads build a large weighted graph's adjacency arrays from random edges
 * (graph.h), one tiny atomic block per edge and step. A fixed amount of work: the figure is
 * the time to completion. Afterwards every vertex is checked against the input edges. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "bench_sync.h"
#include "graph.h"

struct graph_options {
    unsigned long scale, edge_factor;
    struct bench_run_options run;
};

struct graph_run {
    struct graph *graph;
    pthread_barrier_t barrier;
    unsigned threads;
    uint64_t *degree_sums; /* step 2: per thread */
};

/* One per thread, on its own cache lines so that counting does not cause false sharing. */
struct graph_worker {
    struct graph_run *run;
    unsigned index;
    size_t first_edge, end_edge, first_vertex, end_vertex;
    unsigned long transactions, lost;
} __attribute__((aligned(128)));

#define FIELD(f) CMDLINE_FIELD(struct graph_options, f)
static const cmdline_option options[] = {
    { "--scale", "K", "2^K vertices (8..26, default 18)", CMDLINE_WHOLE, FIELD(scale), .min = 8,
      .max = 26, .init = 18 },
    { "--edge-factor", "F", "edges per vertex (1..64, default 8)", CMDLINE_WHOLE,
      FIELD(edge_factor), .min = 1, .max = 64, .init = 8 },
    BENCH_OPTION_THREADS(struct graph_options, "worker threads"),
    BENCH_OPTION_NO_DURATION,
    BENCH_OPTIONS_END(struct graph_options, "damage"),
};

static bool parse_options(int argc, char **argv, const char *program, struct graph_options *opt)
{
    const struct bench_cli cli = {
        program, options, 22,
        "Graph-construction benchmark (" BENCH_SYNC_NAME " build): a directed, weighted "
        "multigraph of 2^scale\n"
        "vertices and edge-factor x 2^scale random edges is built into adjacency arrays. Each\n"
        "thread takes a share of the edges and\n"
        "  1. counts out-degrees, one tiny atomic block per edge;\n"
        "  2. with the others, turns degrees into offsets (prefix sums, no transactions);\n"
        "  3. places each edge into its source's array, one tiny atomic block per edge.\n"
        "Memory-bound, low conflict, little time inside transactions. A fixed amount of work:\n"
        "the figure is the time to completion. Every vertex is verified afterwards.\n",
        "Prints one parseable line (ops = atomic blocks run, all of them write; size = vertices):\n"
        "  structure=graph threads=.. update=100 size=.. ops=.. seconds=.. ops_per_s=.. sync=..\n"
        "  cpu_s=.. edges=..\n",
        "--scale, --edge-factor",
    };
    return bench_parse_command_line(&cli, argc, argv, opt, &opt->run);
}

/* Each atomic block in a function of its own: the callers' loop variables then do not live
 * across the begin, which returns twice. */
static __attribute__((noinline)) void atomic_count_edge(struct graph *g, uint32_t source)
{
    ATOMIC_BEGIN
        graph_count_edge(g, source);
    ATOMIC_END
}

static __attribute__((noinline)) bool atomic_place_edge(struct graph *g,
                                                        struct graph_input_edge e)
{
    bool placed;
    ATOMIC_BEGIN
        placed = graph_place_edge(g, e.source, e.target, e.weight);
    ATOMIC_END
    return placed;
}

static void count_degrees(struct graph_worker *w, struct graph *g)
{
    for (size_t i = w->first_edge; i < w->end_edge; i++) {
        atomic_count_edge(g, graph_input_edge(g, i).source);
    }
    w->transactions += w->end_edge - w->first_edge;
}

/* Prefix sums over the vertices: each thread sums its share, then starts its offsets after
 * the shares before it. */
static void compute_offsets(struct graph_worker *w, struct graph_run *run)
{
    run->degree_sums[w->index] = graph_degree_sum(run->graph, w->first_vertex, w->end_vertex);
    pthread_barrier_wait(&run->barrier);
    uint64_t base = 0;
    for (unsigned i = 0; i < w->index; i++)
        base += run->degree_sums[i];
    graph_set_offsets(run->graph, w->first_vertex, w->end_vertex, base);
}

static void place_edges(struct graph_worker *w, struct graph *g)
{
    for (size_t i = w->first_edge; i < w->end_edge; i++) {
        w->lost += !atomic_place_edge(g, graph_input_edge(g, i));
    }
    w->transactions += w->end_edge - w->first_edge;
}

static void graph_worker_run(void *arg, const atomic_bool *stop)
{
    (void)stop; /* a fixed amount of work */
    struct graph_worker *w = arg;
    struct graph_run *run = w->run;
    count_degrees(w, run->graph);
    pthread_barrier_wait(&run->barrier); /* every degree counted */
    compute_offsets(w, run);
    pthread_barrier_wait(&run->barrier); /* every offset set */
    place_edges(w, run->graph);
}

struct graph_result {
    double seconds, cpu_seconds;
    unsigned long transactions, lost;
};

static bool graph_run(struct graph *g, unsigned threads, struct graph_result *result)
{
    struct graph_run run = { .graph = g, .threads = threads };
    struct graph_worker *workers = aligned_alloc(128, threads * sizeof *workers);
    run.degree_sums = calloc(threads, sizeof *run.degree_sums);
    if (!workers || !run.degree_sums || pthread_barrier_init(&run.barrier, NULL, threads) != 0) {
        free(workers);
        free(run.degree_sums);
        return false;
    }
    for (unsigned i = 0; i < threads; i++)
        workers[i] = (struct graph_worker){
            .run = &run, .index = i,
            .first_edge = g->edges * i / threads, .end_edge = g->edges * (i + 1) / threads,
            .first_vertex = g->vertices * i / threads, .end_vertex = g->vertices * (i + 1) / threads,
        };
    *result = (struct graph_result){ 0 };
    result->seconds = bench_run_threads(threads, 0, graph_worker_run, workers, sizeof *workers,
                                        &result->cpu_seconds);
    for (unsigned i = 0; i < threads; i++) {
        result->transactions += workers[i].transactions;
        result->lost += workers[i].lost;
    }
    pthread_barrier_destroy(&run.barrier);
    free(workers);
    free(run.degree_sums);
    return result->seconds >= 0;
}

/* Checks that the verifier accepts a good graph and reports each damage; returns the number
 * of damages it missed. */
static int test_verifier(uint64_t seed)
{
    struct graph *g = graph_create(1024, 8192, seed);
    struct graph_result result;
    if (!g || !graph_run(g, 1, &result)) {
        fprintf(stderr, "graph: could not build the verifier's test graph\n");
        graph_destroy(g);
        return 1;
    }
    int missed = 0;
    if (!graph_verify(g, stdout)) {
        printf("FAIL: the verifier rejects an intact graph\n");
        missed++;
    }
    /* Two vertices with edges to different targets, to swap one edge between them. */
    size_t a = 0, b;
    while (g->vertex[a].degree == 0)
        a++;
    struct graph_edge *ea = &g->edge[g->vertex[a].offset];
    for (b = a + 1; g->vertex[b].degree == 0 || g->edge[g->vertex[b].offset].target == ea->target; b++)
        ;
    struct graph_edge *eb = &g->edge[g->vertex[b].offset];
    struct graph_edge saved_a = *ea, saved_b = *eb;

#define EXPECT_CAUGHT(what, damage, undo) \
    BENCH_EXPECT_CAUGHT(missed, what, graph_verify(g, stdout), damage, undo)

    EXPECT_CAUGHT("a degree one too high", g->vertex[a].degree++, g->vertex[a].degree--);
    EXPECT_CAUGHT("an edge not placed", g->vertex[a].fill--, g->vertex[a].fill++);
    EXPECT_CAUGHT("a wrong offset", g->vertex[b].offset++, g->vertex[b].offset--);
    EXPECT_CAUGHT("a wrong total weight", g->vertex[b].weight_sum++, g->vertex[b].weight_sum--);
    EXPECT_CAUGHT("an edge with the wrong target", ea->target ^= 1, ea->target ^= 1);
    EXPECT_CAUGHT("an edge with the wrong weight", ea->weight++, ea->weight--);
    EXPECT_CAUGHT("two vertices' edges swapped", (*ea = saved_b, *eb = saved_a),
                  (*ea = saved_a, *eb = saved_b));
#undef EXPECT_CAUGHT
    if (!graph_verify(g, stdout)) {
        printf("FAIL: the test did not undo its damage\n");
        missed++;
    }
    graph_destroy(g);
    return missed;
}

int main(int argc, char **argv)
{
    const char *program = bench_program_name(argv[0]);
    struct graph_options opt;
    if (!parse_options(argc, argv, program, &opt))
        return BENCH_EXIT_USAGE;
    if (opt.run.test_verifier)
        return bench_verifier_verdict("graph", test_verifier(opt.run.seed), "catches every damage");

    size_t vertices = (size_t)1 << opt.scale, edges = vertices * opt.edge_factor;
    struct graph *g = graph_create(vertices, edges, opt.run.seed);
    if (!g) {
        fprintf(stderr, "%s: out of memory for a graph of %zu vertices and %zu edges; lower "
                "--scale or --edge-factor\n", program, vertices, edges);
        return 1;
    }
    unsigned threads = (unsigned)opt.run.threads;
    struct graph_result r;
    if (!graph_run(g, threads, &r)) {
        fprintf(stderr, "%s: out of memory or could not start %u threads\n", program, threads);
        graph_destroy(g);
        return 1;
    }
    printf("structure=graph threads=%u update=100 size=%zu ops=%lu seconds=%.3f ops_per_s=%.0f "
           "sync=%s cpu_s=%.3f edges=%zu\n",
           threads, vertices, r.transactions, r.seconds, r.transactions / r.seconds,
           BENCH_SYNC_NAME, r.cpu_seconds, edges);
    fflush(stdout);
    bool valid = r.lost == 0 && graph_verify(g, stderr);
    if (r.lost)
        fprintf(stderr, "graph: %lu edges found their source's array full\n", r.lost);
    printf("graph (%s build): %u thread(s), %zu vertices, %zu edges; %lu atomic blocks in "
           "%.3f s (%.1f k/s); %s\n",
           BENCH_SYNC_NAME, threads, vertices, edges, r.transactions, r.seconds,
           r.transactions / r.seconds / 1e3, valid ? "verified" : "VERIFICATION FAILED");
    graph_destroy(g);
    return valid ? 0 : BENCH_EXIT_BROKEN;
}
