/* exec/race.c — racecheck by the PTX memory model (exec/race.h; ISA 8.4 §8.7-8.9).
 *
 * Every thread has a vector clock (exec/vclock.h): its own clock, advanced after each release it
 * makes, and what it knows of the others'.  An access is recorded per byte in a shadow cell with
 * its thread and clock; a later conflicting access by another thread is ordered after it when
 * the later thread's clock knows the earlier one's (causality order), and races with it unless
 * the two are morally strong (§8.7: both strong, scopes that include each other's threads, the
 * same bytes).  Synchronization (§8.9.4) moves clocks:
 *   bar.sync/red/arrive   each arriving thread's clock joins the barrier's phase clock, which
 *                         every waiting thread takes when the phase completes (the CTA);
 *   bar.warp.sync         the participating threads take each other's clocks;
 *   barrier.cluster       arrive (unless .relaxed) joins the cluster's phase clock, wait takes it;
 *   release patterns      (§8.8) a release operation, or a strong write after a fence, stores
 *                         the thread's clock (as of the release or the fence) with the location,
 *                         tagged with its scope and the releasing thread's CTA; an atomic
 *                         read-modify-write keeps the clocks already there (observation order
 *                         through atomics, §8.9.2), a plain store replaces them;
 *   acquire patterns      an acquire operation that reads the location takes the stored clocks
 *                         whose release and acquire are morally strong (each scope includes the
 *                         other thread); a strong read followed by a fence takes them at the
 *                         fence, with the fence's scope;
 *   mbarrier              arrivals (and the complete-tx of asynchronous copies, .release.cluster)
 *                         join the phase's clock; a test_wait/try_wait that finds the phase
 *                         complete takes it (scopes are not compared: arrive, complete-tx and
 *                         wait act within one cluster).
 * Left out: Fence-SC order (§8.9.4 rule 1, chosen at run time: two fence.sc that only the
 * engine's order relates do not order the accesses around them, since another order is as
 * legal); only the last read of each byte is kept, so of two unordered reads before a write
 * only the later is compared; a weak read next to another thread's atomic write (the first
 * read of a compare-and-swap loop) is not reported.  Reports name both accesses and why they
 * are not ordered (the scopes, a read that observed a release but acquired nothing, ...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/race.h"
#include "exec/tex.h"
#include "exec/vclock.h"
#include "ptx/mnemonic.h"

#define RACE_MAX_ALLOC (64u << 20)   /* larger allocations are not race-checked */
#define MAX_ENT 16                   /* release clocks kept per location */
#define NBUCKET 1024

/* the kind of each instruction, as racecheck needs it */
enum { PK_OTHER, PK_MEM, PK_FENCE, PK_MBAR, PK_CLBAR };
typedef struct {
    uint8_t k;
    uint8_t sem;      /* ptx_sem; memory: 0 weak (volatile is relaxed.sys) */
    uint8_t scope;    /* ptx_scope (memory: of a strong access) */
    uint8_t esize;    /* element size of a vector access (0: the access) */
    uint8_t rmw;      /* atom, red: an atomic read-modify-write */
    uint8_t nosync;   /* fence.proxy, fence.mbarrier_init: no memory synchronization */
} pcinfo;

/* a release: the releasing thread's clock (its vector and its own entry) */
typedef struct { vclock vc; uint64_t g; uint32_t clk; } relc;
/* a release pattern's clock as stored with a location or held by a reader */
typedef struct {
    relc r;
    uint64_t cta;     /* of the releasing thread */
    int32_t pc;       /* the release operation or the fence */
    uint8_t scope;
} rent;

typedef struct { uint64_t key; rent *e; uint16_t n, cap; uint8_t size; } rloc;
typedef struct { rloc *v; size_t n, cap; } ltab;

/* one access in the shadow: thread + 1, its clock, instruction, kind, strong scope (0 weak),
 * element size and the byte's offset in it; seen: a thread + 1 whose strong read observed this
 * write (causality order §8.9.5 rule 2: the write precedes what that thread does next) */
typedef struct { uint32_t thr, clk; int32_t pc; uint8_t acc, scope, esize, eoff; uint32_t seen; }
    racc;
typedef struct { racc w, r; } rcell;

/* why a thread's last acquire attempt took nothing, for the reports */
enum { MISS_NONE, MISS_SCOPE_ACQ, MISS_SCOPE_REL, MISS_NOREL };
typedef struct { uint8_t code, sa, sr; int32_t pc_a, pc_r; uint64_t other; } rmiss;

typedef struct {
    vclock vc;
    uint32_t clk;     /* own clock, from 1 */
    int has_frel;
    rent frel;        /* the last release fence: later strong writes carry it */
    rent *pend; uint16_t npend, cap;   /* releases observed by strong reads, not yet acquired */
    int32_t pend_pc;  /* the last such read */
    rmiss miss;
} rthr;

typedef struct { uint32_t off; vclock pend, done[2]; } rmbar;

typedef struct rcta {
    struct rcta *next;
    uint64_t id;
    rthr *th;
    vclock bar[16];
    rmbar *mb; int nmb, capmb;
    ltab loc;
    rcell *sh;
} rcta;

typedef struct rclus { struct rclus *next; uint64_t id; vclock pend, done; int live; } rclus;

