/* The end-of-run report: a readable table and one stable key=value line ("qwbot-stats ...")
 * that scripts/quake-bench parses. */
#ifndef QWBOT_SUMMARY_H
#define QWBOT_SUMMARY_H

#include <stdio.h>

#include "run.h"

/* Prints the summary; returns the number of bots that did not complete their run. */
unsigned qwbot_print_summary(FILE *out, qwbot_run *run);

#endif
