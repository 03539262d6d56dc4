/* include/ptxexec.h — public C API of the ptxlitmus PTX executor, shaped like the CUDA driver
 * API: create a context (device memory), load a PTX module from text, look a kernel up,
 * allocate and copy device memory, launch with grid/block/cluster/dynamic shared size and
 * parameters, read results back, get error strings and launch statistics.
 *
 *   ptxeCtx *ctx; ptxeCtxCreate(&ctx);
 *   ptxeModule *m; ptxeModuleLoadData(ctx, &m, text, len, "saxpy.ptx");
 *   ptxeFunction *f; ptxeModuleGetFunction(&f, m, "k_saxpy");
 *   ptxeDevptr x; ptxeMemAlloc(ctx, &x, n * 4); ptxeMemcpyHtoD(ctx, x, host, n * 4);
 *   void *args[] = { &n, &a, &x, &y };
 *   ptxeLaunchConfig cfg = { .grid = {4,1,1}, .block = {256,1,1} };
 *   if (ptxeLaunchKernel(f, &cfg, args)) fprintf(stderr, "%s\n", ptxeGetErrorMessage(ctx));
 *
 * Thread safety: the functions may be called from several threads at once on DIFFERENT
 * contexts (with the modules, functions and memory of each); one context and what belongs to it
 * must be used by one thread at a time (the caller serializes).  The library keeps no global
 * mutable state and calls nothing non-reentrant (no strtok; the opcode and qualifier tables are
 * constant); a launch runs in the calling thread, rounding to nearest for the kernel's default
 * rounding, and leaves the thread's floating-point rounding mode as it found it (modifiers such
 * as .rz switch it around one operation and restore it).  Tested by tests/test_exec_threads.c.
 * Link: build/libptxexec.a and -lm (nothing else).
 */
#ifndef PTXEXEC_H
#define PTXEXEC_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    PTXE_SUCCESS = 0,
    PTXE_ERROR_INVALID_VALUE, /* bad argument (null pointer, zero-sized grid, unknown param) */
    PTXE_ERROR_OUT_OF_MEMORY,
    PTXE_ERROR_INVALID_PTX, /* module text rejected at load: syntax or unsupported feature */
    PTXE_ERROR_NOT_FOUND, /* no such kernel / global */
    PTXE_ERROR_INVALID_ADDRESS, /* host copy to/from memory that is not allocated */
    PTXE_ERROR_LAUNCH_FAILED, /* kernel fault: see ptxeGetErrorMessage for the report */
    PTXE_ERROR_LAUNCH_TIMEOUT, /* step limit (max_steps) or wall-clock limit (timeout) reached */
    PTXE_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, /* a cooperative grid that cannot all be resident
                                                (cudaErrorCooperativeLaunchTooLarge) */
    PTXE_ERROR_COUNT
} ptxeResult;

typedef struct ptxeCtx ptxeCtx;
typedef struct ptxeModule ptxeModule;
typedef struct ptxeFunction ptxeFunction;
typedef uint64_t ptxeDevptr;

const char *ptxeGetErrorName(ptxeResult r);
const char *ptxeGetErrorString(ptxeResult r);
/* Detailed text of the last error on ctx: "file:line:col: ..." for load errors, the fault report
 * for launch failures ("" when none). */
const char *ptxeGetErrorMessage(ptxeCtx *ctx);

ptxeResult ptxeCtxCreate(ptxeCtx **ctx);
void ptxeCtxDestroy(ptxeCtx *ctx);

/* Load a PTX module from text (len bytes); filename is used in messages.  Every instruction is
 * decoded here: unsupported ones are rejected with file:line:col and the instruction text. */
ptxeResult ptxeModuleLoadData(ptxeCtx *ctx, ptxeModule **mod, const char *text, size_t len,
                              const char *filename);
