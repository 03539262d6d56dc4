// tests/kernels/remote.cu — asynchronous remote stores and reductions (st.async §9.7.8.12,
// red.async §9.7.12.7) across a 2-CTA cluster with mbarrier completion, sparse mma (mma.sp
// §9.7.13.5) and multimem operations (§9.7.8.13), from inline PTX (sm_90a).  Run by
// tests/test_exec_remote.c and compared bit for bit with C references computed there.
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ unsigned cta_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
// the shared::cluster address of the variable at shared::cta address a in CTA rank r
__device__ __forceinline__ unsigned peer(unsigned a, unsigned r)
{
    unsigned d;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(r));
    return d;
}
// the generic address of the same variable in CTA rank r
__device__ __forceinline__ uint64_t peer_generic(const void *p, unsigned r)
{
    uint64_t d;
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(d) : "l"(p), "r"(r));
    return d;
}
__device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}
// thread 0: an mbarrier for one arrival, visible to the cluster; then every thread syncs
__device__ __forceinline__ void mbar_setup(uint64_t *mb, unsigned tx_bytes)
{
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(mb)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster_sync();
    if (threadIdx.x == 0)
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     ::"r"(smem(mb)), "r"(tx_bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t *mb, unsigned parity)
{
    unsigned done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(smem(mb)), "r"(parity) : "memory");
    } while (!done);
}

// st.async: thread t of CTA r stores the 10 words in[(r*64+t)*10 ..] into CTA r^1 as a .u32,
// a .v2.b32, a .v4.b32, a .b64 (all .shared::cluster) and an .f32 through generic addresses; CTA
// r^1 waits on its mbarrier for the 64 * 40 bytes, then writes what it received to out.
extern "C" __global__ void __cluster_dims__(2, 1, 1) st_async_pair(const unsigned *in, unsigned *out)
{
    __shared__ alignas(16) unsigned w1[64], w2[64][2], w4[64][4], wg[64];
    __shared__ alignas(8) uint64_t w8[64];
    __shared__ uint64_t mb;
    unsigned r = cta_rank(), p = r ^ 1, t = threadIdx.x;
    const unsigned *v = in + (r * 64 + t) * 10;
    mbar_setup(&mb, 64 * 40);
    unsigned m = peer(smem(&mb), p);
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];"
                 ::"r"(peer(smem(&w1[t]), p)), "r"(v[0]), "r"(m) : "memory");
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%0], {%1, %2}, [%3];"
                 ::"r"(peer(smem(&w2[t][0]), p)), "r"(v[1]), "r"(v[2]), "r"(m) : "memory");
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];"
                 ::"r"(peer(smem(&w4[t][0]), p)), "r"(v[3]), "r"(v[4]), "r"(v[5]), "r"(v[6]), "r"(m)
                 : "memory");
    uint64_t d = v[7] | (uint64_t)v[8] << 32;
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0], %1, [%2];"
                 ::"r"(peer(smem(&w8[t]), p)), "l"(d), "r"(m) : "memory");
    asm volatile("st.async.mbarrier::complete_tx::bytes.f32 [%0], %1, [%2];"
                 ::"l"(peer_generic(&wg[t], p)), "f"(__uint_as_float(v[9])), "l"(peer_generic(&mb, p))
                 : "memory");
    mbar_wait(&mb, 0);
    unsigned *o = out + (r * 64 + t) * 10;
    o[0] = w1[t], o[1] = w2[t][0], o[2] = w2[t][1];
    for (int i = 0; i < 4; i++) o[3 + i] = w4[t][i];
    o[7] = (unsigned)w8[t], o[8] = (unsigned)(w8[t] >> 32), o[9] = wg[t];
    cluster_sync();   // no CTA exits while its peer may still address its shared memory
}

// red.async: CTA r starts 11 u32 slots and one u64 from init, then every thread of CTA r^1
// reduces its values vals[((r^1)*64+t)*12 + j] into slot j with inc (b = lim), dec (b = lim),
// min/max .u32 and .s32, and/or/xor .b32, add .u32 (through generic addresses), add .s32 and
// add .u64; CTA r waits for 64 * 52 bytes and writes its slots to out[r*13 ..].
#define RED(op, c, x)                                                                             \
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes." op     \
                 " [%0], %1, [%2];" ::"r"(peer(smem(&s[x]), p)), c(v[x]), "r"(m) : "memory")
