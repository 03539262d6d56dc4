/* model/mbarrier.c — the mbarrier object's state transitions (model/mbarrier.h), from
 * §9.7.13.15.4-7 of ../shared/spec/ptx-isa-sync-communication-instructions.md. */
#include "model/mbarrier.h"
#include <stdlib.h>

#define PEND(s) ((s) & 0xfffffull)
#define EXPD(s) (((s) >> 20) & 0xfffffull)
#define TX(s) ((int64_t)(int16_t)(((s) >> 40) & 0xffffull))
#define PHASE(s) (((s) >> 56) & 1ull)
#define VALID (1ull << 62)

static uint64_t pack(uint64_t pend, uint64_t expd, int64_t tx, uint64_t phase)
{
    return VALID | (pend & 0xfffffull) | (expd & 0xfffffull) << 20 |
           ((uint64_t)tx & 0xffffull) << 40 | (phase & 1ull) << 56;
}

/* "Initializing the current phase to 0, the expected arrival count to count, the pending
   arrival count to count, the tx-count to 0" (§9.7.13.15.9) */
int mbar_valid(uint64_t s) { return (s & VALID) != 0; }

uint64_t mbar_init(uint64_t count) { return pack(count, count, 0, 0); }

uint64_t mbar_update(const lit_insn *in, uint64_t s, uint64_t a, uint64_t b, int *ub)
{
    *ub = 0;
    if (!(s & VALID)) { *ub = 1; return s; }   /* "undefined behavior" on an uninitialised object */
    int64_t pend = (int64_t)PEND(s), expd = (int64_t)EXPD(s), tx = TX(s);
    uint64_t phase = PHASE(s);
    switch (in->mbar) {
    case MB_INC: pend += 1; return pack((uint64_t)pend, (uint64_t)expd, tx, phase);
    case MB_EXPECT_TX: tx += (int64_t)a; return pack((uint64_t)pend, (uint64_t)expd, tx, phase);
    case MB_COMPLETE_TX: tx -= (int64_t)a; break;   /* "tx-count is decremented by completeCount" */
    case MB_ARRIVE:
        tx += (int64_t)b;                            /* .expect_tx: "prior to the arrive-on" */
        if (in->mb_drop) expd -= (int64_t)a; /* arrive_drop: "for all the subsequent phases" */
        pend -= (int64_t)a;                          /* "decremented by count" */
        if (pend < 0) { *ub = 1; pend = 0; }
        break;
    default: return s;
    }
    if (pend == 0 && tx == 0) {                      /* §9.7.13.15.6: the phase completes */
        if (in->mb_nocomplete) *ub = 1;
        return pack((uint64_t)(expd > 0 ? expd : 0), (uint64_t)expd, 0, phase + 1);
    }
    return pack((uint64_t)pend, (uint64_t)expd, tx, phase);
}

/* "test for completion of the phase specified by the operand state ... Or indicated by the
   operand phaseParity": the phase of the state has completed when the current phase is later;
   a phase of parity P has completed when the current phase has the other parity. */
int mbar_complete(const lit_insn *in, uint64_t cur, uint64_t opnd, int *ub)
{
    *ub = !(cur & VALID);
    if (in->mbar == MB_TEST_PARITY) return (int)((PHASE(cur) & 1) != (opnd & 1));
    return PHASE(cur) != PHASE(opnd);
}

/* ---------- the values an mbarrier object can hold ----------
   Every execution's coherence chain on an mbarrier object is its initial value followed by the
   writes of distinct operations (outside loops each instruction executes at most once), so
   the states reachable by applying distinct instructions, in any order, hold every value an
   execution can read.  Computing them directly keeps the value domain exact; the generic
   rounds (model/program.c) would apply every operation to every value again and again. */

static int is_mbar_write(const lit_insn *in)
{
    return in->mbar == MB_INIT || in->mbar == MB_ARRIVE || in->mbar == MB_EXPECT_TX ||
           in->mbar == MB_COMPLETE_TX || in->mbar == MB_INC;
}

static int has_loop(const lit_thread *th)
{
    for (int k = 0; k < th->nins; k++)
        if ((th->ins[k].k == LI_BRANCH || th->ins[k].k == LI_GOTO) && th->ins[k].target <= k)
            return 1;
    return 0;
}

int mbar_exact_values(const lit_test *t, int loc, int64_t **out)
{
    enum { MAXOP = 14, MAXST = 4096 };
    const lit_insn *ops[MAXOP];
    int k = 0;
    for (int ti = 0; ti < t->nth; ti++)
        for (int j = 0; j < t->th[ti].nins; j++) {
            const lit_insn *in = &t->th[ti].ins[j];
            int writes = in->k == LI_ST || in->k == LI_ATOM || in->k == LI_RED;
            if (!writes) continue;
            if (in->addr.k != OPD_SYM) return -1;   /* it might write the object */
            if (t->sym[in->addr.sym].loc != loc) continue;
            if (!is_mbar_write(in) || k == MAXOP || has_loop(&t->th[ti])) return -1;
            for (int s = 0; s < in->nsrc; s++)
                if (in->src[s].k != OPD_IMM && in->src[s].k != OPD_NONE) return -1;
            ops[k++] = in;
        }
    if (!k) return -1;
    uint64_t *val = malloc(MAXST * sizeof *val);
    unsigned *used = malloc(MAXST * sizeof *used);
    if (!val || !used) { free(val); free(used); return -1; }
    int n = 0;
    val[n] = (uint64_t)t->sym[loc].init; used[n++] = 0;
    for (int i = 0; i < n; i++)
        for (int o = 0; o < k; o++) {
            if (used[i] >> o & 1) continue;
            const lit_insn *in = ops[o];
            int ub;
            uint64_t v = in->mbar == MB_INIT ? mbar_init((uint64_t)in->src[0].imm)
                                             : mbar_update(in, val[i], (uint64_t)in->src[0].imm,
                                                           (uint64_t)in->src[1].imm, &ub);
            unsigned u = used[i] | 1u << o;
            int seen = 0;
            for (int x = 0; x < n && !seen; x++) seen = val[x] == v && used[x] == u;
            if (seen) continue;
            if (n == MAXST) { free(val); free(used); return -1; }
            val[n] = v; used[n++] = u;
        }
    int64_t *r = malloc((size_t)n * sizeof *r);
    int m = 0;
    for (int i = 0; r && i < n; i++) {
        int dup = 0;
        for (int x = 0; x < m && !dup; x++) dup = r[x] == (int64_t)val[i];
        if (!dup) r[m++] = (int64_t)val[i];
    }
    free(val); free(used);
    if (!r) return -1;
    *out = r;
    return m;
}
