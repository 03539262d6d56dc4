/* ptx/mnemonic.h — THE mnemonic tokenizer: splits a PTX instruction mnemonic with all its
 * qualifiers into its base (a row of the opcode table ptx/opcodes.def) and the qualifiers,
 * classified (ptx/qualifiers.def), e.g.
 *
 *   ld.global.relaxed.gpu.v2.u32          base ld; space global, sem relaxed, scope gpu, vec 2,
 *                                         type u32
 *   atom.acq_rel.gpu.global.cas.b32       base atom; sem, scope, space, operation cas, type b32
 *   fence.proxy.tensormap::generic.release.gpu      base fence; proxy tensormap::generic, ...
 *   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
 *                                         base cp.async.bulk; spaces shared::cluster (dst) and
 *                                         global (src) in order; completion mbarrier
 *   mbarrier.try_wait.parity.acquire.cta.shared::cta.b64
 *   ld.global.mmio.relaxed.sys.u32        sem relaxed + the mmio flag
 *   barrier.cluster.arrive.release.aligned
 *
 * It is used by every decoder of instruction text (exec/load.c; isa_decode in ptx/isa.c; the
 * litmus parser): it knows the words, the decoders know which combinations an instruction
 * allows.  It refuses, with a reason and the position: an unknown base mnemonic, an unknown or
 * empty qualifier, a word given twice, two semantics, two scopes, two vector widths, two atomic
 * operations, three state spaces, five types, more than PTX_MN_MAXQ qualifiers.
 *
 * Thread-safe: no strtok, no static buffers; the result points into the caller's text. */
#ifndef PTX_MNEMONIC_H
#define PTX_MNEMONIC_H
#include <stddef.h>
#include <stdint.h>

#include "ptx/isa.h"
#include "ptx/opcodes.h"

/* State spaces (§5.1; ::cta / ::cluster / ::entry / ::func forms kept apart). */
typedef enum { PTX_SS_NONE, PTX_SS_GLOBAL, PTX_SS_SHARED, PTX_SS_SHARED_CTA, PTX_SS_SHARED_CLUSTER,
               PTX_SS_LOCAL, PTX_SS_CONST, PTX_SS_PARAM, PTX_SS_PARAM_ENTRY, PTX_SS_PARAM_FUNC,
               PTX_SS_GENERIC } ptx_ss;
/* Memory semantics (§8.4; .volatile as written, §9.7.8.8). */
typedef enum { PTX_SEM_NONE, PTX_SEM_WEAK, PTX_SEM_RELAXED, PTX_SEM_ACQUIRE, PTX_SEM_RELEASE,
               PTX_SEM_ACQ_REL, PTX_SEM_SC, PTX_SEM_VOLATILE } ptx_sem;
/* Scopes (§8.5); membar.gl reads as gpu. */
typedef enum { PTX_SCOPE_NONE, PTX_SCOPE_CTA, PTX_SCOPE_CLUSTER, PTX_SCOPE_GPU,
               PTX_SCOPE_SYS } ptx_scope;
/* Proxy kinds after .proxy (§9.7.12.4; texture/surface/constant: the litmus dialect). */
typedef enum {
    PTX_PROXY_NONE,
    PTX_PROXY_ALIAS,
    PTX_PROXY_ASYNC,
    PTX_PROXY_TENSORMAP_GENERIC,
    PTX_PROXY_TEXTURE,
    PTX_PROXY_SURFACE,
    PTX_PROXY_CONSTANT,
    PTX_PROXY_ASYNC_GENERIC /* .async::generic (uni-directional, §9.7.13.4) */
} ptx_proxy;
/* Cache operators (§9.7.8.1). */
typedef enum { PTX_COP_NONE, PTX_COP_CA, PTX_COP_CG, PTX_COP_CS, PTX_COP_LU, PTX_COP_CV,
               PTX_COP_WB, PTX_COP_WT } ptx_cop;
/* Completion mechanisms of asynchronous operations (§9.7.8.24.1). */
typedef enum { PTX_CM_NONE, PTX_CM_MBARRIER, PTX_CM_BULK_GROUP } ptx_completion;
/* .op_restrict (fence.mbarrier_init) and .sync_restrict::shared::{cta,cluster}. */
typedef enum { PTX_RS_NONE, PTX_RS_MBARRIER_INIT, PTX_RS_SHARED_CTA,
               PTX_RS_SHARED_CLUSTER } ptx_restrict;

