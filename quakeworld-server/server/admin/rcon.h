/* Remote console: the connectionless packet "rcon PASSWORD COMMAND" runs COMMAND (one or
 * more console commands, see admin/interpreter.h) when PASSWORD proves the cvar
 * rcon_password, and sends the output back as print packets ('n' + text). PASSWORD is, as in
 * mvdsv, a SHA-1 of the password, a time stamp and the command (sv_crypt_rcon 1, the
 * default; what ezQuake sends) or the password itself (sv_crypt_rcon 0). A wrong password
 * (or an empty rcon_password: rcon disabled) gets "Bad rcon_password." and a log line with
 * the address. After sv_rcon_maxfails wrong passwords from one IP address within
 * sv_rcon_window seconds, every rcon packet from that address is ignored (no reply, one log
 * line) until the window ends, so passwords cannot be guessed at packet rate. Master thread
 * only. */
#ifndef SV_ADMIN_RCON_H
#define SV_ADMIN_RCON_H

#include <netinet/in.h>

/* packet: the text after the 0xFFFFFFFF prefix ("rcon ..."). */
void sv_rcon_packet(const struct sockaddr_in *from, const char *packet);

#endif
