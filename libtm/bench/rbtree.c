/* Red-black tree (the classic insert/delete fix-ups with rotations), written so that a
 * transaction writes only what really changes: colours are written only when they differ.
 * One implementation serves the set and the map: a map's node is the set's node followed by
 * the value, so the set's nodes stay as small as they were. */
#include "rbtree.h"

#include <stdlib.h>

struct rb_node {
    long key;
    struct rb_node *left, *right, *parent;
    bool red;
};

struct rb_map_node {
    struct rb_node node;
    void *value;
};

struct rbtree {
    struct rb_node *root;
};

struct rbmap {
    struct rbtree tree;
};

TM_SAFE static inline struct rb_map_node *as_map_node(struct rb_node *n)
{
    return (struct rb_map_node *)n;
}

struct rbtree *rbtree_create(void)
{
    return calloc(1, sizeof(struct rbtree));
}

struct rbmap *rbmap_create(void)
{
    return calloc(1, sizeof(struct rbmap));
}

/* free_value: NULL for a set, or what a map's values need (may itself be NULL). */
static void destroy_subtree(struct rb_node *node, bool map, void (*free_value)(void *))
{
    while (node) {
        destroy_subtree(node->left, map, free_value);
        struct rb_node *right = node->right;
        if (map && free_value)
            free_value(as_map_node(node)->value);
        free(node);
        node = right;
    }
}

void rbtree_destroy(struct rbtree *tree)
{
    if (!tree)
        return;
    destroy_subtree(tree->root, false, NULL);
    free(tree);
}

void rbmap_destroy(struct rbmap *map, void (*free_value)(void *))
{
    if (!map)
        return;
    destroy_subtree(map->tree.root, true, free_value);
    free(map);
}

/* NULL-tolerant helpers: a missing child counts as black. */
TM_SAFE static inline bool is_red(const struct rb_node *n) { return n && n->red; }
TM_SAFE static inline struct rb_node *parent_of(const struct rb_node *n) { return n ? n->parent : NULL; }
TM_SAFE static inline struct rb_node *left_of(const struct rb_node *n) { return n ? n->left : NULL; }
TM_SAFE static inline struct rb_node *right_of(const struct rb_node *n) { return n ? n->right : NULL; }

TM_SAFE static inline void set_red(struct rb_node *n, bool red)
{
    if (n && n->red != red)
        n->red = red;
}

TM_SAFE static void rotate_left(struct rbtree *tree, struct rb_node *p)
{
    struct rb_node *r = p->right;
    p->right = r->left;
    if (r->left)
        r->left->parent = p;
    r->parent = p->parent;
    if (!p->parent)
        tree->root = r;
    else if (p->parent->left == p)
        p->parent->left = r;
    else
        p->parent->right = r;
    r->left = p;
    p->parent = r;
}

TM_SAFE static void rotate_right(struct rbtree *tree, struct rb_node *p)
{
    struct rb_node *l = p->left;
    p->left = l->right;
    if (l->right)
        l->right->parent = p;
    l->parent = p->parent;
    if (!p->parent)
        tree->root = l;
    else if (p->parent->right == p)
        p->parent->right = l;
    else
        p->parent->left = l;
    l->right = p;
    p->parent = l;
}

TM_SAFE static void fix_after_insert(struct rbtree *tree, struct rb_node *x)
{
    while (x && x != tree->root && is_red(x->parent)) {
        struct rb_node *parent = parent_of(x), *grand = parent_of(parent);
        if (parent == left_of(grand)) {
            struct rb_node *uncle = right_of(grand);
            if (is_red(uncle)) {
                set_red(parent, false);
                set_red(uncle, false);
                set_red(grand, true);
                x = grand;
            } else {
                if (x == right_of(parent)) {
                    x = parent;
                    rotate_left(tree, x);
                }
                set_red(parent_of(x), false);
                set_red(parent_of(parent_of(x)), true);
                if (parent_of(parent_of(x)))
                    rotate_right(tree, parent_of(parent_of(x)));
            }
        } else {
            struct rb_node *uncle = left_of(grand);
            if (is_red(uncle)) {
                set_red(parent, false);
                set_red(uncle, false);
                set_red(grand, true);
                x = grand;
            } else {
                if (x == left_of(parent)) {
                    x = parent;
                    rotate_right(tree, x);
                }
                set_red(parent_of(x), false);
                set_red(parent_of(parent_of(x)), true);
                if (parent_of(parent_of(x)))
                    rotate_left(tree, parent_of(parent_of(x)));
            }
        }
    }
    set_red(tree->root, false);
}

