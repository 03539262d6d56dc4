/* tests/rand64.h — the 128-bit integer types and the xorshift64 generator the wide-integer
 * tests share (test_carry.c, test_exec_device.c).  Define RAND64_SEED before including it. */
#ifndef PTX_TESTS_RAND64_H
#define PTX_TESTS_RAND64_H
#include <stdint.h>

typedef unsigned __int128 u128;
typedef __int128 s128;

static uint64_t rng64 = RAND64_SEED;
static uint64_t rnd64(void)
{
    rng64 ^= rng64 << 13, rng64 ^= rng64 >> 7, rng64 ^= rng64 << 17;
    return rng64;
}
#endif
