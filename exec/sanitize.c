/* exec/sanitize.c — the executor as a sanitizer (docs/executor.md "Checks"), in the vocabulary
 * of compute-sanitizer:
 *   memcheck   the engine's memory faults, described: the buffer by name and how far past its
 *              end (or before its start) the access went, freed memory, misalignment;
 *   initcheck  reads of global or shared bytes that neither the host (ptxeMemcpyHtoD,
 *              ptxeMemsetD8) nor the kernel wrote: a bit per byte of each allocation made
 *              while initcheck was on, a bit per byte of each CTA's shared memory;
 *   synccheck  divergent barriers (of a warp, of a CTA), bad barrier arguments, membermask
 *              errors and deadlocks of the warp-synchronous instructions;
 *   racecheck  data races (ISA §8.7.1) by the memory model: exec/race.c keeps the vector
 *              clocks and the shadow memory; here the races it finds become reports.
 * Findings are deduplicated by (kind, instruction, other instruction) and counted. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/race.h"
#include "exec/sanitize.h"

#define MAX_FINDINGS 1000

struct san {
    ptxeCtx *ctx;
    ptxeModule *m;
    const char *kernel;
    unsigned checks;
    uint32_t nt, ssize;
    unsigned gdim[3], bdim[3];
    uint32_t nslots;             /* CTA slots: the CTAs resident at once (exec/sched.c) */
    uint8_t **sinit;             /* initcheck: written bits of each slot's shared memory */
    uint64_t *slot_cta;          /* the linear index of the CTA running in each slot */
    race *race;                  /* racecheck (exec/race.c) */
    int race_skipped;            /* allocations too large for racecheck */
    int hidx[4096];              /* findings by (check, kind, pc, other pc): index + 1 */
};

/* ---------------------------------------------------------------- the context's findings */
void san_findings_clear(ptxeCtx *ctx)
{
    san_list *L = &ctx->findings;
    for (int i = 0; i < L->n; i++) {
        free((char *)L->v[i].report);
        free((char *)L->v[i].buffer);
    }
    L->n = 0; L->more = 0;
}

ptxeResult ptxeCtxSetChecks(ptxeCtx *ctx, unsigned checks)
{
    if (!ctx || checks & ~(unsigned)PTXE_CHECK_ALL) return PTXE_ERROR_INVALID_VALUE;
    ctx->checks = checks;
    return PTXE_SUCCESS;
}
unsigned ptxeCtxGetChecks(const ptxeCtx *ctx) { return ctx ? ctx->checks : 0; }

ptxeResult ptxeMemSetName(ptxeCtx *ctx, ptxeDevptr dptr, const char *name)
{
    if (!ctx || !name) return PTXE_ERROR_INVALID_VALUE;
    galloc *g = mem_find(ctx, dptr, 0);
    if (!g || g->addr != dptr) return PTXE_ERROR_INVALID_VALUE;
    char *c = strdup(name);
    if (!c) return PTXE_ERROR_OUT_OF_MEMORY;
    free(g->name);
    g->name = c;
    return PTXE_SUCCESS;
}

int ptxeGetFindingCount(ptxeCtx *ctx) { return ctx ? ctx->findings.n : 0; }
const ptxeFinding *ptxeGetFinding(ptxeCtx *ctx, int i)
{
    return ctx && i >= 0 && i < ctx->findings.n ? &ctx->findings.v[i] : NULL;
}

ptxeResult ptxeCtxSetPrintfLimit(ptxeCtx *ctx, size_t limit)
{
    if (!ctx) return PTXE_ERROR_INVALID_VALUE;
    ctx->pf.limit = limit; ctx->pf.set = 1;
    return PTXE_SUCCESS;
}
const char *ptxeGetPrintfOutput(ptxeCtx *ctx, size_t *len, uint64_t *dropped)
{
    if (len) *len = ctx ? ctx->pf.n : 0;
    if (dropped) *dropped = ctx ? ctx->pf.dropped : 0;
    return ctx && ctx->pf.s ? ctx->pf.s : "";
}

