/* fuzz/fuzz_spec.c — libFuzzer target: the YAML launch-spec reader of `ptxlitmus run`
 * (exec/run_cli.c) end to end: the input is written as spec.yaml in a private temporary folder
 * that also holds a small kernel module (k.ptx) and a 64-byte data file (d.bin), then run with
 * --no-outputs (nothing is written whatever the spec's outputs say), a step limit and a 16 MiB
 * device-memory limit.  Bad specs and kernel faults are expected outcomes; crashes, sanitizer
 * reports and hangs are bugs.  Special files (devices, FIFOs) are refused by the reader. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/run_cli.h"
#include "base/fileio.h"

#ifndef FUZZ_MAX_LEN
#define FUZZ_MAX_LEN 8192
#endif

static const char kernel[] =
    ".version 8.4\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u32 n, .param .u64 p)\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p;\n"
    "  ld.param.u32 %r1, [n]; ld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r2, %tid.x; setp.ge.u32 %p, %r2, %r1; @%p bra DONE;\n"
    "  mul.wide.u32 %rd2, %r2, 4; add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r3, [%rd3]; add.s32 %r3, %r3, %r2; st.global.u32 [%rd3], %r3;\n"
    "DONE:\n  ret;\n}\n";

static char dir[512], spec[600];

/* the folder (under $TMPDIR, else /tmp) goes when the process ends */
static void cleanup(void)
{
    static const char *const names[] = { "k.ptx", "d.bin", "spec.yaml" };
    char p[600];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_LEN) return 0;
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/ptxlitmus-fuzz-spec-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) abort();
        atexit(cleanup);
        char p[600];
        snprintf(p, sizeof p, "%s/k.ptx", dir);
        if (write_file_atomic(p, kernel, strlen(kernel))) abort();
        unsigned char bin[64];
        for (int i = 0; i < 64; i++) bin[i] = (unsigned char)i;
        snprintf(p, sizeof p, "%s/d.bin", dir);
        if (write_file_atomic(p, bin, sizeof bin)) abort();
        snprintf(spec, sizeof spec, "%s/spec.yaml", dir);
    }
    if (write_file_atomic(spec, data, size)) abort();
    char *argv[] = { "run",   spec,           "--no-outputs", "--max-steps",
                     "20000", "--max-memory", "16M",          NULL };
    exec_run_cli(7, argv);
    return 0;
}
