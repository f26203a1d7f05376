/* zipf: writes a URL list whose lines follow a Zipf distribution, for siege -i (which picks
 * lines uniformly, so requests follow Zipf). See --help. */
#include "zipf_counts.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: zipf --pages FILE --s S [--sample N] [--lines L] [--seed SEED]\n"
            "            [--prefix URL] [--out FILE]\n"
            "Reads page ids (first word of each non-empty line of FILE), samples N of them with\n"
            "a seeded shuffle (the sample order is the Zipf rank, so rank is unrelated to the\n"
            "order of FILE), and writes L lines PREFIX+ID where rank k appears round(L*k^-S/H)\n"
            "times (largest-remainder rounding, total exactly L). A summary goes to stderr.\n"
            "  --s S        Zipf exponent, >= 0 (0.1, 1 and 2 in the benchmark)\n"
            "  --sample N   pages to sample (default 2000; all if FILE has fewer)\n"
            "  --lines L    lines to write (default 10000)\n"
            "  --seed SEED  shuffle seed (default 20090504)\n"
            "  --prefix URL text put before each id (default empty)\n"
            "  --out FILE   output file (default stdout)\n");
}

static int parse_number(const char *option, const char *text, double minimum, double *out)
{
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (end == text || *end || errno || value < minimum) {
        fprintf(stderr, "zipf: %s needs a number >= %g, got '%s'\n", option, minimum, text);
        return -1;
    }
    *out = value;
    return 0;
}

static void free_pages(char **pages, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(pages[i]);
    free(pages);
}

/* Reads the first word of every non-empty line; returns the count or -1 (after saying why). */
static long read_pages(const char *path, char ***pages_out)
{
    FILE *file = fopen(path, "r");
    if (!file) {
        fprintf(stderr, "zipf: cannot read page list '%s': %s\n", path, strerror(errno));
        return -1;
    }
    size_t count = 0, capacity = 1024;
    char **pages = malloc(capacity * sizeof(*pages));
    bool out_of_memory = !pages;
    char line[4096];
    while (!out_of_memory && fgets(line, sizeof(line), file)) {
        char *word = strtok(line, " \t\r\n");
        if (!word)
            continue;
        if (count == capacity) {
            char **bigger = realloc(pages, 2 * capacity * sizeof(*pages));
            out_of_memory = !bigger;
            if (out_of_memory)
                break;
            pages = bigger;
            capacity *= 2;
        }
        pages[count] = strdup(word);
        out_of_memory = !pages[count];
        if (!out_of_memory)
            count++;
    }
    fclose(file);
    if (out_of_memory) {
        fprintf(stderr, "zipf: out of memory reading '%s'\n", path);
        if (pages)
            free_pages(pages, count);
        return -1;
    }
    *pages_out = pages;
    return (long)count;
}

/* Writes the list: `lines` URLs over the first `sample` pages of the shuffled list, Zipf(s)
 * distributed; returns the exit status. */
static int write_list(char **pages, size_t page_count, const char *pages_path,
                      const char *out_path, const char *prefix, double s, size_t sample,
                      unsigned long total, uint64_t seed)
{
    if (page_count == 0) {
        fprintf(stderr, "zipf: page list '%s' has no pages\n", pages_path);
        return 1;
    }
    zipf_shuffle((void **)pages, page_count, seed);
    size_t n = sample < page_count ? sample : page_count;
    unsigned long *counts = calloc(n, sizeof(*counts));
    if (!counts || zipf_counts(s, n, total, counts) != 0) {
        fprintf(stderr, "zipf: out of memory\n");
        free(counts);
        return 1;
    }
    FILE *out = stdout;
    if (out_path && !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "zipf: cannot write '%s': %s\n", out_path, strerror(errno));
        free(counts);
        return 1;
    }
    size_t distinct = 0;
    unsigned long top10 = 0;
    for (size_t k = 0; k < n; k++) {
        for (unsigned long c = 0; c < counts[k]; c++)
            fprintf(out, "%s%s\n", prefix, pages[k]);
        distinct += counts[k] > 0;
        if (k < 10)
            top10 += counts[k];
    }
    int status = 0;
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "zipf: writing '%s' failed: %s\n", out_path, strerror(errno));
        status = 1;
    } else {
        fprintf(stderr, "zipf: s=%g: %lu lines over %zu distinct of %zu sampled pages (of %zu); "
                "top page %.1f %%, top-10 %.1f %%\n", s, total, distinct, n, page_count,
                100.0 * counts[0] / total, 100.0 * top10 / total);
    }
    free(counts);
    return status;
}

int main(int argc, char **argv)
{
    const char *pages_path = NULL, *prefix = "", *out_path = NULL;
    double s = -1, sample = 2000, lines = 10000, seed = 20090504;
    /* Every option but --help takes a value; an option is recognised before its value is
     * looked for, so a typo is reported as unknown, not as missing a value. */
    struct {
        const char *name;
        const char **text;  /* a text value */
        double *number;     /* or a number, at least minimum */
        double minimum;
    } options[] = {
        {"--pages", &pages_path, NULL, 0}, {"--prefix", &prefix, NULL, 0},
        {"--out", &out_path, NULL, 0},     {"--s", NULL, &s, 0},
        {"--sample", NULL, &sample, 1},    {"--lines", NULL, &lines, 1},
        {"--seed", NULL, &seed, 0},
    };
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i];
        if (!strcmp(option, "--help") || !strcmp(option, "-h")) {
            usage(stdout);
            return 0;
        }
        size_t known = 0;
        while (known < sizeof(options) / sizeof(options[0]) && strcmp(option, options[known].name))
            known++;
        if (known == sizeof(options) / sizeof(options[0])) {
            fprintf(stderr, "zipf: unknown option '%s' (see --help)\n", option);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "zipf: %s needs a value (see --help)\n", option);
            return 2;
        }
        const char *value = argv[++i];
        if (options[known].text)
            *options[known].text = value;
        else if (parse_number(option, value, options[known].minimum, options[known].number))
            return 2;
    }
    if (!pages_path || s < 0) {
        fprintf(stderr, "zipf: --pages FILE and --s S are required (see --help)\n");
        return 2;
    }

    char **pages;
    long page_count = read_pages(pages_path, &pages);
    if (page_count < 0)
        return 1;
    int status = write_list(pages, (size_t)page_count, pages_path, out_path, prefix, s,
                            (size_t)sample, (unsigned long)lines, (uint64_t)seed);
    free_pages(pages, (size_t)page_count);
    return status;
}
