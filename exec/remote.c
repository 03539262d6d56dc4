/* exec/remote.c — asynchronous stores and reductions on another CTA's shared memory (PTX ISA 8.4
 * §9.7.8.12 st.async, §9.7.12.7 red.async) and the multimem operations on multicast objects
 * (§9.7.8.13): which forms the ISA allows, and their arithmetic.
 *
 * st.async / red.async: the executor performs the store or the reduction at issue (as it does
 * every asynchronous copy) into the shared memory of the CTA that the shared::cluster address a
 * names, then a complete-tx of the bytes written on the mbarrier mbar, which the ISA requires to
 * be in that same CTA (exec/async.c h_stasync, with the mbarrier code of exec/mbarrier.c).  The ISA
 * leaves undefined a destination in the executing CTA, an mbarrier in another CTA than a, and
 * addresses outside the shared::cluster window: the executor reports each as a fault. */
#include "exec/remote.h"

#include <stdio.h>

#include "ptx/isa.h"

/* §9.7.12.7: the .op/.type pairs of red.async */
static const struct { uint8_t op, t; } red_async_forms[] = {
    { ISA_ATOM_INC, ISA_T_U32 }, { ISA_ATOM_DEC, ISA_T_U32 }, { ISA_ATOM_MIN, ISA_T_U32 },
    { ISA_ATOM_MIN, ISA_T_S32 }, { ISA_ATOM_MAX, ISA_T_U32 }, { ISA_ATOM_MAX, ISA_T_S32 },
    { ISA_ATOM_AND, ISA_T_B32 }, { ISA_ATOM_OR, ISA_T_B32 },  { ISA_ATOM_XOR, ISA_T_B32 },
    { ISA_ATOM_ADD, ISA_T_U32 }, { ISA_ATOM_ADD, ISA_T_S32 }, { ISA_ATOM_ADD, ISA_T_U64 },
};
/* §9.7.8.12: the .type of st.async */
static const uint8_t st_async_types[] = { ISA_T_B32, ISA_T_B64, ISA_T_U32, ISA_T_U64,
                                          ISA_T_S32, ISA_T_S64, ISA_T_F32, ISA_T_F64 };

int remote_async_form(const ptx_mnemonic *mn, char *why, size_t n)
{
    int red = mn->op == PTX_I_RED_ASYNC;
    const char *name = red ? "red.async" : "st.async";
    isa_type t = ptx_mn_type(mn);
    if (mn->space != PTX_SS_NONE && mn->space != PTX_SS_SHARED_CLUSTER)
        return snprintf(why, n, "%s on .%s, expected .shared::cluster or generic addressing",
                        name, ptx_ss_name(mn->space)), -1;
    if (mn->completion != PTX_CM_MBARRIER)
        return snprintf(why, n, "%s without .mbarrier::complete_tx::bytes", name), -1;
    if (red) {
        if (mn->sem != PTX_SEM_RELAXED || mn->scope != PTX_SCOPE_CLUSTER)
            return snprintf(why, n, "red.async without .relaxed.cluster (§9.7.12.7)"), -1;
        if (mn->vec != 1) return snprintf(why, n, "a vector red.async (§9.7.12.7)"), -1;
        for (size_t i = 0; i < sizeof red_async_forms / sizeof red_async_forms[0]; i++)
            if (red_async_forms[i].op == mn->aop && red_async_forms[i].t == t) return 0;
        return snprintf(why, n,
                        "red.async.%s.%s, expected .inc/.dec.u32, .min/.max.u32/.s32, "
                        ".and/.or/.xor.b32 or .add.u32/.s32/.u64 (§9.7.12.7)",
                        isa_atom_name((isa_atom_op)mn->aop), isa_type_name(t)),
               -1;
    }
    if (mn->sem != PTX_SEM_NONE && mn->sem != PTX_SEM_WEAK)
        return snprintf(why, n, "st.async with a semantics other than .weak (§9.7.8.12)"), -1;
    if (mn->vec != 1 && mn->vec != 2 && mn->vec != 4)
        return snprintf(why, n, "st.async.v%u, expected .v2 or .v4 (§9.7.8.12)", mn->vec), -1;
    for (size_t i = 0; i < sizeof st_async_types; i++)
        if (st_async_types[i] == t) return 0;
    return snprintf(why, n,
                    "st.async.%s, expected .b32 .b64 .u32 .u64 .s32 .s64 .f32 or .f64 (§9.7.8.12)",
                    t ? isa_type_name(t) : "(no type)"),
           -1;
}

