/* tests/test_litmus_vs_exec.c — what an instruction computes is the same on both sides (issue
 * #18): for register computations the litmus checker accepts, the value a litmus thread ends
 * with equals the value the executor stores from a PTX kernel, for random and edge operands.
 * Both call the semantics of ptx/isa.c; this holds the litmus side's handling of widths and
 * signedness (operand truncation, result extension, .wide) to the executor's typed registers. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check/verify.h"
#include "frontend/litmus.h"
#include "include/ptxexec.h"

#define TEST_TIMEOUT 300

typedef struct { const char *mn; int nsrc; const char *st, *dt; } form;   /* source and result types */

static const form forms[] = {
    { "add.s32", 2, "s32", "s32" }, { "add.u16", 2, "u16", "u16" }, { "sub.s64", 2, "s64", "s64" },
    { "add.sat.s32", 2, "s32", "s32" }, { "mul.lo.s32", 2, "s32", "s32" }, { "mul.hi.u32", 2, "u32", "u32" },
    { "mul.wide.s32", 2, "s32", "s64" }, { "mul.wide.u16", 2, "u16", "u32" }, { "mad.lo.u32", 3, "u32", "u32" },
    { "div.s32", 2, "s32", "s32" }, { "div.u64", 2, "u64", "u64" }, { "rem.s32", 2, "s32", "s32" },
    { "min.s32", 2, "s32", "s32" }, { "max.u16", 2, "u16", "u16" }, { "abs.s32", 1, "s32", "s32" },
    { "neg.s64", 1, "s64", "s64" }, { "and.b32", 2, "b32", "b32" }, { "or.b64", 2, "b64", "b64" },
    { "xor.b16", 2, "b16", "b16" }, { "not.b32", 1, "b32", "b32" }, { "cnot.b32", 1, "b32", "b32" },
    { "shl.b32", 2, "b32", "b32" }, { "shr.s32", 2, "s32", "s32" }, { "shr.u16", 2, "u16", "u16" },
    { "popc.b64", 1, "b64", "u32" }, { "clz.b32", 1, "b32", "u32" }, { "brev.b32", 1, "b32", "b32" },
    { "bfe.s32", 3, "s32", "s32" }, { "bfe.u64", 3, "u64", "u64" }, { "sad.u32", 3, "u32", "u32" },
};

static unsigned long long seed = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
    seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
    return seed;
}

static unsigned bits(const char *t) { return (unsigned)atoi(t + 1); }

/* an operand of type t: edge values, or random bits */
static uint64_t operand(const char *t, int k)
{
    static const uint64_t edge[] = { 0, 1, 2, 31, 32, 63, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, 0x80000000u, 0x7fffffffu };
    uint64_t v = k < (int)(sizeof edge / sizeof *edge) ? edge[k] : rnd64();
    unsigned n = bits(t);
    return n >= 64 ? v : v & ((1ull << n) - 1);
}

static int u32_operand(const form *f, int k)
{
    return (!strncmp(f->mn, "bfe", 3) && k > 0) || (!strncmp(f->mn, "sh", 2) && k == 1);
}

