/* exec/tma.c — tensor memory access: the executor's tensor map (layout in exec/tma.h) and the
 * instructions on tensors, following PTX ISA 8.4 §5.5 (tensors: tiled mode §5.5.3 with
 * traversal strides and out-of-bound fill, im2col mode §5.5.4, interleave §5.5.5, swizzling
 * §5.5.6, tensor-map §5.5.7), §9.7.8.24.7 cp.reduce.async.bulk, §9.7.8.24.9
 * cp.async.bulk.tensor, §9.7.8.24.10 cp.reduce.async.bulk.tensor, §9.7.8.24.11
 * cp.async.bulk.prefetch.tensor, §9.7.8.25 tensormap.replace and §9.7.12.15.18
 * tensormap.cp_fenceproxy.
 *
 * Like cp.async.bulk (exec/async.c run_bulk), the asynchronous operations complete when issued:
 * the data is copied (or reduced) at once and the complete-tx of the box's bytes is performed on
 * the mbarrier(s); a bulk async-group then has nothing left to wait for.  That is one legal
 * schedule of the asynchronous proxy.  Choices where the ISA leaves freedom:
 *  - the shared-memory layout of a box is dense, dimension 0 innermost (§5.5: "treat the data
 *    in the shared memory as a linear data"); swizzling permutes 16-byte chunks by the
 *    shared-memory address bits as the §5.5.6 tables show: chunk bits [4,7) of the address are
 *    XORed with bits [7,10) masked to 1 (32B), 2 (64B) or 3 (128B) bits;
 *  - OOB-NaN fill writes the 16-bit pattern 0x7ff7 repeated over the element: the bits an H100
 *    wrote for f32 (0x7ff77ff7, tests/kernels/gpu/tma_tile2d.bin, docs/hw-results/
 *    2026-11-26b-h100); f16/bf16 0x7ff7 and f64 0x7ff77ff77ff77ff7 are the same pattern, not
 *    recorded (every one is a NaN of its type); integer types get zeros;
 *  - im2col: the pixels of a column are the filter-base positions of the bounding box in
 *    N,D,H,W order (W fastest) from the one the coordinates name, each position stepping by the
 *    traversal stride; the element read is at position + im2col offset; a position past the
 *    last image, or an element outside the tensor, is filled;
 *  - reductions apply isa_atom_apply per element (add of f32/f64/f16/bf16 rounds to nearest). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "exec/tma.h"
#include "exec/exec_int.h"

/* ---------------------------------------------------------------- the map */
static const uint8_t esizes[13] = { 1, 2, 4, 4, 8, 8, 2, 4, 4, 8, 2, 4, 4 };
/* Table 30 code -> isa_type (reductions and NaN fill) */
static const uint8_t etypes[13] = { ISA_T_U8,  ISA_T_U16, ISA_T_U32, ISA_T_S32, ISA_T_U64,
                                    ISA_T_S64, ISA_T_F16, ISA_T_F32, ISA_T_F32, ISA_T_F64,
                                    ISA_T_BF16, ISA_T_F32, ISA_T_F32 };

unsigned tma_elem_size(int et) { return et >= 0 && et < 13 ? esizes[et] : 0; }

static uint64_t rd(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n);
    return v;
}
static void wrb(uint8_t *p, uint64_t v, unsigned n) { memcpy(p, &v, n); }

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* the rules of cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col, and §5.5 */
static int check_dims(const tma_map *m, char *err, size_t errlen)
{
    unsigned es = tma_elem_size(m->et);
    for (int d = 0; d < m->rank; d++) {
        if (m->gdim[d] == 0) FAIL("global dim %d is 0, expected 1..2^32-1", d);
        if (m->es[d] < 1 || m->es[d] > 8)
            FAIL("element stride %d is %u, expected 1..8 (§5.5.3.2)", d, m->es[d]);
        if (d == 0) continue;
        if (m->gstr[d] % (m->il == 2 ? 32 : 16) || m->gstr[d] >= (1ull << 40))
            FAIL("global stride %d is %llu bytes, expected a multiple of %d below 2^40", d - 1,
                 (unsigned long long)m->gstr[d], m->il == 2 ? 32 : 16);
    }
    if (m->il == 0 && m->es[0] != 1 && m->mode == 0)
        FAIL("element stride 0 is %u, expected 1 without interleave (§5.5.3.2)", m->es[0]);
    if (m->mode == 0)
        for (int d = 0; d < m->rank; d++)
            if (m->box[d] < 1 || m->box[d] > 256) FAIL("box dim %d is %u, expected 1..256", d,
                                                       m->box[d]);
    unsigned inner = (m->mode == 0 ? m->box[0] : m->cpp) * es;
    if (m->il == 0 && inner % 16)
        FAIL("the box's inner dimension is %u bytes, expected a multiple of 16 (§5.5.3.1)",
             inner);
    static const unsigned span[4] = { 0, 32, 64, 128 };
    if (m->il == 0 && m->sw && inner > span[m->sw])
        FAIL("the box's inner dimension is %u bytes, expected at most the swizzle span %u",
             inner, span[m->sw]);
    return 0;
}

int tma_map_check(const tma_map *m, char *err, size_t errlen)
{
    if (m->mode < 0 || m->mode > 1) FAIL("mode %d, expected 0 (tiled) or 1 (im2col)", m->mode);
    if (m->rank < (m->mode ? 3 : 1) || m->rank > 5)
        FAIL("rank %d, expected %s", m->rank, m->mode ? "3..5 in im2col mode" : "1..5");
    if (!tma_elem_size(m->et)) FAIL("element type %d, expected 0..12 (§9.7.8.25 Table 30)",
                                      m->et);
    if (m->il < 0 || m->il > 2) FAIL("interleave %d, expected 0 (none), 1 (16B) or 2 (32B)", m->il);
    if (m->il && m->rank < 3) FAIL("interleave with rank %d, expected rank 3..5 (§5.5.5)", m->rank);
    if (m->sw < 0 || m->sw > 3) FAIL("swizzle %d, expected 0..3 (none, 32B, 64B, 128B)", m->sw);
    if (m->il == 2 && m->sw != 1)
        FAIL("32B interleave with swizzle %d, expected 32B swizzle", m->sw);
    if (m->fill < 0 || m->fill > 1) FAIL("OOB fill %d, expected 0 (zeros) or 1 (NaN)", m->fill);
    if (m->fill && !isa_type_is_float((isa_type)etypes[m->et]))
        FAIL("OOB-NaN fill on an integer element type, expected a floating-point type");
    if (m->l2 < 0 || m->l2 > 3) FAIL("L2 promotion %d, expected 0..3", m->l2);
    if (m->ga % (m->il == 2 ? 32 : 16))
        FAIL("global address 0x%llx, expected %d-byte alignment", (unsigned long long)m->ga,
             m->il == 2 ? 32 : 16);
    if (m->mode) {
        static const int lim[6] = { 0, 0, 0, 1 << 15, 1 << 7, 1 << 4 };
        for (int s = 0; s < m->rank - 2; s++)
            if (m->lo[s] < -lim[m->rank] || m->lo[s] >= lim[m->rank] || m->hi[s] < -lim[m->rank] ||
                m->hi[s] >= lim[m->rank])
                FAIL("pixel-box corner %d (%d, %d) outside [-%d, %d] for rank %d (§5.5.4.1)", s,
                     m->lo[s], m->hi[s], lim[m->rank], lim[m->rank] - 1, m->rank);
        if (m->cpp < 1 || m->cpp > 256) FAIL("channels per pixel %u, expected 1..256", m->cpp);
        if (m->ppc < 1 || m->ppc > 1024) FAIL("pixels per column %u, expected 1..1024", m->ppc);
    }
    return check_dims(m, err, errlen);
}