struct race {
    const ptxeModule *m;
    uint32_t nt, ssize;
    unsigned grid[3], block[3], cl[3];
    pcinfo *pc;
    rcta *bucket[NBUCKET];
    rcta *last;
    rclus *clus;
    ltab gloc;
    int oom;
};

/* ---------------------------------------------------------------- instructions */
static void classify(const xinsn *in, pcinfo *p)
{
    int k = in->kind;
    int sured = k == PTX_K_SURF && in->tx && in->tx->op == TO_SURED;
    int mem = k == PTX_K_LD || k == PTX_K_ST || k == PTX_K_ATOM || k == PTX_K_RED ||
              k == PTX_K_MULTIMEM || in->op == PTX_I_RED_ASYNC || sured;
    if (!mem && k != PTX_K_FENCE && k != PTX_K_MBAR && k != PTX_K_BARCLUSTER) return;
    const char *t = in->text;   /* past a guard: "@%p1 ", "@!%p1 ", "@ !%p1 " */
    if (*t == '@') {
        t++;
        t += strspn(t, " \t!");
        t += strcspn(t, " \t");
    }
    t += strspn(t, " \t");
    ptx_mnemonic mn;
    ptx_mn_error err;
    if (ptx_mnemonic_parse(t, strcspn(t, " \t"), &mn, &err)) return;
    int atomic = k == PTX_K_ATOM || k == PTX_K_RED || sured || in->op == PTX_I_RED_ASYNC ||
                 in->op == PTX_I_MULTIMEM_RED;
    p->sem = mn.sem == PTX_SEM_WEAK ? PTX_SEM_NONE : mn.sem;
    p->scope = mn.scope ? mn.scope : PTX_SCOPE_GPU;
    if (k == PTX_K_FENCE) {
        p->k = PK_FENCE;
        if (ptx_mn_has(&mn, PTX_Q_cta)) p->scope = PTX_SCOPE_CTA;   /* membar.cta */
        if (!p->sem) p->sem = in->op == PTX_I_MEMBAR ? PTX_SEM_SC : PTX_SEM_ACQ_REL;
        p->nosync = mn.proxy != 0 || ptx_mn_has(&mn, PTX_Q_proxy) || mn.restrict_ != 0;
        return;
    }
    if (k == PTX_K_MBAR || k == PTX_K_BARCLUSTER) {
        p->k = k == PTX_K_MBAR ? PK_MBAR : PK_CLBAR;
        return;
    }
    p->k = PK_MEM;
    p->rmw = (uint8_t)atomic;
    if (mn.sem == PTX_SEM_VOLATILE) p->sem = PTX_SEM_RELAXED, p->scope = PTX_SCOPE_SYS;
    if (atomic && !p->sem) p->sem = PTX_SEM_RELAXED;
    if (k == PTX_K_MULTIMEM && !mn.scope) p->scope = PTX_SCOPE_SYS;   /* .relaxed.sys default */
    if (k == PTX_K_MULTIMEM && !p->sem) p->sem = PTX_SEM_RELAXED;
    if (mn.vec > 1 && ptx_mn_type(&mn) != ISA_T_NONE)
        p->esize = (uint8_t)(isa_type_bits(ptx_mn_type(&mn)) / 8);
}

static const pcinfo *info(const race *R, int pc)
{
    static const pcinfo none;
    return pc >= 0 && pc < R->m->nprog ? &R->pc[pc] : &none;
}
static int is_acquire(int sem)
{
    return sem == PTX_SEM_ACQUIRE || sem == PTX_SEM_ACQ_REL || sem == PTX_SEM_SC;
}
static int is_release(int sem)
{
    return sem == PTX_SEM_RELEASE || sem == PTX_SEM_ACQ_REL || sem == PTX_SEM_SC;
}

/* ---------------------------------------------------------------- the launch's geometry */
static uint64_t cta_lin(const race *R, const unsigned c[3])
{
    return ((uint64_t)c[2] * R->grid[1] + c[1]) * R->grid[0] + c[0];
}
static void cta_coords(const race *R, uint64_t cta, unsigned c[3])
{
    c[0] = (unsigned)(cta % R->grid[0]);
    c[1] = (unsigned)(cta / R->grid[0] % R->grid[1]);
    c[2] = (unsigned)(cta / ((uint64_t)R->grid[0] * R->grid[1]));
}
static uint64_t cluster_of(const race *R, uint64_t cta)
{
    unsigned c[3];
    cta_coords(R, cta, c);
    uint64_t gx = R->grid[0] / R->cl[0], gy = R->grid[1] / R->cl[1];
    return ((uint64_t)(c[2] / R->cl[2]) * gy + c[1] / R->cl[1]) * gx + c[0] / R->cl[0];
}
/* does a `scope` operation of a thread of CTA a include the threads of CTA b (§8.5) */
static int incl(const race *R, int scope, uint64_t a, uint64_t b)
{
    return scope >= PTX_SCOPE_GPU || a == b ||
           (scope == PTX_SCOPE_CLUSTER && cluster_of(R, a) == cluster_of(R, b));
}
static const char *scope_word(int s)
{
    return s == PTX_SCOPE_CTA ? "cta" : s == PTX_SCOPE_CLUSTER ? "cluster"
           : s == PTX_SCOPE_SYS ? "sys" : "gpu";
}

