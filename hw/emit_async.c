/* hw/emit_async.c — the newer synchronization instructions in a litmus thread's inline-PTX
 * block, and the addresses of shared-memory locations (docs/hardware.md, "Shared memory,
 * mbarrier, clusters, asynchronous copies").
 *
 * Each of these instructions keeps the mnemonic ptx/mnemonic.h decodes from its cell (the
 * frontend lowered it into several model instructions, frontend/litmus_async.c), spelled again
 * from its base and qualifiers without .aligned (lanes are different instances; the
 * non-aligned forms allow that); the operands come from the parsed form: per-instance
 * addresses, litmus registers, constants.  A bulk copy moves 16 bytes and the transaction counts
 * of its mbarrier are scaled (hw/plan_async.c).  A shared location's address is its slot's
 * shared::cta address (an asm input), mapa'd to the owner CTA's rank for .shared::cluster, or
 * converted to a generic address (cvta.shared, then mapa for another CTA) for generic accesses:
 * §5.1.4, §9.7.8.22 mapa, §9.7.8.21 cvta. */
#include "hw/emit_int.h"
#include <stdio.h>
#include <string.h>

static int is_shared(const ectx *c, const lit_insn *in)
{
    return in->addr.k == OPD_SYM && c->p->loc_cta[c->p->sym_loc[in->addr.sym]] >= 0;
}

const char *hw_em_space(const ectx *c, const lit_insn *in)
{
    if (!is_shared(c, in)) return ".global";
    return in->space == SPACE_SHARED_CTA       ? ".shared::cta"
           : in->space == SPACE_SHARED_CLUSTER ? ".shared::cluster"
                                               : "";
}

void hw_em_shared_addr(ectx *c, int sym, lit_space sp, char *buf, size_t len)
{
    if (sp == SPACE_SHARED_CTA) {
        snprintf(buf, len, "[%%%d]", hw_em_input(c, IN_SHCTA, sym));
    } else if (sp == SPACE_SHARED_CLUSTER) {
        c->need_clu[sym] = 1;
        snprintf(buf, len, "[%%%%t_c%d]", sym);
    } else {
        c->need_gen[sym] = 1;
        snprintf(buf, len, "[%%%%t_g%d]", sym);
    }
}

/* The address operand "[...]" of a memory instruction: a shared location's for its state
 * space, else a global address input or a register. */
void hw_em_addr(ectx *c, const lit_insn *in, char *buf, size_t len)
{
    if (is_shared(c, in))
        hw_em_shared_addr(c, in->addr.sym, in->space, buf, len);
    else if (in->addr.k == OPD_SYM)
        snprintf(buf, len, "[%%%d]", hw_em_input(c, IN_ADDR, in->addr.sym));
    else {
        char r[56];
        hw_em_reg(c, in->addr.reg, r, sizeof r);
        snprintf(buf, len, "[%s]", r);
    }
}

void hw_em_shared_prologue(ectx *c, sbuf *out)
{
    const hw_plan *p = c->p;
    for (int s = 0; s < c->t->nsym; s++) {
        if (!c->need_clu[s] && !c->need_gen[s]) continue;
        int owner = p->loc_cta[p->sym_loc[s]], rank = p->cta_pos[owner];
        int in = hw_em_input(c, IN_SHCTA, s), remote = owner != p->role_cta[c->th];
        const char *n = c->t->sym[s].name;
        if (c->need_clu[s])
            sb_add(out,
                   "        \"\\t.reg .b32 %%%%t_c%d;   // %s in shared::cluster\\n\"\n"
                   "        \"\\tmapa.shared::cluster.u32 %%%%t_c%d, %%%d, %d;\\n\"\n",
                   s, n, s, in, rank);
        if (c->need_gen[s]) {
            sb_add(out,
                   "        \"\\t.reg .b64 %%%%t_g%d;   // %s, generic\\n\"\n"
                   "        \"\\tcvt.u64.u32 %%%%t_g%d, %%%d;\\n\"\n"
                   "        \"\\tcvta.shared.u64 %%%%t_g%d, %%%%t_g%d;\\n\"\n",
                   s, n, s, in, s, s);
            if (remote)
                sb_add(out, "        \"\\tmapa.u64 %%%%t_g%d, %%%%t_g%d, %d;\\n\"\n", s, s, rank);
        }
    }
}

/* The transaction count operand k of an mbarrier instruction, scaled for its object. */
static void tx_count(ectx *c, const lit_insn *in, int k, char *buf, size_t len)
{
    lit_opnd o = in->src[k];
    int l = in->addr.k == OPD_SYM ? c->p->sym_loc[in->addr.sym] : -1;
    if (o.k == OPD_IMM && l >= 0 && c->p->loc_txscale[l] > 1) o.imm *= c->p->loc_txscale[l];
    hw_em_value(c, &o, 32, buf, len);
}

/* mbarrier.init / arrive{_drop}{.expect_tx,.noComplete} / expect_tx / complete_tx /
 * test_wait / try_wait{.parity} (§9.7.13.15) */