int tma_map_read(const uint8_t *b, tma_map *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (rd(b + 8, 4) != TMA_MAGIC)
        FAIL("no tensor map at this address (magic 0x%08llx, expected 0x%08x from "
             "ptxeTensorMapEncode*)", (unsigned long long)rd(b + 8, 4), TMA_MAGIC);
    m->ga = rd(b, 8);
    m->mode = b[12]; m->rank = b[13] + 1; m->et = b[14]; m->il = b[15];
    m->sw = b[16]; m->fill = b[17]; m->l2 = b[18];
    for (int d = 0; d < 5; d++) {
        m->gdim[d] = (uint32_t)rd(b + 20 + 4 * d, 4);
        m->box[d] = (uint32_t)rd(b + 72 + 4 * d, 4);
        m->es[d] = b[92 + d];
        if (d) m->gstr[d] = rd(b + 40 + 8 * (d - 1), 8);
    }
    m->gstr[0] = tma_elem_size(m->et);
    for (int s = 0; s < 3; s++) {
        m->lo[s] = (int16_t)rd(b + 98 + 2 * s, 2);
        m->hi[s] = (int16_t)rd(b + 104 + 2 * s, 2);
    }
    m->cpp = (uint32_t)rd(b + 110, 2); m->ppc = (uint32_t)rd(b + 112, 2);
    return tma_map_check(m, err, errlen);
}

void tma_map_write(const tma_map *m, uint8_t *b)
{
    memset(b, 0, TMA_MAP_BYTES);
    wrb(b, m->ga, 8); wrb(b + 8, TMA_MAGIC, 4);
    b[12] = (uint8_t)m->mode; b[13] = (uint8_t)(m->rank - 1); b[14] = (uint8_t)m->et;
    b[15] = (uint8_t)m->il; b[16] = (uint8_t)m->sw; b[17] = (uint8_t)m->fill;
    b[18] = (uint8_t)m->l2;
    for (int d = 0; d < 5; d++) {
        wrb(b + 20 + 4 * d, m->gdim[d], 4);
        wrb(b + 72 + 4 * d, m->box[d], 4);
        b[92 + d] = m->es[d];
        if (d) wrb(b + 40 + 8 * (d - 1), m->gstr[d], 8);
    }
    for (int s = 0; s < 3; s++) {
        wrb(b + 98 + 2 * s, (uint16_t)m->lo[s], 2);
        wrb(b + 104 + 2 * s, (uint16_t)m->hi[s], 2);
    }
    wrb(b + 110, m->cpp, 2); wrb(b + 112, m->ppc, 2);
}

/* ---------------------------------------------------------------- decoding */
/* the qualifiers each instruction may carry (besides .1d-.5d, checked by tensor_dim) */
#define QEND PTX_Q_NONE
static const uint16_t q_tensor[] = { PTX_Q_shared_cluster, PTX_Q_global, PTX_Q_shared_cta,
                                     PTX_Q_shared, PTX_Q_tile, PTX_Q_im2col, PTX_Q_im2col_no_offs,
                                     PTX_Q_mbarrier_complete_tx_bytes, PTX_Q_bulk_group,
                                     PTX_Q_multicast_cluster, PTX_Q_L2_cache_hint, QEND };
static const uint16_t q_rtensor[] = { PTX_Q_global, PTX_Q_shared_cta, PTX_Q_shared, PTX_Q_tile,
                                      PTX_Q_im2col_no_offs, PTX_Q_bulk_group, PTX_Q_L2_cache_hint,
                                      PTX_Q_add, PTX_Q_min, PTX_Q_max, PTX_Q_inc, PTX_Q_dec,
                                      PTX_Q_and, PTX_Q_or, PTX_Q_xor, QEND };
static const uint16_t q_prefetch[] = { PTX_Q_L2, PTX_Q_global, PTX_Q_tile, PTX_Q_im2col,
                                       PTX_Q_L2_cache_hint, QEND };
static const uint16_t q_bulkred[] = {
    PTX_Q_shared_cluster, PTX_Q_global, PTX_Q_shared_cta, PTX_Q_shared,
    PTX_Q_mbarrier_complete_tx_bytes, PTX_Q_bulk_group, PTX_Q_L2_cache_hint, PTX_Q_add,
    PTX_Q_min, PTX_Q_max, PTX_Q_inc, PTX_Q_dec, PTX_Q_and, PTX_Q_or, PTX_Q_xor, PTX_Q_noftz,
    PTX_Q_b32, PTX_Q_u32, PTX_Q_s32, PTX_Q_b64, PTX_Q_u64, PTX_Q_s64, PTX_Q_f32, PTX_Q_f64,
    PTX_Q_f16, PTX_Q_bf16, QEND };
static const uint16_t q_replace[] = {
    PTX_Q_tile, PTX_Q_global_address, PTX_Q_rank, PTX_Q_box_dim, PTX_Q_global_dim,
    PTX_Q_global_stride, PTX_Q_element_stride, PTX_Q_elemtype, PTX_Q_interleave_layout,
    PTX_Q_swizzle_mode, PTX_Q_fill_mode, PTX_Q_global, PTX_Q_shared_cta, PTX_Q_b1024, PTX_Q_b32,
    PTX_Q_b64, QEND };
static const uint16_t q_cpfence[] = { PTX_Q_global, PTX_Q_shared_cta, PTX_Q_tensormap_generic,
                                      PTX_Q_proxy, PTX_Q_release, PTX_Q_cta, PTX_Q_cluster,
                                      PTX_Q_gpu, PTX_Q_sys, PTX_Q_sync, PTX_Q_aligned, QEND };

static int is_dimq(int id) { return id >= PTX_Q_1d && id <= PTX_Q_5d; }

static int allowed(const ptx_mnemonic *mn, const uint16_t *ok, int dims, char *err,
                   size_t errlen)
{
    for (int i = 0; i < mn->nq; i++) {
        int id = mn->q[i].id, found = dims && is_dimq(id);
        for (const uint16_t *q = ok; *q && !found; q++) found = *q == id;
        if (!found)
            FAIL("found .%.*s, expected a qualifier of %.*s (§%s)", mn->q[i].len,
                 mn->text + mn->q[i].off, mn->base_len, mn->text, ptx_ops[mn->op].section);
    }
    return 0;
}

