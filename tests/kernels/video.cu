// tests/kernels/video.cu — the PTX video instructions (ISA 8.4 §9.7.16) as nvcc passes them
// through from inline PTX: every scalar and SIMD form with byte/half-word selectors written on
// the registers (%1.b0, %0.h1, %2.b7654), destination merges, masks, secondary operations and
// vmad negations; plus __vsadu4 / __vabsdiffu4, which nvcc itself compiles to vabsdiff4.
// tests/test_exec_kernels.c (k_video) runs it and compares every output with the C reference of
// tests/video_ref.h; the forms are listed there in the same order (video_forms[]).
#define V2(insn) asm(insn : "=r"(d) : "r"(x), "r"(y))
#define V3(insn) asm(insn : "=r"(d) : "r"(x), "r"(y), "r"(z))
#define OUT o[i * NV + k++] = d

#define NV 30
extern "C" __global__ void video_ops(unsigned *o, const unsigned *a, const unsigned *b,
                                     const unsigned *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i], z = c[i], d;
    int k = 0;
    V2("vadd.s32.u32.s32.sat %0, %1.b0, %2.h0;"); OUT;
    V2("vsub.s32.s32.u32.sat %0, %1.h1, %2.h1;"); OUT;
    V3("vabsdiff.s32.s32.s32.sat %0.h0, %1.b0, %2.b2, %3;"); OUT;
    V3("vmin.s32.s32.s32.sat.add %0, %1, %2, %3;"); OUT;
    V3("vmax.u32.u32.u32.max %0, %1.b3, %2.b1, %3;"); OUT;
    V2("vshl.s32.u32.u32.clamp %0, %1, %2.b0;"); OUT;
    V3("vshr.u32.s32.u32.wrap.add %0, %1.h1, %2.h1, %3;"); OUT;
    V3("vmad.s32.s32.u32.sat %0, %1, %2, -%3;"); OUT;
    V3("vmad.u32.u32.u32.shr15 %0, %1.h0, %2.h0, %3;"); OUT;
    V3("vmad.s32.s32.s32.po %0, %1.b1, %2.b2, %3;"); OUT;
    V3("vmad.s32.u32.s32.shr7.sat %0, -%1.h1, %2, %3;"); OUT;
    V2("vset.s32.u32.lt %0, %1, %2;"); OUT;
    V3("vset.u32.u32.ne.add %0, %1, %2.h1, %3;"); OUT;
    V3("vset.s32.s32.ge %0.b2, %1.b3, %2.b0, %3;"); OUT;
    V3("vadd2.s32.s32.u32.sat %0, %1, %2, %3;"); OUT;
    V3("vsub2.s32.s32.s32.sat %0.h0, %1.h10, %2.h32, %3;"); OUT;
    V3("vmin2.s32.u32.u32.add %0.h10, %1.h00, %2.h22, %3;"); OUT;
    V3("vavrg2.u32.s32.s32 %0.h1, %1.h21, %2.h03, %3;"); OUT;
    V3("vabsdiff2.u32.u32.u32.add %0, %1, %2, %3;"); OUT;
    V3("vmax2.s32.s32.s32 %0, %1.h13, %2.h20, %3;"); OUT;
    V3("vset2.s32.u32.lt %0, %1, %2, %3;"); OUT;
    V3("vset2.u32.u32.ne.add %0, %1, %2, %3;"); OUT;
    V3("vadd4.s32.s32.u32.sat %0, %1, %2, %3;"); OUT;
    V3("vsub4.s32.s32.s32.sat %0.b0, %1.b3210, %2.b7654, %3;"); OUT;
    V3("vmin4.s32.u32.u32.add %0.b10, %1.b0000, %2.b2222, %3;"); OUT;
    V3("vavrg4.u32.u32.u32 %0, %1.b7531, %2.b0246, %3;"); OUT;
    V3("vmax4.u32.s32.s32 %0.b31, %1, %2, %3;"); OUT;
    V3("vset4.s32.u32.lt %0, %1, %2, %3;"); OUT;
    o[i * NV + k++] = __vsadu4(x, y);
    o[i * NV + k++] = __vabsdiffu4(x, y);
}
