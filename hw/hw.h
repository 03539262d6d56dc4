/* hw/hw.h — `ptxlitmus hw`: run litmus tests on a real GPU and hold the outcomes against the
 * model (docs/hardware.md).
 *
 * The pipeline, one test at a time:
 *   hw_plan_build   decide whether the parsed test can be expressed exactly on one GPU, and fix
 *                   the layout: register widths, location sizes, virtual mappings, CTA/cluster
 *                   placement, the observed registers and locations (hw/plan.c)
 *   hw_emit_program write one self-contained CUDA program: each litmus thread as one inline-PTX
 *                   block, plus the host harness that places many instances per launch, reads
 *                   the results back and prints a histogram (hw/emit_thread.c, hw/emit_program.c,
 *                   hw/harness.c)
 *   hw_compile      nvcc -arch=ARCH (hw/toolchain.c)
 *   hw_execute      run the program with a time limit, parse its histogram (hw/toolchain.c)
 *   hw_classify     mark each observed state allowed/forbidden by verify_test (hw/report.c)
 * Anything that cannot be expressed exactly is refused with "file:line:col: found X, expected Y".
 */
#ifndef PTX_HW_HW_H
#define PTX_HW_HW_H
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>
#include "frontend/litmus.h"
#include "check/verify.h"

/* Exit status of the generated program and of `ptxlitmus hw` when the harness was built but
 * could not be run: no CUDA driver, no device, or no nvcc (the automake "skipped" code). */
#define HW_EXIT_SKIP 77

typedef enum { HW_STRESS_NONE, HW_STRESS_LINES, HW_STRESS_RANDOM } hw_stress;
typedef enum { HW_PLACE_AS_TEST, HW_PLACE_SHUFFLE } hw_placement;

typedef struct {
    long instances; /* instances per launch (rounded up to whole warps) */
    int launches;   /* kernel launches per test; the histogram sums them */
    hw_stress stress;
    hw_placement placement;
    int stride;    /* bytes between two location copies (a cache line by default) */
    char arch[16]; /* nvcc -arch, "sm_90" */
    model_kind model;
    const char *nvcc; /* NULL: $PATH, then /usr/local/cuda/bin/nvcc */
    const char *keep; /* directory that keeps the .cu, .ptx, binary and raw output */
    int no_run;       /* stop after compiling */
    int no_compile;   /* stop after generating (tests of the generator) */
    uint64_t seed;
    double timeout_s; /* wall-clock limit of one harness run, seconds (fractions allowed) */
    double hang_timeout_s; /* the limit of a test the model says may hang (verify --liveness) */
} hw_opts;

void hw_opts_default(hw_opts *o);
/* Parses one option value as the CLI and the suite manifests' `hw:` field spell it: key is
 * instances, launches, stress, placement, stride, arch, model, seed, timeout or
 * hang-timeout.  Returns 0, or -1 with "found ..., expected ..." in why. */
int hw_opt_set(hw_opts *o, const char *key, const char *val, char *why, size_t whylen);
/* Checks one option (key, value) as hw_opt_set would apply it; 0 or -1 with a reason.  The
   checker of the suite manifests' hw: field (suite_manifest_check_hw). */
int hw_check_option(const char *key, const char *val, char *why, size_t whylen);

/* ---------- the plan: what the generated program does ---------- */

enum { HW_W_PRED = 1 }; /* register width code for predicates; others are 16, 32, 64 */

typedef struct {
    int reg; /* OBS_REG: thread register; result slot below */
    int thread;
    int slot;  /* index in the per-instance result row, -1 for locations */
    int loc;   /* OBS_LOC: physical location index (plan numbering) */
    int bytes; /* value width in bytes (1 for a predicate: 0/1) */
    obs_kind k;
    char name[64];
} hw_obs;

typedef struct {
    const lit_test *t;
    /* placement (ISA §8.5): litmus CTAs and clusters renumbered from 0 */
    int nctas, nclusters, cdim, rmax;
    int wpr;                    /* warps per litmus thread in one hardware CTA */
    int *role_cta, *role_rank;  /* per thread: its CTA, its index among that CTA's threads */
    int *cta_cluster, *cta_pos; /* per CTA: its cluster, its index within the cluster */
    int use_cluster_launch;     /* some cluster holds more than one CTA */
    /* memory: physical locations (ISA §8.2), virtual mappings (§8.2.2 aliases) */
    int nlocs, nmaps;
    int *sym_loc, *sym_map;   /* per symbol: location index, virtual mapping index */
    int *loc_sym, *loc_bytes; /* per location: owning symbol, access size */
    int *loc_init_sym;        /* per location: symbol whose address is the initial value, or -1 */
    int *sym_tex;             /* per symbol: read through the texture proxy */
    int uses_tex;
    /* registers: width code per thread and register (HW_W_PRED, 16, 32, 64) */
    int **reg_w;
    int **reg_addr; /* initial value is the address of this symbol, or -1 */
    /* barriers (§9.7.12.1): participants per CTA and barrier id */
    int has_barrier;
    int has_loop;   /* a backward branch: instances must be co-resident */
    int weak_in_loop; /* a weak access inside a loop: ptxas gets -O0 (hw/plan.c, weak_loops) */
    int *bar_parts; /* [cta * 16 + id]: threads of the CTA that use barrier id */
    int *bar_want;  /* [cta * 16 + id]: the threads it waits for (the test's count; more or
                       fewer than bar_parts only where it can never complete for all) */
    /* shared memory (§5.1.4, hw/plan_async.c): per location, the CTA (plan numbering) whose
       shared memory holds it, -1 for global memory; its slot among the shared locations; the
       factor every transaction count of an mbarrier location is multiplied by (bulk copies
       of a 4- or 8-byte location move 16 bytes, §9.7.8.24.6) */
    int *loc_cta, *loc_shslot, *loc_txscale;
    int *loc_inval; /* per location: an mbarrier object the test initialises once on every path
                       of one thread; the harness invalidates it before its CTA exits
                       (§9.7.13.15.3) */
    int nshared;
    int uses_remote; /* a thread accesses another CTA's shared memory (.shared::cluster) */
    int uses_cbar;   /* barrier.cluster: every live thread of a cluster takes part (no stress) */
    int uses_bulk;   /* cp.async.bulk: 16-byte aligned copies (stride a multiple of 16) */
    /* observed values, in verify's order */
    hw_obs *obs;
    int nobs, nres;
} hw_plan;