extern "C" __global__ void __cluster_dims__(2, 1, 1) red_async_pair(const unsigned *init,
                                                                   const unsigned *vals,
                                                                   unsigned lim, unsigned *out)
{
    __shared__ alignas(8) unsigned s[12];
    __shared__ uint64_t s64, mb;
    unsigned r = cta_rank(), p = r ^ 1, t = threadIdx.x;
    if (t < 11) s[t] = init[r * 13 + t];
    if (t == 11) s64 = init[r * 13 + 11] | (uint64_t)init[r * 13 + 12] << 32;
    unsigned v[12];
    for (int j = 0; j < 12; j++) v[j] = vals[(r * 64 + t) * 12 + j];
    v[0] = v[1] = lim;
    mbar_setup(&mb, 64 * 52);
    unsigned m = peer(smem(&mb), p);
    RED("inc.u32", "r", 0);
    RED("dec.u32", "r", 1);
    RED("min.u32", "r", 2);
    RED("min.s32", "r", 3);
    RED("max.u32", "r", 4);
    RED("max.s32", "r", 5);
    RED("and.b32", "r", 6);
    RED("or.b32", "r", 7);
    RED("xor.b32", "r", 8);
    asm volatile("red.async.relaxed.cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];"
                 ::"l"(peer_generic(&s[9], p)), "r"(v[9]), "l"(peer_generic(&mb, p)) : "memory");
    RED("add.s32", "r", 10);
    uint64_t w = v[11] | (uint64_t)v[10] << 32;
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64"
                 " [%0], %1, [%2];" ::"r"(peer(smem(&s64), p)), "l"(w), "r"(m) : "memory");
    mbar_wait(&mb, 0);
    if (t < 11) out[r * 13 + t] = s[t];
    if (t == 11) out[r * 13 + 11] = (unsigned)s64, out[r * 13 + 12] = (unsigned)(s64 >> 32);
    cluster_sync();
}

// mma.sp (§9.7.13.5): lane l loads its registers a[l*4 ..], b[l*4 ..], c[l*4 ..] (the fragment
// layouts of §9.7.13.5.2) and its metadata e[l], runs one sparse mma and stores d[l*4 ..].  The
// forms: D4 A2 B2 C4, D4 A4 B4 C4 and (f16 accumulators) D2 A4 B4 C2; SEL the sparsity selector.
#define SP_LOAD                                                                                 \
    unsigned t = threadIdx.x, A[4], B[4], C[4], D[4] = { 0, 0, 0, 0 }, E = e[t];                 \
    for (int i = 0; i < 4; i++) A[i] = a[t * 4 + i], B[i] = b[t * 4 + i], C[i] = c[t * 4 + i]
#define SP_STORE for (int i = 0; i < 4; i++) d[t * 4 + i] = D[i]
#define SP_ARGS const unsigned *a, const unsigned *b, const unsigned *c, const unsigned *e, unsigned *d
#define SP_4224(name, form, sel)                                                                \
    extern "C" __global__ void name(SP_ARGS)                                                    \
    {                                                                                           \
        SP_LOAD;                                                                                \
        asm volatile("mma." form " {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, "      \
                     "{%8, %9, %10, %11}, %12, " #sel ";"                                       \
                     : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])                           \
                     : "r"(A[0]), "r"(A[1]), "r"(B[0]), "r"(B[1]), "r"(C[0]), "r"(C[1]),        \
                       "r"(C[2]), "r"(C[3]), "r"(E));                                           \
        SP_STORE;                                                                               \
    }
#define SP_4444(name, form, sel)                                                                \
    extern "C" __global__ void name(SP_ARGS)                                                    \
    {                                                                                           \
        SP_LOAD;                                                                                \
        asm volatile("mma." form " {%0, %1, %2, %3}, {%4, %5, %6, %7}, "        \
                     "{%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, " #sel ";"                 \
                     : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])                           \
                     : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),        \
                       "r"(B[2]), "r"(B[3]), "r"(C[0]), "r"(C[1]), "r"(C[2]), "r"(C[3]),        \
                       "r"(E));                                                                 \
        SP_STORE;                                                                               \
    }
#define SP_2442(name, form, sel)                                                                \
    extern "C" __global__ void name(SP_ARGS)                                                    \
    {                                                                                           \
        SP_LOAD;                                                                                \
        asm volatile("mma." form " {%0, %1}, {%2, %3, %4, %5}, "                \
                     "{%6, %7, %8, %9}, {%10, %11}, %12, " #sel ";"                             \
                     : "=r"(D[0]), "=r"(D[1])                                                   \
                     : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]),        \
                       "r"(B[2]), "r"(B[3]), "r"(C[0]), "r"(C[1]), "r"(E));                     \
        SP_STORE;                                                                               \
    }
