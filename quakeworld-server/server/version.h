/* The server's version (qwsv --version, serverinfo *version). */
#ifndef SV_VERSION_H
#define SV_VERSION_H

#define SV_VERSION "1.1"

#endif
