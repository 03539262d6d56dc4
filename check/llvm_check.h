/* check/llvm_check.h — the LLVM -> PTX mapping check (docs/llvm-mapping.md).
 *
 * An LLVM-level litmus test (frontend/llvm_litmus.h) is decided twice: as written, under the
 * scoped C++ model (model/rc11-scoped.cat), and as a mapping lowers it to PTX, under the PTX
 * model (model/ptx.cat).  Both have the same observables; every final state the PTX program
 * reaches and the source program does not is an outcome the mapping introduces: a mapping bug
 * (unless the source program has a data race, whose outcomes are undefined). */
#ifndef PTX_CHECK_LLVM_CHECK_H
#define PTX_CHECK_LLVM_CHECK_H
#include <stdint.h>
#include "check/verify.h"
#include "frontend/llvm_litmus.h"

/* UNSUPPORTED: the mapping has no lowering for an instruction of the test (llc 14 stops with
   'Cannot select' on acquire/release/seq_cst loads and stores and on fences): r->error says which
 */
typedef enum {
    LLVM_CHECK_OK,
    LLVM_CHECK_BUG,
    LLVM_CHECK_RACY,
    LLVM_CHECK_ERROR,
    LLVM_CHECK_UNSUPPORTED
} llvm_check_verdict;

typedef struct {
    char *file, *name;
    llvm_mode mapping;
    llvm_check_verdict verdict;
    char error[1024];
    int nobs;
    char **obs;              /* observable names (owned) */
    int nsrc, nptx;          /* reachable final states at source and after lowering */
    int nbug;                /* states the PTX program reaches and the source does not */
    int64_t *bug;            /* nbug x nobs */
    int src_cond, ptx_cond;  /* the test's condition: verify_observation-like 'validated' (1/0) */
    verify_result src, ptx;  /* the two decisions (for value printing) */
} llvm_check_result;

/* Decides file under mapping m (not LLVM_SOURCE); o: the options (model and states are set
   here).  Returns 0 (r->verdict is OK, BUG, RACY or UNSUPPORTED) or -1 (ERROR, r->error set). */
int llvm_check_file(const char *path, llvm_mode m, const verify_opts *o, llvm_check_result *r);
void llvm_check_result_free(llvm_check_result *r);
const char *
llvm_check_verdict_name(llvm_check_verdict v); /* "ok", "bug", "racy", "error", "unsupported" */
#endif