static int tensor_dim(const ptx_mnemonic *mn, xtma *t, char *err, size_t errlen)
{
    for (int i = 0; i < mn->nq; i++)
        if (is_dimq(mn->q[i].id)) t->dim = (uint8_t)(mn->q[i].id - PTX_Q_1d + 1);
    if (!t->dim) FAIL("found no .dim, expected .1d, .2d, .3d, .4d or .5d");
    return 0;
}

static int sp_of(int ss)
{
    switch (ss) {
    case PTX_SS_GLOBAL: return SP_GLOBAL;
    case PTX_SS_SHARED: case PTX_SS_SHARED_CTA: return SP_SHARED;
    case PTX_SS_SHARED_CLUSTER: return SP_SHCLUSTER;
    default: return SP_NONE;
    }
}

/* operand plan */
static void plan(xtma *t, int slot, int op, int elem, int how)
{
    t->plan[t->nplan++] = (tma_opnd){ (int8_t)slot, (int8_t)op, (int8_t)elem, (uint8_t)how };
}

/* [tensorMap, {c0..}] at operand i: slot 1 and coordinate slots 2.. */
static int tmap_operand(const ptx_stmt *st, int i, xtma *t, char *err, size_t errlen, int *at)
{
    const ptx_opnd *o = &st->ops[i];
    *at = i;
    /* the parser keeps [a, b, ...] as the address a with elems b, ...: here one vector */
    int nc = o->kind == PTX_OP_ADDR && o->nelems == 1 && o->elems[0].kind == PTX_OP_VEC
             ? o->elems[0].nelems : -1;
    if (o->kind != PTX_OP_ADDR || nc != t->dim)
        FAIL("found %s, expected [tensorMap, {%d coordinate%s}] (§9.7.8.24.9)",
             o->kind != PTX_OP_ADDR ? "an operand that is not an address"
                                    : "a wrong number of tensor coordinates",
             t->dim, t->dim > 1 ? "s" : "");
    plan(t, 1, i, -1, TO_ADDR);
    for (int k = 0; k < t->dim; k++) plan(t, 2 + k, i, k, TO_S32);
    *at = -1;
    return 0;
}

/* {o0..} im2col offsets at operand i: dim - 2 values of .u16 in slots 8.. */
static int offsets_operand(const ptx_stmt *st, int i, xtma *t, char *err, size_t errlen,
                           int *at)
{
    const ptx_opnd *o = &st->ops[i];
    int n = o->kind == PTX_OP_VEC ? o->nelems : 1;
    if (n != t->dim - 2) {
        *at = i;
        FAIL("found %d im2col offsets, expected %d (.dim - 2, §9.7.8.24.9)", n, t->dim - 2);
    }
    for (int k = 0; k < n; k++) plan(t, 8 + k, i, o->kind == PTX_OP_VEC ? k : -1, TO_U16);
    return 0;
}

static int nops_is(const ptx_stmt *st, int want, const char *form, char *err, size_t errlen)
{
    if (st->nops != want) FAIL("found %d operands, expected %d: %s", st->nops, want, form);
    return 0;
}

#define HAS(q) ptx_mn_has(mn, PTX_Q_##q)

/* global -> shared::cluster load: [dst], [tensorMap, {c}], [mbar] {, {offs}} {, ctaMask} */
static int dec_load(const ptx_mnemonic *mn, const ptx_stmt *st, xtma *t, char *err,
                    size_t errlen, int *at)
{
    t->form = TM_LOAD;
    t->mbar = 1;
    t->multicast = (uint8_t)HAS(multicast_cluster);
    if (mn->completion != PTX_CM_MBARRIER)
        FAIL("found no .mbarrier::complete_tx::bytes, expected it on .shared::cluster.global");
    if (HAS(im2col_no_offs)) FAIL("found .im2col_no_offs on a load, expected .tile or .im2col");
    int n = 3 + t->im2col + t->multicast + HAS(L2_cache_hint);
    if (nops_is(st, n, "[dstMem], [tensorMap, tensorCoords], [mbar]{, im2colOffsets}"
                       "{, ctaMask}{, cache-policy}", err, errlen))
        return -1;
    plan(t, 0, 0, -1, TO_ADDR);
    if (tmap_operand(st, 1, t, err, errlen, at)) return -1;
    plan(t, 7, 2, -1, TO_ADDR);
    int k = 3;
    if (t->im2col && offsets_operand(st, k++, t, err, errlen, at)) return -1;
    if (t->multicast) plan(t, 11, k, -1, TO_U16);
    return 0;
}

/* shared::cta -> global store or reduction: [tensorMap, {c}], [src] {, cache-policy} */
static int dec_store(const ptx_mnemonic *mn, const ptx_stmt *st, xtma *t, char *err,
                     size_t errlen, int *at)
{
    if (mn->completion != PTX_CM_BULK_GROUP)
        FAIL("found no .bulk_group, expected it on .global.shared::cta");
    if (HAS(im2col)) FAIL("found .im2col on a store, expected .tile or .im2col_no_offs");
    if (HAS(multicast_cluster)) FAIL("found .multicast::cluster on a store, expected none");
    if (nops_is(st, 2 + HAS(L2_cache_hint), "[tensorMap, tensorCoords], [srcMem]{, cache-policy}",
                err, errlen) ||
        tmap_operand(st, 0, t, err, errlen, at))
        return -1;
    plan(t, 0, 1, -1, TO_ADDR);
    return 0;
}

/* cp.async.bulk.tensor and cp.reduce.async.bulk.tensor (§9.7.8.24.9-10) */
static int dec_tensor(const ptx_mnemonic *mn, const ptx_stmt *st, xtma *t, char *err,
                      size_t errlen, int *at)
{
    int red = mn->op == PTX_I_CP_REDUCE_ASYNC_BULK_TENSOR;
    if (allowed(mn, red ? q_rtensor : q_tensor, 1, err, errlen) ||
        tensor_dim(mn, t, err, errlen))
        return -1;
    t->dsp = (uint8_t)sp_of(mn->space);
    t->ssp = (uint8_t)sp_of(mn->space2);
    t->im2col = (uint8_t)(HAS(im2col) || HAS(im2col_no_offs));
    if (t->im2col && t->dim < 3) FAIL("found .im2col with .%dd, expected .3d, .4d or .5d", t->dim);
    if (red) {
        t->form = TM_REDUCE;
        t->red = mn->aop;
        if (!t->red) FAIL("found no .redOp, expected .add .min .max .inc .dec .and .or .xor");
    }
    if (!red && t->dsp == SP_SHCLUSTER && t->ssp == SP_GLOBAL) return dec_load(mn, st, t, err,
                                                                             errlen, at);
    if (t->dsp == SP_GLOBAL && t->ssp == SP_SHARED) {
        if (!red) t->form = TM_STORE;
        return dec_store(mn, st, t, err, errlen, at);
    }
    FAIL("found %s without its .dst.src, expected %s", st->opcode,
         red ? ".global.shared::cta" : ".shared::cluster.global or .global.shared::cta");
}

