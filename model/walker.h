/* model/walker.h — the state of one thread's walk (model/traces.c), and the helpers of
 * model/trace_util.c it uses: register liveness and loop heads (spin-loop reduction), the
 * path's guards, value domains of read variables, saving a path, the limits.  Private to the
 * two files. */
#ifndef PTX_MODEL_WALKER_H
#define PTX_MODEL_WALKER_H
#include "model/event.h"

#define TW 4                 /* taint bitset words: events per trace <= 256 */
typedef struct { uint64_t w[TW]; } bits;

static inline void bits_or(bits *a, const bits *b)
{
    for (int i = 0; i < TW; i++) a->w[i] |= b->w[i];
}
static inline void bits_set(bits *a, int i) { a->w[i >> 6] |= 1ull << (i & 63); }

/* why a path split at an instruction (the limit messages name it) */
typedef enum {
    WHY_NONE, WHY_BRANCH, WHY_GUARD, WHY_ADDRESS, WHY_OPERAND, WHY_BARRIER, WHY_LOOP,
    WHY_READ, WHY_BARRED, WHY_COUNT
} why_split;

typedef struct walker {
    const lit_test *t;
    const lit_thread *th;
    int ti;
    const mdomain *dom;      /* per atom */
    const matoms *at;
    const mlimits *lim;
    mterms *ts;
    mthread_traces *out;
    char *err;
    size_t errlen;
    int failed;
    int timed_out, mem_out;
    unsigned steps;
    mevent *ev;  int nev;
    mdep *dep;   int ndep, capdep;
    int *guard;  int nguard, capguard;   /* the Boolean terms that hold on the current path */
    long *forks;             /* per instruction: the paths it added */
    unsigned char *why;      /* per instruction: why_split of its latest split */
    /* spin-loop reduction: live registers at loop heads, visits on the current path */
    int rw;                  /* words per register bitset */
    uint64_t *live;          /* (nins+1) x rw: registers live on entry */
    unsigned char *head;     /* instruction is the target of a backward jump */
    struct visit { int pc, nev; int *regs; } *vis;
    int spin_from;       /* set by loop_head_visit when it cuts: the repeated iteration's start */
    int nvis, capvis;
} walker;

void fail_at(walker *w, const lit_insn *in, const char *msg);
void guard_push(walker *w, int g);
/* The values of a read variable: the combinations of its atoms' domains (mt_domain_fn). */
int var_domain(void *ctx, const mt_varinfo *v, uint64_t **vals);
/* 1 (0) when the Boolean term t holds (fails) on every continuation of the current path,
   -1 when both are possible. */
int path_decides(walker *w, int t);
void compute_liveness(walker *w, const unsigned char *observed);
/* the first register live at pc whose value is not a constant, -1 */
int symbolic_live(const walker *w, int pc, const int *regs);
int loop_head_visit(walker *w, int pc, const int *regs);
/* a complete path (hang: MHANG_*, with the first event of the spin and the instruction) */
void save_trace(walker *w, const int *regs, int hang, int spin_from, int pc);
/* the paths split at pc for reason why, n more of them */
void note_split(walker *w, int pc, why_split why, long n);
#endif
