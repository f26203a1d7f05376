/* Logging (see log.h). */
#include "log.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libtm.h>

#include "clock.h"
#include "server.h"

static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file;

bool sv_log_open_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "a");
    if (!f) {
        snprintf(err, errlen, "-logfile %s: cannot open for appending: %s", path,
                 strerror(errno));
        return false;
    }
    setvbuf(f, NULL, _IOLBF, 0);
    log_file = f;
    return true;
}

/* Wall-clock time with milliseconds and the UTC offset: 2026-11-25 05:12:03.481 +0000. */
static void wall_clock(char *buf, size_t size)
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    localtime_r(&ts.tv_sec, &tm);
    char date[32], zone[8];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", &tm);
    strftime(zone, sizeof zone, "%z", &tm);
    snprintf(buf, size, "%s.%03ld %s", date, ts.tv_nsec / 1000000, zone);
}

const char *sv_log_escape(const char *in, char *buf, size_t size)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        char esc[5];
        if (*p >= 0x20 && *p != 0x7f) {
            esc[0] = (char)*p;
            esc[1] = 0;
        } else if (*p == '\n' || *p == '\r' || *p == '\t') {
            esc[0] = '\\';
            esc[1] = *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't';
            esc[2] = 0;
        } else {
            snprintf(esc, sizeof esc, "\\x%02x", *p);
        }
        size_t len = strlen(esc);
        if (n + len + 1 > size)
            break;
        memcpy(buf + n, esc, len);
        n += len;
    }
    if (size)
        buf[n] = 0;
    return buf;
}

static void log_line(const char *raw)
{
    char line[4096];
    sv_log_escape(raw, line, sizeof line);
    pthread_mutex_lock(&log_mutex);
    fprintf(stdout, "[%9.3f] %s\n", sv_clock(), line);
    fflush(stdout);
    if (log_file) {
        char when[64];
        wall_clock(when, sizeof when);
        fprintf(log_file, "%s %s\n", when, line);
    }
    pthread_mutex_unlock(&log_mutex);
}

void sv_log(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    log_line(line);
}

#ifdef SV_WITHOUT_TM
void sv_log_deferred(const char *prefix, const char *text)
{
    char line[512];
    snprintf(line, sizeof line, "%s%s", prefix, text);
    line[strcspn(line, "\n")] = 0;
    log_line(line); /* no transactions in this build */
}
#else
static void commit_print(void *arg)
{
    log_line(arg);
    free(arg);
}

static void undo_free(void *arg)
{
    free(arg);
}

void sv_log_deferred(const char *prefix, const char *text)
{
    char line[512];
    snprintf(line, sizeof line, "%s%s", prefix, text);
    size_t n = strlen(line);
    if (n > 0 && line[n - 1] == '\n')
        line[n - 1] = 0;
    if (_ITM_inTransaction() == LIBTM_OUTSIDE) {
        log_line(line);
        return;
    }
    char *copy = strdup(line);
    if (!copy)
        return;
    /* exactly one of the two runs: commit prints and frees, rollback frees */
    _ITM_addUserCommitAction(commit_print, LIBTM_NO_TRANSACTION_ID, copy);
    _ITM_addUserUndoAction(undo_free, copy);
}
#endif

void sv_log_bad_client_packet(sv_client *cl, const char *why)
{
    if (sv.realtime - cl->bad_log_time < 1.0) {
        cl->bad_suppressed++;
        return;
    }
    if (cl->bad_suppressed)
        sv_log("dropped a bad packet from %s (slot %d): %s (%d more suppressed)", cl->name,
               cl->slot, why, cl->bad_suppressed);
    else
        sv_log("dropped a bad packet from %s (slot %d): %s", cl->name, cl->slot, why);
    cl->bad_log_time = sv.realtime;
    cl->bad_suppressed = 0;
}

void sv_log_bad_packet(const struct sockaddr_in *from, const char *why)
{
    static double last;
    static int suppressed;
    /* only the master thread handles connectionless packets, so no lock is needed */
    if (sv.realtime - last < 1.0) {
        suppressed++;
        return;
    }
    char addr[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &from->sin_addr, addr, sizeof addr);
    sv_log("dropped a bad packet from %s:%d: %s (%d more suppressed)", addr,
           ntohs(from->sin_port), why, suppressed);
    last = sv.realtime;
    suppressed = 0;
}