/* ---------------------------------------------------------------- launch state */
san *san_begin(ptxeCtx *ctx, ptxeModule *m, const char *kernel, const unsigned grid[3],
               const unsigned block[3], const unsigned cluster[3], uint32_t ssize,
               uint32_t nslots)
{
    if (!ctx->checks) return NULL;
    san *S = calloc(1, sizeof *S);
    if (!S) return NULL;
    S->ctx = ctx; S->m = m; S->kernel = kernel; S->checks = ctx->checks;
    memcpy(S->gdim, grid, sizeof S->gdim);
    memcpy(S->bdim, block, sizeof S->bdim);
    S->nt = block[0] * block[1] * block[2]; S->ssize = ssize;
    S->nslots = nslots;
    S->sinit = calloc(nslots, sizeof *S->sinit);
    S->slot_cta = calloc(nslots, sizeof *S->slot_cta);
    if (!S->sinit || !S->slot_cta ||
        ((S->checks & PTXE_CHECK_RACECHECK) &&
         !(S->race = race_new(m, grid, block, cluster, ssize)))) {
        san_end(S);
        return NULL;
    }
    return S;
}

void san_end(san *S)
{
    if (!S) return;
    for (uint32_t i = 0; i < S->nslots && S->sinit; i++) free(S->sinit[i]);
    free(S->sinit); free(S->slot_cta);
    race_free(S->race, S->ctx);
    free(S);
}

unsigned san_checks(const san *S) { return S ? S->checks : 0; }

void san_cta_start(san *S, uint32_t slot, const unsigned ctaid[3])
{
    if (slot >= S->nslots) return;
    S->slot_cta[slot] = ((uint64_t)ctaid[2] * S->gdim[1] + ctaid[1]) * S->gdim[0] + ctaid[0];
    if ((S->checks & PTXE_CHECK_INITCHECK) && S->ssize) {
        if (!S->sinit[slot]) S->sinit[slot] = malloc(S->ssize / 8 + 1);
        if (S->sinit[slot]) memset(S->sinit[slot], 0, S->ssize / 8 + 1);
    }
    if (S->race) race_cta_start(S->race, ctaid);
}

void san_cta_end(san *S, const unsigned ctaid[3])
{
    if (S->race) race_cta_end(S->race, ctaid);
}

/* ---------------------------------------------------------------- reports */
static const xinsn *insn_at(const san *S, int pc)
{
    return pc >= 0 && pc < S->m->nprog ? &S->m->prog[pc] : NULL;
}

static const char *src_file(const san *S, const xinsn *in)
{
    const ptx_module *a = S->m->ast;
    return in && in->src_line && in->src_file > 0 && in->src_file < a->nfiles &&
                   a->files[in->src_file]
               ? a->files[in->src_file]
               : "";
}

static void site_of(const san *S, const san_who *t, ptxeFindingSite *s)
{
    memset(s, 0, sizeof *s);
    const xinsn *in = insn_at(S, t->pc);
    s->line = in ? in->line : 0;
    s->col = in ? in->col : 0;
    s->text = in ? in->text : "";
    s->src_line = in ? in->src_line : 0;
    s->src_file = src_file(S, in);
    memcpy(s->thread, t->t, sizeof s->thread);
    memcpy(s->block, t->c, sizeof s->block);
}

/* "at k.ptx:42 (st.global.u32 [%rd3], %r1) in k.cu:12:kernel" */
static int where(const san *S, int pc, char *o, size_t n)
{
    const xinsn *in = insn_at(S, pc);
    if (!in) return snprintf(o, n, "in %s", S->kernel);
    const char *f = src_file(S, in);
    if (*f)
        return snprintf(o, n, "at %s:%d (%s) in %s:%d:%s", S->m->ast->filename, in->line,
                        in->text, f, in->src_line, S->kernel);
    return snprintf(o, n, "at %s:%d (%s) in %s", S->m->ast->filename, in->line, in->text,
                    S->kernel);
}

