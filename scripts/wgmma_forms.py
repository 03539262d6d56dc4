#!/usr/bin/env python3
"""scripts/wgmma_forms.py — ptxas's verdict on forms of the warpgroup instructions (ISA 8.4
§9.7.14: wgmma.mma_async{.sp}, wgmma.fence/commit_group/wait_group) and setmaxnreg (§9.7.17.5).

Generates every shape of every type family (dense and .sp, N = 8 .. 256) with A from a
descriptor and from registers, plus operand probes (scale-d, immediates, descriptors, sparsity
selector and metadata, qualifiers), assembles each alone with ptxas -arch=sm_90a and writes
tests/data/wgmma-forms.tsv: FORM <tab> ok|bad <tab> ptxas's first message.  The executor's test
(tests/test_exec_wgmma.c, wg_ptxas_forms) loads every form in the kernel of KERNEL below and
requires the loader to accept the 'ok' and refuse the 'bad' ones, except the deviations it lists.

Recorded with:  python3 scripts/wgmma_forms.py /usr/local/cuda/bin/ptxas > tests/data/wgmma-forms.tsv
(ptxas from CUDA 13).
"""
import concurrent.futures, os, subprocess, sys, tempfile

PTXAS = sys.argv[1] if len(sys.argv) > 1 else "ptxas"
# the kernel around each form; tests/test_exec_wgmma.c builds the same one (keep them equal)
KERNEL = (".version 8.4\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
          ".reg .b32 r<200>;\n.reg .f32 f<200>;\n.reg .b64 rd<8>;\n.reg .pred p;\n"
          "mov.b64 rd0, 0; mov.b64 rd1, 0; mov.b32 r4, 0; mov.b32 r5, 0; setp.eq.u32 p, r4, 0;\n"
          "%s\nret;\n}\n")

# family: dtype, atype, btype, K (dense), immediates after scale-d (descriptor A; register A
# drops imm-trans-a), D elements per register, D register prefix
FAMS = [("f32", "f16", "f16", 16, [1, 1, 0, 0], 1, "f"), ("f16", "f16", "f16", 16, [1, 1, 0, 0], 2, "r"),
        ("f32", "bf16", "bf16", 16, [1, 1, 0, 0], 1, "f"), ("f32", "tf32", "tf32", 8, [1, 1], 1, "f"),
        ("f32", "e4m3", "e5m2", 32, [1, 1], 1, "f"), ("f16", "e5m2", "e5m2", 32, [1, 1], 2, "r"),
        ("s32", "s8", "u8", 32, [], 1, "r"), ("s32", "b1", "b1", 256, [], 1, "r")]


def regs(prefix, n, first=10):
    return "{" + ",".join(f"{prefix}{first + i}" for i in range(n)) + "}"


def shapes():
    for dt, at, bt, k, imms, per, pre in FAMS:
        trans_ok = at in ("f16", "bf16")
        for sp in (0, 1):
            for n in range(8, 257, 8):
                for areg in (0, 1):
                    if areg and n not in (8, 24, 136, 256):
                        continue
                    im = imms[:2] + imms[3:] if areg and trans_ok else imms
                    a = "{r0,r1,r2,r3}" if areg else "rd0"
                    yield (f"wgmma.mma_async{'.sp' if sp else ''}.sync.aligned.m64n{n}k{k * (1 + sp)}"
                           f".{dt}.{at}.{bt}{'.and.popc' if at == 'b1' else ''} "
                           f"{regs(pre, n // 2 // per)}, {a}, rd1{', r4, 0' if sp else ''}, p"
                           + "".join(f", {v}" for v in im) + ";")