/* ---------------------------------------------------------------- CTAs, clusters, threads */
static void ent_clear(rent *e) { vc_clear(&e->r.vc); }
static void ltab_clear(ltab *t)
{
    for (size_t i = 0; i < t->cap; i++) {
        for (int k = 0; k < t->v[i].n; k++) ent_clear(&t->v[i].e[k]);
        free(t->v[i].e);
    }
    free(t->v);
    memset(t, 0, sizeof *t);
}
static void thr_clear(rthr *h)
{
    vc_clear(&h->vc);
    if (h->has_frel) ent_clear(&h->frel);
    for (int k = 0; k < h->npend; k++) ent_clear(&h->pend[k]);
    free(h->pend);
}
static void cta_free(race *R, rcta *c)
{
    for (uint32_t i = 0; c->th && i < R->nt; i++) thr_clear(&c->th[i]);
    free(c->th);
    for (int i = 0; i < 16; i++) vc_clear(&c->bar[i]);
    for (int i = 0; i < c->nmb; i++) {
        vc_clear(&c->mb[i].pend); vc_clear(&c->mb[i].done[0]); vc_clear(&c->mb[i].done[1]);
    }
    free(c->mb);
    ltab_clear(&c->loc);
    free(c->sh);
    free(c);
}

static rcta *cta_find(race *R, uint64_t id)
{
    if (R->last && R->last->id == id) return R->last;
    for (rcta *c = R->bucket[id % NBUCKET]; c; c = c->next)
        if (c->id == id) return R->last = c;
    return NULL;
}

static rclus *clus_get(race *R, uint64_t cta, int create)
{
    uint64_t id = cluster_of(R, cta);
    for (rclus *k = R->clus; k; k = k->next)
        if (k->id == id) return k;
    rclus *k = create ? calloc(1, sizeof *k) : NULL;
    if (!k) return NULL;
    k->id = id; k->next = R->clus; R->clus = k;
    return k;
}

/* CTA id's state, made when missing (NULL: out of memory) */
static rcta *cta_get(race *R, uint64_t id)
{
    rcta *c = cta_find(R, id);
    if (c) return c;
    c = calloc(1, sizeof *c);
    if (c) c->th = calloc(R->nt, sizeof *c->th);
    rclus *k = c && c->th ? clus_get(R, id, 1) : NULL;
    if (!k) {
        if (c) free(c->th);
        free(c);
        R->oom = 1;
        return NULL;
    }
    k->live++;
    for (uint32_t i = 0; i < R->nt; i++) c->th[i].clk = 1;
    c->id = id;
    c->next = R->bucket[id % NBUCKET];
    R->bucket[id % NBUCKET] = c;
    return R->last = c;
}

void race_cta_start(race *R, const unsigned ctaid[3])
{
    race_cta_end(R, ctaid);   /* (a CTA id runs once per launch; state left over is dropped) */
    cta_get(R, cta_lin(R, ctaid));
}

void race_cta_end(race *R, const unsigned ctaid[3])
{
    uint64_t id = cta_lin(R, ctaid);
    for (rcta **p = &R->bucket[id % NBUCKET]; *p; p = &(*p)->next)
        if ((*p)->id == id) {
            rcta *c = *p;
            *p = c->next;
            if (R->last == c) R->last = NULL;
            cta_free(R, c);
            for (rclus **q = &R->clus; *q; q = &(*q)->next)
                if ((*q)->id == cluster_of(R, id) && --(*q)->live <= 0) {
                    rclus *k = *q;
                    *q = k->next;
                    vc_clear(&k->pend); vc_clear(&k->done);
                    free(k);
                    break;
                }
            return;
        }
}

static uint64_t gid(const race *R, const san_who *t) { return t->cta * R->nt + t->tid; }
static rthr *thr(race *R, const san_who *t)
{
    rcta *c = cta_get(R, t->cta);
    return c && t->tid < R->nt ? &c->th[t->tid] : NULL;
}

/* ---------------------------------------------------------------- clocks */
static void oom(race *R, int r) { if (r) R->oom = 1; }

/* dst = max(dst, the release r) */
static void take(race *R, vclock *dst, const relc *r)
{
    oom(R, vc_join(dst, &r->vc, R->nt));
    oom(R, vc_raise(dst, R->nt, r->g, r->clk));
}
/* the clock of thread h (g) as of now: a release */
static void snap(race *R, const rthr *h, uint64_t g, relc *r)
{
    memset(r, 0, sizeof *r);
    oom(R, vc_share(&r->vc, &h->vc));
    r->g = g; r->clk = h->clk;
}
static void ent_copy(race *R, rent *d, const rent *s)
{
    *d = *s;
    memset(&d->r.vc, 0, sizeof d->r.vc);
    oom(R, vc_share(&d->r.vc, &s->r.vc));
}
/* The release clocks held together (at a location, or pending in a reader) are kept per
 * releasing CTA and class of scope (.cta, .cluster, .gpu and wider): a new one joins the entry
 * of its CTA and class.  Past MAX_ENT entries, a .gpu-or-wider one joins an entry of that class
 * whatever its CTA, which then stands for several CTAs (ANY_CTA): it synchronizes with acquires
 * of .gpu or wider only (a narrower one could not tell whether its CTA is among them). */
