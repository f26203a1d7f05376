/* The console commands a server stuffs into its clients (stufftext.c). */
#ifndef QWBOT_STUFFTEXT_H
#define QWBOT_STUFFTEXT_H

#include "bot.h"

/* Runs the console text the server stuffed (one or more lines). */
void qwbot_run_stufftext(qwbot_bot *b, const char *text);

#endif
