/* The Atomic Quake frame (U, RP, S with barriers) and the packet receiver. */
#ifndef SV_FRAME_H
#define SV_FRAME_H

/* Runs frames until -quitafter expires or sv_frame_request_quit is called (signal-safe). */
void sv_frame_run(void);
void sv_frame_request_quit(void);

#endif
