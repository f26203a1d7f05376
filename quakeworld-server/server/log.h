/* Logging: plain lines on stdout (seconds since start), and with -logfile also appended to
 * a file with wall-clock timestamps; a transaction-aware deferred variant for use inside
 * critical sections, and rate-limited reports of bad packets. */
#ifndef SV_LOG_H
#define SV_LOG_H

#include <stdbool.h>
#include <netinet/in.h>

#include <libtm.h>

struct sv_client;

/* -logfile: appends every log line to path as "YYYY-MM-DD HH:MM:SS.mmm +ZZZZ line" (local
 * time). False with a message naming the file. */
bool sv_log_open_file(const char *path, char *err, size_t errlen);
/* Every log line is written with its control characters escaped (newline as \n, carriage
 * return \r, tab \t, the others and DEL as \xNN), so that text from the network -- names,
 * chat, rcon, userinfo, string commands, download names -- cannot start a line of its own
 * or rewrite one on a terminal. */
void sv_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* For critical sections: logs prefix + text (a trailing newline is dropped). Outside a
 * transaction it prints at once; inside one, the line is printed when the outermost
 * transaction commits (_ITM_addUserCommitAction) and forgotten if it aborts, so a retried
 * transaction logs once. (Pass a buffer that also goes to transaction_safe code: GCC 12
 * crashes on a local array whose only use is this transaction_pure call.) */
LIBTM_PURE void sv_log_deferred(const char *prefix, const char *text);
/* in with its control characters escaped as the log writes them, into buf (cut to fit):
 * for text that goes into a console command's output, which the log splits at newlines. */
const char *sv_log_escape(const char *in, char *buf, size_t size);
/* Reports a dropped packet from a client at most once per second per client (counts the
 * rest and says how many were suppressed). */
void sv_log_bad_client_packet(struct sv_client *cl, const char *why);
/* Same for connectionless packets (one global rate limit). */
void sv_log_bad_packet(const struct sockaddr_in *from, const char *why);

#endif