/* the value the executor stores (raw bits of the result type) */
static uint64_t run_exec(const form *f, const uint64_t *src)
{
    char ptx[2048];
    int o = snprintf(ptx, sizeof ptx, ".version 8.4\n.target sm_90\n.address_size 64\n"
                     ".visible .entry k(.param .u64 pin, .param .u64 pout) {\n"
                     " .reg .b64 %%a<2>; .reg .%s %%s<3>; .reg .u32 %%u<3>; .reg .%s %%d;\n"
                     " ld.param.u64 %%a0, [pin]; ld.param.u64 %%a1, [pout];\n", f->st, f->dt);
    /* bfe's position and length and a shift amount are .u32 operands (§9.7.1.16, §9.7.7.7) */
    for (int k = 0; k < f->nsrc; k++)
        o += snprintf(ptx + o, sizeof ptx - (size_t)o, " ld.global.%s %%%c%d, [%%a0+%d];\n",
                      u32_operand(f, k) ? "u32" : f->st, u32_operand(f, k) ? 'u' : 's', k, 8 * k);
    o += snprintf(ptx + o, sizeof ptx - (size_t)o, " %s %%d", f->mn);
    for (int k = 0; k < f->nsrc; k++)
        o += snprintf(ptx + o, sizeof ptx - (size_t)o, ", %%%c%d", u32_operand(f, k) ? 'u' : 's', k);
    snprintf(ptx + o, sizeof ptx - (size_t)o, ";\n st.global.%s [%%a1], %%d;\n ret;\n}\n", f->dt);
    ptxeCtx *c;
    ptxeModule *m;
    ptxeFunction *fn;
    ck_assert_int_eq(ptxeCtxCreate(&c), PTXE_SUCCESS);
    ptxeResult r = ptxeModuleLoadData(c, &m, ptx, strlen(ptx), "prop.ptx");
    ck_assert_msg(r == PTXE_SUCCESS, "%s\n%s", ptxeGetErrorMessage(c), ptx);
    ck_assert_int_eq(ptxeModuleGetFunction(&fn, m, NULL), PTXE_SUCCESS);
    ptxeDevptr in, out;
    ptxeMemAlloc(c, &in, 64);
    ptxeMemAlloc(c, &out, 8);
    ptxeMemcpyHtoD(c, in, src, 8 * (size_t)f->nsrc);
    void *args[] = { &in, &out };
    ptxeLaunchConfig cfg = { { 1, 1, 1 }, { 1, 1, 1 }, { 0, 0, 0 }, 0, 0, 0 };
    ck_assert_msg(ptxeLaunchKernel(fn, &cfg, args) == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(c));
    uint64_t v = 0;
    ptxeMemcpyDtoH(c, &v, out, bits(f->dt) / 8);
    ptxeModuleUnload(m);
    ptxeCtxDestroy(c);
    return v;
}

/* the value a litmus thread ends with, as its type reads it */
static int64_t run_litmus(const form *f, const uint64_t *src)
{
    char text[1024];
    int o = snprintf(text, sizeof text, "PTX prop\n{");
    for (int k = 0; k < f->nsrc; k++)
        o += snprintf(text + o, sizeof text - (size_t)o, " P0:s%d=%lld;", k,
                      (long long)isa_value(isa_type_parse(u32_operand(f, k) ? "u32" : f->st), src[k]));
    o += snprintf(text + o, sizeof text - (size_t)o, " }\n P0@cta 0,gpu 0 ;\n %s %%d", f->mn);
    for (int k = 0; k < f->nsrc; k++) o += snprintf(text + o, sizeof text - (size_t)o, ", %%s%d", k);
    snprintf(text + o, sizeof text - (size_t)o, " ;\nexists (P0:d == 0)\n");
    char err[512];
    lit_test *t = lit_parse("prop.litmus", text, err, sizeof err);
    ck_assert_msg(t != NULL, "%s\n%s", err, text);
    verify_opts vo;
    verify_opts_default(&vo);
    vo.states = -1;
    verify_result r;
    ck_assert_msg(verify_test(t, &vo, &r) == 0, "%s", r.error);
    ck_assert_int_eq(r.nstates, 1);
    int64_t v = r.states[0];
    verify_result_free(&r);
    lit_free(t);
    return v;
}

START_TEST(litmus_computes_as_the_executor)
{
    int n = 0;
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        const form *f = &forms[i];
        for (int k = 0; k < 16; k++) {
            uint64_t src[3];
            for (int j = 0; j < f->nsrc; j++) src[j] = operand(u32_operand(f, j) ? "u32" : f->st, (k + 3 * j) % 24);
            if (!strncmp(f->mn, "bfe", 3)) { src[1] &= 127; src[2] &= 127; }
            int64_t want = isa_value(isa_type_parse(f->dt), run_exec(f, src)), got = run_litmus(f, src);
            ck_assert_msg(want == got, "%s %llx %llx %llx: executor %lld, litmus %lld", f->mn, (unsigned long long)src[0],
                          (unsigned long long)src[1], (unsigned long long)src[2], (long long)want, (long long)got);
            n++;
        }
    }
    fprintf(stderr, "litmus vs executor: %d computations of %zu instruction forms agree\n", n, sizeof forms / sizeof *forms);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, litmus_computes_as_the_executor);
}

#include "check_main.h"