/* Classes of qualifiers (the class column of ptx/qualifiers.def). */
typedef enum { PTX_QC_OTHER, PTX_QC_SPACE, PTX_QC_SEM, PTX_QC_MMIO, PTX_QC_SCOPE, PTX_QC_VEC,
               PTX_QC_TYPE, PTX_QC_TYPEX, PTX_QC_ATOMOP, PTX_QC_PROXY, PTX_QC_COP, PTX_QC_EVICT,
               PTX_QC_CACHEHINT, PTX_QC_PREFETCH, PTX_QC_COMPLETION, PTX_QC_ALIGNED,
               PTX_QC_RESTRICT, PTX_QC_MULTICAST, PTX_QC_SHAPE, PTX_QC_COUNT } ptx_qclass;

/* One id per qualifier word; PTX_Q_SHAPE stands for any matrix shape (m16n8k16). */
typedef enum {
    PTX_Q_NONE,
#define Q(id, text, class, value) PTX_Q_##id,
#include "ptx/qualifiers.def"
    PTX_Q_SHAPE,
    PTX_Q_COUNT
} ptx_qid;

/* A qualifier as written: text[off .. off+len) of the mnemonic (without the dot). */
typedef struct {
    uint16_t off, len;
    uint16_t id;        /* ptx_qid */
    uint8_t cls;        /* ptx_qclass (contextual: an ATOMOP word may be OTHER) */
    uint8_t val;        /* the value within the class (see qualifiers.def) */
} ptx_qual;

#define PTX_MN_MAXQ 32

typedef struct ptx_mnemonic {
    const char *text;          /* the mnemonic (not copied) */
    uint16_t len;              /* its length */
    uint16_t base_len;         /* length of the base: 13 for "cp.async.bulk..." */
    uint16_t op;               /* ptx_opcode of the base (ld.global...nc: PTX_I_LD_NC) */
    uint8_t kind;              /* ptx_kind of op */
    uint8_t space, space2;     /* ptx_ss: first and second state space as written */
    uint8_t sem;               /* ptx_sem (PTX_SEM_NONE: none written) */
    uint8_t scope;             /* ptx_scope */
    uint8_t proxy;             /* ptx_proxy */
    uint8_t cop;               /* ptx_cop */
    uint8_t completion;        /* ptx_completion */
    uint8_t restrict_;         /* ptx_restrict */
    uint16_t prefetch;         /* ptx_qid of .L2::64B/128B/256B (PTX_Q_NONE: none) */
    uint16_t evict;            /* ptx_qid of an eviction-priority hint (PTX_Q_NONE: none) */
    uint8_t aop;               /* isa_atom_op for atom/red/redux/multimem/cp.reduce/red.async */
    uint8_t vec;               /* vector width: 1 (none), 2, 4, 8 */
    uint8_t ntypes;            /* value types written (.dtype.atype.btype.ctype), at most 4 */
    uint8_t type[4];           /* isa_type, in order */
    uint32_t given;            /* bit (1u << ptx_qclass) for each class written */
    uint8_t nq;                /* qualifiers after the base, in written order */
    ptx_qual q[PTX_MN_MAXQ];
    uint64_t has[(PTX_Q_COUNT + 63) / 64];   /* bit per ptx_qid written (base words excluded) */
} ptx_mnemonic;

typedef struct {
    size_t off;                /* byte offset in the mnemonic of what is wrong */
    char msg[160];             /* "unknown qualifier '.foo'": worded for "found ..." */
} ptx_mn_error;

/* Tokenizes text[0..len).  Returns 0, or -1 with err filled (m is then partly filled: m->op
 * tells whether the base was known). */
int ptx_mnemonic_parse(const char *text, size_t len, ptx_mnemonic *m, ptx_mn_error *err);

/* Was qualifier q written? */
static inline int ptx_mn_has(const ptx_mnemonic *m, ptx_qid q)
{
    return (int)(m->has[q >> 6] >> (q & 63) & 1);
}
/* Was a qualifier of class c written? */
static inline int ptx_mn_given(const ptx_mnemonic *m, ptx_qclass c)
{
    return (int)(m->given >> c & 1);
}
/* The last value type written (the .type of ld/st/atom...), ISA_T_NONE when none. */
static inline isa_type ptx_mn_type(const ptx_mnemonic *m)
{
    return m->ntypes ? (isa_type)m->type[m->ntypes - 1] : ISA_T_NONE;
}
/* The text of a qualifier id ("shared::cluster"); "" for NONE. */
const char *ptx_qual_text(ptx_qid q);
/* The qualifier id of a word (without the dot), PTX_Q_NONE if it is not one. */
ptx_qid ptx_qual_lookup(const char *word, size_t len);
/* Names for messages: "global", "relaxed", "gpu". */
const char *ptx_ss_name(int ss);
const char *ptx_sem_name(int sem);
const char *ptx_scope_name(int scope);
#endif