#define ANY_CTA UINT64_MAX
static int scope_class(int s) { return s >= PTX_SCOPE_GPU ? PTX_SCOPE_GPU : s; }
/* d = d joined with e (the newer one's instruction and thread kept for reports) */
static void ent_join(race *R, rent *d, const rent *e)
{
    oom(R, vc_raise(&d->r.vc, R->nt, d->r.g, d->r.clk));
    oom(R, vc_join(&d->r.vc, &e->r.vc, R->nt));
    oom(R, vc_raise(&d->r.vc, R->nt, e->r.g, e->r.clk));
    d->r.g = e->r.g; d->r.clk = e->r.clk; d->pc = e->pc;
    if (e->scope > d->scope) d->scope = e->scope;
    if (d->cta != e->cta) d->cta = ANY_CTA;
}
static void ent_add(race *R, rent **v, uint16_t *n, uint16_t *cap, const rent *e)
{
    int cls = scope_class(e->scope), wide = -1;
    for (int k = 0; k < *n; k++) {
        if (scope_class((*v)[k].scope) != cls) continue;
        if ((*v)[k].cta == e->cta) { ent_join(R, &(*v)[k], e); return; }
        if (cls == PTX_SCOPE_GPU && wide < 0) wide = k;
    }
    if (*n == MAX_ENT && wide >= 0) { ent_join(R, &(*v)[wide], e); return; }
    if (*n == MAX_ENT) {   /* (only .cta/.cluster entries of MAX_ENT CTAs: the oldest goes) */
        ent_clear(&(*v)[0]);
        memmove(&(*v)[0], &(*v)[1], (size_t)(MAX_ENT - 1) * sizeof **v);
        (*n)--;
    }
    if (*n == *cap) {
        uint16_t nc = *cap ? (uint16_t)(*cap * 2) : 2;
        rent *nv = realloc(*v, (size_t)nc * sizeof *nv);
        if (!nv) { R->oom = 1; return; }
        *v = nv; *cap = nc;
    }
    ent_copy(R, &(*v)[(*n)++], e);
}

/* ---------------------------------------------------------------- locations with releases */
static rloc *loc_find(race *R, ltab *t, uint64_t key, int create)
{
    if (t->cap) {
        for (size_t i = (key * 0x9e3779b97f4a7c15ull >> 20) & (t->cap - 1);;
             i = (i + 1) & (t->cap - 1)) {
            if (t->v[i].key == key) return &t->v[i];
            if (!t->v[i].key) break;
        }
    }
    if (!create) return NULL;
    if ((t->n + 1) * 2 > t->cap) {   /* grow: rehash into twice the slots */
        ltab nt = { calloc(t->cap ? t->cap * 2 : 64, sizeof(rloc)), 0, t->cap ? t->cap * 2 : 64 };
        if (!nt.v) { R->oom = 1; return NULL; }
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->v[i].key) continue;
            size_t j = (t->v[i].key * 0x9e3779b97f4a7c15ull >> 20) & (nt.cap - 1);
            while (nt.v[j].key) j = (j + 1) & (nt.cap - 1);
            nt.v[j] = t->v[i];
            nt.n++;
        }
        free(t->v);
        *t = nt;
    }
    size_t i = (key * 0x9e3779b97f4a7c15ull >> 20) & (t->cap - 1);
    while (t->v[i].key) i = (i + 1) & (t->cap - 1);
    t->v[i].key = key;
    t->n++;
    return &t->v[i];
}
static void loc_reset(rloc *l)
{
    for (int k = 0; k < l->n; k++) ent_clear(&l->e[k]);
    l->n = 0;
}

/* may a release entry e and an acquire of scope sa by a thread of CTA cu synchronize: are the
 * first operation of the release pattern and the last of the acquire pattern morally strong */
static int matches(const race *R, const rent *e, int sa, uint64_t cu)
{
    if (e->cta == ANY_CTA) return sa >= PTX_SCOPE_GPU;
    return incl(R, e->scope, e->cta, cu) && incl(R, sa, cu, e->cta);
}
/* thread h (CTA cu) acquires e with scope sa, or notes why it could not */
static void acquire(race *R, rthr *h, uint64_t cu, const rent *e, int sa, int pc)
{
    if (matches(R, e, sa, cu)) { take(R, &h->vc, &e->r); return; }
    int acq_short = !incl(R, sa, cu, e->cta);
    h->miss = (rmiss){ acq_short ? MISS_SCOPE_ACQ : MISS_SCOPE_REL, (uint8_t)sa, e->scope, pc,
                       e->pc, e->r.g };
}

/* ---------------------------------------------------------------- explanations */
/* "k.ptx:12 (ld.acquire.cta.u32 %r1, [%rd2])" */
static void insn_at(const race *R, int pc, char *o, size_t n)
{
    const xinsn *in = pc >= 0 && pc < R->m->nprog ? &R->m->prog[pc] : NULL;
    snprintf(o, n, "%s:%d (%s)", R->m->ast->filename, in ? in->line : 0, in ? in->text : "?");
}
static void thread_at(const race *R, uint64_t g, char *o, size_t n)
{
    unsigned c[3], tid = (unsigned)(g % R->nt);
    cta_coords(R, g / R->nt, c);
    snprintf(o, n, "thread (%u,%u,%u) in block (%u,%u,%u)", tid % R->block[0],
             tid / R->block[0] % R->block[1], tid / (R->block[0] * R->block[1]), c[0], c[1], c[2]);
}

