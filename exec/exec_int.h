/* exec/exec_int.h — internal data of the executor: the pre-decoded program (one xinsn per PTX
 * instruction, built once at module load by exec/load.c), device memory (exec/mem.c) and the
 * SIMT engine state (exec/engine.h).  Not a public interface: include/ptxexec.h is. */
#ifndef PTX_EXEC_INT_H
#define PTX_EXEC_INT_H
#include <stdint.h>
#include <stddef.h>
#include "include/ptxexec.h"
#include "ptx/isa.h"
#include "ptx/opcodes.h"
#include "frontend/ptx_ast.h"
#include "exec/mma.h"
#include "exec/wgmma.h"

/* Generic address windows (ISA §6.4.1.5 generic addressing): a generic address inside one of
 * these windows names shared/local/const/param space at (addr - base); global allocations
 * live at GLOBAL_BASE (64-bit modules) or GLOBAL_BASE32 (contexts with an .address_size 32
 * module) and above; anything else is in no state space.  The windows lie below 4 GiB so that
 * .address_size 32 modules use the same map. */
#define WIN_SHARED  0x10000000ull
#define WIN_SHARED_SIZE 0x20000000ull  /* shared::cluster addresses (below) */
#define WIN_LOCAL   0x30000000ull
#define WIN_CONST   0x40000000ull
#define WIN_PARAM   0x50000000ull
#define WIN_SIZE    0x10000000ull
#define GLOBAL_BASE32 0x70000000ull
#define GLOBAL_BASE 0x0000700000000000ull
#define NOPARAM 0xffffffffu           /* call operand that is a register or constant */
#define FRAME_PARAM 0x08000000u        /* param-space offsets >= this: the calling lane's frame */
/* shared::cluster addresses (§5.1.5, mapa): offset | (rank + 1) << SHCL_SHIFT names the shared
 * memory of CTA `rank` of the cluster; an address below 1 << SHCL_SHIFT (every shared::cta
 * address) names the executing CTA's own shared memory. */
#define SHCL_SHIFT  24
#define SHCL_OFF(a) ((a) & ((1ull << SHCL_SHIFT) - 1))

enum { SP_NONE, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_CONST, SP_PARAM, SP_GENERIC, SP_SHCLUSTER };

/* special registers (ISA chapter 10); x/y/z variants are consecutive */
enum { SR_TID, SR_NTID = 3, SR_CTAID = 6, SR_NCTAID = 9, SR_CLUSTERID = 12, SR_NCLUSTERID = 15,
       SR_CLUSTER_CTAID = 18, SR_CLUSTER_NCTAID = 21, SR_CLUSTER_CTARANK = 24, SR_CLUSTER_NCTARANK,
       SR_IS_EXPLICIT_CLUSTER, SR_LANEID, SR_WARPID, SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID,
       SR_LANEMASK_EQ, SR_LANEMASK_LE, SR_LANEMASK_LT, SR_LANEMASK_GE, SR_LANEMASK_GT,
       SR_CLOCK, SR_CLOCK_HI, SR_CLOCK64, SR_GLOBALTIMER, SR_GLOBALTIMER_LO, SR_GLOBALTIMER_HI,
       SR_DYN_SMEM, SR_TOTAL_SMEM, SR_AGGR_SMEM,
       SR_ENVREG /* %envreg0..31 (§10.27): SR_ENVREG + n */, SR_COUNT = SR_ENVREG + 32 };
#define FUNC_BASE 0x60000000ull   /* "address" of function i: FUNC_BASE + 16*i */

/* operand kinds */
enum { XO_NONE, XO_REG, XO_IMM, XO_SREG, XO_LOCALSYM, XO_FPARAMSYM, XO_SINK };
typedef struct {
    uint8_t kind;
    uint8_t neg;          /* !%p */
    uint32_t reg;         /* register index in the frame */
    uint64_t imm;         /* constant, special-register id, or symbol offset */
    uint64_t wmask;       /* destination write mask (register width) */
    uint8_t rbits;        /* register width in bits */
} xopnd;

enum { BAR_SYNC, BAR_ARRIVE, BAR_RED_POPC, BAR_RED_AND, BAR_RED_OR };
enum { VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT };
enum { MB_INIT, MB_INVAL, MB_EXPECT_TX, MB_COMPLETE_TX, MB_ARRIVE, MB_ARRIVE_DROP, MB_TEST_WAIT,
       MB_TRY_WAIT, MB_PENDING_COUNT, MB_CP_ARRIVE };
/* xinsn.flags */
enum {
    XF_ALIGNED = 1 /* .aligned barrier; cp.async.bulk: .multicast */,
    XF_PARITY = 2,
    XF_EXPECT_TX = 4,
    XF_NOINC = 8,
    XF_NOCOMPLETE = 16,
    XF_BRKPT = 32,
    XF_IGNORE_SRC = 64,
    XF_SRC_SIZE = 128,
    XF_FLOAT = 256,
    XF_ABS = 512,
    XF_NAN = 1024,
    XF_NOSYNC = 2048, /* deprecated vote/shfl without .sync: no rendezvous */
    XF_VPRINTF = 4096, /* a call of the CUDA runtime's vprintf (kind MISC) */
    XF_MALLOC = 8192,  /* a call of the CUDA runtime's device-side malloc / free (kind MISC, */
    XF_FREE = 16384    /* exec/heap.c) */
};

