/* Drop requests (see sv_drop_request.h). */
#include "sv_drop_request.h"

#include <stdio.h>

void sv_client_request_drop(sv_client *cl, const char *reason)
{
    if (!cl->drop_requested) {
        cl->drop_requested = true;
        snprintf(cl->drop_reason, sizeof cl->drop_reason, "%s", reason);
    }
}