/* ---------------------------------------------------------------- multimem (§9.7.8.13)
 * A multimem address (§8.2.3) names one location in each of several devices' memories.  The
 * executor models a multicast object (ptxeMulticastCreate, or the `multicast:` section of a
 * `ptxlitmus run` spec) as a reserved global address range that no ordinary access may touch
 * (an ld/st there faults: undefined, §8.2.3) plus one ordinary allocation per simulated device;
 * offset o of the range names offset o of every device's buffer.  multimem.st stores to every
 * copy, multimem.red reduces into every copy (device order), multimem.ld_reduce loads every copy
 * and reduces them in device order: acc = copy[0]; acc = acc op copy[d] for d = 1, 2, ... (the
 * ISA does not give the order; float .add results can depend on it).  The default precision of
 * the accumulation is the type's (each step rounded to .f16/.bf16); with .acc::f32 the halves are
 * widened to .f32, accumulated there and rounded once to nearest even at the end.  The
 * multimem address must lie inside one object with the whole access; otherwise a fault. */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_int.h"

/* §9.7.8.13: .op/.type of the integer forms */
static const struct { uint8_t op, t; } mm_int_forms[] = {
    { ISA_ATOM_ADD, ISA_T_U32 }, { ISA_ATOM_ADD, ISA_T_U64 }, { ISA_ATOM_ADD, ISA_T_S32 },
    { ISA_ATOM_AND, ISA_T_B32 }, { ISA_ATOM_AND, ISA_T_B64 }, { ISA_ATOM_OR, ISA_T_B32 },
    { ISA_ATOM_OR, ISA_T_B64 },  { ISA_ATOM_XOR, ISA_T_B32 }, { ISA_ATOM_XOR, ISA_T_B64 },
    { ISA_ATOM_MIN, ISA_T_U32 }, { ISA_ATOM_MIN, ISA_T_S32 }, { ISA_ATOM_MIN, ISA_T_U64 },
    { ISA_ATOM_MIN, ISA_T_S64 }, { ISA_ATOM_MAX, ISA_T_U32 }, { ISA_ATOM_MAX, ISA_T_S32 },
    { ISA_ATOM_MAX, ISA_T_U64 }, { ISA_ATOM_MAX, ISA_T_S64 },
};
static int is_half(isa_type t)
{
    return t == ISA_T_F16 || t == ISA_T_F16X2 || t == ISA_T_BF16 || t == ISA_T_BF16X2;
}
static int is_fp(isa_type t) { return is_half(t) || t == ISA_T_F32 || t == ISA_T_F64; }

/* the .op / .type / .vec / .acc::f32 rules of the table of §9.7.8.13 */
static int mm_op_type(const ptx_mnemonic *mn, int kind, isa_type t, char *why, size_t n)
{
    int op = mn->aop, acc = ptx_mn_has(mn, PTX_Q_acc_f32), bits = isa_type_bits(t);
    if (kind != 1 && !op) return snprintf(why, n, "multimem without an .op"), -1;
    if (acc && (kind != 0 || !is_half(t)))
        return snprintf(why, n, ".acc::f32 outside multimem.ld_reduce of .f16/.bf16 (§9.7.8.13)"),
               -1;
    if (is_fp(t)) {
        if (mn->vec != 1 && t == ISA_T_F64)
            return snprintf(why, n, "a vector multimem of .f64 (§9.7.8.13)"), -1;
        if (bits * mn->vec != 32 && bits * mn->vec != 64 && bits * mn->vec != 128)
            return snprintf(why, n, "multimem .v%u.%s: %d bits, expected 32, 64 or 128 "
                            "(§9.7.8.13)", mn->vec, isa_type_name(t), bits * mn->vec), -1;
        if (kind == 1) return 0;
        if (op == ISA_ATOM_ADD || (kind == 0 && is_half(t) &&
                                   (op == ISA_ATOM_MIN || op == ISA_ATOM_MAX)))
            return 0;
        return snprintf(why, n, "multimem.%s.%s.%s, expected .add%s (§9.7.8.13)",
                        kind ? "red" : "ld_reduce", isa_atom_name((isa_atom_op)op),
                        isa_type_name(t), kind == 0 && is_half(t) ? "/.min/.max" : ""), -1;
    }
    if (mn->vec != 1) return snprintf(why, n, "a vector multimem of an integer type"), -1;
    if (kind == 1) {
        if (bits == 32 || bits == 64) return 0;
        return snprintf(why, n, "multimem.st.%s (§9.7.8.13)", isa_type_name(t)), -1;
    }
    for (size_t i = 0; i < sizeof mm_int_forms / sizeof mm_int_forms[0]; i++)
        if (mm_int_forms[i].op == op && mm_int_forms[i].t == t) return 0;
    return snprintf(why, n,
                    "multimem.%s.%s, expected .add.u32/.u64/.s32, .and/.or/.xor.b32/.b64 or "
                    ".min/.max.u32/.s32/.u64/.s64 (§9.7.8.13)",
                    isa_atom_name((isa_atom_op)op), isa_type_name(t)), -1;
}

