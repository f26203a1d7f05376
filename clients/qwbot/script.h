/* Scripted behaviour, after the automated players of the parallel-Quake studies: walk for a
 * few frames, then one random action (jump, shoot, turn, switch weapon, rarely chat), then
 * stop for a few frames, and repeat. The commands depend only on (seed, bot, frame), never on
 * what the server answers, so a scripted run is repeatable and equals its own recording. */
#ifndef QWBOT_SCRIPT_H
#define QWBOT_SCRIPT_H

#include <stdint.h>

#include "recording.h"

/* Appends `moves` moves (one every interval_ms, starting at time 0) and the string commands
 * the script chooses to `out`. Returns 0, or -1 when out of memory. */
int qwbot_script_generate(qwbot_stream *out, uint64_t seed, unsigned bot_index,
                          uint32_t moves, uint32_t interval_ms);

/* Degrees <-> 16-bit wire angle units. */
uint16_t qwbot_angle_to_wire(double degrees);

#endif
