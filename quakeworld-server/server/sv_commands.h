/* String commands from clients (RP, run by the client's worker). */
#ifndef SV_COMMANDS_H
#define SV_COMMANDS_H

#include "server.h"

/* Tokenizes and runs one string command (sign-on, chat, setinfo, downloads, drop, ...). */
void sv_execute_stringcmd(sv_client *cl, const char *text);

#endif
