/* frontend/litmus.h — the parsed form of a PTX litmus test (both the Dat3M dialect and real PTX
 * spelling, and the Tile IR and LLVM dialects), as produced by the litmus front ends
 * (lit_parse*, frontend/litmus_dialect.c) and consumed by the model and the driver.
 * Nothing here knows about the memory model: these are the program's threads, its memory
 * symbols and its final condition. */
#ifndef PTX_FRONTEND_LITMUS_H
#define PTX_FRONTEND_LITMUS_H

#include <stdint.h>
#include "ptx/isa.h"
#include "frontend/cond.h"

/* Operation semantics qualifier (ISA §8.4 operation types). */
typedef enum { SEM_WEAK, SEM_RELAXED, SEM_ACQUIRE, SEM_RELEASE, SEM_ACQ_REL, SEM_SC } lit_sem;
/* Scopes (ISA §8.5), ordered by inclusion. SCOPE_NONE: the operation has no scope (weak). */
typedef enum { SCOPE_NONE, SCOPE_CTA, SCOPE_CLUSTER, SCOPE_GPU, SCOPE_SYS } lit_scope;
/* Proxies (ISA §8.6): the method of memory access. */
typedef enum { PROXY_GENERIC, PROXY_TEXTURE, PROXY_SURFACE, PROXY_CONSTANT,
               PROXY_ASYNC /* §9.7.8.24.2: cp{.reduce}.async.bulk */, PROXY_COUNT } lit_proxy;
/* Fence flavours: memory fences (§8.4) and proxy fences (§9.7.12.4 fence.proxy). */
typedef enum {
    FENCE_SC,
    FENCE_ACQ_REL,
    FENCE_PROXY_ALIAS,
    FENCE_PROXY_TEXTURE,
    FENCE_PROXY_SURFACE,
    FENCE_PROXY_CONSTANT,
    FENCE_PROXY_GENERIC /* Dat3M's fence.proxy.generic (LitmusPTX.g4 fenceProxy) */,
    FENCE_PROXY_ASYNC, /* fence.proxy.async{.space}, fence.proxy.async::generic (uni) */
    FENCE_PROXY_TENSORMAP /* fence.proxy.tensormap::generic: no litmus access uses it */
} lit_fence;
/* BAR_CARRIVE / BAR_CWAIT: barrier.cluster.arrive / .wait (§9.7.13.3) */
typedef enum { BAR_SYNC, BAR_ARRIVE, BAR_RED, BAR_CARRIVE, BAR_CWAIT } lit_bar;
/* the reduction of bar{.cta}.red / barrier{.cta}.red (§9.7.12.1) */
typedef enum { BRED_POPC, BRED_AND, BRED_OR } lit_bred;
/* mbarrier operations (§9.7.13.15), lowered onto ld/st/atom of the mbarrier object's location
   (frontend/litmus_async.c, model/mbarrier.c) */
typedef enum { MB_NONE, MB_INIT, MB_ARRIVE, MB_EXPECT_TX, MB_COMPLETE_TX, MB_INC, MB_TEST,
               MB_TEST_PARITY } lit_mbar;
/* restricted fences (§9.7.13.4 .op_restrict, .sync_restrict) */
typedef enum { RS_NONE, RS_MBARRIER_INIT, RS_SHARED_CTA, RS_SHARED_CLUSTER } lit_restrict;
/* completion points of asynchronous operations (§9.7.8.24.4-5) */
typedef enum { AW_NONE, AW_COMMIT, AW_WAIT_GROUP, AW_WAIT_ALL } lit_await;
/* State spaces (ISA §5.1); SPACE_GENERIC: generic addressing (no state space written). */
typedef enum { SPACE_GENERIC, SPACE_GLOBAL, SPACE_SHARED_CTA, SPACE_SHARED_CLUSTER, SPACE_LOCAL,
               SPACE_CONST, SPACE_PARAM } lit_space;
typedef enum { CMP_EQ, CMP_NE, CMP_LT, CMP_GT, CMP_LE, CMP_GE } lit_cmp;

typedef enum {
    LI_LD,      /* ld, tld, suld, ld.const: a read */
    LI_ST,      /* st, sust: a write */
    LI_ATOM,    /* atom: read-modify-write returning the old value */
    LI_RED,     /* red: read-modify-write without a result */
    LI_FENCE,   /* fence.sc / fence.acq_rel / membar / fence.proxy.* */
    LI_BAR,     /* bar{.cta}.sync|arrive|red, barrier{.cta}.sync|arrive|red */
    LI_ALU,     /* a register computation evaluated by ptx/isa (add, setp, selp, mov, ...) */
    LI_BRANCH,  /* beq/bne/blt/bgt/ble/bge a, b, L */
    LI_GOTO,    /* goto L, bra L (possibly guarded) */
    LI_NOP      /* a label-only cell or an empty instruction */
} lit_ikind;

