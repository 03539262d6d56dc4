/* model/mbarrier.c — the mbarrier object's state transitions (model/mbarrier.h), from
 * §9.7.13.15.4-7 of ../shared/spec/ptx-isa-sync-communication-instructions.md. */
#include "model/mbarrier.h"

#define PEND(s) ((s) & 0xfffffull)
#define EXPD(s) (((s) >> 20) & 0xfffffull)
#define TX(s) ((int64_t)(int16_t)(((s) >> 40) & 0xffffull))
#define PHASE(s) (((s) >> 56) & 0x3full)
#define VALID (1ull << 62)

static uint64_t pack(uint64_t pend, uint64_t expd, int64_t tx, uint64_t phase)
{
    return VALID | (pend & 0xfffffull) | (expd & 0xfffffull) << 20 | ((uint64_t)tx & 0xffffull) << 40 | (phase & 0x3full) << 56;
}

/* "Initializing the current phase to 0, the expected arrival count to count, the pending
   arrival count to count, the tx-count to 0" (§9.7.13.15.9) */
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
        if (in->mb_drop) expd -= (int64_t)a;         /* arrive_drop: "for all the subsequent phases" */
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
