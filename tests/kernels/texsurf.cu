// tests/kernels/texsurf.cu — texture and surface objects (ISA §9.7.9 tex/tld4/txq, §9.7.10
// suld/sust/sured/suq) as nvcc emits them for cudaTextureObject_t / cudaSurfaceObject_t; run by
// tests/test_exec_tex.c against a C reference of the ISA's texturing rules (and, for the
// linear-filtering kernels, recorded on a GPU by record_gpu.cu when one is present).
#include <cuda_runtime.h>

// tex1Dfetch on a linear buffer (integer coordinates; out of range reads 0)
extern "C" __global__ void tx_fetch1d(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, i - 2);
}

// tex2D<float4> at (xs[i], ys[i]): point/linear, normalized or not, any address mode
extern "C" __global__ void tx_2d(cudaTextureObject_t t, float4 *out, const float *xs,
                                 const float *ys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float4>(t, xs[i], ys[i]);
}

// tex2D<float> of a one-channel texture
extern "C" __global__ void tx_2d1(cudaTextureObject_t t, float *out, const float *xs,
                                  const float *ys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, xs[i], ys[i]);
}

// tex2D<int4> of an integer texture read as integers (element type read)
extern "C" __global__ void tx_2di(cudaTextureObject_t t, int4 *out, const float *xs,
                                  const float *ys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<int4>(t, xs[i], ys[i]);
}

// tex2DLod / tex2DGrad (mip level 0)
extern "C" __global__ void tx_lodgrad(cudaTextureObject_t t, float *out, const float *xs,
                                      const float *ys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[2 * i] = tex2DLod<float>(t, xs[i], ys[i], 0.0f);
        out[2 * i + 1] = tex2DGrad<float>(t, xs[i], ys[i], make_float2(0.f, 0.f),
                                          make_float2(0.f, 0.f));
    }
}

extern "C" __global__ void tx_layered(cudaTextureObject_t t, float *out, const float *xs,
                                      const float *ys, const int *ls, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2DLayered<float>(t, xs[i], ys[i], ls[i]);
}

extern "C" __global__ void tx_3d(cudaTextureObject_t t, float *out, const float *xs,
                                 const float *ys, const float *zs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, xs[i], ys[i], zs[i]);
}

extern "C" __global__ void tx_cube(cudaTextureObject_t t, float *out, const float *xs,
                                   const float *ys, const float *zs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = texCubemap<float>(t, xs[i], ys[i], zs[i]);
}

// tld4: the four texels of the bilinear footprint, component 0..3
extern "C" __global__ void tx_gather(cudaTextureObject_t t, float4 *out, const float *xs,
                                     const float *ys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[4 * i + 0] = tex2Dgather<float4>(t, xs[i], ys[i], 0);
        out[4 * i + 1] = tex2Dgather<float4>(t, xs[i], ys[i], 1);
        out[4 * i + 2] = tex2Dgather<float4>(t, xs[i], ys[i], 2);
        out[4 * i + 3] = tex2Dgather<float4>(t, xs[i], ys[i], 3);
    }
}