/* why the earlier access p (thread pg) and the access of thread u (ug, its record cur) are
 * neither morally strong nor ordered */
static void explain(const race *R, const rthr *u, uint64_t ug, const racc *p, uint64_t pg,
                    const racc *cur, char *o, size_t n)
{
    char a[300], b[300], th[100];
    uint64_t pc_ = pg / R->nt, uc = ug / R->nt;
    int k = 0;
    if (!p->scope || !cur->scope)
        k = snprintf(o, n, "not morally strong: %s is weak (not .relaxed, .acquire, .release, "
                     ".volatile or atomic)\n", !p->scope && !cur->scope ? "each access"
                     : !p->scope ? "the earlier access" : "the later access");
    else if (p->esize != cur->esize || p->eoff != cur->eoff)
        k = snprintf(o, n, "not morally strong: the accesses overlap without being the same "
                     "bytes (%u and %u bytes)\n", p->esize, cur->esize);
    else {
        int pw = !incl(R, p->scope, pc_, uc);
        k = snprintf(o, n, "not morally strong: the %s access is .%s but the threads are in "
                     "different %s\n", pw ? "earlier" : "later",
                     scope_word(pw ? p->scope : cur->scope),
                     (pw ? p->scope : cur->scope) == PTX_SCOPE_CTA ? "CTAs" : "clusters");
    }
    if (k < 0 || (size_t)k >= n) return;
    o += k; n -= (size_t)k;
    uint32_t known = vc_get(&u->vc, R->nt, pg);
    thread_at(R, pg, th, sizeof th);
    /* the synchronization that failed: of this thread, or of another thread of its CTA whose
       acquire the threads would have shared (through a barrier, as the flag of a handover) */
    const rcta *cu = cta_find((race *)R, uc);
    for (int64_t i = -1; i < (cu ? (int64_t)R->nt : 0); i++) {
        const rthr *v = i < 0 ? u : &cu->th[i];
        const rmiss *m = &v->miss;
        if (m->code && (m->other / R->nt == pc_ || m->code == MISS_NOREL)) {
            insn_at(R, m->pc_a, a, sizeof a);
            insn_at(R, m->pc_r, b, sizeof b);
            if (m->code == MISS_NOREL)
                snprintf(o, n, "not ordered: the acquire at %s read the write at %s, which is "
                         "not a release (no .release, and no fence before it in its thread)",
                         a, b);
            else {
                int acq = m->code == MISS_SCOPE_ACQ, sc = acq ? m->sa : m->sr;
                snprintf(o, n, "not ordered: the %s at %s is .%s but the threads are in "
                         "different %s, so it does not synchronize with the %s at %s",
                         acq ? "acquire" : "release", acq ? a : b, scope_word(sc),
                         sc == PTX_SCOPE_CTA ? "CTAs" : "clusters", acq ? "release" : "acquire",
                         acq ? b : a);
            }
            return;
        }
        for (int k = 0; k < v->npend; k++)
            if (vc_get(&v->pend[k].r.vc, R->nt, pg) >= p->clk ||
                (v->pend[k].r.g == pg && v->pend[k].r.clk >= p->clk)) {
                insn_at(R, v->pend_pc, a, sizeof a);
                insn_at(R, v->pend[k].pc, b, sizeof b);
                snprintf(o, n, "not ordered: the read at %s observed the release at %s, but it "
                         "is not an acquire and no fence follows it", a, b);
                return;
            }
    }
    if (known)
        snprintf(o, n, "not ordered: %s made the earlier access after its last release that "
                 "this thread acquired", th);
    else if (pc_ == uc)
        snprintf(o, n, "not ordered: no barrier, fence or release-acquire pair between them");
    else
        snprintf(o, n, "not ordered: no release-acquire pattern between the two threads (a CTA "
                 "barrier orders only the threads of its CTA)");
}

/* ---------------------------------------------------------------- accesses */
static int ordered(const race *R, const rthr *u, uint64_t ug, const racc *p)
{
    uint64_t pg = (uint64_t)p->thr - 1;
    return pg == ug || p->seen == ug + 1 || vc_get(&u->vc, R->nt, pg) >= p->clk;
}
static int mstrong(const race *R, const racc *p, const racc *c, uint64_t pc_, uint64_t uc)
{
    return p->scope && c->scope && p->esize == c->esize && p->eoff == c->eoff &&
           incl(R, p->scope, pc_, uc) && incl(R, c->scope, uc, pc_);
}

/* the race check of byte cell x against the earlier accesses kept there */
static int check_cell(const race *R, const rthr *u, uint64_t ug, const rcell *x, const racc *cur,
                      race_hit *h)
{
    const racc *p = NULL;
    /* a weak read next to another thread's atomic (the first read of a compare-and-swap loop)
       and an atomic after such a read are not reported: the loop's atomic settles the value */
    if (x->w.thr && !(cur->acc == SA_READ && x->w.acc == 3) && !ordered(R, u, ug, &x->w) &&
        !mstrong(R, &x->w, cur, (x->w.thr - 1) / R->nt, ug / R->nt))
        p = &x->w;
    else if ((cur->acc & SA_WRITE) && x->r.thr && !(cur->acc == 3 && x->r.acc == SA_READ) &&
             !ordered(R, u, ug, &x->r) &&
             !mstrong(R, &x->r, cur, (x->r.thr - 1) / R->nt, ug / R->nt))
        p = &x->r;
    if (!p) return 0;
    *h = (race_hit){ (uint64_t)p->thr - 1, p->pc, p->acc, p->clk, { p->scope, cur->scope },
                     { p->esize, cur->esize }, { p->eoff, cur->eoff } };
    return 1;
}