/* cp.async.bulk.prefetch.tensor.dim.L2.global (§9.7.8.24.11) */
static int dec_prefetch(const ptx_mnemonic *mn, const ptx_stmt *st, xtma *t, char *err,
                        size_t errlen, int *at)
{
    if (allowed(mn, q_prefetch, 1, err, errlen) || tensor_dim(mn, t, err, errlen)) return -1;
    t->form = TM_PREFETCH;
    if (!HAS(L2) || mn->space != PTX_SS_GLOBAL) FAIL("found no .L2.global, expected .L2.global");
    t->im2col = (uint8_t)HAS(im2col);
    if (t->im2col && t->dim < 3) FAIL("found .im2col with .%dd, expected .3d, .4d or .5d", t->dim);
    if (nops_is(st, 1 + t->im2col + HAS(L2_cache_hint),
                "[tensorMap, tensorCoords]{, im2colOffsets}{, cache-policy}", err, errlen) ||
        tmap_operand(st, 0, t, err, errlen, at))
        return -1;
    return t->im2col ? offsets_operand(st, 1, t, err, errlen, at) : 0;
}

/* element types each .redOp of cp.reduce.async.bulk allows (§9.7.8.24.7's table), by .dst */
#define TB(t) (1u << (t))
static unsigned bulk_red_types(int global, int op)
{
    switch (op) {
    case ISA_ATOM_ADD:
        return TB(ISA_T_U32) | TB(ISA_T_S32) | TB(ISA_T_U64) |
               (global ? TB(ISA_T_F32) | TB(ISA_T_F64) | TB(ISA_T_F16) | TB(ISA_T_BF16) : 0);
    case ISA_ATOM_MIN: case ISA_ATOM_MAX:
        return TB(ISA_T_U32) | TB(ISA_T_S32) |
               (global ? TB(ISA_T_U64) | TB(ISA_T_S64) | TB(ISA_T_F16) | TB(ISA_T_BF16) : 0);
    case ISA_ATOM_INC: case ISA_ATOM_DEC: return TB(ISA_T_U32);
    case ISA_ATOM_AND: case ISA_ATOM_OR: case ISA_ATOM_XOR:
        return TB(ISA_T_B32) | (global ? TB(ISA_T_B64) : 0);
    default: return 0;
    }
}

/* cp.reduce.async.bulk (§9.7.8.24.7): [dst], [src], size{, [mbar]}{, cache-policy} */
static int dec_bulk_red(const ptx_mnemonic *mn, const ptx_stmt *st, xtma *t, char *err,
                        size_t errlen, int *at)
{
    if (allowed(mn, q_bulkred, 0, err, errlen)) return -1;
    t->form = TM_BULK_RED;
    t->dsp = (uint8_t)sp_of(mn->space);
    t->ssp = (uint8_t)sp_of(mn->space2);
    t->red = mn->aop;
    t->rtype = (uint8_t)ptx_mn_type(mn);
    int global = t->dsp == SP_GLOBAL;
    if (!(t->dsp == SP_SHCLUSTER || global) || t->ssp != SP_SHARED)
        FAIL("found %s without its .dst.src, expected .shared::cluster.shared::cta or "
             ".global.shared::cta", st->opcode);
    t->mbar = !global;
    if (mn->completion != (global ? PTX_CM_BULK_GROUP : PTX_CM_MBARRIER))
        FAIL("found no %s, expected it with .dst %s",
             global ? ".bulk_group" : ".mbarrier::complete_tx::bytes",
             global ? ".global" : ".shared::cluster");
    if (!t->red || t->rtype == ISA_T_NONE)
        FAIL("found no .redOp.type, expected e.g. .add.u32 (§9.7.8.24.7)");
    if (!(bulk_red_types(global, t->red) >> t->rtype & 1))
        FAIL("found .%s.%s with .dst .%s, expected a pair of §9.7.8.24.7's table",
             isa_atom_name((isa_atom_op)t->red), isa_type_name((isa_type)t->rtype),
             global ? "global" : "shared::cluster");
    int half = t->rtype == ISA_T_F16 || t->rtype == ISA_T_BF16;
    if (half && t->red == ISA_ATOM_ADD && !HAS(noftz))
        FAIL("found .add.%s without .noftz, expected .add.noftz (§9.7.8.24.7)",
             isa_type_name((isa_type)t->rtype));
    if (HAS(noftz) && !(half && t->red == ISA_ATOM_ADD))
        FAIL("found .noftz, expected it only on .add.f16 and .add.bf16");
    if (HAS(L2_cache_hint) && !global) FAIL("found .L2::cache_hint, expected it only with .global");
    if (nops_is(st, 3 + t->mbar + HAS(L2_cache_hint),
                global ? "[dstMem], [srcMem], size{, cache-policy}"
                       : "[dstMem], [srcMem], size, [mbar]", err, errlen))
        return -1;
    plan(t, 0, 0, -1, TO_ADDR);
    plan(t, 1, 1, -1, TO_ADDR);
    plan(t, 2, 2, -1, TO_U32);
    if (t->mbar) plan(t, 3, 3, -1, TO_ADDR);
    return 0;
}

/* tensormap.replace fields (§9.7.8.25): the qualifier, its group (1..3), the number of
 * ordinals (field2), the largest immediate (field3) */
static const struct { uint16_t q; uint8_t group, nord, maxv; } fields[] = {
    { PTX_Q_global_address, 1, 0, 0 }, { PTX_Q_rank, 1, 0, 0 },
    { PTX_Q_box_dim, 2, 5, 0 },        { PTX_Q_global_dim, 2, 5, 0 },
    { PTX_Q_global_stride, 2, 4, 0 },  { PTX_Q_element_stride, 2, 5, 0 },
    { PTX_Q_elemtype, 3, 0, 12 },      { PTX_Q_interleave_layout, 3, 0, 2 },
    { PTX_Q_swizzle_mode, 3, 0, 3 },   { PTX_Q_fill_mode, 3, 0, 1 },
};
#define NFIELDS (int)(sizeof fields / sizeof fields[0])

