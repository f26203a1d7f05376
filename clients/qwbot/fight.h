/* -fight: bots that play deathmatch. Unlike the wander script (script.h), each command is
 * chosen live from what the server shows the bot: the nearest other player in view is the
 * target; the bot turns to it, runs at it or circles it, fires the rocket launcher from a
 * distance and the shotgun up close, and presses fire again after dying to respawn. With no
 * one in view it roams, turning away from walls. Given the same server answers it sends the
 * same commands (its random choices come from -seed), but the answers depend on the server's
 * timing, so runs are made repeatable by recording them (-record) and replaying the trace. */
#ifndef QWBOT_FIGHT_H
#define QWBOT_FIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "recording.h"
#include "rng.h"

struct qwbot_bot;

typedef struct qwbot_fighter {
    qwbot_rng rng;
    uint32_t frame;
    float yaw;                  /* degrees */
    float wander_turn;          /* degrees per frame while roaming */
    int strafe;                 /* -1 or 1 */
    uint32_t strafe_until, turn_until, weapon_switched_at;
    float last_origin[3];
    uint32_t blocked;           /* frames in a row our origin did not change while running */
} qwbot_fighter;

void qwbot_fighter_init(qwbot_fighter *f, uint64_t seed, unsigned bot_index);

/* The view angles (wire units: pitch, yaw, roll) that aim bot b's shots at the nearest living
 * player in its view; false (angles untouched) when nobody is in view or b is dead. */
bool qwbot_fight_aim(const struct qwbot_bot *b, uint16_t angles[3]);

/* The bot's next command (msec long) from what it knows of the game; `say` gets a chat line
 * (without "say ") when the bot wants to talk this frame, else "". */
void qwbot_fight_next(qwbot_fighter *f, const struct qwbot_bot *b, uint8_t msec, qwbot_cmd *out,
                      char *say, size_t saylen);

#endif
