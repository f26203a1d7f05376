/* Info strings: "\key\value\key\value..." (userinfo, serverinfo).
 * Keys and values are shorter than QW_MAX_INFO_KEY and contain no '\\', '"' or ';'
 * (quotes and semicolons would break console commands built from them). */
#ifndef QW_INFO_H
#define QW_INFO_H

#include <stdbool.h>
#include <stddef.h>

/* Copies the value of key into out (outsize > 0; "" when absent) and returns out. */
const char *qw_info_get(const char *info, const char *key, char *out, size_t outsize);
/* Sets key to value (an empty value removes the key). The string stays within infosize
 * (including its NUL). Returns false, leaving info unchanged, if key/value are invalid or
 * the result would not fit. */
bool qw_info_set(char *info, size_t infosize, const char *key, const char *value);
/* Removes key if present. */
void qw_info_remove(char *info, const char *key);
/* True if info is well formed: starts with '\\' (or is empty), alternates keys and values,
 * every key/value is valid and the whole is shorter than maxsize. */
bool qw_info_validate(const char *info, size_t maxsize);

#endif