typedef struct {
    unsigned check;
    const char *kind;
    uint64_t key;
    const san_who *at, *other;
    int access, other_access;
    const char *space;
    uint64_t address;
    unsigned size;
    const char *buffer;
    int64_t offset;
} fdesc;

/* One more of the finding of d's key (check, kind, instruction, other instruction), when there
 * is one: 1; else 0 with *slot_out the free slot of the index for it. */
static int count_known(san *S, const fdesc *d, size_t *slot_out)
{
    san_list *L = &S->ctx->findings;
    const xinsn *ai = insn_at(S, d->at->pc), *oi = d->other ? insn_at(S, d->other->pc) : NULL;
    int al = ai ? ai->line : 0, ac = ai ? ai->col : 0, ol = oi ? oi->line : 0,
        oc = oi ? oi->col : 0;
    uint64_t h = 1469598103934665603ull;
    for (const char *k = d->kind; *k; k++) h = (h ^ (uint8_t)*k) * 1099511628211ull;
    h = (h ^ d->check) * 1099511628211ull;
    h = (h ^ (uint64_t)(d->at->pc + 1)) * 1099511628211ull;
    h = (h ^ (uint64_t)(d->other ? d->other->pc + 2 : 0)) * 1099511628211ull;
    size_t slot = (size_t)(h >> 20) & 4095;
    for (int probe = 0; probe < 4096; probe++, slot = (slot + 1) & 4095) {
        int i = S->hidx[slot] - 1;
        if (i < 0) break;
        if (L->v[i].check == d->check && !strcmp(L->v[i].kind, d->kind) && L->v[i].at.line == al &&
            L->v[i].at.col == ac && L->v[i].other.line == ol && L->v[i].other.col == oc) {
            L->v[i].count++;
            return 1;
        }
    }
    *slot_out = slot;
    return 0;
}

/* Records a finding with the report body `body` (lines after the first, "\n"-separated, no
 * prefix), or counts one more for the finding of the same key. */
static void add(san *S, const fdesc *d, const char *head, const char *body)
{
    san_list *L = &S->ctx->findings;
    size_t slot = 0;
    if (count_known(S, d, &slot)) return;
    if (L->n >= MAX_FINDINGS) { L->more++; return; }
    if (L->n == L->cap) {
        int nc = L->cap ? L->cap * 2 : 16;
        ptxeFinding *nv = realloc(L->v, (size_t)nc * sizeof *nv);
        if (!nv) { L->more++; return; }
        L->v = nv; L->cap = nc;
    }
    ptxeFinding *f = &L->v[L->n];
    memset(f, 0, sizeof *f);
    f->check = d->check;
    f->kind = d->kind;
    site_of(S, d->at, &f->at);
    f->at.access = d->access;
    if (d->other) { site_of(S, d->other, &f->other); f->other.access = d->other_access; }
    f->space = d->space ? d->space : "";
    f->address = d->address;
    f->size = d->size;
    f->buffer = strdup(d->buffer ? d->buffer : "");
    f->offset = d->offset;
    f->count = 1;
    /* the report: "========= " before each line, as compute-sanitizer prints it */
    size_t cap = strlen(head) + strlen(body) + 64;
    for (const char *p = body; *p; p++) cap += *p == '\n' ? 16 : 0;
    char *r = malloc(cap + 16), *o = r;
    if (!r || !f->buffer) { free(r); free((char *)f->buffer); L->more++; return; }
    o += sprintf(o, "========= %s\n", head);
    for (const char *p = body; *p;) {
        const char *e = strchr(p, '\n');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        o += sprintf(o, "=========     %.*s\n", (int)k, p);
        p += k + (e ? 1 : 0);
    }
    f->report = r;
    if (!S->hidx[slot])
        S->hidx[slot] = L->n + 1; /* (a full probe: found by nothing, counted anew) */
    L->n++;
}

static void by_thread(char *o, size_t n, const san_who *t)
{
    snprintf(o, n, "by thread (%u,%u,%u) in block (%u,%u,%u)", t->t[0], t->t[1], t->t[2], t->c[0],
             t->c[1], t->c[2]);
}