static void emit_mbarrier(ectx *c, const lit_insn *in, const char *mn, const char *a)
{
    char v[3][64];
    int etx = strstr(mn, ".expect_tx") != NULL, noc = strstr(mn, ".noComplete") != NULL;
    switch (in->mbar) {
    case MB_INIT:
        hw_em_value(c, &in->src[0], 32, v[0], sizeof v[0]);
        hw_em_line(c, in, "%s %s, %s;", mn, a, v[0]);
        return;
    case MB_ARRIVE:
        hw_em_value(c, &in->dst[0], 64, v[0], sizeof v[0]);
        if (etx) {
            tx_count(c, in, 1, v[1], sizeof v[1]);
            hw_em_line(c, in, "%s %s, %s, %s;", mn, v[0], a, v[1]);
        } else if (noc || in->src[0].k != OPD_IMM || in->src[0].imm != 1) {
            hw_em_value(c, &in->src[0], 32, v[1], sizeof v[1]);
            hw_em_line(c, in, "%s %s, %s, %s;", mn, v[0], a, v[1]);
        } else hw_em_line(c, in, "%s %s, %s;", mn, v[0], a);
        return;
    case MB_EXPECT_TX:
    case MB_COMPLETE_TX:
        tx_count(c, in, 0, v[0], sizeof v[0]);
        hw_em_line(c, in, "%s %s, %s;", mn, a, v[0]);
        return;
    case MB_TEST:
    case MB_TEST_PARITY:
        hw_em_value(c, &in->dst[0], HW_W_PRED, v[0], sizeof v[0]);
        hw_em_value(c, &in->src[0], in->mbar == MB_TEST ? 64 : 32, v[1], sizeof v[1]);
        hw_em_line(c, in, "%s %s, %s, %s;", mn, v[0], a, v[1]);
        return;
    default:   /* MB_INC: cp.async.mbarrier.arrive (its arrive is the cell's next instruction) */
        hw_em_line(c, in, "%s %s;", mn, a);
    }
}

/* The instruction of cell j..: the first with an address of the given kind and proxy. */
static const lit_insn *cell_insn(const ectx *c, int j, lit_ikind k, int mbar)
{
    const lit_thread *T = c->T;
    for (int q = j; q < T->nins && (q == j || hw_cell_cont(T, q)); q++)
        if (T->ins[q].k == k && (mbar < 0 || (int)T->ins[q].mbar == mbar)) return &T->ins[q];
    return NULL;
}

/* cp.async, cp.async.bulk, st.async, red.async: one asynchronous operation, one cell */
static int emit_copy(ectx *c, const lit_insn *in, int j, const char *mn)
{
    char d[80], s[80], m[80], v[64];
    const lit_insn *rd = cell_insn(c, j, LI_LD, MB_NONE), *wr = cell_insn(c, j, LI_ST, MB_NONE),
                   *ct = cell_insn(c, j, LI_ATOM, MB_COMPLETE_TX),
                   *rr = cell_insn(c, j, LI_RED, MB_NONE);
    if (ct) hw_em_addr(c, ct, m, sizeof m);
    if (rd && wr) {   /* cp.async{.bulk}: [dst], [src], size */
        hw_em_addr(c, wr, d, sizeof d);
        hw_em_addr(c, rd, s, sizeof s);
        if (rd->proxy == PROXY_ASYNC)   /* a bulk copy moves 16 bytes (§9.7.8.24.6) */
            hw_em_line(c, in, "%s %s, %s, 16, %s;", mn, d, s, m);
        else hw_em_line(c, in, "%s %s, %s, %d;", mn, d, s, rd->size);
        return 0;
    }
    const lit_insn *x = wr ? wr : rr;
    if (!x) {
        c->failed = 1;
        return hw_refuse(c->err, c->errlen, c->t->file, in->line, in->col,
                         "found '%s', expected an asynchronous copy, st.async or red.async",
                         in->text);
    }
    hw_em_addr(c, x, d, sizeof d);
    hw_em_value(c, &x->src[0], hw_type_width(x->type), v, sizeof v);
    if (ct) hw_em_line(c, in, "%s %s, %s, %s;", mn, d, v, m);
    else hw_em_line(c, in, "%s %s, %s;", mn, d, v);
    return 0;
}

int hw_em_async(ectx *c, int j)
{
    const lit_insn *in = &c->T->ins[j];
    char mn[160], a[80];
    if (hw_mnemonic(in, 1, mn, sizeof mn)) {
        c->failed = 1;
        return hw_refuse(c->err, c->errlen, c->t->file, in->line, in->col,
                         "found '%s', expected a mnemonic ptx/mnemonic.h decodes", in->text);
    }
    if (in->await == AW_WAIT_GROUP) {
        hw_em_line(c, in, "%s %d;", mn, in->await_n);
        return 0;
    }
    if (in->k == LI_BAR || in->k == LI_FENCE || in->k == LI_NOP) {   /* no operands */
        hw_em_line(c, in, "%s;", mn);
        return 0;
    }
    if (in->async_id && (in->mbar == MB_NONE || in->async_cp != 2)) return emit_copy(c, in, j, mn);
    hw_em_addr(c, in, a, sizeof a);
    if (in->async_cp == 2) {   /* cp.async.mbarrier.arrive.noinc */
        hw_em_line(c, in, "%s %s;", mn, a);
        return 0;
    }
    emit_mbarrier(c, in, mn, a);
    return 0;
}
