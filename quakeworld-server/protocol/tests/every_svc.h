/* One of every message a protocol-28 server sends about the game and the world, for tests
 * that read server messages: the walker's (test_svc.c) and qwbot's
 * (clients/qwbot/tests/test_parse.c). Neither serverdata, the lists, player states, frags
 * nor disconnect, which change a client's sign-on or state: each test adds what it needs.
 * Included once per test program. */
#ifndef QW_TEST_EVERY_SVC_H
#define QW_TEST_EVERY_SVC_H

#include <stddef.h>

#include "qw_msg.h"
#include "qw_protocol.h"

/* Appends the messages to sb; ends (may be NULL) gets where each ends, *count how many. */
static void write_every_svc(qw_sizebuf *sb, size_t *ends, int *count)
{
    *count = 0;
#define B(x) qw_write_byte(sb, x)
#define S(x) qw_write_short(sb, x)
#define L(x) qw_write_long(sb, x)
#define F(x) qw_write_float(sb, x)
#define STR(x) qw_write_string(sb, x)
#define C3() do { S(8); S(-16); S(24); } while (0)
/* origin and angles axis by axis, as spawnstatic and spawnbaseline send them */
#define PLACE() do { S(8); B(0); S(-16); B(64); S(24); B(0); } while (0)
#define END() do { if (ends) ends[*count] = sb->cursize; ++*count; } while (0)
    B(svc_nop); END();
    B(svc_updatestat); B(STAT_ARMOR); B(50); END();
    B(svc_sound); S((12 << 3) | 1 | SND_VOLUME | SND_ATTENUATION); B(200); B(32); B(7); C3();
    END();
    B(svc_sound); S(12 << 3); B(7); C3(); END();
    B(svc_print); B(PRINT_HIGH); STR("hello\n"); END();
    B(svc_setangle); B(0); B(64); B(0); END();
    B(svc_lightstyle); B(3); STR("m"); END();
    B(svc_stopsound); S(5); END();
    B(svc_damage); B(3); B(10); C3(); END();
    B(svc_spawnstatic); B(2); B(1); B(0); B(4); PLACE(); END();
    B(svc_spawnbaseline); S(40); B(2); B(0); B(0); B(0); PLACE(); END();
    for (int te = TE_SPIKE; te <= TE_LIGHTNINGBLOOD; te++) {
        B(svc_temp_entity); B(te);
        if (te == TE_LIGHTNING1 || te == TE_LIGHTNING2 || te == TE_LIGHTNING3) {
            S(3); C3(); C3();
        } else if (te == TE_GUNSHOT || te == TE_BLOOD) {
            B(4); C3();
        } else {
            C3();
        }
        END();
    }
    B(svc_setpause); B(0); END();
    B(svc_centerprint); STR("center"); END();
    B(svc_killedmonster); END();
    B(svc_foundsecret); END();
    B(svc_spawnstaticsound); C3(); B(1); B(255); B(1); END();
    B(svc_intermission); C3(); B(0); B(0); B(0); END();
    B(svc_finale); STR("the end"); END();
    B(svc_cdtrack); B(2); END();
    B(svc_sellscreen); END();
    B(svc_smallkick); END();
    B(svc_bigkick); END();
    B(svc_updateping); B(1); S(30); END();
    B(svc_updateentertime); B(1); F(1.5f); END();
    B(svc_updatestatlong); B(STAT_ITEMS); L(4097); END();
    B(svc_muzzleflash); S(4); END();
    B(svc_updateuserinfo); B(1); L(77); STR("\\name\\x"); END();
    B(svc_download); S(3); B(50); B(1); B(2); B(3); END();
    B(svc_download); S(-1); B(0); END();
    B(svc_nails); B(2); for (int i = 0; i < 12; i++) B(i); END();
    B(svc_nails2); B(1); for (int i = 0; i < 7; i++) B(i); END();
    B(svc_chokecount); B(3); END();
    B(svc_packetentities);
    S(40 | U_ORIGIN1 | U_FRAME | U_MOREBITS); B(U_MODEL | U_ANGLE3 | U_EFFECTS);
    B(2); B(1); B(8); S(100); B(32);           /* model, frame, effects, x, angle z */
    S(41 | U_REMOVE);
    S(0); END();
    B(svc_deltapacketentities); B(17);
    S(42 | U_ORIGIN2 | U_ANGLE2); S(64); B(128);
    S(0); END();
    B(svc_maxspeed); F(320.0f); END();
    B(svc_entgravity); F(1.0f); END();
    B(svc_setinfo); B(1); STR("team"); STR("red"); END();
    B(svc_serverinfo); STR("maxfps"); STR("77"); END();
    B(svc_updatepl); B(1); B(9); END();
#undef B
#undef S
#undef L
#undef F
#undef STR
#undef C3
#undef PLACE
#undef END
}

#endif
