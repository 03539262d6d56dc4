/* frontend/litmus_test.c — the test being built, shared by every litmus front end (the bottom of
 * frontend/'s litmus files; it calls none of them): the messages of the parsers
 * (`file:line:col: found X, expected Y`, warnings kept in lit_test.notes), the symbols, threads
 * and registers of a lit_test (frontend/litmus.h) found or added by name, and lit_free.
 * Used by the PTX parser (litmus_parse.c, litmus_insn.c, litmus_opnd.c, litmus_async.c,
 * litmus_check.c), the frame of the other front ends (litmus_build.c) and those front ends
 * (tileir_parse.c, llvm_parse.c). */
#include "frontend/litmus_int.h"
#include "base/alloc.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- messages ---------- */

void lp_errat(parser *p, const token *t, const char *fmt, ...)
{
    if (p->failed) return;
    int o = snprintf(p->err, p->errlen, "%s:%d:%d: ", p->file, t->line, t->col);
    va_list ap;
    va_start(ap, fmt);
    if (o >= 0 && (size_t)o < p->errlen) vsnprintf(p->err + o, p->errlen - (size_t)o, fmt, ap);
    va_end(ap);
    p->failed = 1;
}

void lp_warnat(parser *p, const token *t, const char *fmt, ...)
{
    char msg[768], line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "%s:%d:%d: warning: %s", p->file, t->line, t->col, msg);
    lit_test *lt = p->t;
    lt->notes = xrealloc(lt->notes, (size_t)(lt->nnotes + 1) * sizeof *lt->notes);
    lt->notes[lt->nnotes++] = xstrdup(line);
}

void lp_expect_fail(parser *p, const token *t, const char *expected)
{
    char found[96];
    tok_describe(t, found, sizeof found);
    lp_errat(p, t, "found %s, expected %s", found, expected);
}

char *lp_tokstr(const token *t) { return xstrndup(t->s, (size_t)t->len); }

const char *lp_strip_pct(const char *s) { return s[0] == '%' ? s + 1 : s; }

/* ---------- symbols, threads, registers ---------- */

int lit_find_sym(const lit_test *t, const char *name)
{
    for (int i = 0; i < t->nsym; i++)
        if (!strcmp(t->sym[i].name, name)) return i;
    return -1;
}

int lp_add_sym(lit_test *t, const char *name)
{
    int i = lit_find_sym(t, name);
    if (i >= 0) return i;
    t->sym = xrealloc(t->sym, (size_t)(t->nsym + 1) * sizeof *t->sym);
    lit_sym *s = &t->sym[t->nsym];
    memset(s, 0, sizeof *s);
    s->name = xstrndup(name, strlen(name));
    s->loc = t->nsym;
    s->vaddr = t->nsym;
    s->proxy = PROXY_GENERIC;
    s->owner = -1;
    return t->nsym++;
}

int lit_addr_sym(const lit_test *t, int64_t v)
{
    if (v < LIT_ADDR_BASE || (v - LIT_ADDR_BASE) % LIT_ADDR_STRIDE) return -1;
    int64_t s = (v - LIT_ADDR_BASE) / LIT_ADDR_STRIDE;
    return s < t->nsym ? (int)s : -1;
}

int lit_find_thread(const lit_test *t, const char *name)
{
    char buf[40];
    if (isdigit((unsigned char)name[0])) { snprintf(buf, sizeof buf, "P%s", name); name = buf; }
    for (int i = 0; i < t->nth; i++)
        if (!strcmp(t->th[i].name, name)) return i;
    return -1;
}

int lit_find_reg(const lit_thread *th, const char *name)
{
    name = lp_strip_pct(name);
    for (int i = 0; i < th->nregs; i++)
        if (!strcmp(th->regs[i], name)) return i;
    return -1;
}

int lp_add_reg(lit_thread *th, const char *name)
{
    name = lp_strip_pct(name);
    int i = lit_find_reg(th, name);
    if (i >= 0) return i;
    th->regs = xrealloc(th->regs, (size_t)(th->nregs + 1) * sizeof *th->regs);
    th->reg_init = xrealloc(th->reg_init, (size_t)(th->nregs + 1) * sizeof *th->reg_init);
    th->reg_type = xrealloc(th->reg_type, (size_t)(th->nregs + 1) * sizeof *th->reg_type);
    th->reg_type[th->nregs] = ISA_T_NONE;
    th->regs[th->nregs] = xstrndup(name, strlen(name));
    th->reg_init[th->nregs] = 0;
    return th->nregs++;
}

/* ---------- freeing ---------- */

void lit_free(lit_test *t)
{
    if (!t) return;
    for (int i = 0; i < t->nth; i++) {
        lit_thread *th = &t->th[i];
        for (int k = 0; k < th->nins; k++) { free(th->ins[k].text); free(th->ins[k].target_name); }
        if (th->labels) for (int k = 0; k <= th->nins; k++) free(th->labels[k]);
        free(th->labels);
        free(th->ins);
        for (int k = 0; k < th->nregs; k++) free(th->regs[k]);
        free(th->regs);
        free(th->reg_init);
        free(th->reg_type);
        free(th->order);
        free(th->name);
    }
    free(t->th);
    for (int i = 0; i < t->nsym; i++) free(t->sym[i].name);
    free(t->sym);
    cond_free(t->cond);
    cond_free(t->filter);
    for (int i = 0; i < t->nlocations; i++) cond_ref_free(&t->locations[i]);
    free(t->init_regs);
    free(t->locations);
    free(t->file);
    free(t->name);
    free(t->doc);
    for (int i = 0; i < t->nnotes; i++) free(t->notes[i]);
    free(t->notes);
    free(t);
}
