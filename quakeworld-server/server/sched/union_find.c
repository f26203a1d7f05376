/* Union-find (see sched/union_find.h). */
#include "sched/union_find.h"

void sv_uf_init(sv_union_find *uf, int *parent, uint8_t *rank, int n)
{
    uf->parent = parent;
    uf->rank = rank;
    uf->n = n;
    for (int i = 0; i < n; i++) {
        parent[i] = i;
        rank[i] = 0;
    }
}

int sv_uf_find(sv_union_find *uf, int x)
{
    int root = x;
    while (uf->parent[root] != root)
        root = uf->parent[root];
    /* second pass: the whole path now points at the root (iterative, no recursion depth) */
    while (uf->parent[x] != root) {
        int next = uf->parent[x];
        uf->parent[x] = root;
        x = next;
    }
    return root;
}

bool sv_uf_union(sv_union_find *uf, int a, int b)
{
    int ra = sv_uf_find(uf, a), rb = sv_uf_find(uf, b);
    if (ra == rb)
        return false;
    if (uf->rank[ra] < uf->rank[rb]) {
        int t = ra;
        ra = rb;
        rb = t;
    }
    uf->parent[rb] = ra;
    if (uf->rank[ra] == uf->rank[rb])
        uf->rank[ra]++;
    return true;
}
