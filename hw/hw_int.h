/* hw/hw_int.h — helpers shared by the files of hw/ (not part of the command's interface). */
#ifndef PTX_HW_HW_INT_H
#define PTX_HW_HW_INT_H
#include <stddef.h>
#include "hw/hw.h"

/* "file:line:col: " + printf text into err; returns -1 (for `return hw_refuse(...)`). */
int hw_refuse(char *err, size_t errlen, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Position of a thread's placement cell ("P1@...") or of a symbol's declaration in the test
 * file, found by reading the file; 1:1 when it cannot be found. */
void hw_thread_pos(const lit_test *t, int th, int *line, int *col);
void hw_sym_pos(const lit_test *t, int sym, int *line, int *col);

/* Access method of a memory instruction (§8.6): the mnemonic's proxy (tld, suld, ...) or, for a
 * generic mnemonic, the declared proxy of the symbol it names. */
lit_proxy hw_eff_proxy(const lit_test *t, const lit_insn *in);
/* The PTX type an access is emitted with (explicit type, else the default for the location
 * size and atomic operation); ISA_T_NONE with a reason in why when there is none. */
isa_type hw_access_type(const hw_plan *p, const lit_insn *in, char *why, size_t whylen);
/* Physical location index (plan numbering) an instruction addresses, -1 for a register address. */
int hw_insn_loc(const hw_plan *p, const lit_insn *in);

/* Width code (HW_W_PRED, 16, 32, 64) of every operand of a register computation; -1 with a
 * reason when the computation is outside what the harness re-emits exactly. */
int hw_alu_widths(const isa_insn *in, int ndst, int nsrc, int *dw, int *sw, char *why, size_t len);
/* The PTX mnemonic of a decoded computation ("mul.lo.s32"), checked by decoding it again:
 * -1 with a reason when the round trip does not give the same instruction. */
int hw_alu_mnemonic(const isa_insn *in, char *buf, size_t len, char *why, size_t whylen);

/* Width code of a type: 1 for .pred, else its bits. */
int hw_type_width(isa_type t);
const char *hw_scope_name(lit_scope s);
const char *hw_sem_name(lit_sem s);

/* Escapes text for a C string literal, and '%' for an inline-asm template ("%%"). */
void hw_c_escape(char *dst, size_t len, const char *src, int asm_template);

/* Runs argv (argv[0] a path) in its own process group with stdout and stderr to files (the same
 * path for both is fine); returns the exit status, 128 + signal, or -1 when it could not start.
 * After timeout_s seconds (0 = none) the group is killed and *timed_out set. */
int hw_run_cmd(char *const argv[], const char *out, const char *errf, double timeout_s,
               int *timed_out);

/* The value of an operand known when generating: an immediate, or a register no instruction
 * of the thread writes (its initial value, §8.2.6).  0, or -1 when it is computed at run time. */
int hw_const_opnd(const lit_thread *T, const lit_opnd *o, int64_t *v);
/* Instruction j of T continues the cell of instruction j - 1: one litmus instruction lowered
 * into several (an asynchronous operation, frontend/litmus_async.c) shares its line and column. */
int hw_cell_cont(const lit_thread *T, int j);
/* 1 when every path through T reaches instruction j exactly once: no branch jumps over it or
 * back across it (a loop before it is fine); else 0 with the branch's index in *b. */
int hw_reached_once(const lit_thread *T, int j, int *b);
/* The mnemonic of the instruction's cell as ptx/mnemonic.h decodes it (a label or guard before
 * it skipped), spelled again from its base and qualifiers; with drop_aligned, without .aligned.
 * 0, or -1 when it does not decode. */
int hw_mnemonic(const lit_insn *in, int drop_aligned, char *buf, size_t len);
/* The instructions emitted from their decoded mnemonic (hw/emit_async.c): mbarrier operations,
 * barrier.cluster, asynchronous copies and their completions, fence.acquire/.release,
 * restricted fences, fence.proxy.async and .tensormap. */
int hw_decoded_insn(const lit_insn *in);
/* hw/plan_async.c: shared locations, accesses to them, transaction-count scaling,
 * barrier.cluster; and the condition's observed values against them. */
int hw_plan_async(hw_plan *p, const lit_test *t, char *err, size_t len);
int hw_plan_async_obs(const hw_plan *p, const lit_test *t, char *err, size_t len);

/* The most operands one inline-asm statement may take (the GCC limit that nvcc follows). */
#define HW_MAX_ASM_OPERANDS 30
#endif
