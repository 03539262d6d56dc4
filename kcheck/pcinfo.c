/* kcheck/pcinfo.c — what an instruction that makes events is to the memory model.  Its mnemonic
 * is read by the litmus front end (frontend/litmus_insn.c), as a one-instruction test with
 * placeholder operands: the semantics, scope, proxy, fence kind and state space of ld, st,
 * atom, red, fence, membar and barrier.cluster are what `verify` would read for the same
 * spelling, and an instruction the litmus language cannot say is refused with its reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "kcheck/kpc.h"
#include "ptx/opcodes.h"
#include "ptx/isa.h"

void kpc_mnemonic(const char *text, char *buf, size_t n)
{
    const char *t = text;
    if (*t == '@') {   /* a guard: "@%p1 ", "@!%p1 " */
        t++;
        t += strspn(t, " \t!");
        t += strcspn(t, " \t");
    }
    t += strspn(t, " \t");
    size_t len = strcspn(t, " \t;");
    if (len >= n) len = n - 1;
    memcpy(buf, t, len);
    buf[len] = 0;
    /* an element of a vector access is a scalar access (§8.2.4) */
    static const char *const vec[] = { ".v2", ".v4", ".v8" };
    for (int k = 0; k < 3; k++) {
        char *v = strstr(buf, vec[k]);
        if (v && (v[3] == '.' || !v[3])) memmove(v, v + 3, strlen(v + 3) + 1);
    }
}

/* the one-instruction litmus test of the mnemonic, by kind */
static int snippet(int kind, const char *mn, char *buf, size_t n)
{
    const char *ops;
    switch (kind) {
    case PTX_K_LD: ops = " %r0, [x]"; break;
    case PTX_K_ST: ops = " [x], 1"; break;
    case PTX_K_ATOM: ops = strstr(mn, ".cas") ? " %r0, [x], 1, 2" : " %r0, [x], 1"; break;
    case PTX_K_RED: ops = " [x], 1"; break;
    case PTX_K_FENCE: case PTX_K_BARCLUSTER: ops = ""; break;
    case PTX_K_BULK: ops = " [x], [y], 4, [z]"; break;   /* a 4-byte chunk (explore.c) */
    case PTX_K_MBAR:   /* mbarrier objects (§9.7.13.15): the litmus forms */
        ops = strstr(mn, ".init") ? " [x], 1"
              : strstr(mn, "_wait") ? (strstr(mn, ".parity") ? " %p0, [x], 0" : " %p0, [x], %r0")
              : strstr(mn, ".arrive") && strncmp(mn, "cp.", 3)
                  ? (strstr(mn, ".expect_tx") ? " %r0, [x], 16" : " %r0, [x]")
              : strstr(mn, "_tx") ? " [x], 16"
                                  : " [x]";
        break;
    default: return -1;
    }
    snprintf(buf, n,
             "PTX pc\n{\nx=0;\n}\n P0@cta 0,cluster 0,gpu 0 ;\n %s%s ;\nexists (x == 0)\n", mn,
             ops);
    return 0;
}

static void read_pc(kpcs *P, int pc, kpc *k)
{
    char text[512], err[400];
    kpc_mnemonic(P->text[pc], k->mn, sizeof k->mn);
    k->state = -1;
    if (snippet(P->kind[pc], k->mn, text, sizeof text)) {
        snprintf(k->err, sizeof k->err, "%s has no events the model knows", k->mn);
        return;
    }
    lit_test *t = lit_parse("check", text, err, sizeof err);
    if (!t) {
        const char *why = strstr(err, "found ");   /* past "check:L:C: " */
        snprintf(k->err, sizeof k->err, "%.280s", why ? why : err);
        return;
    }
    k->nrole = 0;
    for (int i = 0; i < t->th[0].nins && k->nrole < 4; i++) {
        const lit_insn *li = &t->th[0].ins[i];
        if (li->k == LI_NOP) continue;
        kpc_role *r = &k->r[k->nrole++];
        r->k = li->k; r->sem = li->sem; r->scope = li->scope; r->proxy = li->proxy;
        r->volatile_ = li->volatile_; r->mmio = li->mmio; r->fence = li->fence; r->bar = li->bar;
        r->restrict_ = li->restrict_; r->uni = li->uni; r->fspace = li->fspace;
        r->async = li->async_id > 0;
        r->mbar = li->mbar;
        k->cas |= li->aop == ISA_ATOM_CAS;
    }
    lit_free(t);
    if (!k->nrole) {
        snprintf(k->err, sizeof k->err, "%s has no events the model knows", k->mn);
        return;
    }
    k->state = 1;
}

const kpc *kpc_get(kpcs *P, int pc)
{
    if (!P->v) P->v = xcalloc((size_t)P->n + 1, sizeof *P->v);
    kpc *k = &P->v[pc];
    if (!k->state) read_pc(P, pc, k);
    return k->state > 0 ? k : NULL;
}

const char *kpc_refused(kpcs *P, int pc)
{
    return kpc_get(P, pc) ? NULL : P->v[pc].err;
}

void kpcs_free(kpcs *P)
{
    free(P->v);
    P->v = NULL;
}

const kpc_role *kpc_role_of(const kpc *k, int kind, const kev *e)
{
    if (kind != PTX_K_BULK || k->nrole < 4) return &k->r[0];
    /* a bulk copy: the source read, the destination write, the proxy fence, the complete-tx */
    if (e->flags & KF_ATOM) return &k->r[3];
    return &k->r[e->kind == KE_R ? 0 : e->kind == KE_W ? 1 : 2];
}
