/* The MCache* directives through the module's own directive table, as httpd reads a
 * configuration: values in range are stored, bad ones are refused with the directive, the
 * value and what is wrong; the cross-directive checks; the streaming limit; the words of
 * MCacheRemovalAlgorithm and MCacheSync. */
#include "provider_fixture.h"
#include "mem_config.h"

#include <string.h>

static void test_defaults_are_httpd_2_2s(void **state)
{
    (void)state;
    const mem_cache_config_t *c = mem_config_of(fake_server_create(group_pool));
    assert_int_equal(c->max_cache_bytes, 100 * 1024);
    assert_int_equal(c->max_object_count, 1009);
    assert_int_equal(c->min_object_size, 1);
    assert_int_equal(c->max_object_size, 10000);
    assert_int_equal(c->max_streaming_buffer, 100000);
    assert_int_equal(c->read_size, 65536); /* (not a 2.2 directive) */
    assert_int_equal(c->policy, CACHE_POLICY_GDSF);
    assert_int_equal(c->use_tm, 0);
    assert_int_equal(c->set, 0);
}

static void test_values_are_stored(void **state)
{
    (void)state;
    server_rec *server = fake_server_create(group_pool);
    assert_null(fake_server_set(server, "MCacheSize", "65536"));
    assert_null(fake_server_set(server, "MCacheMaxObjectCount", "10007"));
    assert_null(fake_server_set(server, "MCacheMinObjectSize", "0"));
    assert_null(fake_server_set(server, "MCacheMaxObjectSize", "262144"));
    assert_null(fake_server_set(server, "MCacheMaxStreamingBuffer", "0"));
    assert_null(fake_server_set(server, "MCacheReadSize", "1024"));
    assert_null(fake_server_set(server, "MCacheRemovalAlgorithm", "lru"));
    assert_null(fake_server_set(server, "MCacheSync", "TM"));
    const mem_cache_config_t *c = mem_config_of(server);
    assert_int_equal(c->max_cache_bytes, 65536 * 1024);
    assert_int_equal(c->max_object_count, 10007);
    assert_int_equal(c->min_object_size, 0);
    assert_int_equal(c->max_object_size, 262144);
    assert_int_equal(c->max_streaming_buffer, 0);
    assert_int_equal(c->read_size, 1024);
    assert_int_equal(c->policy, CACHE_POLICY_LRU);
    assert_int_equal(c->use_tm, 1);
    assert_int_equal(c->set, MEM_SET_CACHE_SIZE | MEM_SET_OBJECT_COUNT | MEM_SET_MIN_OBJECT |
                                 MEM_SET_MAX_OBJECT | MEM_SET_STREAMING | MEM_SET_READ_SIZE |
                                 MEM_SET_POLICY | MEM_SET_SYNC);
    server = fake_server_create(group_pool);
    assert_null(fake_server_set(server, "MCacheReadSize", "16777216"));
    assert_int_equal(mem_config_of(server)->read_size, 16777216);
    assert_null(mem_config_check(group_pool, server));
}

