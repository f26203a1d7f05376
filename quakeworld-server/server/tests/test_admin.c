/* CMocka units of the admin interface: cvars (ranges, serverinfo keys, what the rest of the
 * server reads), the command interpreter (';', quotes, comments, errors with file:line and
 * a suggestion, output redirected as for rcon), +commands of the command line, and the map
 * rotation's order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "admin/command_line.h"
#include "cgame/cgame.h"
#include "admin/cvar.h"
#include "admin/interpreter.h"
#include "admin/map_change.h"
#include "qw_info.h"
#include "server.h"

sv_server sv;
const struct sv_game *sv_game = &sv_cgame;
__thread int sv_thread_index;

static char out[8192];

/* Runs text as the console would, its output in `out`; returns whether all succeeded. */
static bool run(const char *text, const char *where)
{
    sv_cmd_redirect_begin(out, sizeof out);
    bool ok = sv_cmd_execute(text, where);
    sv_cmd_redirect_end();
    return ok;
}

static int setup(void **state)
{
    (void)state;
    sv_cvar_init();
    return 0;
}

static void test_cvar_ranges(void **state)
{
    (void)state;
    char err[256];
    assert_true(sv_cvar_set("maxclients", "8", err, sizeof err));
    assert_int_equal(sv.opt.maxclients, 8);
    assert_false(sv_cvar_set("maxclients", "0", err, sizeof err));
    assert_non_null(strstr(err, "maxclients needs a whole number from 1 to"));
    assert_false(sv_cvar_set("maxclients", "4.5", err, sizeof err));
    assert_false(sv_cvar_set("fraglimit", "ten", err, sizeof err));
    assert_true(sv_cvar_set("timelimit", "0.5", err, sizeof err)); /* minutes, fractions ok */
    assert_true(sv_cvar_set("fraglimit", "20", err, sizeof err));
    assert_int_equal(sv.opt.fraglimit, 20);
    assert_false(sv_cvar_set("hostname", "a\\b", err, sizeof err));
    assert_false(sv_cvar_set("hostname", "a;quit", err, sizeof err));
    assert_false(sv_cvar_set("nosuchvar", "1", err, sizeof err));
    assert_non_null(strstr(err, "cvarlist"));
    assert_string_equal(sv_cvar_string("maxclients"), "8");
}

static void test_cvar_serverinfo(void **state)
{
    (void)state;
    char err[256], info[QW_MAX_SERVERINFO_STRING] = "", v[64];
    assert_true(sv_cvar_set("hostname", "My Server", err, sizeof err));
    assert_true(sv_cvar_set("sv_gamedir", "qw", err, sizeof err));
    assert_true(sv_cvar_set("rcon_password", "secret", err, sizeof err));
    assert_true(sv_cvar_set_serverinfo("admin", "ops@example.org", err, sizeof err));
    assert_false(sv_cvar_set_serverinfo("*version", "x", err, sizeof err));
    assert_true(sv_cvar_set_serverinfo("fraglimit", "15", err, sizeof err)); /* the cvar */
    sv_cvar_add_serverinfo(info, sizeof info);
    assert_string_equal(qw_info_get(info, "hostname", v, sizeof v), "My Server");
    assert_string_equal(qw_info_get(info, "*gamedir", v, sizeof v), "qw");
    assert_string_equal(qw_info_get(info, "admin", v, sizeof v), "ops@example.org");
    assert_string_equal(qw_info_get(info, "fraglimit", v, sizeof v), "15");
    assert_string_equal(qw_info_get(info, "rcon_password", v, sizeof v), "");
    assert_null(strstr(info, "secret"));
}

static void test_commands(void **state)
{
    (void)state;
    assert_true(run("hostname \"Two Words\"; fraglimit 3 // a comment; fraglimit 99", NULL));
    assert_string_equal(sv_cvar_string("hostname"), "Two Words");
    assert_string_equal(sv_cvar_string("fraglimit"), "3");
    assert_true(run("set timelimit 10\nfraglimit", NULL));
    assert_string_equal(sv_cvar_string("timelimit"), "10");
    assert_non_null(strstr(out, "\"fraglimit\" is \"3\""));
    assert_true(run("rcon_password \"x;y\"; rcon_password", NULL)); /* quoted ';' stays */
    assert_string_equal(sv_cvar_string("rcon_password"), "x;y");
    assert_null(strstr(out, "x;y")); /* never printed */
}

static void test_errors_name_the_line_and_the_fix(void **state)
{
    (void)state;
    assert_false(run("hostname ok\nfraglimt 5\nfraglimit 7\nmaxclients lots", "server.cfg"));
    assert_non_null(strstr(out, "server.cfg:2: unknown command or variable \"fraglimt\": did "
                                "you mean \"fraglimit\"?"));
    assert_non_null(strstr(out, "server.cfg:4: maxclients needs a whole number"));
    assert_string_equal(sv_cvar_string("fraglimit"), "7"); /* the rest still ran */
    assert_false(run("xyzzy", NULL));
    assert_non_null(strstr(out, "unknown command or variable \"xyzzy\" (cmdlist"));
    assert_false(run("hostname two words", NULL));
    assert_non_null(strstr(out, "put it in quotes"));
}

static void test_cmdline_plus(void **state)
{
    (void)state;
    char *argv[] = {"qwsv", "+set", "hostname", "Cmd Line", "+fraglimit", "0",
                    "-port", "1", "+set", "timelimit", "-1", "+exec"};
    int argc = (int)(sizeof argv / sizeof argv[0]);
    assert_int_equal(sv_cmdline_plus(argc, argv, 1), 3);  /* stops at the next +word */
    assert_int_equal(sv_cmdline_plus(argc, argv, 4), 5);  /* and at a -option */
    assert_int_equal(sv_cmdline_plus(argc, argv, 8), 10); /* -1 is a value */
    sv_cmd_redirect_begin(out, sizeof out);
    bool ok = sv_cmdline_run();
    sv_cmd_redirect_end();
    assert_false(ok); /* timelimit -1 is out of range */
    assert_string_equal(sv_cvar_string("hostname"), "Cmd Line");
    assert_string_equal(sv_cvar_string("fraglimit"), "0");
    assert_non_null(strstr(out, "timelimit needs a number from 0"));
    assert_non_null(strstr(out, "from the command line: set timelimit -1"));
}

static void test_rotation(void **state)
{
    (void)state;
    char next[64];
    sv_mapchange_next_in_rotation("dm2 dm4  dm6", "dm4", next, sizeof next);
    assert_string_equal(next, "dm6");
    sv_mapchange_next_in_rotation("dm2 dm4 dm6", "dm6", next, sizeof next);
    assert_string_equal(next, "dm2"); /* wraps around */
    sv_mapchange_next_in_rotation("dm2,dm4", "e1m1", next, sizeof next);
    assert_string_equal(next, "dm2"); /* not in the list: its first map */
    sv_mapchange_next_in_rotation("", "e1m1", next, sizeof next);
    assert_string_equal(next, "e1m1"); /* no list: the same map again */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cvar_ranges),
        cmocka_unit_test(test_cvar_serverinfo),
        cmocka_unit_test(test_commands),
        cmocka_unit_test(test_errors_name_the_line_and_the_fix),
        cmocka_unit_test(test_cmdline_plus),
        cmocka_unit_test(test_rotation),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