ptxeResult ptxeModuleUnload(ptxeModule *mod);
/* name NULL: the module's only .entry. */
ptxeResult ptxeModuleGetFunction(ptxeFunction **f, ptxeModule *mod, const char *name);
/* Device address and size of a module-scope .global or .const variable. */
ptxeResult ptxeModuleGetGlobal(ptxeDevptr *dptr, size_t *bytes, ptxeModule *mod, const char *name);
const char *ptxeFuncGetName(const ptxeFunction *f);
int ptxeFuncGetParamCount(const ptxeFunction *f);
/* Byte size and PTX type name ("u64", "f32", "b8" for byte arrays) of kernel parameter i. */
ptxeResult ptxeFuncGetParamInfo(const ptxeFunction *f, int i, size_t *size, const char **type);

/* Device memory (all allocations and module variables together) is limited per context;
 * an allocation beyond it fails with PTXE_ERROR_OUT_OF_MEMORY. */
#define PTXE_DEFAULT_MEMORY_LIMIT (4ull << 30)
ptxeResult ptxeCtxSetMemoryLimit(ptxeCtx *ctx, uint64_t bytes);
uint64_t ptxeCtxGetMemoryUsed(const ptxeCtx *ctx);
ptxeResult ptxeMemAlloc(ptxeCtx *ctx, ptxeDevptr *dptr, size_t bytes);   /* zero-filled */
ptxeResult ptxeMemFree(ptxeCtx *ctx, ptxeDevptr dptr);
ptxeResult ptxeMemcpyHtoD(ptxeCtx *ctx, ptxeDevptr dst, const void *src, size_t bytes);
ptxeResult ptxeMemcpyDtoH(ptxeCtx *ctx, void *dst, ptxeDevptr src, size_t bytes);
ptxeResult ptxeMemsetD8(ptxeCtx *ctx, ptxeDevptr dst, uint8_t value, size_t bytes);

/* How the threads of a launch are scheduled (docs/executor.md "Scheduling"). */
typedef enum {
    PTXE_SCHEDULE_DEFAULT = 0, /* ITS for modules with .target sm_70 or later (or none), else
                                  LOCKSTEP */
    PTXE_SCHEDULE_ITS,         /* independent thread scheduling (sm_70+): a warp's diverged
                                  groups take turns at loops, nanosleep and failed waits, so a
                                  spinning thread does not starve the thread it waits for; the
                                  CTAs are resident together up to one GPU's occupancy */
    PTXE_SCHEDULE_LOCKSTEP     /* the order of earlier versions: a diverged group runs until it
                                  meets the others, blocks or exits; one cluster of CTAs at a
                                  time */
} ptxeSchedule;

typedef struct {
    unsigned grid[3];          /* CTAs per grid (each >= 1; 0 is treated as 1 for y/z) */
    unsigned block[3];         /* threads per CTA, at most 1024 in total */
    unsigned cluster[3];       /* CTAs per cluster; all 0 means 1,1,1 */
    unsigned shared_bytes;     /* dynamic shared memory (.extern .shared arrays) */
    uint64_t max_steps;        /* warp-instruction limit, 0 = PTXE_DEFAULT_MAX_STEPS */
    double timeout;            /* wall-clock limit in seconds (fractions allowed), 0 = none */
    ptxeSchedule schedule;     /* PTXE_SCHEDULE_DEFAULT: by the module's .target */
    unsigned sm_count;         /* SMs of the simulated GPU, 0: the architecture's reference GPU
                                  (docs/executor.md); bounds the CTAs resident at once */
    int cooperative;           /* a cooperative launch (ptxeLaunchCooperativeKernel) */
} ptxeLaunchConfig;
/* The default step limit: a runaway kernel stops in seconds (measured on the development
 * machine: 0.1 s for a bare branch loop, 5 s for a loop of per-lane volatile loads and stores
 * over 32 warps); a longer kernel needs max_steps (`run --max-steps N`). */
#define PTXE_DEFAULT_MAX_STEPS 30000000ull

/* Launch and run to completion.  params[i] points to the value of kernel parameter i (as in
 * cuLaunchKernel); sizes come from the .entry's parameter list. */