/* tensormap.replace.tile.field{.ss}.b1024.type [addr], {ord,} new_val */
static int dec_replace(const ptx_mnemonic *mn, const ptx_stmt *st, xtma *t, char *err,
                       size_t errlen, int *at)
{
    if (allowed(mn, q_replace, 0, err, errlen)) return -1;
    t->form = TM_REPLACE;
    int f = -1;
    for (int i = 0; i < NFIELDS; i++)
        if (ptx_mn_has(mn, (ptx_qid)fields[i].q)) {
            if (f >= 0) FAIL("found two fields, expected one");
            f = i;
        }
    if (!HAS(tile)) FAIL("found no .mode, expected .tile");
    if (f < 0) FAIL("found no field, expected e.g. .global_address, .box_dim, .swizzle_mode");
    if (!HAS(b1024)) FAIL("found no .b1024, expected the tensor map's size .b1024");
    int wide = fields[f].q == PTX_Q_global_address || fields[f].q == PTX_Q_global_stride;
    isa_type ty = ptx_mn_type(mn);
    if (ty != (wide ? ISA_T_B64 : ISA_T_B32))
        FAIL("found .%s, expected .%s for .%s", ty ? isa_type_name(ty) : "(no type)",
             wide ? "b64" : "b32", ptx_qual_text((ptx_qid)fields[f].q));
    t->field = (uint8_t)f;
    t->dsp = (uint8_t)(mn->space == PTX_SS_NONE ? SP_GENERIC : sp_of(mn->space));
    int g = fields[f].group;
    if (nops_is(st, g == 2 ? 3 : 2, g == 2 ? "[addr], ord, new_val" : "[addr], new_val", err,
                errlen))
        return -1;
    plan(t, 0, 0, -1, TO_ADDR);
    const ptx_opnd *o = &st->ops[1];
    *at = 1;
    if (g == 2 && (o->kind != PTX_OP_INT || o->ival < 0 || o->ival >= fields[f].nord))
        FAIL("found a bad ord, expected an immediate 0..%d%s", fields[f].nord - 1,
             fields[f].q == PTX_Q_global_stride
                 ? " (ord k: the byte stride of dimension k + 1; ptxas also takes 4, which the "
                   "executor's map has no place for)"
                 : " (the dimension)");
    if (g == 2) t->ord = (uint8_t)o->ival;
    o = &st->ops[st->nops - 1];
    *at = st->nops - 1;
    if (g == 3 && (o->kind != PTX_OP_INT || o->ival < 0 || o->ival > fields[f].maxv))
        FAIL("found a bad new_val for .%s, expected an immediate 0..%d (§9.7.8.25 Table 30)",
             ptx_qual_text((ptx_qid)fields[f].q), fields[f].maxv);
    *at = -1;
    plan(t, 2, st->nops - 1, -1, wide ? TO_B64 : TO_U32);
    return 0;
}

/* tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
 * [dst], [src], size (§9.7.12.15.18) */
static int dec_cpfence(const ptx_mnemonic *mn, const ptx_stmt *st, xtma *t, char *err,
                       size_t errlen, int *at)
{
    if (allowed(mn, q_cpfence, 0, err, errlen)) return -1;
    t->form = TM_CPFENCE;
    if (mn->space != PTX_SS_GLOBAL || mn->space2 != PTX_SS_SHARED_CTA)
        FAIL("found no .global.shared::cta, expected it (copy from shared::cta to global)");
    if (mn->proxy != PTX_PROXY_TENSORMAP_GENERIC || mn->sem != PTX_SEM_RELEASE)
        FAIL("found no .tensormap::generic.release, expected it");
    if (!HAS(sync) || !HAS(aligned)) FAIL("found no .sync.aligned, expected it (mandatory)");
    if (nops_is(st, 3, "[dst], [src], size", err, errlen)) return -1;
    if (st->ops[2].kind == PTX_OP_INT && st->ops[2].ival != 128) {
        *at = 2;
        FAIL("found size %lld, expected 128", (long long)st->ops[2].ival);
    }
    plan(t, 0, 0, -1, TO_ADDR);
    plan(t, 1, 1, -1, TO_ADDR);
    plan(t, 2, 2, -1, TO_U32);
    return 0;
}

int tma_decode(const ptx_mnemonic *mn, const ptx_stmt *st, xtma *t, char *err, size_t errlen,
               int *at)
{
    memset(t, 0, sizeof *t);
    *at = -1;
    switch (mn->op) {
    case PTX_I_CP_ASYNC_BULK_TENSOR:
    case PTX_I_CP_REDUCE_ASYNC_BULK_TENSOR: return dec_tensor(mn, st, t, err, errlen, at);
    case PTX_I_CP_ASYNC_BULK_PREFETCH_TENSOR: return dec_prefetch(mn, st, t, err, errlen, at);
    case PTX_I_CP_REDUCE_ASYNC_BULK: return dec_bulk_red(mn, st, t, err, errlen, at);
    case PTX_I_TENSORMAP_REPLACE: return dec_replace(mn, st, t, err, errlen, at);
    case PTX_I_TENSORMAP_CP_FENCEPROXY: return dec_cpfence(mn, st, t, err, errlen, at);
    default: FAIL("found %s, expected a tensor-memory instruction", st->opcode);
    }
}

