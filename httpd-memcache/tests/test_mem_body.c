/* Unit tests of the body buffers (mem_body): contents kept through every resize, below, across
 * and above MEM_BODY_MAPPED_MIN, and the memory of mapped bodies given back when they are
 * freed (the process's resident size falls back). */
#include "unit_support.h"
#include "mem_body.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void fill(char *body, size_t length, unsigned seed)
{
    for (size_t i = 0; i < length; i++)
        body[i] = (char)(seed + i * 7);
}

static int holds(const char *body, size_t length, unsigned seed)
{
    for (size_t i = 0; i < length; i++)
        if (body[i] != (char)(seed + i * 7))
            return 0;
    return 1;
}

/* A streamed body's life: small, grown across the threshold, grown again, cut to its length. */
static void test_contents_survive_every_resize(void **state)
{
    (void)state;
    static const size_t sizes[] = {1000, 12000, 20000, 300000, 5000, 40000, 16384, 16383, 1};
    size_t capacity = sizes[0];
    char *body = mem_body_alloc(capacity);
    assert_non_null(body);
    fill(body, capacity, 3);
    for (size_t i = 1; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t kept = capacity < sizes[i] ? capacity : sizes[i];
        body = mem_body_resize(body, capacity, sizes[i]);
        assert_non_null(body);
        if (!holds(body, kept, 3))
            fail_msg("resize %zu -> %zu lost the first %zu bytes", capacity, sizes[i], kept);
        capacity = sizes[i];
        fill(body, capacity, 3); /* the new part too, for the next step */
    }
    mem_body_free(body, capacity);
    mem_body_free(NULL, 100000);
    body = mem_body_alloc(0);
    assert_non_null(body);
    mem_body_free(body, 0);
}

static long resident_kb(void)
{
    long pages_total, pages_resident;
    FILE *statm = fopen("/proc/self/statm", "r");
    assert_non_null(statm);
    assert_int_equal(fscanf(statm, "%ld %ld", &pages_total, &pages_resident), 2);
    fclose(statm);
    return pages_resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* 32 MB of mapped bodies, written, then every other one freed: the resident size falls by
 * what was freed, though the bodies left sit between the holes (in malloc's heap such holes
 * stay resident). */
static void test_mapped_bodies_give_their_memory_back(void **state)
{
    (void)state;
    enum { COUNT = 512, SIZE = 64 * 1024 };
    static char *bodies[COUNT];
    for (int i = 0; i < COUNT; i++) {
        bodies[i] = mem_body_alloc(SIZE);
        assert_non_null(bodies[i]);
        memset(bodies[i], i, SIZE);
    }
    long full = resident_kb();
    for (int i = 1; i < COUNT; i += 2)
        mem_body_free(bodies[i], SIZE);
    long freed_kb = (long)(COUNT / 2) * (SIZE / 1024), after = resident_kb();
    if (full - after < freed_kb * 9 / 10)
        fail_msg("resident %ld KB with the bodies, %ld after freeing %ld KB of them", full, after, freed_kb);
    for (int i = 0; i < COUNT; i += 2)
        mem_body_free(bodies[i], SIZE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contents_survive_every_resize),
        cmocka_unit_test(test_mapped_bodies_give_their_memory_back),
    };
    return cmocka_run_group_tests_name("body buffers", tests, NULL, NULL);
}