TM_SAFE static void fix_after_remove(struct rbtree *tree, struct rb_node *x)
{
    while (x != tree->root && !is_red(x)) {
        if (x == left_of(parent_of(x))) {
            struct rb_node *sib = right_of(parent_of(x));
            if (is_red(sib)) {
                set_red(sib, false);
                set_red(parent_of(x), true);
                rotate_left(tree, parent_of(x));
                sib = right_of(parent_of(x));
            }
            if (!is_red(left_of(sib)) && !is_red(right_of(sib))) {
                set_red(sib, true);
                x = parent_of(x);
            } else {
                if (!is_red(right_of(sib))) {
                    set_red(left_of(sib), false);
                    set_red(sib, true);
                    rotate_right(tree, sib);
                    sib = right_of(parent_of(x));
                }
                set_red(sib, is_red(parent_of(x)));
                set_red(parent_of(x), false);
                set_red(right_of(sib), false);
                rotate_left(tree, parent_of(x));
                x = tree->root;
            }
        } else {
            struct rb_node *sib = left_of(parent_of(x));
            if (is_red(sib)) {
                set_red(sib, false);
                set_red(parent_of(x), true);
                rotate_right(tree, parent_of(x));
                sib = left_of(parent_of(x));
            }
            if (!is_red(right_of(sib)) && !is_red(left_of(sib))) {
                set_red(sib, true);
                x = parent_of(x);
            } else {
                if (!is_red(left_of(sib))) {
                    set_red(right_of(sib), false);
                    set_red(sib, true);
                    rotate_left(tree, sib);
                    sib = left_of(parent_of(x));
                }
                set_red(sib, is_red(parent_of(x)));
                set_red(parent_of(x), false);
                set_red(left_of(sib), false);
                rotate_right(tree, parent_of(x));
                x = tree->root;
            }
        }
    }
    set_red(x, false);
}

TM_SAFE static struct rb_node *find_node(const struct rbtree *tree, long key)
{
    struct rb_node *n = tree->root;
    while (n) {
        if (key < n->key)
            n = n->left;
        else if (key > n->key)
            n = n->right;
        else
            return n;
    }
    return NULL;
}

/* Links a new node of node_size bytes (a set's or a map's) for key; NULL when the key is
 * already there or memory ran out. */
TM_SAFE static struct rb_node *insert_node(struct rbtree *tree, long key, size_t node_size)
{
    struct rb_node *parent = NULL, *n = tree->root;
    while (n) {
        parent = n;
        if (key < n->key)
            n = n->left;
        else if (key > n->key)
            n = n->right;
        else
            return NULL;
    }
    struct rb_node *fresh = malloc(node_size);
    if (!fresh)
        return NULL;
    fresh->key = key;
    fresh->left = fresh->right = NULL;
    fresh->parent = parent;
    fresh->red = true;
    if (!parent)
        tree->root = fresh;
    else if (key < parent->key)
        parent->left = fresh;
    else
        parent->right = fresh;
    fix_after_insert(tree, fresh);
    return fresh;
}

/* Unlinks and frees the node of key. For a map (value != NULL) *value gets the key's value;
 * when the successor's node is the one freed, its value moves along with its key. */
TM_SAFE static bool remove_node(struct rbtree *tree, long key, void **value)
{
    struct rb_node *p = tree->root;
    while (p && p->key != key)
        p = key < p->key ? p->left : p->right;
    if (!p)
        return false;
    if (value)
        *value = as_map_node(p)->value;

    /* Two children: take the successor's key and remove the successor instead. */
    if (p->left && p->right) {
        struct rb_node *s = p->right;
        while (s->left)
            s = s->left;
        p->key = s->key;
        if (value)
            as_map_node(p)->value = as_map_node(s)->value;
        p = s;
    }

    struct rb_node *replacement = p->left ? p->left : p->right;
    if (replacement) {
        replacement->parent = p->parent;
        if (!p->parent)
            tree->root = replacement;
        else if (p == p->parent->left)
            p->parent->left = replacement;
        else
            p->parent->right = replacement;
        if (!p->red)
            fix_after_remove(tree, replacement);
    } else if (!p->parent) {
        tree->root = NULL;
    } else {
        /* A leaf: fix up while it is still linked, then unlink it. */
        if (!p->red)
            fix_after_remove(tree, p);
        if (p->parent) {
            if (p == p->parent->left)
                p->parent->left = NULL;
            else if (p == p->parent->right)
                p->parent->right = NULL;
        }
    }
    free(p);
    return true;
}