/* ---------------------------------------------------------------- memcheck and other faults */
void san_describe_global(ptxeCtx *ctx, ptxeModule *m, uint64_t a, unsigned n, char *buf,
                         size_t len)
{
    buf[0] = 0;
    const galloc *best = NULL;
    int64_t bd = 0;
    for (int i = 0; i < ctx->nallocs; i++) {
        const galloc *g = &ctx->allocs[i];
        int64_t d;   /* distance: > 0 after the end, < 0 before the start, 0 inside */
        if (a >= g->addr && a < g->addr + g->size) d = 0;
        else if (a >= g->addr + g->size) d = (int64_t)(a - (g->addr + g->size)) + 1;
        else d = -(int64_t)(g->addr - a);
        if (!best || llabs(d) < llabs(bd)) { best = g; bd = d; }
    }
    if (!best || llabs(bd) > (1ll << 30)) return;   /* a wild address: near no allocation */
    const char *name = best->name;
    for (int i = 0; !name && m && i < m->nsyms; i++)
        if (m->syms[i].space == SP_GLOBAL && m->syms[i].addr == best->addr) name = m->syms[i].name;
    char nm[160] = "";
    if (name) snprintf(nm, sizeof nm, " '%s'", name);
    if (!best->host)
        snprintf(
            buf, len, "and is %llu bytes inside the freed allocation%s at 0x%llx of size %zu bytes",
            (unsigned long long)(a - best->addr), nm, (unsigned long long)best->addr, best->size);
    else if (bd > 0)
        snprintf(buf, len,
                 "and is %lld bytes after the nearest allocation%s at 0x%llx of size %zu bytes",
                 (long long)(a - (best->addr + best->size)), nm, (unsigned long long)best->addr,
                 best->size);
    else if (bd < 0)
        snprintf(buf, len,
                 "and is %lld bytes before the nearest allocation%s at 0x%llx of size %zu bytes",
                 (long long)-bd, nm, (unsigned long long)best->addr, best->size);
    else   /* starts inside, runs past the end */
        snprintf(buf, len,
                 "and its last %llu of %u bytes are past the end of the allocation%s at 0x%llx of "
                 "size %zu bytes",
                 (unsigned long long)(a + n - (best->addr + best->size)), n, nm,
                 (unsigned long long)best->addr, best->size);
}

/* memcheck: device-side malloc and free (exec/heap.c), in compute-sanitizer's words */
void san_leak(san *S, const san_who *t, uint64_t a, uint64_t n)
{
    if (!(S->checks & PTXE_CHECK_MEMCHECK)) return;
    char b[2400], w[600], th[100], hd[120];
    where(S, t->pc, w, sizeof w);
    by_thread(th, sizeof th, t);
    snprintf(hd, sizeof hd, "Leaked %llu bytes at 0x%llx on the device heap",
             (unsigned long long)n, (unsigned long long)a);
    snprintf(b, sizeof b, "allocated %s\n%s\nnot freed when the kernel exited", w, th);
    fdesc d = { .check = PTXE_CHECK_MEMCHECK, .kind = "leak", .at = t, .space = "global",
                .address = a, .size = (unsigned)(n < 0xffffffffu ? n : 0xffffffffu),
                .buffer = "device heap block" };
    add(S, &d, hd, b);
}

static void free_error(san *S, const san_who *t, const char *what, int dbl)
{
    if (!(S->checks & PTXE_CHECK_MEMCHECK)) return;
    char b[2400], w[600], th[100];
    where(S, t->pc, w, sizeof w);
    by_thread(th, sizeof th, t);
    snprintf(b, sizeof b, "%s\n%s\n%s", w, th, what);
    unsigned long long a = 0;
    sscanf(strstr(what, "0x") ? strstr(what, "0x") : "", "%llx", &a);
    fdesc d = { .check = PTXE_CHECK_MEMCHECK, .kind = dbl ? "double-free" : "invalid-free",
                .at = t, .space = "global", .address = a };
    add(S, &d,
        dbl ? "Malloc/Free error encountered : Double free"
            : "Malloc/Free error encountered : Invalid pointer to free",
        b);
}