void race_explain(race *R, const san_who *t, const race_hit *h, char *o, size_t n)
{
    rthr *u = thr(R, t);
    racc p = { (uint32_t)h->g + 1, h->clk, h->pc, (uint8_t)h->acc, h->scope[0], h->esize[0],
               h->eoff[0], 0 };
    racc cur = { (uint32_t)gid(R, t) + 1, 0, t->pc, 0, h->scope[1], h->esize[1], h->eoff[1], 0 };
    if (u) explain(R, u, gid(R, t), &p, h->g, &cur, o, n);
    else snprintf(o, n, "(racecheck ran out of host memory)");
}

/* a strong read by u observes location l, last written by w: acquire its release clocks now
 * (an acquire operation) or keep them for a later fence */
static void observe(race *R, rthr *u, uint64_t ug, const racc *w, rloc *l, const pcinfo *pi,
                    int pc, int esize)
{
    uint64_t uc = ug / R->nt;
    int acq = is_acquire(pi->sem), from_w = 0;
    for (int k = 0; l && l->size == esize && k < l->n; k++) {
        const rent *e = &l->e[k];
        from_w |= e->r.g == (uint64_t)w->thr - 1 ||
                  vc_get(&e->r.vc, R->nt, (uint64_t)w->thr - 1) >= w->clk;
        if (e->r.g == ug) continue;
        if (acq) acquire(R, u, uc, e, pi->scope, pc);
        else {
            ent_add(R, &u->pend, &u->npend, &u->cap, e);
            u->pend_pc = pc;
        }
    }
    if (acq && !from_w && w->thr && w->thr - 1 != ug && w->scope)
        u->miss = (rmiss){ MISS_NOREL, 0, 0, pc, w->pc, (uint64_t)w->thr - 1 };
}

/* a write by u (h) at location key of table t: its release pattern, if any, is stored there */
static void store(race *R, rthr *h, uint64_t ug, ltab *t, uint64_t key, const pcinfo *pi,
                  int strong, int rmw, int esize, int pc)
{
    rent e;
    int have = 0;
    if (strong && is_release(pi->sem)) {
        snap(R, h, ug, &e.r);
        e.cta = ug / R->nt; e.pc = pc; e.scope = pi->scope;
        have = 2;
    } else if (strong && h->has_frel) {
        e = h->frel;   /* (shares its clock: copied below) */
        have = 1;
    }
    rloc *l = loc_find(R, t, key, have);
    if (l && !rmw) loc_reset(l);
    if (l && have) {
        if (l->size != esize) loc_reset(l);
        l->size = (uint8_t)esize;
        ent_add(R, &l->e, &l->n, &l->cap, &e);
    }
    if (have == 2) { vc_clear(&e.r.vc); h->clk++; }
}

/* The shadow of an access: contiguous cells (shared memory), or the pages of a global
 * allocation's shadow, made when first touched (a sparse access to a large buffer costs a page,
 * not the buffer) */
#define PG_BITS 10
typedef struct { rcell **pg; size_t npg; } pshadow;
typedef struct { rcell *flat; pshadow *paged; uint64_t off; rcell *page; uint64_t pno; } rshadow;
static rcell *cell(race *R, rshadow *s, unsigned k)
{
    if (s->flat) return s->flat + s->off + k;
    uint64_t o = s->off + k, p = o >> PG_BITS;
    if (!s->page || p != s->pno) {
        if (!s->paged->pg[p] &&
            !(s->paged->pg[p] = calloc((size_t)1 << PG_BITS, sizeof(rcell)))) {
            R->oom = 1;
            return NULL;
        }
        s->page = s->paged->pg[p]; s->pno = p;
    }
    return &s->page[o & ((1u << PG_BITS) - 1)];
}

