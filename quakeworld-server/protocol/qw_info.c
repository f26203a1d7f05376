/* Info string get/set/validate (see qw_info.h). */
#include "qw_info.h"

#include <stdio.h>
#include <string.h>

#include "qw_protocol.h"

static bool info_token_ok(const char *s, size_t len)
{
    if (len >= QW_MAX_INFO_KEY)
        return false;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\\' || s[i] == '"' || s[i] == ';')
            return false;
    return true;
}

/* Finds key: sets *start to its leading '\\' and *end just past its value. */
static bool info_find(const char *info, const char *key, const char **start, const char **end,
                      const char **value, size_t *valuelen)
{
    size_t keylen = strlen(key);
    const char *p = info;
    while (*p == '\\') {
        const char *k = p + 1;
        const char *ke = strchr(k, '\\');
        if (!ke)
            return false;
        const char *v = ke + 1;
        const char *ve = strchr(v, '\\');
        if (!ve)
            ve = v + strlen(v);
        if ((size_t)(ke - k) == keylen && memcmp(k, key, keylen) == 0) {
            *start = p;
            *end = ve;
            *value = v;
            *valuelen = (size_t)(ve - v);
            return true;
        }
        p = ve;
    }
    return false;
}

const char *qw_info_get(const char *info, const char *key, char *out, size_t outsize)
{
    const char *s, *e, *v;
    size_t vl;
    out[0] = 0;
    if (info_find(info, key, &s, &e, &v, &vl)) {
        if (vl >= outsize)
            vl = outsize - 1;
        memcpy(out, v, vl);
        out[vl] = 0;
    }
    return out;
}

void qw_info_remove(char *info, const char *key)
{
    const char *s, *e, *v;
    size_t vl;
    if (info_find(info, key, &s, &e, &v, &vl))
        memmove((char *)s, e, strlen(e) + 1);
}

bool qw_info_set(char *info, size_t infosize, const char *key, const char *value)
{
    size_t kl = strlen(key), vl = strlen(value);
    if (kl == 0 || !info_token_ok(key, kl) || !info_token_ok(value, vl))
        return false;
    const char *s, *e, *v;
    size_t oldvl;
    size_t removed = info_find(info, key, &s, &e, &v, &oldvl) ? (size_t)(e - s) : 0;
    size_t newlen = strlen(info) - removed + (vl ? kl + vl + 2 : 0);
    if (newlen >= infosize)
        return false;
    qw_info_remove(info, key);
    if (vl) {
        size_t cur = strlen(info);
        snprintf(info + cur, infosize - cur, "\\%s\\%s", key, value);
    }
    return true;
}

bool qw_info_validate(const char *info, size_t maxsize)
{
    size_t total = strnlen(info, maxsize);
    if (total >= maxsize)
        return false;
    if (total == 0)
        return true;
    if (info[0] != '\\')
        return false;
    const char *p = info;
    while (*p) {
        if (*p != '\\')
            return false;
        const char *k = p + 1;
        const char *ke = strchr(k, '\\');
        if (!ke || ke == k || !info_token_ok(k, (size_t)(ke - k)))
            return false;
        const char *v = ke + 1;
        const char *ve = strchr(v, '\\');
        if (!ve)
            ve = v + strlen(v);
        if (!info_token_ok(v, (size_t)(ve - v)))
            return false;
        p = ve;
    }
    return true;
}