/* The engine's fault text `what` (the first line of its report, without "fault: ") as a
 * finding of the check it belongs to. */
void san_fault(san *S, const san_who *t, const char *what)
{
    char b[2400], w[600], th[100];
    if (!strncmp(what, "double free", 11) || !strncmp(what, "invalid free", 12)) {
        free_error(S, t, what, what[0] == 'd');
        return;
    }
    where(S, t->pc, w, sizeof w);
    by_thread(th, sizeof th, t);
    fdesc d = { 0 };
    d.at = t;
    const char *head;
    if (!strncmp(what, "out-of-bounds", 13) || !strncmp(what, "misaligned", 10) ||
        strstr(what, "in no state space") || strstr(what, "stack) overflow") ||
        strstr(what, "call stack overflow") ||
        strstr(what, "to const space") || strstr(what, "to kernel parameter space") ||
        strstr(what, "exited CTA") || strstr(what, "another CTA")) {
        if (!(S->checks & PTXE_CHECK_MEMCHECK)) return;
        d.check = PTXE_CHECK_MEMCHECK;
        int mis = !strncmp(what, "misaligned", 10);
        d.kind = mis                        ? "misaligned"
                 : strstr(what, "overflow") ? "stack-overflow"
                                            : "invalid-address";
        /* "out-of-bounds global store of 4 bytes at address 0x...": the compute-sanitizer head */
        char sp[32] = "", acc[32] = "";
        unsigned n = 0;
        unsigned long long a = 0;
        const char *p = mis ? what + 11 : !strncmp(what, "out-of-bounds ", 14) ? what + 14 : NULL;
        char hb[200];
        if (p && sscanf(p, "%31s %31s of %u bytes at address %llx", sp, acc, &n, &a) == 4) {
            int wr = !strcmp(acc, "store") || !strcmp(acc, "atom") || !strcmp(acc, "red");
            snprintf(hb, sizeof hb, "%s __%s__ %s of size %u bytes",
                     mis ? "Misaligned" : "Invalid", sp, wr ? "write" : "read", n);
            head = hb;
            d.address = a; d.size = n;
        } else if (sscanf(what, "generic %31s of %u bytes at address %llx", acc, &n, &a) == 3) {
            int wr = !strcmp(acc, "store") || !strcmp(acc, "atom") || !strcmp(acc, "red");
            snprintf(hb, sizeof hb, "Invalid __generic__ %s of size %u bytes",
                     wr ? "write" : "read", n);
            head = hb;
            d.address = a; d.size = n;
        } else if (strstr(what, "overflow")) {   /* the thread's stack: local frames, calls */
            snprintf(hb, sizeof hb, "Stack overflow: %s", what);
            head = hb;
        } else {
            snprintf(hb, sizeof hb, "Invalid memory access: %s", what);
            head = hb;
        }
        d.space = strstr(what, "global") ? "global" : strstr(what, "shared") ? "shared"
                  : strstr(what, "local") ? "local" : "";
        const char *ad = strstr(what, "\n");
        while (ad && (*ad == '\n' || *ad == ' ')) ad++;
        char as[40] = "";
        if (d.address) snprintf(as, sizeof as, " 0x%llx", (unsigned long long)d.address);
        snprintf(b, sizeof b, "%s\n%s\nAddress%s is %s%s%s", w, th, as,
                 mis                     ? "misaligned"
                 : strstr(what, "freed") ? "in freed memory"
                 : strstr(what, "no state space")
                     ? "in no state space (not global, shared, local, const or param)"
                 : strstr(what, "overflow") ? "past the thread's stack (local memory)"
                                            : "out of bounds",
                 ad ? "\n" : "", ad ? ad : "");
        /* buffer and offset for the JSON */
        const char *q = strstr(what, "allocation '");
        char nm[128] = "";
        if (q) sscanf(q + 12, "%127[^']", nm);
        d.buffer = nm;
        const char *o = strstr(what, "and is ");
        long long off = 0;
        if (!q && (q = strstr(what, "the allocation '"))) sscanf(q + 16, "%127[^']", nm);
        if (o && sscanf(o, "and is %lld bytes into", &off) == 1) d.offset = off;
        if (o && sscanf(o, "and is %lld bytes after", &off) == 1) d.offset = off;
        else if (o && sscanf(o, "and is %lld bytes before", &off) == 1) d.offset = -off;
        add(S, &d, head, b);
        return;
    }
    if (!strncmp(what, "barrier", 7) || !strncmp(what, "warp-synchronous", 16) ||
        strstr(what, "membermask") || !strncmp(what, "cluster barrier", 15) ||
        !strncmp(what, "deadlock", 8)) {
        if (!(S->checks & PTXE_CHECK_SYNCCHECK)) return;
        d.check = PTXE_CHECK_SYNCCHECK;
        const char *kind = "barrier-error", *hd = "Barrier error detected. Invalid arguments";
        if (!strncmp(what, "barrier divergence", 18)) {
            kind = "divergent-barrier"; hd = "Barrier error detected. Divergent thread(s) in warp";
        } else if (strstr(what, "deadlock")) {
            kind = "deadlock"; hd = "Barrier error detected. Deadlock";
        } else if (strstr(what, "membermask")) {
            kind = "membermask"; hd = "Barrier error detected. Invalid arguments";
        } else if (strstr(what, "thread counts")) {
            kind = "barrier-mismatch"; hd = "Barrier error detected. Invalid arguments";
        }
        d.kind = kind;
        snprintf(b, sizeof b, "%s\n%s\n%s", w, th, what);
        add(S, &d, hd, b);
    }
}

