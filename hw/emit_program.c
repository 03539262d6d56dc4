/* hw/emit_program.c — the whole CUDA program for one test: the test's constants and tables
 * (T_* macros, t_* arrays), the harness prologue, one inline-PTX function per litmus thread,
 * the dispatch on the litmus thread a hardware thread plays, and the harness epilogue. */
#include "hw/hw_int.h"
#include "base/sbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "static const TYPE name[] = { a, b, ..., 0 };" (a trailing 0: C++ has no empty arrays) */
static void table(sbuf *f, const char *type, const char *name, const int *v, int n)
{
    sb_add(f, "static const %s %s[] = {", type, name);
    for (int i = 0; i < n; i++) sb_add(f, "%s%d", i % 16 ? ", " : i ? ",\n    " : " ", v[i]);
    sb_add(f, "%s0 };\n", n ? ", " : " ");
}

static void emit_constants(sbuf *f, const hw_plan *p, const hw_opts *o)
{
    const lit_test *t = p->t;
    char name[256], file[512];
    hw_c_escape(name, sizeof name, t->name ? t->name : "", 0);
    hw_c_escape(file, sizeof file, t->file ? t->file : "", 0);
    sb_add(
        f,
        "/* ptxlitmus hw: the harness program of litmus test %s,\n"
        " * generated from the parsed test of %s.\n"
        " * docs/hardware.md describes the design.\n"
        " * Build: nvcc -arch=%s -O3 -std=c++17 -o PROG THIS.cu -ldl%s\n"
        " * Run:   PROG -n INSTANCES -k LAUNCHES -s SEED -S STRESS -p PLACEMENT -b STRIDE */\n\n",
        name, file, o->arch,
        p->weak_in_loop ? " -Xptxas -O0\n * (a weak access in a loop: ptxas would optimise it "
                          "as if no other thread wrote\n * memory, docs/hardware.md)"
                        : "");
    sb_add(
        f,
        "#define T_NAME \"%s\"\n#define T_NROLES %d\n#define T_NCTAS %d\n#define T_NCLUSTERS %d\n"
        "#define T_CDIM %d\n#define T_RMAX %d\n#define T_WPR %d\n#define T_NLOCS %d\n"
        "#define T_NSYMS %d\n#define T_NMAPS %d\n#define T_NRES %d\n#define T_NOBS %d\n"
        "#define T_HAS_BARRIER %d\n#define T_HAS_LOOP %d\n#define T_USES_TEX %d\n"
        "#define T_CLUSTER_LAUNCH %d\n",
        name, t->nth, p->nctas, p->nclusters, p->cdim, p->rmax, p->wpr, p->nlocs, t->nsym, p->nmaps,
        p->nres, p->nobs, p->has_barrier, p->has_loop, p->uses_tex, p->use_cluster_launch);
    /* shared memory (hw/plan_async.c): slots, another CTA's accesses, barrier.cluster, bulk */
    int nmb = 0;
    for (int l = 0; l < p->nlocs; l++) nmb += p->loc_inval[l] != 0;
    sb_add(f,
           "#define T_NSH %d\n#define T_REMOTE %d\n#define T_CBAR %d\n#define T_BULK %d\n"
           "#define T_NMB %d\n"
           "/* initial value of each shared location's slots */\n#define T_SH_INIT",
           p->nshared, p->uses_remote, p->uses_cbar, p->uses_bulk, nmb);
    for (int l = 0; l < p->nlocs; l++)
        if (p->loc_shslot[l] >= 0)
            sb_add(f, " %lldLL, /* %s */", (long long)t->sym[p->loc_sym[l]].init,
                   t->sym[p->loc_sym[l]].name);
    sb_add(f, "\n\n");
    sb_add(f,
           "/* litmus thread -> its CTA, its rank in the CTA; CTA -> cluster, position in it */\n");
    table(f, "int", "t_role_cta", p->role_cta, t->nth);
    table(f, "int", "t_role_rank", p->role_rank, t->nth);
    table(f, "int", "t_cta_cluster", p->cta_cluster, p->nctas);
    table(f, "int", "t_cta_pos", p->cta_pos, p->nctas);
    sb_add(f, "/* locations:");
    for (int l = 0; l < p->nlocs; l++) sb_add(f, " %d=%s", l, t->sym[p->loc_sym[l]].name);
    sb_add(f, " */\n");
    table(f, "int", "t_loc_bytes", p->loc_bytes, p->nlocs);
    table(f, "int", "t_loc_init_sym", p->loc_init_sym, p->nlocs);
    sb_add(f, "static const long long t_loc_init[] = {");
    for (int l = 0; l < p->nlocs; l++)
        sb_add(f, "%s%lldLL,", l % 6 ? " " : "\n    ", (long long)t->sym[p->loc_sym[l]].init);
    sb_add(f, " 0 };\n/* symbols:");
    for (int s = 0; s < t->nsym; s++) sb_add(f, " %d=%s", s, t->sym[s].name);
    sb_add(f, " */\n");
    table(f, "int", "t_sym_loc", p->sym_loc, t->nsym);
    table(f, "int", "t_sym_map", p->sym_map, t->nsym);
    sb_add(f, "/* the value verify gives the address of each symbol */\n"
              "static const unsigned long long t_sym_token[] = {");
    for (int s = 0; s < t->nsym; s++)
        sb_add(f, "%s%lluULL,", s % 4 ? " " : "\n    ", (unsigned long long)lit_sym_addr(s));
    sb_add(f, " 0 };\n");
}

