/* Reading a whole file into memory, for the programs that parse one they were named (qwbot's
 * maps and models, the QuakeC interpreter's progs.dat). */
#ifndef WHOLE_FILE_H
#define WHOLE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Reads the file at path, at most limit bytes (limit < SIZE_MAX), into *data (malloc'ed: the
 * caller frees it) and its length into *len. False with *data NULL and, when err is not
 * NULL, "PATH: why" in err: "cannot open: REASON", too_large (what a larger file is said to
 * be, e.g. "larger than 1 GiB, not a BSP29 map"), "out of memory" or "read error". */
bool whole_file_read(const char *path, size_t limit, const char *too_large, uint8_t **data,
                     size_t *len, char *err, size_t errlen);

#endif
