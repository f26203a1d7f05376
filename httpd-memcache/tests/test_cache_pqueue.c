/* Unit tests of the binary max-heap (cache_pqueue). */
#include "unit_support.h"
#include "cache_pqueue.h"

#include <stdlib.h>

typedef cache_pqueue_node_t item_t;

static cache_pqueue_t *make_queue(size_t capacity)
{
    cache_pqueue_t *queue = cache_pqueue_create(capacity);
    assert_non_null(queue);
    return queue;
}

__attribute__((noinline)) static item_t *pop(cache_pqueue_t *queue)
{
    item_t *item;
    IN_TX(item = cache_pqueue_pop(queue));
    return item;
}

/* Pops everything and checks the priorities come out in non-increasing order. */
static size_t drain_in_order(cache_pqueue_t *queue)
{
    size_t count = 0;
    cache_pqueue_priority_t last = 0;
    for (;;) {
        item_t *item = pop(queue);
        if (!item)
            break;
        if (count > 0)
            assert_true(item->priority <= last);
        assert_int_equal(item->position, 0);
        last = item->priority;
        count++;
    }
    return count;
}

static void test_pop_order_and_growth(void **state)
{
    (void)state;
    enum { COUNT = 500 };
    item_t items[COUNT];
    cache_pqueue_t *queue = make_queue(4); /* forces several grow steps */
    srand(7);
    int rc;
    for (int i = 0; i < COUNT; i++) {
        items[i].priority = rand() % 100 - 50;
        IN_TX(rc = cache_pqueue_insert(queue, &items[i]));
        assert_int_equal(rc, 0);
    }
    assert_int_equal(cache_pqueue_size(queue), COUNT);
    assert_int_equal(drain_in_order(queue), COUNT);
    void *head;
    IN_TX(head = cache_pqueue_peek(queue));
    assert_null(head);
    cache_pqueue_destroy(queue);
}

static void test_remove_from_middle(void **state)
{
    (void)state;
    item_t items[10];
    cache_pqueue_t *queue = make_queue(10);
    for (int i = 0; i < 10; i++) {
        items[i].priority = i * 10;
        IN_TX(cache_pqueue_insert(queue, &items[i]));
    }
    IN_TX(cache_pqueue_remove(queue, &items[9])); /* the head */
    IN_TX(cache_pqueue_remove(queue, &items[4]));
    IN_TX(cache_pqueue_remove(queue, &items[0]));
    IN_TX(cache_pqueue_remove(queue, &items[4])); /* already gone: no effect */
    assert_int_equal(cache_pqueue_size(queue), 7);
    item_t *head;
    IN_TX(head = cache_pqueue_peek(queue));
    assert_ptr_equal(head, &items[8]);
    assert_int_equal(drain_in_order(queue), 7);
    cache_pqueue_destroy(queue);
}

static void test_change_priority(void **state)
{
    (void)state;
    item_t items[5];
    cache_pqueue_t *queue = make_queue(5);
    for (int i = 0; i < 5; i++) {
        items[i].priority = i;
        IN_TX(cache_pqueue_insert(queue, &items[i]));
    }
    item_t *head;
    IN_TX(cache_pqueue_change_priority(queue, &items[0], 100)); /* lowest becomes highest */
    assert_int_equal(items[0].priority, 100);
    IN_TX(head = cache_pqueue_peek(queue));
    assert_ptr_equal(head, &items[0]);
    IN_TX(cache_pqueue_change_priority(queue, &items[0], -100)); /* and back to the bottom */
    IN_TX(head = cache_pqueue_pop(queue));
    assert_ptr_equal(head, &items[4]);
    assert_int_equal(drain_in_order(queue), 4);
    assert_int_equal(items[0].position, 0);
    cache_pqueue_destroy(queue);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pop_order_and_growth),
        cmocka_unit_test(test_remove_from_middle),
        cmocka_unit_test(test_change_priority),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
