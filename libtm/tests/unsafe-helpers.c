/* Deliberately uninstrumented helpers (see unsafe-helpers.h). */
#include "unsafe-helpers.h"

#include <unistd.h>

#include "itm_decls.h"

int unsafe_increment_saw_mode = -1;

long unsafe_write_long(int fd, long value)
{
    return (long)write(fd, &value, sizeof value);
}

long unsafe_increment(long value)
{
    unsafe_increment_saw_mode = _ITM_inTransaction();
    return value + 1;
}

long (*unsafe_increment_pointer(void))(long)
{
    return unsafe_increment;
}

void unsafe_nothing(void)
{
}