/* ---------------------------------------------------------------- synccheck */
void san_divergent_warp(san *S, const san_who *t, uint32_t here, uint32_t away, int away_pc)
{
    if (!(S->checks & PTXE_CHECK_SYNCCHECK)) return;
    char b[2400], w[600], th[100], ow[600];
    where(S, t->pc, w, sizeof w);
    by_thread(th, sizeof th, t);
    if (away_pc < 0)
        snprintf(b, sizeof b,
                 "%s\n%s\nlanes 0x%08x of warp %d reach this aligned barrier; lanes 0x%08x of the "
                 "warp did not and exited",
                 w, th, here, t->wid, away);
    else {
        where(S, away_pc, ow, sizeof ow);
        snprintf(b, sizeof b,
                 "%s\n%s\nlanes 0x%08x of warp %d reach this aligned barrier while lanes 0x%08x of "
                 "the warp are elsewhere (lane %d %s)",
                 w, th, here, t->wid, away, __builtin_ctz(away), ow);
    }
    fdesc d = { .check = PTXE_CHECK_SYNCCHECK, .kind = "divergent-barrier", .at = t };
    add(S, &d, "Barrier error detected. Divergent thread(s) in warp", b);
}

void san_divergent_block(san *S, const san_who *t, const san_who *other, int id)
{
    if (!(S->checks & PTXE_CHECK_SYNCCHECK)) return;
    char b[2400], w[600], th[100], ow[600], oth[100];
    where(S, t->pc, w, sizeof w);
    by_thread(th, sizeof th, t);
    where(S, other->pc, ow, sizeof ow);
    by_thread(oth, sizeof oth, other);
    snprintf(b, sizeof b, "%s\n%s\nbarrier %d is also reached %s\n%s", w, th, id, ow, oth);
    fdesc d = { .check = PTXE_CHECK_SYNCCHECK, .kind = "divergent-block", .at = t,
                .other = other };
    add(S, &d, "Barrier error detected. Divergent thread(s) in block", b);
}

/* a warp-synchronous instruction whose lanes meet from two instructions, in a module for sm_6x
 * (§9.7.12.7: "For .target sm_6x or below, all threads in membermask must execute the same
 * bar.warp.sync instruction in convergence"; the same holds for shfl/vote/match.sync there) */