int multimem_form(const ptx_mnemonic *mn, char *why, size_t n)
{
    int kind = mn->op == PTX_I_MULTIMEM_LD_REDUCE ? 0 : mn->op == PTX_I_MULTIMEM_ST ? 1 : 2;
    static const uint8_t sems[3][4] = {
        { PTX_SEM_NONE, PTX_SEM_WEAK, PTX_SEM_RELAXED, PTX_SEM_ACQUIRE },
        { PTX_SEM_NONE, PTX_SEM_WEAK, PTX_SEM_RELAXED, PTX_SEM_RELEASE },
        { PTX_SEM_NONE, PTX_SEM_RELAXED, PTX_SEM_RELEASE, PTX_SEM_RELEASE },
    };
    isa_type t = ptx_mn_type(mn);
    if (mn->space != PTX_SS_NONE && mn->space != PTX_SS_GLOBAL)
        return snprintf(why, n, "multimem on .%s, expected .global or generic addressing",
                        ptx_ss_name(mn->space)), -1;
    if (mn->sem != sems[kind][0] && mn->sem != sems[kind][1] && mn->sem != sems[kind][2] &&
        mn->sem != sems[kind][3])
        return snprintf(why, n, "a semantics multimem.%s does not take (§9.7.8.13)",
                        kind == 0 ? "ld_reduce" : kind == 1 ? "st" : "red"), -1;
    if (!t) return snprintf(why, n, "multimem without a .type"), -1;
    return mm_op_type(mn, kind, t, why, n);
}

/* .f16/.bf16 <-> .f32 (cvt, ptx/isa.c) for .acc::f32 */
static uint64_t cvt_half(int to_f32, int bf, uint64_t v)
{
    static isa_insn c[2][2];
    static int ready;
    if (!ready) {
        char e[200];
        isa_decode("cvt.rn.f16.f32", ISA_T_NONE, &c[0][0], e, sizeof e);
        isa_decode("cvt.rn.bf16.f32", ISA_T_NONE, &c[0][1], e, sizeof e);
        isa_decode("cvt.f32.f16", ISA_T_NONE, &c[1][0], e, sizeof e);
        isa_decode("cvt.f32.bf16", ISA_T_NONE, &c[1][1], e, sizeof e);
        ready = 1;
    }
    uint64_t d = 0;
    char e[200];
    isa_eval(&c[to_f32][bf], &v, &d, e, sizeof e);
    return d;
}

int multimem_reduce(int op, isa_type t, int accf32, const uint64_t *v, int ndev, uint64_t *out)
{
    uint64_t acc = v[0], nv;
    if (!accf32) {
        for (int k = 1; k < ndev; k++) {
            if (isa_atom_apply((isa_atom_op)op, t, acc, v[k], 0, &nv) < 0) return -1;
            acc = nv;
        }
        *out = acc;
        return 0;
    }
    int bf = t == ISA_T_BF16 || t == ISA_T_BF16X2, halves = isa_type_bits(t) / 16;
    *out = 0;
    for (int h = 0; h < halves; h++) {   /* .f16x2 / .bf16x2: each half separately */
        acc = cvt_half(1, bf, v[0] >> (16 * h) & 0xffff);
        for (int k = 1; k < ndev; k++) {
            uint64_t x = cvt_half(1, bf, v[k] >> (16 * h) & 0xffff);
            if (isa_atom_apply((isa_atom_op)op, ISA_T_F32, acc, x, 0, &nv) < 0) return -1;
            acc = nv;
        }
        *out |= (cvt_half(0, bf, acc) & 0xffff) << (16 * h);
    }
    return 0;
}

const xmcast *multimem_find(const ptxeCtx *ctx, uint64_t a, unsigned n)
{
    for (int i = 0; i < ctx->nmcasts; i++) {
        const xmcast *m = &ctx->mcasts[i];
        if (a >= m->base && a < m->base + m->size && n <= m->base + m->size - a) return m;
    }
    return NULL;
}

ptxeResult ptxeMulticastCreate(ptxeCtx *ctx, size_t bytes, int ndevices, ptxeDevptr *mcaddr,
                               ptxeDevptr *bufs)
{
    if (!ctx || !mcaddr || !bufs || !bytes || ndevices < 1 ||
        ndevices > PTXE_MULTICAST_MAX_DEVICES)
        return PTXE_ERROR_INVALID_VALUE;
    xmcast m = { 0, bytes, ndevices, { 0 } };
    xmcast *nm = realloc(ctx->mcasts, (size_t)(ctx->nmcasts + 1) * sizeof *nm);
    if (!nm) return PTXE_ERROR_OUT_OF_MEMORY;
    ctx->mcasts = nm;
    if (mem_alloc(ctx, bytes, &m.base)) return PTXE_ERROR_OUT_OF_MEMORY;
    galloc *g = mem_find(ctx, m.base, 0);   /* the range stays reserved, without memory */
    free(g->host);
    g->host = NULL;
    g->name = strdup("multimem object (multimem.* only, §8.2.3)");
    ctx->mem_used -= bytes;
    for (int d = 0; d < ndevices; d++)
        if (mem_alloc_user(ctx, bytes, &m.dev[d])) return PTXE_ERROR_OUT_OF_MEMORY;
    ctx->mcasts[ctx->nmcasts++] = m;
    *mcaddr = m.base;
    memcpy(bufs, m.dev, (size_t)ndevices * sizeof *bufs);
    return PTXE_SUCCESS;
}
