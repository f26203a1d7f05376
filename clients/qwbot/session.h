/* One bot's session: connect, sign on, play its command stream (session.c). */
#ifndef QWBOT_SESSION_H
#define QWBOT_SESSION_H

#include "bot.h"

/* Creates the socket and events and starts with getchallenge. 0 or -1 (message printed). */
int qwbot_bot_start(qwbot_bot *b);
/* Starts sending the command stream (all bots have spawned). */
void qwbot_bot_begin_play(qwbot_bot *b, double now);

#endif