#define XMAX_OPS 12
typedef struct xinsn {
    uint8_t kind;         /* ptx_kind: the handler that runs it (exec/step.c) */
    uint16_t op;          /* ptx_opcode: its row of the opcode table (ptx/opcodes.def) */
    uint8_t space;        /* memory instructions: SP_* */
    uint8_t vec;          /* vector width of ld/st (1, 2, 4, 8) */
    uint8_t size;         /* element size in bytes */
    uint8_t sign;         /* signed load: sign-extend to the register width */
    uint8_t mode;         /* shfl/vote/bar/match mode, atom op, cvta .to (1), mbarrier op ... */
    uint8_t nd, ns;       /* destination / source operand counts */
    uint8_t has_guard, guard_neg, uni;
    uint16_t flags;       /* XF_* */
    uint8_t fast;         /* register computation whose sources are all registers or constants */
    uint32_t guard;       /* predicate register */
    int target;           /* branch target / callee function index (-1 = indirect) */
    int *targets; int ntargets;   /* brx.idx label table */
    isa_insn isa;
    isa_eval_fn fn;       /* one-lane semantics from the table (NULL for carry ops) */
    /* warp-wide fast path (register computations with register or constant sources, no !p source):
     * the table's eval_warp, with the operand arrays resolved at load */
    isa_warp_fn wfn;
    const uint64_t
        *wsrc[ISA_WARP_NSRC]; /* 32-lane constant (immediate, or zeros past ns), NULL: register */
    uint32_t wsreg[ISA_WARP_NSRC];         /* register source: offset reg * 32 in the frame */
    uint32_t wdreg[ISA_WARP_NDST];         /* destination offsets; wdsink bit k: sink (scratch) */
    uint8_t wdsink;
    uint64_t wdm[ISA_WARP_NDST];           /* destination write masks (register widths) */
    isa_type type;
    xopnd d[XMAX_OPS], s[XMAX_OPS];   /* destinations, sources (memory address: s[0] base) */
    int64_t aoff;         /* address offset */
    int64_t aoff2,
        aoff3; /* second / third address (cp.async: s[1] source, cp.async.bulk: s[3] mbarrier) */
    uint8_t abase_kind; /* address base: XO_REG / XO_IMM (absolute / symbol) / XO_LOCALSYM /
                           XO_FPARAMSYM */
    /* call: argument and return param offsets in caller frame, callee formal offsets */
    int ncargs, ncrets; uint32_t *carg_off, *carg_size, *cret_off, *cret_size;
    uint32_t *carg_vsz, *cret_vsz;   /* sizes of the caller's .param variables (0 for registers) */
    xopnd *carg_x,
        *cret_x;          /* register/constant arguments (carg_off = NOPARAM) for .reg parameters */
    int func;             /* function index this instruction belongs to */
    /* source position */
    int line, col, src_file, src_line;
    const char *text;
    const xmma *mm;       /* warp-level matrix instructions (kind MMA, exec/mma.h) */
    const xwgmma *wg;     /* warpgroup instructions, setmaxnreg (exec/wgmma.h) */
    xopnd *vops; uint16_t nvops;   /* wgmma.mma_async: its operands (order of exec/wgmma.h) */
    const struct xtma *tm;   /* tensor memory access (kind TENSORMAP, exec/tma.h) */
    const struct xtex *tx; /* texture and surface instructions (kinds TEX, SURF: exec/tex.h) */
} xinsn;
_Static_assert(XMAX_OPS == MMA_MAXOPS, "exec/mma.h MMA_MAXOPS");

typedef struct xfunc {
    const char *name;
    int is_entry, has_body;
    int start, end;           /* instruction range in prog */
    int nregs;
    uint32_t psize;           /* frame param area: formals + rets + call-site .param */
    uint32_t *poff; int nparams;      /* formal param offsets within the frame param area */
    uint32_t *psz;
    const char **ptype;
    uint32_t *roff, *rsz; int nrets;
    int32_t *preg, *rreg;     /* .reg parameter / return value: register index (-1: .param) */
    uint8_t *pregbits, *rregbits;
    uint32_t lsize, lalign;   /* .local frame size */
    uint32_t kparam_size;     /* entry: kernel param buffer size */
    int reqntid[3];
    int maxnreg, minnctapersm;    /* .maxnreg, .minnctapersm (0 = none) */
    unsigned regs_est;        /* registers per thread estimated (exec/occupancy.c; 0: not yet) */
    int32_t *live_in; int nlive_in;   /* with it: the registers live at entry (-1: unknown) */
    int reqnctapercluster[3]; /* .reqnctapercluster (0 = none) */
    int explicitcluster;
} xfunc;