ptxeResult ptxeLaunchKernel(ptxeFunction *f, const ptxeLaunchConfig *cfg, void **params);
/* A cooperative launch (cudaLaunchCooperativeKernel): every CTA is resident at once, %envreg1
 * and %envreg2 hold the grid workspace that cooperative_groups::this_grid().sync() uses (as the
 * CUDA driver provides them); a grid larger than one GPU holds is refused with
 * PTXE_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE and the reason.  Same as ptxeLaunchKernel with
 * cfg->cooperative set. */
ptxeResult ptxeLaunchCooperativeKernel(ptxeFunction *f, const ptxeLaunchConfig *cfg,
                                       void **params);
/* Registers per thread the occupancy assumes for kernel f (CU_FUNC_ATTRIBUTE_NUM_REGS): .maxnreg
 * when the kernel gives it, else an estimate of what ptxas would allocate (the most 32-bit
 * registers live at one instruction, plus 4); -1 when f is NULL. */
int ptxeFuncGetRegisterCount(const ptxeFunction *f);
/* CTAs of blockSize threads with dynamicSMemSize bytes of dynamic shared memory that one SM of
 * the module's architecture holds at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor): by
 * the CTA, warp, register and shared-memory limits of the CUDA guide's table, with the
 * registers per thread of .maxnreg or estimated from the PTX (docs/executor.md). */
ptxeResult ptxeOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, ptxeFunction *f,
                                                         int blockSize, size_t dynamicSMemSize);

typedef struct {
    uint64_t warp_insns;       /* warp-instructions issued */
    uint64_t thread_insns;     /* thread-instructions executed (active, guard-true lanes) */
    uint64_t nwarps;           /* warps launched */
    const uint64_t *per_warp;  /* warp-instructions per warp, in global warp order (CTA-major) */
    ptxeSchedule schedule;     /* the schedule the launch ran with (ITS or LOCKSTEP) */
    unsigned resident_ctas;    /* CTAs resident at once, at most (the occupancy of the GPU, the
                                  grid if smaller; 1 cluster under LOCKSTEP) */
    unsigned sm_count;         /* %nsmid */
    unsigned regs;             /* registers per thread the occupancy assumed */
} ptxeLaunchStats;
/* Statistics of the last launch on ctx (valid until the next launch). */
void ptxeGetLaunchStats(ptxeCtx *ctx, ptxeLaunchStats *st);

/* ---- Checks (the executor as a sanitizer; docs/executor.md "Checks") ----
 * Enabled per context before allocating (initcheck tracks which bytes the host writes from the
 * allocation on; memory allocated before initcheck was enabled counts as written).  Findings of
 * a launch are kept until the next launch on the context.  A memcheck finding is also a fault
 * (the launch fails, as under compute-sanitizer); racecheck, synccheck and initcheck findings
 * let the launch run on (it returns PTXE_SUCCESS with findings) unless the error stops it
 * (a barrier deadlock, a membermask fault). */
enum {
    PTXE_CHECK_MEMCHECK = 1u,    /* out-of-bounds, misaligned, freed or unmapped, stack overflow */
    PTXE_CHECK_RACECHECK = 2u,   /* data races on shared and global memory (ISA §8.7.1) */
    PTXE_CHECK_SYNCCHECK = 4u,   /* divergent / mismatched barriers, membermask errors */
    PTXE_CHECK_INITCHECK = 8u,   /* reads of global or shared memory never written */
    PTXE_CHECK_ALL = 15u
};
ptxeResult ptxeCtxSetChecks(ptxeCtx *ctx, unsigned checks);
unsigned ptxeCtxGetChecks(const ptxeCtx *ctx);
/* A name for the allocation at dptr, used by reports ("buffer 'y'"); copied. */
ptxeResult ptxeMemSetName(ptxeCtx *ctx, ptxeDevptr dptr, const char *name);

