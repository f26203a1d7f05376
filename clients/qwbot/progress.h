/* Progress on stderr while the bots run: a self-updating line on a terminal, otherwise one
 * plain line every few seconds (for logs). */
#ifndef QWBOT_PROGRESS_H
#define QWBOT_PROGRESS_H

#include "run.h"

typedef struct qwbot_progress {
    int mode;               /* 1 live line, 0 periodic lines */
    double last_print;
    int line_open;          /* a live line is on screen without its newline */
} qwbot_progress;

void qwbot_progress_init(qwbot_progress *p, int forced /* -1 auto, 0 periodic, 1 live */);
/* Prints if it is time to (call often). */
void qwbot_progress_update(qwbot_progress *p, qwbot_run *run, double now);
/* Ends a live line so that later output starts on a fresh line. */
void qwbot_progress_finish(qwbot_progress *p, qwbot_run *run, double now);

#endif
