/* exec/remote.c — asynchronous stores and reductions on another CTA's shared memory (PTX ISA 8.4
 * §9.7.8.12 st.async, §9.7.12.7 red.async) and the multimem operations on multicast objects
 * (§9.7.8.13): which forms the ISA allows, and their arithmetic.
 *
 * st.async / red.async: the executor performs the store or the reduction at issue (as it does
 * every asynchronous copy) into the shared memory of the CTA that the shared::cluster address a
 * names, then a complete-tx of the bytes written on the mbarrier mbar, which the ISA requires to
 * be in that same CTA (exec/engine.c h_stasync, with the mbarrier code of run_bulk).  The ISA
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