/* Multicast objects for multimem.* (PTX ISA §9.7.8.13, §8.2.3): ndevices (1..8) simulated
 * devices' memories of `bytes` each behind one multimem address range.  *mcaddr receives the
 * multimem address (pass it to a kernel; only multimem.* may access it), bufs[0..ndevices-1] the
 * device pointers of the per-device copies (ordinary zero-filled allocations: copy to and from
 * them as usual).  Offset o of the range names offset o of every copy. */
#define PTXE_MULTICAST_MAX_DEVICES 8
ptxeResult ptxeMulticastCreate(ptxeCtx *ctx, size_t bytes, int ndevices, ptxeDevptr *mcaddr,
                               ptxeDevptr *bufs);

typedef struct {
    int line, col;             /* PTX line and column of the instruction (0: none) */
    int src_line;              /* CUDA source line from .loc (0: none) */
    const char *src_file;      /* CUDA source file ("" when none) */
    const char *text;          /* the instruction */
    unsigned thread[3], block[3];
    int access;                /* races: 'R' read, 'W' write, 'A' atomic; else 0 */
} ptxeFindingSite;

typedef struct {
    unsigned check;            /* the PTXE_CHECK_* that found it */
    const char *kind;          /* short kind: "invalid-address", "misaligned", "stack-overflow",
                                  "double-free", "invalid-free", "leak",
                                  "race", "divergent-barrier", "barrier-mismatch",
                                  "membermask", "uninitialized-read", ... */
    const char *report;        /* the report, compute-sanitizer shape, lines "========= ..." */
    ptxeFindingSite at;        /* where (races: the later access) */
    ptxeFindingSite other;     /* races: the earlier access; line 0 otherwise */
    const char *space;         /* "global", "shared", "local", ... ("" when none) */
    uint64_t address;          /* the address accessed (0: none) */
    unsigned size;             /* bytes accessed */
    const char *buffer;        /* the allocation / variable named ("" when none) */
    int64_t offset;            /* offset of the address from the start of `buffer` */
    uint64_t count;            /* accesses (threads) this finding stands for */
} ptxeFinding;
/* Findings of the last launch: count, and the i-th (valid until the next launch). */
int ptxeGetFindingCount(ptxeCtx *ctx);
const ptxeFinding *ptxeGetFinding(ptxeCtx *ctx, int i);

/* ---- Device printf (vprintf, as nvcc and clang emit printf) ----
 * Output of the last launch, each printf call of a warp as one group of lines in lane order
 * (as a GPU's printf buffer groups it), at most `limit` bytes per launch (default 1 MiB, as
 * cudaLimitPrintfFifoSize; 0 drops the output; what does not fit is dropped and counted). */
#define PTXE_DEFAULT_PRINTF_LIMIT (1u << 20)
ptxeResult ptxeCtxSetPrintfLimit(ptxeCtx *ctx, size_t limit);
const char *ptxeGetPrintfOutput(ptxeCtx *ctx, size_t *len, uint64_t *dropped);

/* ---- Device-side malloc and free (the CUDA runtime's device heap) ----
 * Each launch has a heap of at most `bytes` (as cudaDeviceSetLimit(cudaLimitMallocHeapSize);
 * default 8 MiB, 0: every malloc returns NULL): malloc returns NULL when the blocks not yet freed
 * (each rounded up to 16 bytes) would exceed it, or the context's device memory is exhausted.
 * Blocks are released when the launch ends (a GPU keeps them until the context ends); under
 * PTXE_CHECK_MEMCHECK the blocks a completed launch did not free are reported as leaks
 * (findings of kind "leak"), a double free or a free of an address malloc did not return is a
 * fault ("double-free", "invalid-free"), and accesses past a block or after its free are
 * invalid-address findings as for any allocation. */
#define PTXE_DEFAULT_MALLOC_HEAP_SIZE ((size_t)8 << 20)
ptxeResult ptxeCtxSetMallocHeapSize(ptxeCtx *ctx, size_t bytes);
size_t ptxeCtxGetMallocHeapSize(const ptxeCtx *ctx);

