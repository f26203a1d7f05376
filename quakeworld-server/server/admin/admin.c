/* Start-up and per-frame work of the admin interface (see admin/admin.h). */
#include "admin/admin.h"

#include <stdio.h>

#include "admin/command_line.h"
#include "admin/interpreter.h"
#include "admin/map_change.h"
#include "admin/stdin_console.h"
#include "log.h"
#include "server.h"

bool sv_admin_start(char *err, size_t errlen)
{
    if (sv.opt.logfile && !sv_log_open_file(sv.opt.logfile, err, errlen))
        return false;
    sv_cmd_set_source("server.cfg");
    sv_cmd_exec_file("server.cfg", true);
    if (!sv_cmdline_run()) {
        snprintf(err, errlen, "not started: a command of the command line failed (see "
                              "above)");
        return false;
    }
    if (!sv_mapchange_load_first(err, errlen))
        return false;
    static char map[64];
    snprintf(map, sizeof map, "%s", sv.mapname);
    sv.opt.map = map;
    sv_console_start();
    return true;
}

void sv_admin_frame(void)
{
    sv_console_run_pending();
    sv_mapchange_frame();
}
