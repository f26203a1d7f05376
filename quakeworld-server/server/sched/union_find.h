/* Union-find (disjoint sets) over the integers 0..n-1, with path compression and union by
 * rank: -sched lpt groups the clients whose actions may affect each other with it
 * (sched/jobs.h). The caller owns the storage, so a frame allocates nothing. */
#ifndef SV_SCHED_UNION_FIND_H
#define SV_SCHED_UNION_FIND_H

#include <stdbool.h>
#include <stdint.h>

typedef struct sv_union_find {
    int *parent;       /* parent[x] == x: x is the root of its set */
    uint8_t *rank;     /* an upper bound of the height of a root's tree */
    int n;
} sv_union_find;

/* Makes every element of 0..n-1 a set of its own; parent and rank hold n elements each. */
void sv_uf_init(sv_union_find *uf, int *parent, uint8_t *rank, int n);
/* The root of x's set; every element on the way is made to point at it. */
int sv_uf_find(sv_union_find *uf, int x);
/* Joins the sets of a and b (the lower tree goes under the higher one); false when they were
 * one set already. */
bool sv_uf_union(sv_union_find *uf, int a, int b);

#endif