SP_4224(sp_f16_k16, "sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 1)
SP_2442(sp_f16_k32, "sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16", 0)
SP_4444(sp_bf16_k32, "sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32", 1)
SP_4224(sp_tf32_k8, "sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 2)
SP_4444(sp_tf32_k16, "sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32", 1)
SP_4224(sp_s8_k32, "sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 1)
SP_4444(sp_u8s8_k64, "sp::ordered_metadata.sync.aligned.m16n8k64.row.col.satfinite.s32.u8.s8.s32", 0)
SP_4224(sp_s4_k64, "sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", 0)
SP_4444(sp_u4_k128, "sp.sync.aligned.m16n8k128.row.col.s32.u4.u4.s32", 0)
SP_4444(sp_e4m3_k64, "sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32", 0)

// multimem (§9.7.8.13): mc is a multimem address (a multicast object over several devices'
// memories, ptxeMulticastCreate).  Layout of the object, per thread t of 64:
//   w32[t]   at 0      u32     w64[t] at 256  u64     f4[t][4] at 768   f32 (v4)
//   h2[t][2] at 1792   f16x2 / bf16x2 pairs           d[t]     at 2304  f64
//   m[t]     at 2816   s32     x[t]   at 3072 b32     (3328 bytes)
// mm_ld_reduce writes 23 words per thread to out[t * 23 ..] (64-bit results low word first).
#define LDR(op, c, T, x) asm volatile("multimem.ld_reduce" op " %0, [%1];" : "=" c(x) : "l"(T))
extern "C" __global__ void mm_ld_reduce(char *mc, unsigned *out)
{
    unsigned t = threadIdx.x, *o = out + t * 23, r[8];
    unsigned *w32 = (unsigned *)mc + t, *h2 = (unsigned *)(mc + 1792) + 2 * t;
    unsigned long long *w64 = (unsigned long long *)(mc + 256) + t, q[3];
    float *f4 = (float *)(mc + 768) + 4 * t, f[5];
    double *d = (double *)(mc + 2304) + t, fd;
    LDR(".add.u32", "r", w32, r[0]);
    LDR(".global.min.s32", "r", w32, r[1]);
    LDR(".relaxed.gpu.max.u32", "r", w32, r[2]);
    LDR(".and.b32", "r", w32, r[3]);
    LDR(".acquire.sys.global.or.b32", "r", w32, r[4]);
    LDR(".xor.b32", "r", w32, r[5]);
    LDR(".add.u64", "l", w64, q[0]);
    LDR(".min.s64", "l", w64, q[1]);
    LDR(".max.u64", "l", w64, q[2]);
    asm volatile("multimem.ld_reduce.global.add.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3]) : "l"(f4));
    LDR(".add.f32", "f", f4 + 1, f[4]);
    LDR(".add.f64", "d", d, fd);
    LDR(".add.f16x2", "r", h2, r[6]);
    LDR(".min.bf16x2", "r", h2 + 1, r[7]);
    unsigned a0, a1;
    asm volatile("multimem.ld_reduce.add.acc::f32.v2.f16x2 {%0, %1}, [%2];"
                 : "=r"(a0), "=r"(a1) : "l"(h2));
    for (int i = 0; i < 6; i++) o[i] = r[i];
    for (int i = 0; i < 3; i++) o[6 + 2 * i] = (unsigned)q[i], o[7 + 2 * i] = q[i] >> 32;
    for (int i = 0; i < 5; i++) o[12 + i] = __float_as_uint(f[i]);
    unsigned long long bd = __double_as_longlong(fd);
    o[17] = (unsigned)bd, o[18] = bd >> 32;
    o[19] = r[6], o[20] = r[7], o[21] = a0, o[22] = a1;
}

// multimem.st / multimem.red: thread t stores v[t] to w32[t] and a .v4.f32 to f4[t], then
// reduces into w64[t] (.add.u64), m[t] (.min.s32), x[t] (.xor.b32), f4[t][1] (.add.f32) and
// h2[t] (.add.v2.bf16x2); every copy of the object changes.
extern "C" __global__ void mm_st_red(char *mc, const unsigned *v)
{
    unsigned t = threadIdx.x, x = v[t];
    unsigned *w32 = (unsigned *)mc;
    float *f4 = (float *)(mc + 768) + 4 * t;
    asm volatile("multimem.st.u32 [%0], %1;" ::"l"(w32 + t), "r"(x) : "memory");
    asm volatile("multimem.st.release.gpu.global.v4.f32 [%0], {%1, %2, %3, %4};"
                 ::"l"(f4), "f"(1.0f), "f"(2.0f), "f"((float)(x & 7)), "f"(-4.0f) : "memory");
    asm volatile("multimem.red.add.u64 [%0], %1;"
                 ::"l"((unsigned long long *)(mc + 256) + t), "l"((unsigned long long)x << 20)
                 : "memory");
    asm volatile("multimem.red.relaxed.sys.min.s32 [%0], %1;" ::"l"(w32 + 704 + t), "r"(x)
                 : "memory");
    asm volatile("multimem.red.global.xor.b32 [%0], %1;" ::"l"(w32 + 768 + t), "r"(x) : "memory");
    asm volatile("multimem.red.add.f32 [%0], %1;" ::"l"(f4 + 1), "f"(0.5f) : "memory");
    asm volatile("multimem.red.release.cta.global.add.v2.bf16x2 [%0], {%1, %2};"
                 ::"l"((unsigned *)(mc + 1792) + 2 * t), "r"(0x3f803f80u), "r"(0x40004000u)
                 : "memory");
}