static void test_bad_values_are_refused_with_the_reason(void **state)
{
    (void)state;
    static const struct {
        const char *directive, *value, *message;
    } cases[] = {
        {"MCacheSize", "lots", "MCacheSize: 'lots' is not a non-negative whole number"},
        {"MCacheSize", "12k", "MCacheSize: '12k' is not a non-negative whole number"},
        {"MCacheSize", "", "MCacheSize: '' is not a non-negative whole number"},
        {"MCacheMinObjectSize", "-5", "MCacheMinObjectSize: '-5' is not a non-negative whole number"},
        {"MCacheMaxObjectCount", "0", "MCacheMaxObjectCount: '0' is too small (minimum 1)"},
        {"MCacheMaxObjectSize", "99999999999999999999",
         "MCacheMaxObjectSize: '99999999999999999999' is not a non-negative whole number"},
        {"MCacheMaxObjectSize", "2000000000000", "MCacheMaxObjectSize: '2000000000000' is too large"},
        {"MCacheReadSize", "256", "MCacheReadSize: '256' is too small (minimum 1024)"},
        {"MCacheReadSize", "0", "MCacheReadSize: '0' is too small (minimum 1024)"},
        {"MCacheReadSize", "16777217", "MCacheReadSize: '16777217' is too large (maximum 16777216)"},
        {"MCacheReadSize", "64k", "MCacheReadSize: '64k' is not a non-negative whole number"},
        {"MCacheRemovalAlgorithm", "FIFO", "MCacheRemovalAlgorithm: 'FIFO' is not LRU or GDSF"},
        {"MCacheSync", "mutex", "MCacheSync: 'mutex' is not lock or tm"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        server_rec *server = fake_server_create(group_pool);
        const char *error = fake_server_set(server, cases[i].directive, cases[i].value);
        if (!error || strncmp(error, cases[i].message, strlen(cases[i].message)))
            fail_msg("%s %s: got '%s', expected '%s...'", cases[i].directive, cases[i].value,
                     error ? error : "(accepted)", cases[i].message);
        assert_int_equal(mem_config_of(server)->set, 0); /* nothing half-set */
    }
}

static void test_cross_directive_checks(void **state)
{
    (void)state;
    server_rec *server = fake_server_create(group_pool);
    assert_null(fake_server_set(server, "MCacheMinObjectSize", "500"));
    assert_null(fake_server_set(server, "MCacheMaxObjectSize", "100"));
    assert_string_equal(mem_config_check(group_pool, server),
                        "MCacheMinObjectSize (500) is larger than MCacheMaxObjectSize (100)");
    server = fake_server_create(group_pool);
    assert_null(fake_server_set(server, "MCacheMaxObjectSize", "200000"));
    assert_string_equal(mem_config_check(group_pool, server),
                        "MCacheMaxObjectSize (200000 bytes) is larger than MCacheSize (100 KBytes): "
                        "raise MCacheSize or lower MCacheMaxObjectSize");
}

static void test_streaming_limit_is_the_smaller_of_two(void **state)
{
    (void)state;
    server_rec *server = fake_server_create(group_pool);
    const char *directive;
    assert_int_equal(mem_config_streaming_limit(mem_config_of(server), &directive), 10000);
    assert_string_equal(directive, "MCacheMaxObjectSize");
    assert_null(fake_server_set(server, "MCacheMaxStreamingBuffer", "5000"));
    assert_int_equal(mem_config_streaming_limit(mem_config_of(server), &directive), 5000);
    assert_string_equal(directive, "MCacheMaxStreamingBuffer");
}

static void test_names_of_policies_and_sync_modes(void **state)
{
    (void)state;
    assert_string_equal(mem_config_policy_name(CACHE_POLICY_LRU), "LRU");
    assert_string_equal(mem_config_policy_name(CACHE_POLICY_GDSF), "GDSF");
    assert_string_equal(mem_config_sync_name(0), "lock");
    assert_string_equal(mem_config_sync_name(1), "tm");
}

/* A virtual host takes what its own section sets and the main server's values for the rest. */
static void test_virtual_host_merge(void **state)
{
    (void)state;
    server_rec *main_server = fake_server_create(group_pool), *vhost = fake_server_create(group_pool);
    assert_null(fake_server_set(main_server, "MCacheSize", "500"));
    assert_null(fake_server_set(main_server, "MCacheSync", "tm"));
    assert_null(fake_server_set(vhost, "MCacheMaxObjectSize", "20000"));
    const mem_cache_config_t *merged =
        mem_config_merge(group_pool, mem_config_of(main_server), mem_config_of(vhost));
    assert_int_equal(merged->max_cache_bytes, 500 * 1024);
    assert_int_equal(merged->use_tm, 1);
    assert_int_equal(merged->max_object_size, 20000);
    assert_int_equal(merged->set, MEM_SET_MAX_OBJECT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_are_httpd_2_2s),
        cmocka_unit_test(test_values_are_stored),
        cmocka_unit_test(test_bad_values_are_refused_with_the_reason),
        cmocka_unit_test(test_cross_directive_checks),
        cmocka_unit_test(test_streaming_limit_is_the_smaller_of_two),
        cmocka_unit_test(test_names_of_policies_and_sync_modes),
        cmocka_unit_test(test_virtual_host_merge),
    };
    return cmocka_run_group_tests_name("MCache* directives", tests, group_setup, group_teardown);
}
