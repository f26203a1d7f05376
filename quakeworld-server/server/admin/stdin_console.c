/* The stdin console (see admin/stdin_console.h). A thread blocks in reading stdin and queues
 * whole lines; the master runs them between frames, so commands never race with the frame. */
#include "admin/stdin_console.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "admin/interpreter.h"
#include "log.h"

#define QUEUE_LINES 64
#define LINE_SIZE 1024

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_drained = PTHREAD_COND_INITIALIZER;
static char queue[QUEUE_LINES][LINE_SIZE];
static int queued, too_long;
static bool ended;

/* Queues a line; a full queue makes the reader wait (a pipe then holds the rest). */
static void push(const char *line)
{
    pthread_mutex_lock(&queue_lock);
    while (queued == QUEUE_LINES)
        pthread_cond_wait(&queue_drained, &queue_lock);
    snprintf(queue[queued++], LINE_SIZE, "%s", line);
    pthread_mutex_unlock(&queue_lock);
}

static void *reader(void *arg)
{
    (void)arg;
    char line[LINE_SIZE];
    for (;;) {
        if (!fgets(line, sizeof line, stdin)) {
            if (ferror(stdin) && errno == EIO) {
                /* a background job of an interactive shell (SIGTTIN ignored): wait for fg */
                clearerr(stdin);
                sleep(1);
                continue;
            }
            break;
        }
        size_t n = strlen(line);
        if (n == sizeof line - 1 && line[n - 1] != '\n') {
            int c;
            while ((c = getchar()) != EOF && c != '\n')
                ;
            pthread_mutex_lock(&queue_lock);
            too_long++;
            pthread_mutex_unlock(&queue_lock);
            continue;
        }
        line[strcspn(line, "\r\n")] = 0;
        push(line);
    }
    pthread_mutex_lock(&queue_lock);
    ended = true;
    pthread_mutex_unlock(&queue_lock);
    return NULL;
}

void sv_console_start(void)
{
    struct stat st;
    if (fstat(STDIN_FILENO, &st) != 0 || !(isatty(STDIN_FILENO) || S_ISFIFO(st.st_mode)))
        return;
    /* reading the terminal as a background job must not stop the whole server */
    signal(SIGTTIN, SIG_IGN);
    pthread_t t;
    if (pthread_create(&t, NULL, reader, NULL) != 0) {
        sv_log("console: cannot start the stdin reader: %s", strerror(errno));
        return;
    }
    pthread_detach(t);
    sv_log("console on stdin: type cmdlist for the commands");
}

static bool stopping; /* master only */

void sv_console_stopping(void)
{
    stopping = true;
}

void sv_console_run_pending(void)
{
    static char lines[QUEUE_LINES][LINE_SIZE];
    static bool end_reported;
    pthread_mutex_lock(&queue_lock);
    int n = queued, skipped = too_long;
    bool end = ended;
    memcpy(lines, queue, sizeof lines[0] * (size_t)n);
    queued = too_long = 0;
    pthread_cond_signal(&queue_drained);
    pthread_mutex_unlock(&queue_lock);
    sv_cmd_set_source("console");
    for (int i = 0; i < n; i++)
        sv_cmd_execute(lines[i], NULL);
    if (skipped)
        sv_log("console: %d line(s) longer than %d characters ignored", skipped, LINE_SIZE - 2);
    if (end && !end_reported && !stopping) {
        end_reported = true;
        sv_log("console: end of input on stdin; the server keeps running (stop it with "
               "SIGTERM, or \"quit\" over rcon)");
    }
}
