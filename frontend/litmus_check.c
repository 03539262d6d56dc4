/* frontend/litmus_check.c — the rules of a PTX litmus test across its instructions, applied
 * after the last instruction is read, by every front end (litmus_parse.c for the PTX dialect,
 * tileir_parse.c and llvm_parse.c for theirs): location sizes and types (§8.2), state spaces
 * shared between threads (§5.1), the asynchronous operations' order and shared locations
 * (litmus_async.c lp_async_check), the unordered elements of vector accesses (§8.2.4), the
 * registers' types as the condition reads them, bar.red's predicate (§9.7.12.1). */
#include "frontend/litmus_int.h"
#include "base/alloc.h"
#include <stdio.h>
#include <string.h>

static int is_memop(const lit_insn *in)
{
    return in->k == LI_LD || in->k == LI_ST || in->k == LI_ATOM || in->k == LI_RED;
}

static void errat_insn(parser *p, const lit_insn *in, const char *fmt, const char *a, const char *b)
{
    token t = { .line = in->line, .col = in->col };
    lp_errat(p, &t, fmt, a, b);
}

/* Location sizes and types (ISA §8.2: a memory location is the bytes an access names):
   declared in the initial state, else the widest typed access, else 8 bytes when it is
   initialised with an address, else the widest typed access of the test, else 8 bytes (the Dat3M
   dialect's untyped integers).  Accesses must lie inside the location, naturally aligned
   (§6.4.2 alignment of addresses); an untyped access covers the whole location. */
static int size_locations(parser *p)
{
    lit_test *t = p->t;
    for (int pass = 0; pass < 2; pass++)
        for (int ti = 0; ti < t->nth; ti++)
            for (int k = 0; k < t->th[ti].nins; k++) {
                const lit_insn *in = &t->th[ti].ins[k];
                if (!is_memop(in) || in->addr.k != OPD_SYM) continue;
                lit_sym *l = &t->sym[t->sym[in->addr.sym].loc];
                int end = (int)in->addr.off + in->size;
                if (pass == 0) {
                    if (!l->declared && in->size && end > l->size) {
                        l->size = end;
                        if (in->addr.off == 0) l->type = in->type;
                    }
                    continue;
                }
                char a[64], b[96];
                snprintf(a, sizeof a, "%.60s", t->sym[in->addr.sym].name);
                if (!in->size && in->addr.off) {
                    errat_insn(p, in,
                               "found an offset into '%s' in an untyped access%s, expected a type "
                               "giving the access size",
                               a, "");
                    return -1;
                }
                if (in->size && end > l->size) {
                    snprintf(b, sizeof b, " (bytes %lld..%d of a %d-byte location)",
                             (long long)in->addr.off, end - 1, l->size);
                    errat_insn(
                        p, in,
                        "found an access past the end of '%s'%s, expected it inside the location",
                        a, b);
                    return -1;
                }
                if (in->size && in->addr.off % in->size) {
                    snprintf(b, sizeof b, " at offset %lld", (long long)in->addr.off);
                    errat_insn(p, in,
                               "found a misaligned access to '%s'%s, expected an offset that is a "
                               "multiple of the access size (§6.4.2)",
                               a, b);
                    return -1;
                }
            }
    /* a location wider than the access at its start (a vector or packed access, §8.2.4-5, or
       accesses at offsets) is read by the condition as one unsigned value of its size */
    for (int s = 0; s < t->nsym; s++) {
        lit_sym *l = &t->sym[s];
        if (l->loc == s && !l->declared && l->type && 8 * l->size > (int)isa_type_bits(l->type))
            l->type = l->size > 4 ? ISA_T_U64 : l->size > 2 ? ISA_T_U32 : ISA_T_U16;
    }
    /* a location no typed access names directly (it is reached through registers holding its
       address, or only by untyped accesses) takes the widest type of the test's typed accesses */
    isa_type widest = ISA_T_NONE;
    for (int ti = 0; ti < t->nth; ti++)
        for (int k = 0; k < t->th[ti].nins; k++) {
            const lit_insn *in = &t->th[ti].ins[k];
            if (is_memop(in) && in->size && (!widest || (int)isa_type_bits(widest) < 8 * in->size))
                widest = in->type;
        }
    for (int s = 0; s < t->nsym; s++) {
        lit_sym *l = &t->sym[s];
        if (l->loc != s) continue;
        /* a location initialised with an address (y=&x) holds a 64-bit generic address (§6.4) */
        if (!l->size && lit_addr_sym(t, l->init) >= 0) l->size = 8;
        if (!l->size && widest) { l->size = (int)isa_type_bits(widest) / 8; l->type = widest; }
        if (!l->size) l->size = 8;
        if (!l->type)
            l->type = l->size == 8   ? ISA_T_S64
                      : l->size == 4 ? ISA_T_U32
                      : l->size == 2 ? ISA_T_U16
                                     : ISA_T_U8;
        if (l->size < 8 && lit_addr_sym(t, l->init) < 0)
            l->init &= (int64_t)((1ull << (8 * l->size)) - 1);
    }
    return 0;
}