/* A global allocation.  ibits: initcheck's bit per byte written by the host or a kernel (NULL:
 * every byte counts as written); name: for reports (ptxeMemSetName, module variables). */
typedef struct galloc {
    uint64_t addr; size_t size; uint8_t *host;
    uint8_t *ibits; char *name;
    void *race;        /* racecheck's shadow during a launch (exec/sanitize.c) */
} galloc;

/* Findings of the last launch (exec/sanitize.c) and device printf output (vprintf). */
typedef struct { ptxeFinding *v; int n, cap; uint64_t more; } san_list;
typedef struct { char *s; size_t n, cap, limit; uint64_t dropped; int set; } pf_buf;


/* A multicast object (§9.7.8.13, exec/remote.c): the reserved multimem range [base, base + size)
 * and the buffer of each simulated device */
typedef struct xmcast {
    uint64_t base; size_t size; int ndev;
    uint64_t dev[PTXE_MULTICAST_MAX_DEVICES];
} xmcast;

struct ptxeCtx {
    galloc *allocs; int nallocs, cap;
    xmcast *mcasts; int nmcasts;   /* multicast objects (ptxeMulticastCreate) */
    uint64_t next_addr;
    uint8_t *cmem; size_t csize;   /* const bank (all modules) */
    char msg[8192];
    ptxeLaunchStats stats;
    uint64_t *per_warp; size_t per_warp_cap;
    uint64_t gridid;
    int addr32;                    /* an .address_size 32 module is loaded: allocate below 4 GiB */
    uint64_t next_addr32;
    uint64_t mem_limit; /* bytes of device memory allowed in all (0 = PTXE_DEFAULT_MEMORY_LIMIT) */
    uint64_t mem_used;             /* bytes allocated and not freed */
    unsigned checks;               /* PTXE_CHECK_* (exec/sanitize.c) */
    san_list findings;
    pf_buf pf;
    struct tex_table *tex;         /* texture and surface objects (exec/tex.c) */
    struct xheap *heap;            /* the device heap of device-side malloc (exec/heap.c) */
    size_t heap_limit;             /* cudaLimitMallocHeapSize, when heap_limit_set */
    int heap_limit_set;
};

typedef struct { const char *name; int space; uint64_t addr; size_t size; } xsym;

struct ptxeFunction { ptxeModule *mod; int idx; };

struct ptxeModule {
    ptxeCtx *ctx;
    ptx_module *ast;
    xinsn *prog; int nprog;
    xfunc *funcs; int nfuncs;
    ptxeFunction *fhandles;
    xsym *syms; int nsyms;
    uint32_t shared_static;   /* bytes of static .shared */
    int nregs_max; uint32_t psize_max;
    uint64_t *galloc_addrs; int ngallocs;
};

/* mem.c */
galloc *mem_find(ptxeCtx *c, uint64_t addr, size_t n);
int mem_alloc(ptxeCtx *c, size_t n, uint64_t *addr);
/* frees the allocation at addr (its range stays reserved: a later access faults); -1: none */
int mem_release(ptxeCtx *c, uint64_t addr);
/* an allocation as ptxeMemAlloc makes it (with initcheck's written bits when it is on) */
int mem_alloc_user(ptxeCtx *c, size_t n, uint64_t *addr);
/* the host bytes of [p, p + n) in global or const memory, NULL when not allocated */
uint8_t *mem_host(ptxeCtx *c, uint64_t p, size_t n);
void mem_mark_written(ptxeCtx *c, uint64_t p, size_t n);     /* initcheck: written by the host */
int mem_write(ptxeCtx *c, uint64_t dst, const void *src, size_t n);   /* -1: not allocated */
/* a module-scope .global or .const variable: its device address and size; -1: none */
int mem_symbol(const ptxeModule *m, const char *name, uint64_t *addr, size_t *size);
/* load.c */
int exec_load(ptxeCtx *ctx, ptxeModule *m, char *err, size_t errlen);
/* occupancy.c: how many CTAs of kernel ef (threads per CTA, shared memory per CTA) one SM of the
 * module's architecture holds, `limit` naming the resource that bounds it; the architecture
 * (compute capability x 10), its reference GPU and SM count (sm_count, or the GPU's when 0) */
typedef struct {
    int cc; const char *gpu; unsigned nsm;
    unsigned per_sm, regs;      /* CTAs per SM; registers per thread (.maxnreg or estimated) */
    uint64_t smem;              /* shared memory per CTA as allocated (with the reserved 1 KiB) */
    const char *limit;
} exec_occ;
int exec_occupancy(ptxeModule *m, xfunc *ef, unsigned threads, unsigned shared_bytes,
                   unsigned sm_count, exec_occ *o);
int exec_entry_live_in(ptxeModule *m, xfunc *ef, const int32_t **regs);
/* launch.c */
ptxeResult exec_launch(ptxeFunction *f, const ptxeLaunchConfig *cfg, void **params);
#endif