/* an access of n bytes by t, shadow s, location key in table lt */
static int access(race *R, const san_who *t, rshadow *s, ltab *lt, uint64_t key, unsigned n,
                  int acc, race_hit *h)
{
    rthr *u = thr(R, t);
    rcell *x[64];   /* (an access of more bytes is checked in pieces by the caller) */
    for (unsigned k = 0; u && k < n; k++) x[k] = cell(R, s, k);
    if (!u || R->oom) return 0;
    uint64_t ug = gid(R, t);
    const pcinfo *pi = info(R, t->pc);
    int strong = pi->k == PK_MEM && pi->sem;
    int esize = pi->esize && pi->esize <= n ? pi->esize : (int)n;
    racc cur = { (uint32_t)ug + 1, u->clk, t->pc, (uint8_t)acc,
                 (uint8_t)(strong ? pi->scope : 0), (uint8_t)esize, 0, 0 };
    int found = 0;
    racc w0 = x[0]->w;   /* the write this access reads, when it reads */
    for (unsigned k = 0; k < n; k++) {
        cur.eoff = (uint8_t)(k % (unsigned)esize);
        if (!found) found = check_cell(R, u, ug, x[k], &cur, h);
    }
    cur.eoff = 0;
    /* a strong read observes the write it reads when the two are morally strong (§8.9.2) */
    if ((acc & SA_READ) && strong && w0.thr && mstrong(R, &w0, &cur, (w0.thr - 1) / R->nt,
                                                      ug / R->nt)) {
        for (unsigned k = 0; k < n; k++)   /* §8.9.5: the observed write precedes what follows */
            if (x[k]->w.thr == w0.thr && x[k]->w.clk == w0.clk) x[k]->w.seen = (uint32_t)ug + 1;
        observe(R, u, ug, &w0, loc_find(R, lt, key, 0), pi, t->pc, esize);
    } else if ((acc & SA_READ) && strong && w0.thr && w0.scope && w0.thr - 1 != ug) {
        /* a strong read of another thread's strong write it cannot observe: the scopes */
        uint64_t wc = (w0.thr - 1) / R->nt;
        int acq_short = !incl(R, cur.scope, ug / R->nt, wc);
        if (acq_short || !incl(R, w0.scope, wc, ug / R->nt))
            u->miss = (rmiss){ acq_short ? MISS_SCOPE_ACQ : MISS_SCOPE_REL, cur.scope, w0.scope,
                               t->pc, w0.pc, (uint64_t)w0.thr - 1 };
    }
    for (unsigned k = 0; k < n; k++) {
        cur.eoff = (uint8_t)(k % (unsigned)esize);
        if (acc & SA_WRITE) x[k]->w = cur;
        if (acc & SA_READ) x[k]->r = cur;
    }
    if (acc & SA_WRITE) store(R, u, ug, lt, key, pi, strong, pi->rmw, esize, t->pc);
    return found;
}

int race_global(race *R, const san_who *t, galloc *g, uint64_t a, unsigned n, int acc,
                race_hit *h)
{
    pshadow *p = g->race;
    if (!p) {
        if (g->size > RACE_MAX_ALLOC) return -1;
        if (!(p = calloc(1, sizeof *p))) return 0;
        p->npg = (g->size >> PG_BITS) + 1;
        if (!(p->pg = calloc(p->npg, sizeof *p->pg))) { free(p); return 0; }
        g->race = p;
    }
    int found = 0;
    for (unsigned k = 0; k < n; k += 64) {   /* wide copies: 64 bytes at a time */
        rshadow s = { NULL, p, a - g->addr + k, NULL, 0 };
        race_hit h2;
        if (access(R, t, &s, &R->gloc, a + k, n - k < 64 ? n - k : 64, acc, found ? &h2 : h))
            found = 1;
    }
    return found;
}

int race_shared(race *R, const san_who *t, uint64_t cta, uint32_t off, unsigned n, int acc,
                race_hit *h)
{
    if ((uint64_t)off + n > R->ssize) return 0;
    rcta *c = cta_get(R, cta);
    if (!c) return 0;
    if (!c->sh && !(c->sh = calloc(R->ssize + 1, sizeof(rcell)))) return 0;
    int found = 0;
    for (unsigned k = 0; k < n; k += 64) {
        rshadow s = { c->sh, NULL, off + k, NULL, 0 };
        race_hit h2;
        if (access(R, t, &s, &c->loc, (1ull << 63) | (off + k), n - k < 64 ? n - k : 64, acc,
                   found ? &h2 : h))
            found = 1;
    }
    return found;
}

/* ---------------------------------------------------------------- synchronization */
void race_fence(race *R, const san_who *t)
{
    const pcinfo *pi = info(R, t->pc);
    rthr *h = thr(R, t);
    if (!h || pi->k != PK_FENCE || pi->nosync) return;
    uint64_t g = gid(R, t), cu = t->cta;
    if (is_acquire(pi->sem)) {   /* acquire patterns: strong reads before this fence (§8.8) */
        int keep = 0;
        for (int k = 0; k < h->npend; k++) {
            if (matches(R, &h->pend[k], pi->scope, cu)) {
                take(R, &h->vc, &h->pend[k].r);
                ent_clear(&h->pend[k]);
            } else {
                acquire(R, h, cu, &h->pend[k], pi->scope, t->pc);   /* (notes why not) */
                h->pend[keep++] = h->pend[k];
            }
        }
        h->npend = (uint16_t)keep;
    }
    if (is_release(pi->sem)) {   /* release patterns: strong writes after this fence */
        if (h->has_frel) ent_clear(&h->frel);
        snap(R, h, g, &h->frel.r);
        h->frel.cta = cu; h->frel.pc = t->pc; h->frel.scope = pi->scope;
        h->has_frel = 1;
        h->clk++;
    }
}

/* thread t's clock joined into c, then its own clock advanced (a release) */
static void release_into(race *R, const san_who *t, vclock *c)
{
    rthr *h = thr(R, t);
    if (!h) return;
    oom(R, vc_join(c, &h->vc, R->nt));
    oom(R, vc_raise(c, R->nt, gid(R, t), h->clk));
    h->clk++;
}
static void acquire_from(race *R, const san_who *t, const vclock *c)
{
    rthr *h = thr(R, t);
    if (h) oom(R, vc_join(&h->vc, c, R->nt));
}

