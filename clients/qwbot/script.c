/* Scripted behaviour: walk, one random action, stop, repeat (see script.h). */
#include "script.h"

#include <math.h>
#include <stdio.h>

#include "qw_clc_move.h"
#include "rng.h"

enum { PHASE_WALK, PHASE_ACTION, PHASE_STOP };
enum { ACT_JUMP, ACT_SHOOT, ACT_TURN, ACT_WEAPON, ACT_CHAT, ACT_COUNT };

#define RUN_SPEED 320        /* sv_maxspeed: faster input is clamped anyway */
#define BUTTON_ATTACK 1
#define BUTTON_JUMP 2

typedef struct script_state {
    qwbot_rng rng;
    int phase, frames_left;
    int action;
    double yaw, turn_step;
    int16_t forward, side;
} script_state;

static void start_phase(script_state *s, int phase)
{
    s->phase = phase;
    switch (phase) {
    case PHASE_WALK:
        s->frames_left = qwbot_rng_range(&s->rng, 8, 40);
        s->forward = RUN_SPEED;
        /* a third of the walks strafe as well */
        s->side = (int16_t)(qwbot_rng_range(&s->rng, -1, 1) * RUN_SPEED);
        break;
    case PHASE_ACTION: {
        /* chat is rare: 1 in 16 action draws, the rest uniform */
        int pick = qwbot_rng_range(&s->rng, 0, 63);
        s->action = pick < 4 ? ACT_CHAT : pick % (ACT_COUNT - 1);
        switch (s->action) {
        case ACT_JUMP:   s->frames_left = qwbot_rng_range(&s->rng, 1, 3); break;
        case ACT_SHOOT:  s->frames_left = qwbot_rng_range(&s->rng, 3, 15); break;
        case ACT_TURN:
            s->frames_left = qwbot_rng_range(&s->rng, 5, 20);
            s->turn_step = qwbot_rng_range(&s->rng, 2, 12) * (qwbot_rng_range(&s->rng, 0, 1) ? 1 : -1);
            break;
        default:         s->frames_left = 1; break;
        }
        break;
    }
    default:
        s->frames_left = qwbot_rng_range(&s->rng, 4, 20);
        s->forward = 0;
        s->side = 0;
        break;
    }
}

int qwbot_script_generate(qw_rec_stream *out, uint64_t seed, unsigned bot_index,
                          uint32_t moves, uint32_t interval_ms)
{
    script_state s = {0};
    qwbot_rng_seed(&s.rng, seed, bot_index);
    s.yaw = qwbot_rng_range(&s.rng, 0, 359);
    start_phase(&s, PHASE_WALK);
    uint8_t msec = interval_ms > 250 ? 250 : (uint8_t)interval_ms;

    for (uint32_t frame = 0; frame < moves; frame++) {
        uint32_t t = frame * interval_ms;
        qw_rec_cmd cmd = {0};
        cmd.msec = msec;
        cmd.forwardmove = s.forward;
        cmd.sidemove = s.side;
        if (s.phase == PHASE_ACTION) {
            switch (s.action) {
            case ACT_JUMP:  cmd.buttons = BUTTON_JUMP; break;
            case ACT_SHOOT: cmd.buttons = BUTTON_ATTACK; break;
            case ACT_TURN:  s.yaw += s.turn_step; break;
            case ACT_WEAPON:
                cmd.impulse = (uint8_t)qwbot_rng_range(&s.rng, 1, 8);
                break;
            case ACT_CHAT: {
                char text[64];
                snprintf(text, sizeof text, "say qwbot %u frame %u", bot_index, frame);
                if (qw_rec_stream_add_string(out, t, text) != 0)
                    return -1;
                break;
            }
            }
        }
        s.yaw = fmod(s.yaw + 360.0, 360.0);
        cmd.angles[1] = qw_angle_to_wire(s.yaw);
        if (qw_rec_stream_add_move(out, t, &cmd) != 0)
            return -1;
        if (--s.frames_left <= 0)
            start_phase(&s, s.phase == PHASE_WALK ? PHASE_ACTION
                            : s.phase == PHASE_ACTION ? PHASE_STOP : PHASE_WALK);
    }
    return 0;
}