F16 = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, "
SPF16 = "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {f0,f1,f2,f3}, "
PROBES = [
    F16 + "rd0, rd1, p, 1, 1, 0, 0;", F16 + "rd0, rd1, 0, 1, 1, 0, 0;",
    F16 + "rd0, rd1, r4, 1, 1, 0, 0;", F16 + "rd0, rd1, 2, 1, 1, 0, 0;",
    F16 + "rd0, rd1, !p, 1, 1, 0, 0;", F16 + "{r0,r1,r2,r3}, rd1, 1, 1, 1, 0;",
    F16 + "{r0,r1,r2,r3}, rd1, 1, 1, 1, 0, 0;", F16 + "{r0,r1,r2,r3}, rd1, 1, 1, 1, 1;",
    F16 + "rd0, rd1, 1, 1, 1, 0, 2;", F16 + "rd0, rd1, 1, 0, 1, 0, 0;",
    F16 + "rd0, rd1, 1, 1, -1, 1, 1;", F16 + "r0, rd1, 1, 1, 1, 0, 0;",
    F16 + "rd0, r1, 1, 1, 1, 0, 0;", F16 + "{r0,r1,r2}, rd1, 1, 1, 1, 0;",
    F16 + "rd0, rd1, 1, 1, 1, 0, 0, 0;", F16 + "rd0, rd1, 1, 1, 1, 0;",
    F16 + "rd0, rd1, 1, 1, 1, 0, r4;",
    "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {r0,r1}, rd0, rd1, 1, 1, 1, 0, 0;",
    "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1}, rd0, rd1, 1, 1, 1, 0, 0;",
    "wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 {r0,r1}, rd0, rd1, 1, 1, 1, 0, 0;",
    "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.bf16 {f0,f1,f2,f3}, rd0, rd1, 1, 1, 1, 0, 0;",
    "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {f0,f1,f2,f3}, rd0, rd1, 1, -1, -1;",
    "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {f0,f1,f2,f3}, rd0, rd1, 1, 1, 1, 0, 0;",
    "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {f0,f1,f2,f3}, rd0, rd1, 1, 1, 1, 1;",
    "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {r6,r7,r8,r9}, rd0, rd1, 1, 1, 1;",
    "wgmma.mma_async.sync.aligned.m64n8k32.satfinite.s32.u8.s8 {r6,r7,r8,r9}, rd0, rd1, 1;",
    "wgmma.mma_async.sync.aligned.m64n8k32.satfinite.f32.e4m3.e4m3 {f0,f1,f2,f3}, rd0, rd1, 1, 1, 1;",
    "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.xor.popc {r6,r7,r8,r9}, rd0, rd1, 1;",
    "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1 {r6,r7,r8,r9}, rd0, rd1, 1;",
    "wgmma.mma_async.sync.aligned.m32n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd1, 1, 1, 1, 0, 0;",
    "wgmma.mma_async.sync.aligned.m64n264k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd1, 1, 1, 1, 0, 0;",
    "wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16 {f0,f1,f2,f3,f4,f5}, rd0, rd1, 1, 1, 1, 0, 0;",
    "wgmma.mma_async.aligned.sync.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd1, 1, 1, 1, 0, 0;",
    SPF16 + "rd0, rd1, r4, 0, 1, 1, 1, 0, 0;", SPF16 + "rd0, rd1, r4, 1, 1, 1, 1, 0, 0;",
    SPF16 + "rd0, rd1, r4, 2, 1, 1, 1, 0, 0;", SPF16 + "rd0, rd1, r4, r5, 1, 1, 1, 0, 0;",
    SPF16 + "rd0, rd1, rd2, 0, 1, 1, 1, 0, 0;", SPF16 + "rd0, rd1, 5, 0, 1, 1, 1, 0, 0;",
    SPF16 + "{r0,r1,r2,r3}, rd1, r4, 1, p, 1, 1, 0;",
    "wgmma.mma_async.sp.sync.aligned.m64n8k64.s32.s8.s8 {r6,r7,r8,r9}, rd0, rd1, r4, 1, 1;",
    "wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32 {f0,f1,f2,f3}, rd0, rd1, r4, 1, 1, 1, 1;",
    "wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32 {f0,f1,f2,f3}, rd0, rd1, r4, 2, 1, 1, 1;",
    "wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd1, r4, 0, 1, 1, 1, 0, 0;",
    "wgmma.fence.sync.aligned;", "wgmma.commit_group.sync.aligned;",
    "wgmma.wait_group.sync.aligned 0;", "wgmma.wait_group.sync.aligned 7;",
    "wgmma.wait_group.sync.aligned r4;", "wgmma.fence.sync.aligned.cta;",
    "wgmma.fence.sync.aligned r4;", "wgmma.commit_group.sync.aligned 1;",
    "setmaxnreg.inc.sync.aligned.u32 256;", "setmaxnreg.dec.sync.aligned.u32 24;",
    "setmaxnreg.inc.sync.aligned.u32 264;", "setmaxnreg.inc.sync.aligned.u32 100;",
    "setmaxnreg.dec.sync.aligned.u32 16;", "setmaxnreg.inc.sync.aligned.u32 r4;",
    "setmaxnreg.inc.aligned.u32 32;",
    # where the executor deliberately differs from ptxas (tests/test_exec_wgmma.c lists them)
    "wgmma.wait_group.sync 0;", "setmaxnreg.inc.sync.aligned.s32 32;",
    "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd1, 1, 1, 1, 0, 0;",
    "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {f6,f7,f8,f9}, rd0, rd1, 1;",
]


def verdict(form):
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as t:
        t.write(KERNEL % form)
    try:
        p = subprocess.run([PTXAS, "-arch=sm_90a", t.name, "-o", os.devnull],
                           capture_output=True, text=True)
    finally:
        os.unlink(t.name)
    msg = next((l for l in p.stderr.splitlines() if "error" in l), "")
    msg = msg.split("error", 1)[1].lstrip(" :") if msg else ""
    return form, "ok" if p.returncode == 0 else "bad", msg.replace("\t", " ")


def main():
    forms = list(shapes()) + PROBES
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        for form, v, msg in ex.map(verdict, forms):
            print(f"{form}\t{v}\t{msg}")


if __name__ == "__main__":
    main()