/* ---------------------------------------------------------------- running */
static int tfail(const tma_io *io, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int tfail(const tma_io *io, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    io->fail(io->ctx, msg);
    return -1;
}

static uint64_t slot(const xtma *t, const uint64_t *v, int k) { return v[k] + (uint64_t)t->off[k]; }

/* The elements of a box (§5.5.3 tiled, §5.5.4 im2col): element j lies at byte soff of the
 * shared-memory box and, when in bounds, at global address gaddr. */
typedef struct {
    const tma_map *m;
    unsigned esz, im2col, ns;        /* element size; im2col; spatial dims (im2col) */
    uint64_t n, bytes;               /* elements, bytes of the box */
    int64_t c[5];                    /* coordinates */
    uint64_t cnt[5];                 /* tiled: elements per dim; im2col: positions per
                                        spatial dim */
    int64_t off[3];                  /* im2col offsets */
    uint64_t start;                  /* im2col: linear index of the first pixel */
} walk;

static int walk_init(walk *w, const tma_map *m, const xtma *t, const uint64_t *v,
                     const tma_io *io)
{
    memset(w, 0, sizeof *w);
    w->m = m;
    w->esz = tma_elem_size(m->et);
    w->im2col = t->im2col;
    for (int d = 0; d < m->rank; d++) w->c[d] = (int32_t)v[2 + d];
    if (!t->im2col) {
        w->n = 1;
        for (int d = 0; d < m->rank; d++) {
            w->cnt[d] = (m->box[d] + m->es[d] - 1) / m->es[d];
            w->n *= w->cnt[d];
        }
        w->bytes = w->n * w->esz;
        return 0;
    }
    w->ns = (unsigned)m->rank - 2;
    uint64_t lin = 0, span = 1;
    for (unsigned s = 0; s < w->ns; s++) {
        int64_t hi = (int64_t)m->gdim[1 + s] - 1 + m->hi[s], lo = m->lo[s];
        w->cnt[s] = hi >= lo ? (uint64_t)((hi - lo) / m->es[1 + s] + 1) : 0;
        int64_t cs = w->c[1 + s];
        if (cs < lo || cs > hi)
            return tfail(io, "im2col coordinate %lld of dimension %u is outside the bounding box "
                             "[%lld, %lld] (§5.5.4.1: the filter corner must be within it)",
                         (long long)cs, 1 + s, (long long)lo, (long long)hi);
        w->off[s] = t->form == TM_LOAD || t->form == TM_PREFETCH ? (int64_t)(uint16_t)v[8 + s] : 0;
        static const int64_t offmax[6] = { 0, 0, 0, 65535, 255, 31 };   /* §5.5.4.1 */
        if (w->off[s] > offmax[m->rank])
            return tfail(io, "im2col offset %lld of dimension %u is outside [0, %lld] for rank %d "
                             "(§5.5.4.1)", (long long)w->off[s], 1 + s,
                         (long long)offmax[m->rank], m->rank);
        lin += (uint64_t)((cs - lo) / m->es[1 + s]) * span;
        span *= w->cnt[s];
    }
    int64_t n0 = w->c[m->rank - 1];
    w->start = n0 >= 0 ? lin + (uint64_t)n0 * span : UINT64_MAX;
    w->n = (uint64_t)m->ppc * m->cpp;
    w->bytes = w->n * w->esz;
    return 0;
}

/* element j: 1 in bounds (gaddr set), 0 out of bounds; *soff its offset in the box */
static int walk_at(const walk *w, uint64_t j, uint64_t *gaddr, uint64_t *soff)
{
    const tma_map *m = w->m;
    int64_t x[5];
    *soff = j * w->esz;
    if (!w->im2col) {
        for (int d = 0; d < m->rank; d++) {
            x[d] = w->c[d] + (int64_t)(j % w->cnt[d]) * m->es[d];
            j /= w->cnt[d];
        }
    } else {
        uint64_t pix = j / m->cpp, l = w->start + pix;
        if (w->start == UINT64_MAX || l < w->start) return 0;
        x[0] = w->c[0] + (int64_t)(j % m->cpp);
        for (unsigned s = 0; s < w->ns; s++) {
            if (!w->cnt[s]) return 0;
            x[1 + s] = m->lo[s] + (int64_t)(l % w->cnt[s]) * m->es[1 + s] + w->off[s];
            l /= w->cnt[s];
        }
        x[m->rank - 1] = (int64_t)l;
    }
    uint64_t a = m->ga;
    for (int d = 0; d < m->rank; d++) {
        if (x[d] < 0 || x[d] >= (int64_t)m->gdim[d]) return 0;
        a += (uint64_t)x[d] * m->gstr[d];
    }
    *gaddr = a;
    return 1;
}

/* §5.5.6: 16-byte chunk bits [4,7) of a shared-memory address XOR bits [7,10), 1-3 of them */
static uint64_t swz(int sw, uint64_t a)
{
    static const uint64_t mask[4] = { 0, 1, 3, 7 };
    return a ^ (((a >> 7) & mask[sw]) << 4);
}

/* the tensor map of slot 1, read and checked, in the mode the instruction wants */
static int get_map(const xtma *t, const uint64_t *v, const tma_io *io, tma_map *m)
{
    uint64_t a = slot(t, v, 1);
    const uint8_t *p = io->mem(io->ctx, SP_GENERIC, a, TMA_MAP_BYTES, 64, 0, "tensor-map read");
    if (!p) return -1;
    char err[300];
    if (tma_map_read(p, m, err, sizeof err))
        return tfail(io, "bad tensor map at 0x%llx: %s", (unsigned long long)a, err);
    if (m->rank != t->dim)
        return tfail(io, "tensor map at 0x%llx has rank %d, the instruction .%dd",
                     (unsigned long long)a, m->rank, t->dim);
    if (m->mode != t->im2col)
        return tfail(io, "tensor map at 0x%llx is %s, the instruction %s", (unsigned long long)a,
                     m->mode ? "im2col" : "tiled", t->im2col ? "im2col" : "tile mode");
    return 0;
}

/* OOB fill value (§5.5.3.3 gives no bits): zeros, or the NaN an H100 writes, 0x7ff7 per 16 bits
 * (f32 0x7ff77ff7 recorded in tests/kernels/gpu/tma_tile2d.bin) */
static uint64_t fill_value(const tma_map *m)
{
    if (!m->fill) return 0;
    switch (etypes[m->et]) {
    case ISA_T_F16: case ISA_T_BF16: return 0x7ff7;
    case ISA_T_F64: return 0x7ff77ff77ff77ff7ull;
    default: return 0x7ff77ff7;
    }
}

/* global -> shared::cluster (§9.7.8.24.9): the box into each destination CTA, then complete-tx
 * of the box's bytes on that CTA's mbarrier (same offset, .multicast::cluster) */
static int run_load(const xtma *t, const uint64_t *v, const tma_io *io)
{
    tma_map m;
    walk w;
    if (get_map(t, v, io, &m) || walk_init(&w, &m, t, v, io)) return -1;
    uint64_t dst = slot(t, v, 0), mb = slot(t, v, 7), fill = fill_value(&m);
    if (dst % 16)
        return tfail(io, "cp.async.bulk.tensor destination 0x%llx is not 16-byte aligned "
                         "(§5.5.3.1)", (unsigned long long)dst);
    uint32_t mask = t->multicast ? (uint32_t)v[11] & 0xffff : 1;
    for (int r = 0; r < 16; r++) {
        if (!(mask >> r & 1)) continue;
        uint64_t base = t->multicast ? ((uint64_t)(r + 1) << SHCL_SHIFT) | SHCL_OFF(dst) : dst;
        for (uint64_t j = 0; j < w.n; j++) {
            uint64_t ga = 0, so, val = fill;
            if (walk_at(&w, j, &ga, &so)) {
                const uint8_t *s = io->mem(io->ctx, SP_GLOBAL, ga, w.esz, w.esz, 0,
                                           "cp.async.bulk.tensor load");
                if (!s) return -1;
                val = rd(s, w.esz);
            }
            uint8_t *d = io->mem(io->ctx, SP_SHCLUSTER, swz(m.sw, base + so), w.esz, w.esz, 1,
                                 "cp.async.bulk.tensor store");
            if (!d) return -1;
            wrb(d, val, w.esz);
        }
        uint64_t b = t->multicast ? ((uint64_t)(r + 1) << SHCL_SHIFT) | SHCL_OFF(mb) : mb;
        if (io->complete_tx(io->ctx, b, (uint32_t)w.bytes)) return -1;
    }
    return 0;
}

/* the element types cp.reduce.async.bulk.tensor allows for .redOp (§9.7.8.24.10's table) */
static int tensor_red_ok(int op, int ty)
{
    switch (op) {
    case ISA_ATOM_ADD:
        return ty == ISA_T_U32 || ty == ISA_T_S32 || ty == ISA_T_U64 || ty == ISA_T_F32 ||
               ty == ISA_T_F16 || ty == ISA_T_BF16;
    case ISA_ATOM_MIN: case ISA_ATOM_MAX:
        return ty == ISA_T_U32 || ty == ISA_T_S32 || ty == ISA_T_U64 || ty == ISA_T_S64 ||
               ty == ISA_T_F16 || ty == ISA_T_BF16;
    case ISA_ATOM_INC: case ISA_ATOM_DEC: return ty == ISA_T_U32;
    default:   /* .and .or .xor on .b32 .b64: the integer types of those sizes */
        return ty == ISA_T_U32 || ty == ISA_T_S32 || ty == ISA_T_U64 || ty == ISA_T_S64;
    }
}

/* shared::cta -> global store or reduction (§9.7.8.24.9-10): elements out of bounds are not
 * written */
static int run_store(const xtma *t, const uint64_t *v, const tma_io *io)
{
    tma_map m;
    walk w;
    if (get_map(t, v, io, &m) || walk_init(&w, &m, t, v, io)) return -1;
    isa_type ty = (isa_type)etypes[m.et];
    if (m.et == 8 || m.et >= 11) ty = ISA_T_NONE;   /* .f32.ftz, .tf32{.ftz}: not in the table */
    if (t->form == TM_REDUCE && !tensor_red_ok(t->red, ty))
        return tfail(io, "cp.reduce.async.bulk.tensor .%s on a tensor of element type %d, "
                         "expected a pair of §9.7.8.24.10's table",
                     isa_atom_name((isa_atom_op)t->red), m.et);
    uint64_t src = slot(t, v, 0);
    if (src % 16)
        return tfail(io, "cp.async.bulk.tensor source 0x%llx is not 16-byte aligned (§5.5.3.1)",
                     (unsigned long long)src);
    for (uint64_t j = 0; j < w.n; j++) {
        uint64_t ga = 0, so;
        if (!walk_at(&w, j, &ga, &so)) continue;
        const uint8_t *s = io->mem(io->ctx, SP_SHARED, swz(m.sw, src + so), w.esz, w.esz, 0,
                                   "cp.async.bulk.tensor load");
        if (!s) return -1;
        uint64_t val = rd(s, w.esz);
        uint8_t *d = io->mem(io->ctx, SP_GLOBAL, ga, w.esz, w.esz, 1,
                             t->form == TM_REDUCE ? "atomic reduction (cp.reduce.async.bulk)"
                                                  : "cp.async.bulk.tensor store");
        if (!d) return -1;
        if (t->form == TM_REDUCE &&
            isa_atom_apply((isa_atom_op)t->red, ty, rd(d, w.esz), val, 0, &val) < 0)
            return tfail(io, "no semantics for .%s on element type %d",
                         isa_atom_name((isa_atom_op)t->red), m.et);
        wrb(d, val, w.esz);
    }
    return 0;
}

/* cp.reduce.async.bulk (§9.7.8.24.7): dst[i] = dst[i] op src[i], then complete-tx(size) */
static int run_bulk_red(const xtma *t, const uint64_t *v, const tma_io *io)
{
    uint64_t dst = slot(t, v, 0), src = slot(t, v, 1), size = (uint32_t)v[2];
    if (size % 16)
        return tfail(io, "cp.reduce.async.bulk size %llu is not a multiple of 16",
                     (unsigned long long)size);
    unsigned esz = isa_type_bits((isa_type)t->rtype) / 8;
    const uint8_t *s = io->mem(io->ctx, SP_SHARED, src, (unsigned)size, 16, 0,
                               "cp.reduce.async.bulk load");
    if (!s) return -1;
    uint8_t *d = io->mem(io->ctx, t->dsp, dst, (unsigned)size, 16, 1,
                         "atomic reduction (cp.reduce.async.bulk)");
    if (!d) return -1;
    for (uint64_t i = 0; i < size; i += esz) {
        uint64_t nv;
        if (isa_atom_apply((isa_atom_op)t->red, (isa_type)t->rtype, rd(d + i, esz),
                           rd(s + i, esz), 0, &nv) < 0)
            return tfail(io, "no semantics for .%s.%s", isa_atom_name((isa_atom_op)t->red),
                         isa_type_name((isa_type)t->rtype));
        wrb(d + i, nv, esz);
    }
    return t->mbar ? io->complete_tx(io->ctx, slot(t, v, 3), (uint32_t)size) : 0;
}

/* tensormap.replace (§9.7.8.25): the field at its place of the layout (exec/tma.h) */
static int run_replace(const xtma *t, const uint64_t *v, const tma_io *io)
{
    uint64_t a = slot(t, v, 0), nv = v[2];
    uint8_t *p = io->mem(io->ctx, t->dsp, a, TMA_MAP_BYTES, 64, 1, "tensormap.replace store");
    if (!p) return -1;
    static const struct { uint8_t off, size, stride; uint64_t max; } at[NFIELDS] = {
        { 0, 8, 0, UINT64_MAX }, { 13, 1, 0, 4 },   { 72, 4, 4, UINT32_MAX },
        { 20, 4, 4, UINT32_MAX }, { 40, 8, 8, UINT64_MAX }, { 92, 1, 1, 8 },
        { 14, 1, 0, 12 },        { 15, 1, 0, 2 },   { 16, 1, 0, 3 }, { 17, 1, 0, 1 },
    };
    int f = t->field;
    if (nv > at[f].max)
        return tfail(io, "tensormap.replace .%s with new_val %llu, expected at most %llu",
                     ptx_qual_text((ptx_qid)fields[f].q), (unsigned long long)nv,
                     (unsigned long long)at[f].max);
    wrb(p + at[f].off + at[f].stride * t->ord, nv, at[f].size);
    return 0;
}

/* tensormap.cp_fenceproxy (§9.7.12.15.18): copy 128 bytes shared::cta -> global; the proxy
 * fence has nothing to order in the sequential executor */
static int run_cpfence(const xtma *t, const uint64_t *v, const tma_io *io)
{
    if ((uint32_t)v[2] != 128)
        return tfail(io, "tensormap.cp_fenceproxy size %u, expected 128", (uint32_t)v[2]);
    const uint8_t *s = io->mem(io->ctx, SP_SHARED, slot(t, v, 1), 128, 16, 0,
                               "tensormap.cp_fenceproxy load");
    if (!s) return -1;
    uint8_t *d = io->mem(io->ctx, SP_GLOBAL, slot(t, v, 0), 128, 16, 1,
                         "tensormap.cp_fenceproxy store");
    if (!d) return -1;
    memmove(d, s, 128);
    return 0;
}

/* cp.async.bulk.prefetch.tensor (§9.7.8.24.11): no effect; the map and coordinates checked */
static int run_prefetch(const xtma *t, const uint64_t *v, const tma_io *io)
{
    tma_map m;
    walk w;
    return get_map(t, v, io, &m) || walk_init(&w, &m, t, v, io) ? -1 : 0;
}

int tma_collective(const xtma *t) { return t->form == TM_CPFENCE; }

int tma_run(const xtma *t, const uint64_t *v, const tma_io *io)
{
    typedef int (*run_fn)(const xtma *, const uint64_t *, const tma_io *);
    static const run_fn fns[] = { [TM_LOAD] = run_load,         [TM_STORE] = run_store,
                                  [TM_REDUCE] = run_store,      [TM_PREFETCH] = run_prefetch,
                                  [TM_BULK_RED] = run_bulk_red, [TM_REPLACE] = run_replace,
                                  [TM_CPFENCE] = run_cpfence };
    return fns[t->form](t, v, io);
}

/* ---------------------------------------------------------------- C API (include/ptxexec.h) */
/* CUtensorMapDataType order -> §9.7.8.25 Table 30 code */
static const uint8_t cu_to_t30[13] = { 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 8, 11, 12 };

/* the fields both encoders share, checked as cuTensorMapEncode* checks them */
static int enc_common(tma_map *m, int type, uint32_t rank, ptxeDevptr ga, const uint64_t *gdim,
                      const uint64_t *gstr, const uint32_t *es, int enums[4], char *err,
                      size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (type < 0 || type > 12)
        FAIL("tensorDataType %d, expected 0..12 (CUtensorMapDataType)", type);
    if (rank < 1 || rank > 5) FAIL("tensorRank %u, expected 1..5", rank);
    if (!gdim || !es || (rank > 1 && !gstr))
        FAIL("a NULL globalDim, globalStrides or elementStrides, expected arrays of the rank");
    m->et = cu_to_t30[type];
    m->rank = (int)rank;
    m->ga = ga;
    m->il = enums[0]; m->sw = enums[1]; m->l2 = enums[2]; m->fill = enums[3];
    m->gstr[0] = tma_elem_size(m->et);
    for (uint32_t d = 0; d < rank; d++) {
        if (gdim[d] == 0 || gdim[d] > UINT32_MAX)
            FAIL("globalDim[%u] is %llu, expected 1..2^32-1", d, (unsigned long long)gdim[d]);
        if (es[d] < 1 || es[d] > 8) FAIL("elementStrides[%u] is %u, expected 1..8", d, es[d]);
        m->gdim[d] = (uint32_t)gdim[d];
        m->es[d] = (uint8_t)es[d];
        if (d) m->gstr[d] = gstr[d - 1];
    }
    for (uint32_t d = 1; d < rank; d++) {
        uint64_t slice = m->il == 2 ? 32 : m->il == 1 ? 16 : 1, inner = m->gstr[d - 1];
        uint64_t need = d == 1 ? (gdim[0] * inner + slice - 1) / slice * slice : 0;
        if (m->gstr[d] == 0 || (d == 1 ? m->gstr[d] < need : gdim[d - 1] > m->gstr[d] / inner))
            FAIL("globalStrides[%u] is %llu bytes, expected at least globalDim[%u] * the stride "
                 "of dimension %u (dimensions may not overlap)", d - 1,
                 (unsigned long long)m->gstr[d], d - 1, d - 1);
    }
    return 0;
}

static ptxeResult enc_done(ptxeCtx *ctx, const char *fn, int bad, const char *err,
                           const tma_map *m, ptxeTensorMap *out)
{
    if (bad) {
        if (ctx) snprintf(ctx->msg, sizeof ctx->msg, "%s: %s", fn, err);
        return PTXE_ERROR_INVALID_VALUE;
    }
    tma_map_write(m, out->opaque);
    return PTXE_SUCCESS;
}

ptxeResult ptxeTensorMapEncodeTiled(ptxeCtx *ctx, ptxeTensorMap *tensorMap,
                                    ptxeTensorMapDataType tensorDataType, uint32_t tensorRank,
                                    ptxeDevptr globalAddress, const uint64_t *globalDim,
                                    const uint64_t *globalStrides, const uint32_t *boxDim,
                                    const uint32_t *elementStrides,
                                    ptxeTensorMapInterleave interleave,
                                    ptxeTensorMapSwizzle swizzle,
                                    ptxeTensorMapL2promotion l2Promotion,
                                    ptxeTensorMapFloatOOBfill oobFill)
{
    tma_map m;
    char err[300] = "";
    int enums[4] = { (int)interleave, (int)swizzle, (int)l2Promotion, (int)oobFill };
    int bad = !tensorMap || !boxDim;
    if (bad) snprintf(err, sizeof err, "a NULL tensorMap or boxDim");
    if (!bad)
        bad = enc_common(&m, (int)tensorDataType, tensorRank, globalAddress, globalDim,
                         globalStrides, elementStrides, enums, err, sizeof err);
    if (!bad) {
        for (uint32_t d = 0; d < tensorRank; d++) m.box[d] = boxDim[d];
        bad = tma_map_check(&m, err, sizeof err);
    }
    return enc_done(ctx, "ptxeTensorMapEncodeTiled", bad, err, &m, tensorMap);
}

ptxeResult ptxeTensorMapEncodeIm2col(ptxeCtx *ctx, ptxeTensorMap *tensorMap,
                                     ptxeTensorMapDataType tensorDataType, uint32_t tensorRank,
                                     ptxeDevptr globalAddress, const uint64_t *globalDim,
                                     const uint64_t *globalStrides,
                                     const int *pixelBoxLowerCorner,
                                     const int *pixelBoxUpperCorner, uint32_t channelsPerPixel,
                                     uint32_t pixelsPerColumn, const uint32_t *elementStrides,
                                     ptxeTensorMapInterleave interleave,
                                     ptxeTensorMapSwizzle swizzle,
                                     ptxeTensorMapL2promotion l2Promotion,
                                     ptxeTensorMapFloatOOBfill oobFill)
{
    tma_map m;
    char err[300] = "";
    int enums[4] = { (int)interleave, (int)swizzle, (int)l2Promotion, (int)oobFill };
    int bad = !tensorMap || !pixelBoxLowerCorner || !pixelBoxUpperCorner;
    if (bad) snprintf(err, sizeof err, "a NULL tensorMap or pixel-box corner");
    if (!bad && (tensorRank < 3 || tensorRank > 5)) {
        bad = 1;
        snprintf(err, sizeof err, "tensorRank %u, expected 3..5 in im2col mode", tensorRank);
    }
    if (!bad)
        bad = enc_common(&m, (int)tensorDataType, tensorRank, globalAddress, globalDim,
                         globalStrides, elementStrides, enums, err, sizeof err);
    for (uint32_t s = 0; !bad && s < tensorRank - 2; s++) {
        int lo = pixelBoxLowerCorner[s], hi = pixelBoxUpperCorner[s];
        bad = lo < INT16_MIN || lo > INT16_MAX || hi < INT16_MIN || hi > INT16_MAX;
        if (bad)
            snprintf(err, sizeof err, "pixel-box corner %u (%d, %d) outside 16 bits", s, lo, hi);
        m.lo[s] = (int16_t)lo;
        m.hi[s] = (int16_t)hi;
    }
    if (!bad) {
        m.mode = 1;
        m.cpp = channelsPerPixel;
        m.ppc = pixelsPerColumn;
        bad = tma_map_check(&m, err, sizeof err);
    }
    return enc_done(ctx, "ptxeTensorMapEncodeIm2col", bad, err, &m, tensorMap);
}