/* State spaces shared between threads (ISA §5.1): a location lives in one state space; .local
   memory is private to a thread; .shared::cta names the shared memory of the executing CTA and
   .shared::cluster that of a CTA of the executing cluster. */
static int check_spaces(parser *p)
{
    lit_test *t = p->t;
    for (int s = 0; s < t->nsym; s++) {
        if (t->sym[s].loc != s) continue;
        const lit_insn *first = NULL, *cta_first = NULL;
        int ft = -1, ct = -1;
        for (int ti = 0; ti < t->nth; ti++)
            for (int k = 0; k < t->th[ti].nins; k++) {
                const lit_insn *in = &t->th[ti].ins[k];
                if (!is_memop(in) || in->addr.k != OPD_SYM || t->sym[in->addr.sym].loc != s ||
                    in->space == SPACE_GENERIC)
                    continue;
                const lit_thread *a = &t->th[ti];
                const char *nm = t->sym[s].name;
                int shared = in->space == SPACE_SHARED_CTA || in->space == SPACE_SHARED_CLUSTER;
                if (first) {
                    int fsh =
                        first->space == SPACE_SHARED_CTA || first->space == SPACE_SHARED_CLUSTER;
                    if (shared != fsh || (!shared && first->space != in->space)) {
                        errat_insn(p, in,
                                   "found '%s' accessed in a second state space, expected one "
                                   "state space for "
                                   "location %s (§5.1)",
                                   in->text, nm);
                        return -1;
                    }
                    if (in->space == SPACE_LOCAL && ft != ti) {
                        errat_insn(p, in,
                                   "found '%s' in a second thread, expected .local location %s to "
                                   "be used by one "
                                   "thread (.local memory is private to a thread, §5.1.5)",
                                   in->text, nm);
                        return -1;
                    }
                } else { first = in; ft = ti; }
                if (in->space == SPACE_SHARED_CTA) {
                    if (cta_first && (t->th[ct].gpu != a->gpu || t->th[ct].cta != a->cta)) {
                        errat_insn(p, in,
                                   "found '%s' in another CTA, expected .shared::cta accesses to "
                                   "%s from one CTA "
                                   "(each CTA has its own shared memory, §5.1.4)",
                                   in->text, nm);
                        return -1;
                    }
                    if (!cta_first) { cta_first = in; ct = ti; }
                }
            }
        /* .shared::cluster: every accessing thread in the cluster of the owning CTA */
        for (int ti = 0; ti < t->nth && first; ti++)
            for (int k = 0; k < t->th[ti].nins; k++) {
                const lit_insn *in = &t->th[ti].ins[k];
                if (!is_memop(in) || in->addr.k != OPD_SYM || t->sym[in->addr.sym].loc != s)
                    continue;
                if (in->space != SPACE_SHARED_CLUSTER && in->space != SPACE_SHARED_CTA) continue;
                int ref = ct >= 0 ? ct : ft;
                const lit_thread *a = &t->th[ti], *o = &t->th[ref];
                if (a->gpu != o->gpu || a->cluster != o->cluster) {
                    errat_insn(p, in,
                               "found '%s' in another cluster, expected the shared memory of %s "
                               "accessed from "
                               "one cluster (.shared::cluster reaches the CTAs of the executing "
                               "cluster, §5.1.4)",
                               in->text, t->sym[s].name);
                    return -1;
                }
            }
    }
    return 0;
}

