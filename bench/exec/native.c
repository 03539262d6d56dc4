/* bench/exec/native.c — the alu_bench kernel of alu.cu as plain C, one host thread looping over
 * all CUDA threads; prints seconds and a checksum that must equal the executor's.  Built by
 * exec_bench.sh with `cc -O2 -march=native -std=c17 -D_GNU_SOURCE native.c -lm` (fmaf is the
 * hardware FMA with -march=native; -std=c17 keeps floating-point contraction off). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 65536;
    int iters = argc > 2 ? atoi(argv[2]) : 64;
    unsigned *out = malloc((size_t)n * 4), sum = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (unsigned i = 0; i < n; i++) {
        unsigned h = i * 0x9E3779B9u + 1u;
        float f = (float)(i & 1023) * 0.5f;
        for (int k = 0; k < iters; k++) {
            h ^= h << 13; h ^= h >> 17; h ^= h << 5;
            h = h * 0x85EBCA6Bu + (unsigned)k;
            f = fmaf(f, 0.999f, (float)(h & 255));
        }
        unsigned fb; memcpy(&fb, &f, 4);
        out[i] = h ^ fb;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    for (unsigned i = 0; i < n; i++) sum = sum * 31u + out[i];
    printf("%.6f %u\n", (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9, sum);
    free(out);
    return 0;
}
