/* hw/emit_int.h — what the emitters of one litmus thread's inline-PTX block share
 * (hw/emit_thread.c: registers, plain instructions, the wrapper; hw/emit_async.c: the newer
 * synchronization instructions and the addresses of memory operands; hw/emit_line.c, below
 * both: inputs, register names, values, template lines). */
#ifndef PTX_HW_EMIT_INT_H
#define PTX_HW_EMIT_INT_H
#include "hw/hw_int.h"
#include "base/sbuf.h"

/* asm inputs: a global address, a texture object, a texel index, a shared::cta address */
enum { IN_ADDR, IN_TEX, IN_TEXI, IN_SHCTA };

typedef struct {
    const hw_plan *p;
    const lit_test *t;
    int th;
    const lit_thread *T;
    sbuf a;                                 /* the asm template, one C string literal per line */
    int nout, out_obs[HW_MAX_ASM_OPERANDS]; /* outputs: fixed before any input is numbered */
    int nin, in_kind[HW_MAX_ASM_OPERANDS], in_sym[HW_MAX_ASM_OPERANDS];
    unsigned char *need_clu, *need_gen;     /* per symbol: its shared::cluster / generic address
                                               is computed before the body (hw/emit_async.c) */
    char *err;
    size_t errlen;
    int failed;
} ectx;

/* hw/emit_line.c: the operand number of an input, added on first use. */
int hw_em_input(ectx *c, int kind, int sym);
/* A litmus register's PTX name (template syntax). */
void hw_em_reg(const ectx *c, int r, char *buf, size_t len);
/* A value operand in a context of width w (for immediates). */
void hw_em_value(ectx *c, const lit_opnd *o, int w, char *buf, size_t len);
/* Appends one PTX line (template syntax) with the instruction's guard, if any. */
void hw_em_line(ectx *c, const lit_insn *in, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* hw/emit_async.c: the address operand "[...]" of a memory instruction; the state-space
 * qualifier of a plain access (".global", ".shared::cta", ".shared::cluster" or "" for
 * generic); the address of a shared location's symbol for the access's state space; the cell
 * of an instruction hw_decoded_insn selects (0, or -1 with a refusal in c->err); the
 * shared::cluster and generic addresses the body uses. */
void hw_em_addr(ectx *c, const lit_insn *in, char *buf, size_t len);
const char *hw_em_space(const ectx *c, const lit_insn *in);
void hw_em_shared_addr(ectx *c, int sym, lit_space sp, char *buf, size_t len);
int hw_em_async(ectx *c, int j);
void hw_em_shared_prologue(ectx *c, sbuf *out);
#endif