/* The type a destination register receives from an instruction. */
static isa_type dst_type(const lit_insn *in, int k)
{
    if (in->k == LI_ATOM && in->packed) return in->packed;
    if (in->k == LI_LD || in->k == LI_ATOM) return in->type;
    if (in->k == LI_BAR && in->bar == BAR_RED)
        return in->bar_op == BRED_POPC ? ISA_T_U32 : ISA_T_PRED;
    if (in->k != LI_ALU) return ISA_T_NONE;
    return isa_dst_type(&in->alu, k);   /* ptx/isa: .pred for setp, .u32 for bfind, ... */
}

/* §8.2.4: the elements of a vector access are executed in an unspecified order: program order
   relates them to every other instruction and not to each other (lit_thread.order).  The order
   is computed on the text, so a vector access may not sit in a loop. */
static int vector_order(parser *p, lit_thread *th)
{
    int n = th->nins, any = 0;
    for (int k = 0; k < n; k++) any |= th->ins[k].vec_id > 0;
    if (!any) return 0;
    for (int k = 0; k < n; k++) {
        const lit_insn *b = &th->ins[k];
        if ((b->k != LI_BRANCH && b->k != LI_GOTO) || b->target < 0 || b->target > k ||
            (b->target_name && !strcmp(b->target_name, "$end"))) continue;
        for (int j = b->target; j <= k; j++)
            if (th->ins[j].vec_id) {
                errat_insn(p, &th->ins[j],
                           "found the vector access '%s' inside a loop, expected it outside "
                           "loops%s (its elements' order is computed on the text, §8.2.4)",
                           th->ins[j].text, "");
                return -1;
            }
    }
    if (!th->order) {
        th->order = xcalloc((size_t)n * (size_t)n, 1);
        for (int x = 0; x < n; x++)
            for (int y = x + 1; y < n; y++) th->order[(size_t)x * (size_t)n + (size_t)y] = 1;
    }
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++)
            if (x != y && th->ins[x].vec_id && th->ins[x].vec_id == th->ins[y].vec_id)
                th->order[(size_t)x * (size_t)n + (size_t)y] = 0;
    return 0;
}

int lp_check_program(parser *p)
{
    if (size_locations(p) || check_spaces(p) || lp_async_check(p)) return -1;
    lit_test *t = p->t;
    for (int ti = 0; ti < t->nth; ti++)
        if (vector_order(p, &t->th[ti])) return -1;
    for (int ti = 0; ti < t->nth; ti++) {
        lit_thread *th = &t->th[ti];
        for (int k = 0; k < th->nins; k++)
            for (int d = 0; d < th->ins[k].ndst; d++) {
                const lit_opnd *o = &th->ins[k].dst[d];
                isa_type ty = dst_type(&th->ins[k], d);
                if (o->k == OPD_REG && !th->reg_type[o->reg] && ty) th->reg_type[o->reg] = ty;
            }
    }
    /* bar.red's c is a predicate (§9.7.12.1: "operands p and c are predicates") */
    for (int ti = 0; ti < t->nth; ti++) {
        const lit_thread *th = &t->th[ti];
        for (int k = 0; k < th->nins; k++) {
            const lit_insn *in = &th->ins[k];
            if (in->k != LI_BAR || in->bar != BAR_RED) continue;
            isa_type ty = th->reg_type[in->bar_pred.reg];
            if (ty && ty != ISA_T_PRED) {
                token at = { .line = in->line, .col = in->col };
                lp_errat(
                    p, &at,
                    "found the .%s register %s as the predicate c of '%s', expected a predicate "
                    "register (§9.7.12.1: operands p and c are predicates; setp writes one)",
                    isa_type_name(ty), th->regs[in->bar_pred.reg], in->text);
                return -1;
            }
        }
    }
    return 0;
}