void san_wsync_divergent(san *S, const san_who *t, const san_who *other, int sm)
{
    if (!(S->checks & PTXE_CHECK_SYNCCHECK)) return;
    char b[2400], w[600], th[100], ow[600], oth[100];
    where(S, t->pc, w, sizeof w);
    by_thread(th, sizeof th, t);
    where(S, other->pc, ow, sizeof ow);
    by_thread(oth, sizeof oth, other);
    snprintf(b, sizeof b,
             "%s\n%s\nthe same warp-synchronous operation is executed %s\n%s\n(.target sm_%d: all "
             "threads of the membermask must execute the same instruction in convergence)",
             w, th, ow, oth, sm);
    fdesc d = { .check = PTXE_CHECK_SYNCCHECK, .kind = "divergent-warp-sync", .at = t,
                .other = other };
    add(S, &d, "Barrier error detected. Divergent thread(s) in warp", b);
}

/* ---------------------------------------------------------------- initcheck */
static void uninit(san *S, const san_who *t, const char *space, uint64_t a, unsigned n,
                   const char *buf, int64_t off)
{
    char b[2400], w[600], th[100], hd[120];
    where(S, t->pc, w, sizeof w);
    by_thread(th, sizeof th, t);
    snprintf(hd, sizeof hd, "Uninitialized __%s__ memory read of size %u bytes", space, n);
    if (*buf)
        snprintf(b, sizeof b, "%s\n%s\nAddress 0x%llx (offset %lld of '%s', never written)", w,
                 th, (unsigned long long)a, (long long)off, buf);
    else
        snprintf(b, sizeof b, "%s\n%s\nAddress 0x%llx (never written)", w, th,
                 (unsigned long long)a);
    fdesc d = { .check = PTXE_CHECK_INITCHECK, .kind = "uninitialized-read", .at = t,
                .space = space, .address = a, .size = n, .buffer = buf, .offset = off };
    add(S, &d, hd, b);
}

static int bits_all(const uint8_t *bits, uint64_t off, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        if (!(bits[(off + k) >> 3] >> ((off + k) & 7) & 1)) return 0;
    return 1;
}
static void bits_set(uint8_t *bits, uint64_t off, unsigned n)
{
    for (unsigned k = 0; k < n; k++) bits[(off + k) >> 3] |= (uint8_t)(1u << ((off + k) & 7));
}

/* ---------------------------------------------------------------- racecheck */
static const char *acc_name(int acc)
{
    return acc == 3 ? "Atomic" : acc == SA_WRITE ? "Write" : "Read";
}

/* the race exec/race.c found between the access of t and the earlier one of h */
static void race_report(san *S, const san_who *t, int acc, const race_hit *h, const char *space,
                        uint64_t a, unsigned n, const char *buf, int64_t off)
{
    san_who o = { 0 };
    uint32_t ptid = (uint32_t)(h->g % S->nt);
    uint64_t pcta = h->g / S->nt;
    o.cta = pcta; o.tid = ptid; o.pc = h->pc; o.wid = (int)(ptid / 32); o.lane = (int)(ptid % 32);
    {   /* coordinates from the linear indices */
        o.t[0] = ptid % S->bdim[0]; o.t[1] = ptid / S->bdim[0] % S->bdim[1];
        o.t[2] = ptid / (S->bdim[0] * S->bdim[1]);
        o.c[0] = (unsigned)(pcta % S->gdim[0]); o.c[1] = (unsigned)(pcta / S->gdim[0] % S->gdim[1]);
        o.c[2] = (unsigned)(pcta / ((uint64_t)S->gdim[0] * S->gdim[1]));
    }
    int pacc = h->acc;
    fdesc d = { .check = PTXE_CHECK_RACECHECK, .kind = "race", .at = t, .other = &o,
                .access = acc == 3 ? 'A' : acc == SA_WRITE ? 'W' : 'R',
                .other_access = pacc == 3 ? 'A' : pacc == SA_WRITE ? 'W' : 'R', .space = space,
                .address = a, .size = n, .buffer = buf, .offset = off };
    size_t slot;
    if (count_known(S, &d, &slot)) return;   /* (the report is made once) */
    char why[1600];
    race_explain(S->race, t, h, why, sizeof why);
    char b[3800], w[600], ow[600], th[100], oth[100], hd[900];
    where(S, t->pc, w, sizeof w);
    where(S, o.pc, ow, sizeof ow);
    by_thread(th, sizeof th, t);
    by_thread(oth, sizeof oth, &o);
    snprintf(hd, sizeof hd, "Error: Race reported between %s access %s", acc_name(pacc), ow);
    if (*buf)
        snprintf(
            b, sizeof b,
            "and %s access %s\n%s and %s\n__%s__ address 0x%llx (%u bytes, offset %lld of '%s')"
            "\n%s",
            acc_name(acc), w, oth, th, space, (unsigned long long)a, n, (long long)off, buf,
            why);
    else
        snprintf(b, sizeof b, "and %s access %s\n%s and %s\n__%s__ address 0x%llx (%u bytes)\n%s",
                 acc_name(acc), w, oth, th, space, (unsigned long long)a, n, why);
    add(S, &d, hd, b);
}