/* An operand: a register of the thread, an immediate, or the address of a memory symbol. */
typedef enum { OPD_NONE, OPD_REG, OPD_IMM, OPD_SYM } lit_opk;
typedef struct { lit_opk k; int reg; int64_t imm; int sym; int64_t off; } lit_opnd;

typedef struct {
    lit_ikind k;
    int line, col;           /* position of the cell in the source */
    char *text;              /* the instruction as written, whitespace-normalised */
    int guard;               /* predicate register guarding the instruction, -1 if none */
    int guard_neg;           /* @!%p */
    lit_sem sem;
    lit_scope scope;
    lit_proxy proxy;         /* access method forced by the mnemonic (tld/suld/...), else GENERIC */
    int volatile_; /* .volatile was written (treated as relaxed.sys, §9.7.8.8 ld, §9.7.8.11 st) */
    int mmio;                /* .mmio.relaxed.sys (§8.4.1: a strong operation) */
    int ptx;                 /* written in real PTX spelling (a type or a state space) */
    lit_space space;         /* state space of a memory op */
    isa_type type;           /* type suffix (memory op, or ALU result type), ISA_T_NONE if absent */
    int size;                /* bytes accessed (type width); 0: untyped, the whole location */
    int vec_id;              /* > 0: an element of the vector access of that number (ld/st .v2 .v4):
                                §8.2.4 "a set of equivalent memory operations with a scalar data
                                type, executed in an unspecified order" — unordered with the other
                                elements of its access, ordered with every other instruction */
    int part;                /* 1, 2: the low / high element of a packed atomic operation (f16x2,
                                bf16x2), §8.2.5 "a pair of equivalent memory operations on the
                                scalar data type, executed in an unspecified order": it reads its
                                16 bits of the source operands and writes its half of the
                                destination (vec_id pairs the two); 0 otherwise */
    isa_type packed;         /* the packed type of that operation (the destination's type) */
    int bar_inst;            /* Dat3M barrier instance (first operand of bar.cta.sync) */
    int bar_named;           /* Dat3M: the barrier gives an ID (bar.cta.sync INST, ID{, Q}) */
    int bar_unit; /* threads per litmus thread in a barrier count: 32 (PTX) or 1 (Dat3M) */
    lit_bred bar_op;         /* BAR_RED: the reduction; dst[0] receives its result */
    lit_opnd bar_pred;       /* BAR_RED: the predicate register c each thread contributes */
    int bar_pred_neg;        /* BAR_RED: {!}c was written with '!' (the complement contributes) */
    isa_atom_op aop;         /* atom/red operation */
    isa_insn alu;            /* LI_ALU */
    lit_fence fence;
    lit_bar bar;
    lit_cmp cmp;             /* LI_BRANCH */
    int target;              /* branch target: instruction index, resolved after parsing */
    char *target_name;
    lit_opnd addr;           /* memory address: OPD_SYM or OPD_REG (+ off) */
    lit_opnd dst[2];
    int ndst;
    lit_opnd src[4];
    int nsrc;
    /* the newer synchronization instructions (frontend/litmus_async.c) */
    lit_mbar mbar;           /* an mbarrier operation on the location at addr */
    int mb_drop, mb_nocomplete;   /* arrive_drop; .noComplete */
    int async_id;            /* > 0: part of the asynchronous operation of that number (§8.9.1.1):
                                ordered after prior instructions, not before later ones unless a
                                completion (wait_group, wait_all) covers it */
    int async_cp;            /* the operation is a non-bulk cp.async (async-group completion) */
    lit_await await;         /* cp.async.commit_group / wait_group N / wait_all (a NOP) */
    int await_n;
    lit_restrict restrict_;  /* fences */
    int uni;                 /* uni-directional proxy fence generic -> async (async::generic) */
    lit_space fspace; /* fence.proxy.async.{global,shared::cta,shared::cluster}, else GENERIC */
} lit_insn;

