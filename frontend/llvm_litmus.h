/* frontend/llvm_litmus.h — litmus tests written with LLVM IR atomics (docs/llvm-mapping.md).
 *
 * A thread body is a list of LLVM IR memory instructions on scalar integers: load / store
 * (plain, volatile, or atomic with an ordering), fence, atomicrmw and cmpxchg, each with an
 * optional syncscope("block" | "cluster" | "device"; none: the system).  The same text is read
 * in one of several modes:
 *   LLVM_SOURCE      the source-level test: each instruction one event carrying its C++
 *                    ordering (non-atomic -> SEM_WEAK, monotonic -> SEM_RELAXED, acquire,
 *                    release, acq_rel, seq_cst -> SEM_SC) and scope, for model/rc11-scoped.cat;
 *   LLVM_MAP_*       the PTX test a lowering table gives (fences and PTX semantics), for the
 *                    PTX model.  Both have the same threads, registers and condition, so their
 *                    final states compare (check/llvm_check.c). */
#ifndef PTX_FRONTEND_LLVM_LITMUS_H
#define PTX_FRONTEND_LLVM_LITMUS_H
#include <stddef.h>
#include "frontend/litmus.h"

typedef enum {
    LLVM_SOURCE,
    LLVM_MAP_NVPTX,       /* the fence-based scoped mapping (Lustig et al., ASPLOS 2019) that the
                             NVPTX back end implements for sm_70+ (docs/llvm-mapping.md) */
    LLVM_MAP_LLC14,       /* what llc 14 (Debian 14.0.6, -mcpu=sm_80) emits: suites/llvm/llc/ */
    LLVM_MAP_NO_FENCE_SC, /* a deliberately wrong table: seq_cst as acquire/release, no fence.sc */
    LLVM_MODE_COUNT
} llvm_mode;

const char *llvm_mode_name(llvm_mode m);            /* "source", "nvptx", "llc14", "no-fence-sc" */
int llvm_mode_parse(const char *s, llvm_mode *m);   /* 0, or -1 for an unknown name */

/* Parses an LLVM-level litmus test (header word LLVM) in mode m.  Returns NULL with
   "file:line:col: found X, expected Y" in err on a malformed test, or on an instruction the
   mapping has no lowering for (llc 14 refuses acquire loads, for instance). */
lit_test *llvm_parse(const char *file, const char *text, int max_depth, llvm_mode m, char *err,
                     size_t errlen);
/* llvm_parse in mode LLVM_MAP_NVPTX: what `ptxlitmus verify` decides for an LLVM test. */
lit_test *llvm_parse_lowered(const char *file, const char *text, int max_depth, char *err,
                             size_t errlen);
#endif