/* ---------------------------------------------------------------- accesses */
void san_global(san *S, const san_who *t, galloc *g, uint64_t a, unsigned n, int acc)
{
    uint64_t off = a - g->addr;
    if ((S->checks & PTXE_CHECK_INITCHECK) && g->ibits) {
        if ((acc & SA_READ) && !bits_all(g->ibits, off, n))
            uninit(S, t, "global", a, n, g->name ? g->name : "", (int64_t)off);
        if (acc & SA_WRITE) bits_set(g->ibits, off, n);
    }
    race_hit h;
    int r = S->race ? race_global(S->race, t, g, a, n, acc, &h) : 0;
    if (r < 0) S->race_skipped = 1;
    if (r > 0) race_report(S, t, acc, &h, "global", a, n, g->name ? g->name : "", (int64_t)off);
}

void san_shared(san *S, const san_who *t, uint32_t slot, uint32_t off, unsigned n, int acc)
{
    if (off + (uint64_t)n > S->ssize || slot >= S->nslots) return;
    if ((S->checks & PTXE_CHECK_INITCHECK) && S->sinit[slot]) {
        if ((acc & SA_READ) && !bits_all(S->sinit[slot], off, n))
            uninit(S, t, "shared", off, n, "", off);
        if (acc & SA_WRITE) bits_set(S->sinit[slot], off, n);
    }
    race_hit h;
    if (S->race && race_shared(S->race, t, S->slot_cta[slot], off, n, acc, &h) > 0)
        race_report(S, t, acc, &h, "shared", off, n, "", off);
}

/* ---------------------------------------------------------------- synchronization */
void san_fence(san *S, const san_who *t) { if (S->race) race_fence(S->race, t); }
void san_bar_arrive(san *S, const san_who *t, int id)
{
    if (S->race) race_bar_arrive(S->race, t, id);
}
void san_bar_pass(san *S, const san_who *t, int id) { if (S->race) race_bar_pass(S->race, t, id); }
void san_bar_done(san *S, const san_who *t, int id) { if (S->race) race_bar_done(S->race, t, id); }
void san_warp_sync(san *S, const san_who *t, int n) { if (S->race) race_warp_sync(S->race, t, n); }
void san_cluster_arrive(san *S, const san_who *t)
{
    if (S->race) race_cluster_arrive(S->race, t);
}
void san_cluster_done(san *S, const san_who *t) { if (S->race) race_cluster_done(S->race, t); }
void san_cluster_pass(san *S, const san_who *t) { if (S->race) race_cluster_pass(S->race, t); }
void san_mbar(san *S, const san_who *t, uint32_t slot, uint32_t off, int init, int ph0, int ph1)
{
    if (S->race && slot < S->nslots)
        race_mbar(S->race, t, S->slot_cta[slot], off, init, ph0, ph1);
}
void san_mbar_pass(san *S, const san_who *t, uint32_t slot, uint32_t off, int parity)
{
    if (S->race && slot < S->nslots) race_mbar_pass(S->race, t, S->slot_cta[slot], off, parity);
}