/* Returns 0, or -1 with "file:line:col: found X, expected Y" in err (the test is refused). */
int hw_plan_build(const lit_test *t, const hw_opts *o, hw_plan *p, char *err, size_t errlen);
void hw_plan_free(hw_plan *p);

/* ---------- code generation ---------- */

/* The CUDA program for a planned test; NULL with err set when an instruction cannot be
 * emitted exactly.  Caller frees. */
char *hw_emit_program(const hw_plan *p, const hw_opts *o, char *err, size_t errlen);
/* The inline-PTX function of one litmus thread (used by hw_emit_program and the tests). */
char *hw_emit_thread(const hw_plan *p, int th, char *err, size_t errlen);
/* The fixed parts of every program: before and after the generated device functions. */
extern const char hw_harness_prologue[];
extern const char hw_harness_epilogue[];

/* ---------- toolchain and execution ---------- */

typedef struct {
    int ran;          /* the program ran to its end on a GPU */
    int hung;         /* it ran past its time limit and was killed */
    int skipped;      /* 77: no driver / no device / no nvcc */
    char reason[512]; /* why it did not run, or the error */
    char gpu[128], driver[32], cc[16];
    long instances, launches;
    uint64_t seed;
    double kernel_ms;
    int nstates;
    uint64_t *states; /* nstates x nobs raw values (masked to their width) */
    uint64_t *counts;
} hw_outcome;

/* The nvcc to use (o->nvcc, $PATH, /usr/local/cuda/bin/nvcc), NULL if none; and its version. */
const char *hw_find_nvcc(const hw_opts *o);
int hw_nvcc_version(const char *nvcc, char *buf, size_t len);
/* Compiles dir/base.cu into dir/base (and dir/base.ptx with want_ptx); ptxas_o0: ptxas without
 * optimisation (-Xptxas -O0, a plan's weak_in_loop).  Returns 0, or -1 with nvcc's diagnostics
 * (tail) in err. */
int hw_compile(const char *nvcc, const hw_opts *o, const char *dir, const char *base, int want_ptx,
               int ptxas_o0, char *err, size_t errlen);
/* Runs dir/base, parses its output into out.  Returns 0 when the program ran or skipped
 * cleanly (out->ran / out->skipped), -1 on a failure (out->reason). */
int hw_execute(const char *dir, const char *base, const hw_plan *p, const hw_opts *o,
               hw_outcome *out);
/* Reads the output of a harness program that ran elsewhere (ptxlitmus hw --from FILE). */
int hw_read_output(const char *path, const hw_plan *p, hw_outcome *out);
void hw_outcome_free(hw_outcome *o);

/* ---------- classification and reports ---------- */

typedef enum { HW_ALLOWED, HW_FORBIDDEN, HW_UNKNOWN } hw_verdict;

typedef struct {
    int n;                  /* observed states */
    hw_verdict *verdict;    /* per observed state */
    int *holds;             /* the test's proposition holds in the state */
    int *match;             /* per observed state: the model state it is, -1 if none */
    int observed_forbidden; /* states the model forbids that the GPU showed */
    int allowed_never_seen; /* model states never observed */
    int unknown;            /* not in a truncated or bounded state list */
    unsigned char *seen;    /* per model state: observed */
    model_kind model;       /* the model r was decided under */
} hw_class;

/* Classifies out's states against r (verify_test of the same test under model m); r may be
 * NULL (every state unknown).  Returns 0, or -1 when memory runs out. */
int hw_classify(const hw_plan *p, const verify_result *r, model_kind m, const hw_outcome *out,
                hw_class *c);
void hw_class_free(hw_class *c);
/* herd-like text block for one test. */
void hw_report_text(FILE *f, const hw_plan *p, const verify_result *r, const hw_outcome *out,
                    const hw_class *c);
/* The JSON object of one test (docs/hardware.md). */
cJSON *hw_report_json(const hw_plan *p, const verify_result *r, const hw_outcome *out,
                      const hw_class *c);

/* ---------- commands ---------- */

int hw_cli(int argc, char **argv); /* argv[0] == "hw" */
/* `ptxlitmus suite --hw [PATH...] [hw options]`: every test of the manifests on the GPU, with
 * each manifest's `hw:` field as defaults (docs/suites.md). */
int hw_suite_cli(int argc, char **argv);

#endif