TM_SAFE bool rbtree_contains(const struct rbtree *tree, long key)
{
    return find_node(tree, key) != NULL;
}

TM_SAFE bool rbtree_insert(struct rbtree *tree, long key)
{
    return insert_node(tree, key, sizeof(struct rb_node)) != NULL;
}

TM_SAFE bool rbtree_remove(struct rbtree *tree, long key)
{
    return remove_node(tree, key, NULL);
}

TM_SAFE void *rbmap_get(const struct rbmap *map, long key)
{
    struct rb_node *n = find_node(&map->tree, key);
    return n ? as_map_node(n)->value : NULL;
}

TM_SAFE bool rbmap_put(struct rbmap *map, long key, void *value)
{
    struct rb_node *n = insert_node(&map->tree, key, sizeof(struct rb_map_node));
    if (!n)
        return false;
    as_map_node(n)->value = value;
    return true;
}

TM_SAFE void *rbmap_remove(struct rbmap *map, long key)
{
    void *value = NULL;
    return remove_node(&map->tree, key, &value) ? value : NULL;
}

/* Returns the black height of the subtree, or -1 after reporting a violation. */
static long verify_subtree(const struct rb_node *n, const struct rb_node *parent,
                           const long *low, const long *high, size_t *count, FILE *err)
{
    if (!n)
        return 1;
    if (n->parent != parent) {
        fprintf(err, "rbtree: node %ld has a wrong parent link\n", n->key);
        return -1;
    }
    if ((low && n->key <= *low) || (high && n->key >= *high)) {
        fprintf(err, "rbtree: key %ld is out of order\n", n->key);
        return -1;
    }
    if (n->red && (is_red(n->left) || is_red(n->right))) {
        fprintf(err, "rbtree: red node %ld has a red child\n", n->key);
        return -1;
    }
    ++*count;
    long left = verify_subtree(n->left, n, low, &n->key, count, err);
    if (left < 0)
        return -1;
    long right = verify_subtree(n->right, n, &n->key, high, count, err);
    if (right < 0)
        return -1;
    if (left != right) {
        fprintf(err, "rbtree: black heights differ below node %ld (%ld vs %ld)\n", n->key, left, right);
        return -1;
    }
    return left + (n->red ? 0 : 1);
}

bool rbtree_verify(const struct rbtree *tree, size_t expected_size, FILE *err)
{
    if (is_red(tree->root)) {
        fprintf(err, "rbtree: the root is red\n");
        return false;
    }
    size_t count = 0;
    if (verify_subtree(tree->root, NULL, NULL, NULL, &count, err) < 0)
        return false;
    if (count != expected_size) {
        fprintf(err, "rbtree: holds %zu elements, expected %zu\n", count, expected_size);
        return false;
    }
    return true;
}

static bool visit_subtree(struct rb_node *n, rbmap_visit_fn *visit, void *ctx)
{
    while (n) {
        if (!visit_subtree(n->left, visit, ctx) || !visit(n->key, as_map_node(n)->value, ctx))
            return false;
        n = n->right;
    }
    return true;
}

bool rbmap_for_each(const struct rbmap *map, rbmap_visit_fn *visit, void *ctx)
{
    return visit_subtree(map->tree.root, visit, ctx);
}

bool rbmap_verify(const struct rbmap *map, size_t expected_size, FILE *err)
{
    return rbtree_verify(&map->tree, expected_size, err);
}

bool rbmap_damage_order(struct rbmap *map)
{
    return rbtree_damage_order(&map->tree);
}

bool rbmap_damage_color(struct rbmap *map)
{
    return rbtree_damage_color(&map->tree);
}

bool rbtree_damage_order(struct rbtree *tree)
{
    struct rb_node *root = tree->root;
    struct rb_node *child = root ? (root->left ? root->left : root->right) : NULL;
    if (!child)
        return false;
    long key = root->key;
    root->key = child->key;
    child->key = key;
    return true;
}

bool rbtree_damage_color(struct rbtree *tree)
{
    if (!tree->root)
        return false;
    tree->root->red = !tree->root->red;
    return true;
}
