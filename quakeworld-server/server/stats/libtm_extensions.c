/* libtm's own entries (libtm_totals_read, libtm_adaptive_mode, libtm_serial_elsewhere) are
 * looked up with dlsym when qwsv loads, not referenced weakly: a weak reference still carries
 * libtm's symbol version (LIBTM_1.x), and the dynamic loader refuses to start a program that
 * needs a version its libitm.so.1 does not define -- so qwsv, built against libtm, could not
 * run on GCC's libitm (`-sync stm` with LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu, what
 * quake-bench's stm-gcc mode does). */
#include <dlfcn.h>

#include "stats/libtm_extensions.h"

struct sv_libtm_extensions sv_libtm;

__attribute__((constructor)) static void find_libtm_extensions(void)
{
    sv_libtm.totals_read = (void (*)(struct libtm_totals *, size_t))dlsym(RTLD_DEFAULT,
                                                                          "libtm_totals_read");
    sv_libtm.adaptive_mode = (const char *(*)(void))dlsym(RTLD_DEFAULT, "libtm_adaptive_mode");
    sv_libtm.serial_elsewhere = (int (*)(void))dlsym(RTLD_DEFAULT, "libtm_serial_elsewhere");
}