/* ---- Tensor maps (TMA: cp.async.bulk.tensor and friends, ISA §5.5.7) ----
 * The executor's 128-byte tensor map (its layout is documented in docs/executor.md; the real
 * CUtensorMap is opaque).  The encoders mirror cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col:
 * the same parameters (data types numbered as CUtensorMapDataType), the same validation rules;
 * they write the 128 bytes to *tensorMap, which the caller passes as a kernel parameter
 * (`.param .align 64 .b8 tmap[128]`, e.g. a `const __grid_constant__ CUtensorMap`) or copies to
 * device memory.  PTXE_ERROR_INVALID_VALUE on a bad field, with the reason in
 * ptxeGetErrorMessage(ctx) when ctx is not NULL. */
typedef struct {
#ifdef __cplusplus
    alignas(64) uint8_t opaque[128];
#else
    _Alignas(64) uint8_t opaque[128];
#endif
} ptxeTensorMap;
typedef enum {
    PTXE_TENSOR_MAP_DATA_TYPE_UINT8 = 0, PTXE_TENSOR_MAP_DATA_TYPE_UINT16,
    PTXE_TENSOR_MAP_DATA_TYPE_UINT32, PTXE_TENSOR_MAP_DATA_TYPE_INT32,
    PTXE_TENSOR_MAP_DATA_TYPE_UINT64, PTXE_TENSOR_MAP_DATA_TYPE_INT64,
    PTXE_TENSOR_MAP_DATA_TYPE_FLOAT16, PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32,
    PTXE_TENSOR_MAP_DATA_TYPE_FLOAT64, PTXE_TENSOR_MAP_DATA_TYPE_BFLOAT16,
    PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ, PTXE_TENSOR_MAP_DATA_TYPE_TFLOAT32,
    PTXE_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ
} ptxeTensorMapDataType;
typedef enum {
    PTXE_TENSOR_MAP_INTERLEAVE_NONE = 0, PTXE_TENSOR_MAP_INTERLEAVE_16B,
    PTXE_TENSOR_MAP_INTERLEAVE_32B
} ptxeTensorMapInterleave;
typedef enum {
    PTXE_TENSOR_MAP_SWIZZLE_NONE = 0, PTXE_TENSOR_MAP_SWIZZLE_32B, PTXE_TENSOR_MAP_SWIZZLE_64B,
    PTXE_TENSOR_MAP_SWIZZLE_128B
} ptxeTensorMapSwizzle;
typedef enum {
    PTXE_TENSOR_MAP_L2_PROMOTION_NONE = 0, PTXE_TENSOR_MAP_L2_PROMOTION_L2_64B,
    PTXE_TENSOR_MAP_L2_PROMOTION_L2_128B, PTXE_TENSOR_MAP_L2_PROMOTION_L2_256B
} ptxeTensorMapL2promotion;
typedef enum {
    PTXE_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0, PTXE_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
} ptxeTensorMapFloatOOBfill;
/* globalStrides: tensorRank - 1 byte strides of dimensions 1..; boxDim, elementStrides:
 * tensorRank entries (dimension 0 innermost) */
ptxeResult ptxeTensorMapEncodeTiled(ptxeCtx *ctx, ptxeTensorMap *tensorMap,
                                    ptxeTensorMapDataType tensorDataType, uint32_t tensorRank,
                                    ptxeDevptr globalAddress, const uint64_t *globalDim,
                                    const uint64_t *globalStrides, const uint32_t *boxDim,
                                    const uint32_t *elementStrides,
                                    ptxeTensorMapInterleave interleave,
                                    ptxeTensorMapSwizzle swizzle,
                                    ptxeTensorMapL2promotion l2Promotion,
                                    ptxeTensorMapFloatOOBfill oobFill);
/* im2col: the pixel box's corners have tensorRank - 2 entries (W, H, D) */
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
                                     ptxeTensorMapFloatOOBfill oobFill);