typedef struct {
    char *name;              /* "P0" */
    int cta, cluster, gpu;   /* placement; cluster = -1 - cta when the thread has none (§8.5) */
    int has_cluster;
    lit_insn *ins;
    int nins;
    char **labels;           /* label name per instruction index where defined, else NULL */
    /* registers: name table (without '%'), initial values */
    char **regs;
    int nregs;
    int64_t *reg_init;
    unsigned char *order;    /* NULL: program order is the order of the instructions; else an
                                nins x nins transitive relation: order[i * nins + j] = instruction
                                i is ordered before j (Tile IR token order: instructions not
                                related are unordered, even within one thread).  Owned. */
    isa_type *reg_type;      /* how the condition reads each register: its first typed writer's
                                result type, ISA_T_NONE (64-bit signed) when none is typed */
} lit_thread;

/* A memory symbol: a location, or an alias of another location's memory (ISA §8.2.2, §8.6). */
typedef struct {
    char *name;
    int loc;                 /* physical location id (index of the symbol that owns the memory) */
    int vaddr;               /* virtual address id: the generic symbol this one names (§8.2.2) */
    lit_proxy proxy; /* declared access method: generic, or surface/texture/constant alias */
    int64_t init;            /* initial value (meaningful on the owning symbol), as its bytes */
    int size; /* bytes (owning symbol): declared type, else the widest typed access, else 8 */
    isa_type type; /* how the condition reads it: declared, else that access's type, else s64 */
    int declared;            /* the initial state gave a type */
    int in_init;             /* named in the initial state (declared, given a value, aliased,
                                or taken the address of); frontend/litmus_warn.c */
    int shared;              /* owning symbol: some access names a .shared state space (§5.1.4) */
    int owner; /* owning symbol: a thread of the CTA whose .shared::cta memory holds it, -1 */
} lit_sym;

typedef struct {
    char *file;              /* as given on the command line */
    char *name;
    char *doc;
    lit_thread *th;
    int nth;
    lit_sym *sym;
    int nsym;
    cond_kind quant;         /* COND_EXISTS, COND_NOT_EXISTS, COND_FORALL */
    cond_node *cond;
    cond_node *filter;       /* herd's/Dat3M's `filter PROP`: only final states satisfying it count
                                (NULL: none) */
    cond_ref *locations;     /* extra observed items from `locations [...]` */
    int nlocations;
    int uses_proxies, uses_cluster;
    int *init_regs;          /* (thread, register) pairs the initial state gives a value */
    int ninit_regs;
    int uses_async;          /* mbarrier, barrier.cluster, async operations, the newer fences */
    char **notes;            /* warnings found while parsing ("file:line:col: warning: found X,
                                expected Y": no condition, a location or register initialised
                                twice); lit_warnings reports them first */
    int nnotes;
} lit_test;

/* Address values: the address of symbol s as a register value (for address-valued registers). */
#define LIT_ADDR_BASE 0x7f000000000LL
#define LIT_ADDR_STRIDE 0x1000LL
static inline int64_t lit_sym_addr(int s) { return LIT_ADDR_BASE + (int64_t)s * LIT_ADDR_STRIDE; }
/* Symbol of an address value, -1 if none. */
int lit_addr_sym(const lit_test *t, int64_t v);

/* Parse a test from text.  On error returns NULL and writes "file:line:col: message" to err. */
lit_test *lit_parse(const char *file, const char *text, char *err, size_t errlen);
lit_test *lit_parse_file(const char *path, char *err, size_t errlen);
/* The same with a condition nesting limit (levels of '(', '~', chained connectives). */
lit_test *lit_parse_ex(const char *file, const char *text, int max_depth, char *err, size_t errlen);
lit_test *lit_parse_file_ex(const char *path, int max_depth, char *err, size_t errlen);
/* ... reading at most cap bytes (a larger file is refused, as are FIFOs, directories, devices). */
lit_test *lit_parse_file_cap(const char *path, int max_depth, size_t cap, char *err, size_t errlen);
void lit_free(lit_test *t);

/* Warnings about a parsed test (frontend/litmus_warn.c): a condition or `locations` register
 * its thread never writes (nor the initial state initialises), and a condition location the
 * initial state never names; both read as 0, so a typo silently changes the verdict.  Each is
 * one line "file:line:col: warning: found X, expected Y".  Returns how many; *out (NULL when
 * none) is an array of them, freed with lit_warnings_free. */
int lit_warnings(const lit_test *t, char ***out);
void lit_warnings_free(char **w, int n);
int lit_find_sym(const lit_test *t, const char *name);
int lit_find_thread(const lit_test *t, const char *name);   /* "P0" or "0" */
int lit_find_reg(const lit_thread *th, const char *name);   /* with or without '%' */

#endif
