/* base/stack.c — the room left on the calling thread's stack (base/stack.h). */
#include "base/stack.h"

#include <pthread.h>

size_t stack_room(void)
{
    pthread_attr_t a;
    void *lo;
    size_t size;
    /* glibc answers for the main thread too: its low end follows RLIMIT_STACK (ulimit -s) and
       the mappings below it */
    if (pthread_getattr_np(pthread_self(), &a)) return SIZE_MAX;
    int rc = pthread_attr_getstack(&a, &lo, &size);
    pthread_attr_destroy(&a);
    /* the frame address, not a local's: AddressSanitizer may keep locals on a fake stack */
    char *here = __builtin_frame_address(0), *low = lo;
    if (rc || here < low || here > low + size) return SIZE_MAX;
    return (size_t)(here - low);
}