// txq / suq / istypep by inline PTX (§9.7.9.5, §9.7.10.4, §9.7.9.6).
// ptxas compiles txq of a header or sampler field (channel_data_type, channel_order,
// normalized_coords, filter_mode, addr_mode_N, array_size, num_mipmap_levels) and
// suq.channel_data_type with
// relocations against .nv.unified.texrefDescSize and .nv.surfrefDescSize (the sizes of the
// texture/surface reference descriptors, which the driver fills in when it loads the module);
// no other kernel here has any.  The GPU recorder leaves this kernel out of its tex module
// (TEXSURF_NO_TXQ, record_tex.cuh) and runs it alone in the group txq: on the H100 of
// 2026-11-26 every launch of the module with it failed with "operation not supported".
#ifndef TEXSURF_NO_TXQ
extern "C" __global__ void tx_query(cudaTextureObject_t t, cudaSurfaceObject_t s, int *out)
{
    int w, h, d, ct, co, nc, fm, a0, a1, as, nm, sw, sh, sct;
    asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t));
    asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(t));
    asm("txq.depth.b32 %0, [%1];" : "=r"(d) : "l"(t));
    asm("txq.channel_data_type.b32 %0, [%1];" : "=r"(ct) : "l"(t));
    asm("txq.channel_order.b32 %0, [%1];" : "=r"(co) : "l"(t));
    asm("txq.normalized_coords.b32 %0, [%1];" : "=r"(nc) : "l"(t));
    asm("txq.filter_mode.b32 %0, [%1];" : "=r"(fm) : "l"(t));
    asm("txq.addr_mode_0.b32 %0, [%1];" : "=r"(a0) : "l"(t));
    asm("txq.addr_mode_1.b32 %0, [%1];" : "=r"(a1) : "l"(t));
    asm("txq.array_size.b32 %0, [%1];" : "=r"(as) : "l"(t));
    asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(nm) : "l"(t));
    asm("suq.width.b32 %0, [%1];" : "=r"(sw) : "l"(s));
    asm("suq.height.b32 %0, [%1];" : "=r"(sh) : "l"(s));
    asm("suq.channel_data_type.b32 %0, [%1];" : "=r"(sct) : "l"(s));
    int pt, ps;
    asm("{ .reg .pred p; istypep.texref p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(pt) : "l"(t));
    asm("{ .reg .pred p; istypep.surfref p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(ps) : "l"(t));
    int v[] = { w, h, d, ct, co, nc, fm, a0, a1, as, nm, sw, sh, sct, pt, ps };
    for (int i = 0; i < 16; i++) out[i] = v[i];
}
#endif

// surf2Dread / surf2Dwrite: out(x, y) = in(x, y) * 2 + 1 (byte-addressed x)
extern "C" __global__ void sf_2d(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        int v = surf2Dread<int>(in, x * 4, y);
        surf2Dwrite(v * 2 + 1, out, x * 4, y);
    }
}

// surf2Dread with cudaBoundaryModeZero / Clamp (out of range x)
extern "C" __global__ void sf_bounds(cudaSurfaceObject_t in, int *out, int n)
{
    int i = threadIdx.x;
    if (i < n) {
        out[2 * i] = surf2Dread<int>(in, (i - 4) * 4, 0, cudaBoundaryModeZero);
        out[2 * i + 1] = surf2Dread<int>(in, (i - 4) * 4, 1, cudaBoundaryModeClamp);
    }
}

// surf2Dread out of range with the default (trap) mode
extern "C" __global__ void sf_trap(cudaSurfaceObject_t in, int *out, int x)
{
    *out = surf2Dread<int>(in, x * 4, 0);
}

extern "C" __global__ void sf_layered(cudaSurfaceObject_t s, int w, int h, int layers)
{
    int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
    if (x < w && y < h && l < layers) {
        uchar4 v = make_uchar4(x, y, l, x + y + l);
        surf2DLayeredwrite(v, s, x * 4, y, l);
    }
}

// sured (§9.7.10.3) by inline PTX: histogram-like reductions on a 2D u32 surface
extern "C" __global__ void sf_red(cudaSurfaceObject_t s, const int *xs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = xs[i] * 4;
        asm volatile("sured.b.add.2d.u32.trap [%0, {%1, %2}], %3;" :: "l"(s), "r"(x), "r"(0), "r"(1));
        asm volatile("sured.b.max.2d.u32.trap [%0, {%1, %2}], %3;" :: "l"(s), "r"(x), "r"(1), "r"(i));
        asm volatile("sured.b.or.2d.b32.clamp [%0, {%1, %2}], %3;" :: "l"(s), "r"(x), "r"(2),
                     "r"(1 << (i & 31)));
    }
}