void race_bar_arrive(race *R, const san_who *t, int id)
{
    rcta *c = cta_get(R, t->cta);
    if (c) release_into(R, t, &c->bar[id & 15]);
}
void race_bar_pass(race *R, const san_who *t, int id)
{
    rcta *c = cta_get(R, t->cta);
    if (c) acquire_from(R, t, &c->bar[id & 15]);
}
void race_bar_done(race *R, const san_who *t, int id)
{
    rcta *c = cta_find(R, t->cta);
    if (c) vc_clear(&c->bar[id & 15]);
}

void race_warp_sync(race *R, const san_who *t, int n)
{
    vclock j = { 0 };
    for (int i = 0; i < n; i++) release_into(R, &t[i], &j);
    for (int i = 0; i < n; i++) acquire_from(R, &t[i], &j);
    vc_clear(&j);
}

void race_cluster_arrive(race *R, const san_who *t)
{
    rclus *k = clus_get(R, t->cta, 0);
    if (k && info(R, t->pc)->sem != PTX_SEM_RELAXED) release_into(R, t, &k->pend);
}
void race_cluster_done(race *R, const san_who *t)
{
    rclus *k = clus_get(R, t->cta, 0);
    if (!k) return;
    vc_clear(&k->done);
    k->done = k->pend;
    memset(&k->pend, 0, sizeof k->pend);
}
void race_cluster_pass(race *R, const san_who *t)
{
    rclus *k = clus_get(R, t->cta, 0);
    if (k) acquire_from(R, t, &k->done);
}

static rmbar *mbar_get(race *R, uint64_t cta, uint32_t off)
{
    rcta *c = cta_get(R, cta);
    if (!c) return NULL;
    for (int i = 0; i < c->nmb; i++)
        if (c->mb[i].off == off) return &c->mb[i];
    if (c->nmb == c->capmb) {
        int nc = c->capmb ? c->capmb * 2 : 4;
        rmbar *nm = realloc(c->mb, (size_t)nc * sizeof *nm);
        if (!nm) { R->oom = 1; return NULL; }
        c->mb = nm; c->capmb = nc;
    }
    rmbar *b = &c->mb[c->nmb++];
    memset(b, 0, sizeof *b);
    b->off = off;
    return b;
}

void race_mbar(race *R, const san_who *t, uint64_t cta, uint32_t off, int init, int ph0,
               int ph1)
{
    rmbar *b = mbar_get(R, cta, off);
    if (!b) return;
    if (init) {
        vc_clear(&b->pend); vc_clear(&b->done[0]); vc_clear(&b->done[1]);
        return;
    }
    /* arrive-on (default .release) and the complete-tx of an asynchronous copy or store
       (.release.cluster, §9.7.8.24.6); mbarrier.expect_tx/complete_tx themselves are relaxed */
    const xinsn *in = t->pc >= 0 && t->pc < R->m->nprog ? &R->m->prog[t->pc] : NULL;
    const pcinfo *pi = info(R, t->pc);
    int rel = pi->k != PK_MBAR || (in && in->op != PTX_I_MBARRIER_EXPECT_TX &&
                                   in->op != PTX_I_MBARRIER_COMPLETE_TX &&
                                   pi->sem != PTX_SEM_RELAXED);
    if (rel) release_into(R, t, &b->pend);
    if (ph0 != ph1) {   /* the phase of parity ph0 completed */
        vc_clear(&b->done[ph0 & 1]);
        b->done[ph0 & 1] = b->pend;
        memset(&b->pend, 0, sizeof b->pend);
    }
}

void race_mbar_pass(race *R, const san_who *t, uint64_t cta, uint32_t off, int parity)
{
    if (info(R, t->pc)->sem == PTX_SEM_RELAXED) return;
    rmbar *b = mbar_get(R, cta, off);
    if (b) acquire_from(R, t, &b->done[parity & 1]);
}

/* ---------------------------------------------------------------- the launch */
race *race_new(const ptxeModule *m, const unsigned grid[3], const unsigned block[3],
               const unsigned cluster[3], uint32_t ssize)
{
    race *R = calloc(1, sizeof *R);
    if (!R) return NULL;
    R->m = m;
    R->nt = block[0] * block[1] * block[2];
    R->ssize = ssize;
    for (int d = 0; d < 3; d++) {
        R->grid[d] = grid[d] ? grid[d] : 1;
        R->block[d] = block[d] ? block[d] : 1;
        R->cl[d] = cluster[d] ? cluster[d] : 1;
    }
    R->pc = calloc((size_t)m->nprog + 1, sizeof *R->pc);
    if (!R->pc) { free(R); return NULL; }
    for (int pc = 0; pc < m->nprog; pc++) classify(&m->prog[pc], &R->pc[pc]);
    return R;
}

void race_free(race *R, ptxeCtx *ctx)
{
    for (int i = 0; i < ctx->nallocs; i++) {
        pshadow *p = ctx->allocs[i].race;
        for (size_t k = 0; p && k < p->npg; k++) free(p->pg[k]);
        if (p) free(p->pg);
        free(p);
        ctx->allocs[i].race = NULL;
    }
    if (!R) return;
    for (int b = 0; b < NBUCKET; b++)
        while (R->bucket[b]) {
            rcta *c = R->bucket[b];
            R->bucket[b] = c->next;
            cta_free(R, c);
        }
    while (R->clus) {
        rclus *k = R->clus;
        R->clus = k->next;
        vc_clear(&k->pend); vc_clear(&k->done);
        free(k);
    }
    ltab_clear(&R->gloc);
    free(R->pc);
    free(R);
}
