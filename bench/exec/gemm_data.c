/* bench/exec/gemm_data.c — writes the inputs and the C reference of the GEMM benchmark
 * (tests/gemm_ref.h) for gemm_bench.sh: DIR/A.bin (M x K f16), DIR/B.bin (K x N f16),
 * DIR/Bt.bin (N x K f16), DIR/C_ref.bin (M x N f32), all raw little-endian.
 * Usage: gemm_data M N K DIR   (cc -O2 -std=c17 -D_GNU_SOURCE -I. gemm_data.c) */
#include <stdio.h>
#include <stdlib.h>
#include "tests/gemm_ref.h"

static void put(const char *dir, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
        perror(path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: gemm_data M N K DIR\n");
        return 2;
    }
    int M = atoi(argv[1]), N = atoi(argv[2]), K = atoi(argv[3]);
    size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
    uint16_t *A = malloc(mk * 2), *B = malloc(kn * 2), *Bt = malloc(kn * 2);
    float *C = malloc(mn * 4);
    if (!A || !B || !Bt || !C) return 1;
    gref_inputs(M, N, K, 1, A, B, Bt);
    gref_gemm(M, N, K, 1, C);
    put(argv[4], "A.bin", A, mk * 2);
    put(argv[4], "B.bin", B, kn * 2);
    put(argv[4], "Bt.bin", Bt, kn * 2);
    put(argv[4], "C_ref.bin", C, mn * 4);
    return 0;
}