/* ---- Texture and surface objects (ISA §5.3, §9.7.9, §9.7.10; docs/executor.md "Textures and
 * surfaces") ----
 * Shaped like the CUDA runtime's cudaCreateTextureObject / cudaCreateSurfaceObject: a resource
 * (texels in device memory) and, for textures, a sampler description; the result is a 64-bit
 * handle that a kernel takes as a .u64 parameter (cudaTextureObject_t, cudaSurfaceObject_t) or
 * that ptxeModuleBindRef stores into a module-scope .global .texref / .surfref variable.
 * Texel layout: an "array" resource is a device buffer (ptxeMemAlloc) holding the texels densely,
 * x fastest, then y, then z (3D) or the layer (layered, cubemap: faces +x -x +y -y +z -z, cubemap
 * array: face + 6 * cubemap), rows `pitch` bytes apart (0: width * texel size). */
typedef enum { PTXE_FMT_SIGNED = 0, PTXE_FMT_UNSIGNED = 1, PTXE_FMT_FLOAT = 2 } ptxeChannelKind;
typedef struct {
    int x, y, z, w;            /* bits of channels r, g, b, a (0: absent), as cudaChannelFormatDesc:
                                  all present channels the same size, 8, 16 or 32 */
    ptxeChannelKind f;         /* float: 16- or 32-bit channels */
} ptxeChannelFormatDesc;
typedef enum {
    PTXE_RES_ARRAY = 0,        /* cudaResourceTypeArray (and layered / cubemap arrays) */
    PTXE_RES_LINEAR = 1,       /* cudaResourceTypeLinear: 1D, tex1Dfetch */
    PTXE_RES_PITCH2D = 2       /* cudaResourceTypePitch2D */
} ptxeResourceType;
enum { PTXE_ARRAY_LAYERED = 1, PTXE_ARRAY_CUBEMAP = 4 };  /* flags, as cudaArrayLayered/Cubemap */
typedef struct {
    ptxeResourceType type;
    ptxeDevptr data;           /* the texels */
    ptxeChannelFormatDesc fmt;
    size_t width, height, depth;  /* texels; height 0: 1D, depth 0: not 3D */
    size_t layers;             /* PTXE_ARRAY_LAYERED: layers (cubemap: cubemaps) */
    unsigned flags;            /* PTXE_ARRAY_* */
    size_t pitch;              /* bytes between rows (0: width * texel bytes) */
} ptxeResourceDesc;
typedef enum { PTXE_ADDRESS_WRAP = 0, PTXE_ADDRESS_CLAMP = 1, PTXE_ADDRESS_MIRROR = 2,
               PTXE_ADDRESS_BORDER = 3 } ptxeAddressMode;   /* as cudaTextureAddressMode */
typedef enum { PTXE_FILTER_POINT = 0, PTXE_FILTER_LINEAR = 1 } ptxeFilterMode;
typedef enum { PTXE_READ_ELEMENT_TYPE = 0, PTXE_READ_NORMALIZED_FLOAT = 1 } ptxeReadMode;
typedef struct {
    ptxeAddressMode addressMode[3];
    ptxeFilterMode filterMode;
    ptxeReadMode readMode;
    int normalizedCoords;
    float borderColor[4];
} ptxeTextureDesc;
typedef uint64_t ptxeTexObject;
typedef uint64_t ptxeSurfObject;
/* PTXE_ERROR_INVALID_VALUE for a malformed description (detail in ptxeGetErrorMessage). */
ptxeResult ptxeCreateTextureObject(ptxeCtx *ctx, ptxeTexObject *tex, const ptxeResourceDesc *res,
                                   const ptxeTextureDesc *desc);
ptxeResult ptxeDestroyTextureObject(ptxeCtx *ctx, ptxeTexObject tex);
ptxeResult ptxeCreateSurfaceObject(ptxeCtx *ctx, ptxeSurfObject *surf,
                                   const ptxeResourceDesc *res);
ptxeResult ptxeDestroySurfaceObject(ptxeCtx *ctx, ptxeSurfObject surf);
/* Bind a module-scope .global .texref or .surfref variable to a texture or surface object. */
ptxeResult ptxeModuleBindRef(ptxeModule *mod, const char *name, uint64_t handle);

#ifdef __cplusplus
}
#endif
#endif