static int emit_obs(sbuf *f, const hw_plan *p)
{
    int *res = calloc((size_t)p->nobs + 1, sizeof *res),
        *loc = calloc((size_t)p->nobs + 1, sizeof *loc);
    int *bytes = calloc((size_t)p->nobs + 1, sizeof *bytes);
    if (!res || !loc || !bytes) {
        free(res), free(loc), free(bytes);
        return -1;
    }
    sb_add(f, "/* observed values, in the order verify prints them:");
    for (int i = 0; i < p->nobs; i++) {
        res[i] = p->obs[i].slot, loc[i] = p->obs[i].loc, bytes[i] = p->obs[i].bytes;
        char n[80];
        hw_c_escape(n, sizeof n, p->obs[i].name, 0);
        sb_add(f, " %s", n);
    }
    sb_add(f, " */\n");
    table(f, "int", "t_obs_res", res, p->nobs);
    table(f, "int", "t_obs_loc", loc, p->nobs);
    table(f, "int", "t_obs_bytes", bytes, p->nobs);
    sb_add(f, "\n");
    free(res), free(loc), free(bytes);
    return 0;
}

/* hw_mbar_inval(CLUSTER, POS, K): mbarrier.inval of slot K of every mbarrier object the block
 * at (cluster, position) holds and the test initialises (§9.7.13.15.3: invalidated before its
 * memory is used again; hw_shared_end in hw/harness.c calls it when the block is done). */
static void emit_inval(sbuf *f, const hw_plan *p)
{
    int any = 0;
    for (int l = 0; l < p->nlocs; l++) any |= p->loc_inval[l] != 0;
    if (!any) return;
    sb_add(f, "/* every mbarrier object the test initialises, invalidated before its CTA exits "
              "(9.7.13.15.3) */\n"
              "__device__ __forceinline__ void hw_mbar_inval(unsigned u, unsigned d, unsigned k)\n"
              "{\n");
    for (int l = 0; l < p->nlocs; l++) {
        if (!p->loc_inval[l]) continue;
        int c = p->loc_cta[l];
        sb_add(f, "    if (u == %d && d == %d) {   /* %s */\n", p->cta_cluster[c], p->cta_pos[c],
               p->t->sym[p->loc_sym[l]].name);
        if (p->loc_inval[l] == 2)   /* asynchronous completions: phase 0 first, bounded */
            sb_add(f,
                   "        unsigned done = 0;\n"
                   "        for (int n = 0; n < 4096 && !done; n++)\n"
                   "            asm volatile(\"{ .reg .pred q;\\n\\t\"\n"
                   "                         \"mbarrier.try_wait.parity.shared::cta.b64 q, [%%1], "
                   "0, 1000;\\n\\t\"\n"
                   "                         \"selp.u32 %%0, 1, 0, q; }\"\n"
                   "                         : \"=r\"(done) : \"r\"(HW_SH(k, %d)) : "
                   "\"memory\");\n"
                   "        if (done)   /* never completed: left as it is */\n",
                   p->loc_shslot[l]);
        sb_add(f,
               "        asm volatile(\"mbarrier.inval.shared::cta.b64 [%%0];\" :: "
               "\"r\"(HW_SH(k, %d)) : \"memory\");\n    }\n",
               p->loc_shslot[l]);
    }
    sb_add(f, "}\n\n");
}

char *hw_emit_program(const hw_plan *p, const hw_opts *o, char *err, size_t errlen)
{
    sbuf f = { 0 };
    emit_constants(&f, p, o);
    if (emit_obs(&f, p)) {
        free(f.s);
        hw_refuse(err, errlen, p->t->file, 1, 1, "out of memory");
        return NULL;
    }
    sb_add(&f, "%s\n", hw_harness_prologue);
    for (int th = 0; th < p->t->nth; th++) {
        char *s = hw_emit_thread(p, th, err, errlen);
        if (!s) {
            free(f.s);
            return NULL;
        }
        sb_add(&f, "%s", s);
        free(s);
    }
    emit_inval(&f, p);
    sb_add(&f, "/* the litmus thread a hardware thread plays */\n"
               "__device__ void hw_dispatch(const hw_args &a, int role, unsigned i)\n{\n"
               "    switch (role) {\n");
    for (int th = 0; th < p->t->nth; th++)
        sb_add(&f, "    case %d: hw_thread_%d(a, i); break;   /* %s */\n", th, th,
               p->t->th[th].name);
    sb_add(&f, "    default: break;\n    }\n}\n\n%s", hw_harness_epilogue);
    return f.s;
}
