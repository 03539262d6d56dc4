/* ptx/mnemonic.c — the mnemonic tokenizer (see mnemonic.h).  A mnemonic is split at its dots
 * (a "::" stays inside a word); the base is the longest opcode-table mnemonic it begins with,
 * every later word is looked up in the qualifier vocabulary and recorded with its position. */
#include "ptx/mnemonic.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct { const char *text; uint8_t len, cls, val; } qword;

static const qword vocab[PTX_Q_COUNT] = {
#define Q(id, text, class, value) [PTX_Q_##id] = { text, sizeof text - 1, PTX_QC_##class, value },
#include "ptx/qualifiers.def"
    [PTX_Q_SHAPE] = { "", 0, PTX_QC_SHAPE, 0 },
};

ptx_qid ptx_qual_lookup(const char *w, size_t len)
{
    for (int i = 1; i < PTX_Q_SHAPE; i++)
        if (vocab[i].len == len && vocab[i].text[0] == w[0] && !memcmp(vocab[i].text, w, len))
            return (ptx_qid)i;
    return PTX_Q_NONE;
}

const char *ptx_qual_text(ptx_qid q)
{
    return q > PTX_Q_NONE && q < PTX_Q_COUNT ? vocab[q].text : "";
}

static const char *const ss_names[] = { "", "global", "shared", "shared::cta", "shared::cluster",
    "local", "const", "param", "param::entry", "param::func", "generic" };
static const char *const sem_names[] = { "", "weak", "relaxed", "acquire", "release", "acq_rel",
    "sc", "volatile" };
static const char *const scope_names[] = { "", "cta", "cluster", "gpu", "sys" };
const char *ptx_ss_name(int s) { return s >= 0 && s <= PTX_SS_GENERIC ? ss_names[s] : ""; }
const char *ptx_sem_name(int s) { return s >= 0 && s <= PTX_SEM_VOLATILE ? sem_names[s] : ""; }
const char *ptx_scope_name(int s) { return s >= 0 && s <= PTX_SCOPE_SYS ? scope_names[s] : ""; }

/* m<digits>n<digits>[k<digits>]: a matrix shape (§9.7.13.1, §9.7.14.2). */
static int is_shape(const char *w, size_t n)
{
    size_t i = 0;
    static const char parts[] = "mnk";
    for (int p = 0; p < 3; p++) {
        if (i == n && p == 2) return 1;
        if (i >= n || w[i] != parts[p]) return 0;
        size_t d = ++i;
        while (i < n && w[i] >= '0' && w[i] <= '9') i++;
        if (i == d) return 0;
    }
    return i == n;
}

static int fail(ptx_mn_error *err, size_t off, const char *fmt, ...)
{
    if (!err) return -1;
    err->off = off;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* Does the instruction take an atomic/reduction operation (.add .cas ...)? */
static int takes_operation(int kind, int op)
{
    return kind == PTX_K_ATOM || kind == PTX_K_RED || kind == PTX_K_REDUX ||
           kind == PTX_K_MULTIMEM || op == PTX_I_CP_REDUCE_ASYNC_BULK ||
           op == PTX_I_CP_REDUCE_ASYNC_BULK_TENSOR || op == PTX_I_RED_ASYNC;
}

/* Records one classified qualifier; the structural rules (one semantics, one scope, ...). */
static int record(ptx_mnemonic *m, ptx_qual *q, ptx_mn_error *err)
{
    const char *w = m->text + q->off;
    int n = q->len;
    switch (q->cls) {
    case PTX_QC_SPACE:
        if (m->space2) return fail(err, q->off, "a third state space '.%.*s'", n, w);
        if (m->space) m->space2 = q->val; else m->space = q->val;
        break;
    case PTX_QC_SEM:
        if (m->sem)
            return fail(err, q->off, "a second semantics qualifier '.%.*s' (after '.%s')", n, w,
                        sem_names[m->sem]);
        m->sem = q->val;
        break;
    case PTX_QC_SCOPE:
        if (m->scope)
            return fail(err, q->off, "a second scope '.%.*s' (after '.%s')", n, w,
                        scope_names[m->scope]);
        m->scope = q->val;
        break;
    case PTX_QC_VEC:
        if (m->vec > 1) return fail(err, q->off, "a second vector width '.%.*s'", n, w);
        m->vec = q->val;
        break;
    case PTX_QC_TYPE:
        if (m->ntypes == 4) return fail(err, q->off, "a fifth type '.%.*s'", n, w);
        m->type[m->ntypes++] = q->val;
        break;
    case PTX_QC_ATOMOP:
        if (m->aop) return fail(err, q->off, "a second operation '.%.*s'", n, w);
        m->aop = q->val;
        break;
    case PTX_QC_PROXY:
        if (m->proxy) return fail(err, q->off, "a second proxy kind '.%.*s'", n, w);
        m->proxy = q->val;
        break;
    case PTX_QC_COP:
        if (m->cop) return fail(err, q->off, "a second cache operator '.%.*s'", n, w);
        m->cop = q->val;
        break;
    case PTX_QC_EVICT: m->evict = q->id; break;
    case PTX_QC_PREFETCH: m->prefetch = q->id; break;
    case PTX_QC_COMPLETION: m->completion = q->val; break;
    case PTX_QC_RESTRICT: m->restrict_ = q->val; break;
    default: break;
    }
    m->given |= 1u << q->cls;
    return 0;
}

/* Classifies the word text[s..e) after the base. */
static int classify(ptx_mnemonic *m, size_t s, size_t e, ptx_mn_error *err)
{
    const char *w = m->text + s;
    size_t n = e - s;
    if (!n) return fail(err, s ? s - 1 : 0, "an empty qualifier ('..')");
    if (m->nq == PTX_MN_MAXQ) return fail(err, s, "more than %d qualifiers", PTX_MN_MAXQ);
    ptx_qual *q = &m->q[m->nq];
    q->off = (uint16_t)s;
    q->len = (uint16_t)n;
    q->id = (uint16_t)ptx_qual_lookup(w, n);
    if (q->id == PTX_Q_NONE && is_shape(w, n)) q->id = PTX_Q_SHAPE;
    if (q->id == PTX_Q_NONE) return fail(err, s, "unknown qualifier '.%.*s'", (int)n, w);
    q->cls = vocab[q->id].cls;
    q->val = vocab[q->id].val;
    if (q->cls == PTX_QC_ATOMOP && !takes_operation(m->kind, m->op)) q->cls = PTX_QC_OTHER;
    /* wmma.mma.alayout.blayout (§9.7.13.3.5) may repeat .row or .col */
    int layout2 = m->op == PTX_I_WMMA_MMA && (q->id == PTX_Q_row || q->id == PTX_Q_col);
    if (q->id != PTX_Q_SHAPE && q->cls != PTX_QC_TYPE && q->cls != PTX_QC_TYPEX && !layout2 &&
        ptx_mn_has(m, (ptx_qid)q->id))
        return fail(err, s, "'.%.*s' given twice", (int)n, w);
    if (record(m, q, err)) return -1;
    m->has[q->id >> 6] |= 1ull << (q->id & 63);
    m->nq++;
    return 0;
}

int ptx_mnemonic_parse(const char *text, size_t len, ptx_mnemonic *m, ptx_mn_error *err)
{
    memset(m, 0, sizeof *m);
    m->text = text;
    m->vec = 1;
    if (err) { err->off = 0; err->msg[0] = 0; }
    if (!text || !len) return fail(err, 0, "an empty mnemonic");
    if (len > 0xffff) return fail(err, 0, "a mnemonic of %zu characters", len);
    m->len = (uint16_t)len;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == ':'))
            return fail(err, i, "the character '%c' in a mnemonic", c);
    }
    size_t bl;
    m->op = (uint16_t)ptx_op_lookup(text, len, &bl);
    if (m->op == PTX_I_NONE) {
        size_t w = strcspn(text, ".");
        return fail(err, 0, "unknown mnemonic '%.*s'", (int)(w < len ? w : len), text);
    }
    m->kind = ptx_ops[m->op].kind;
    m->base_len = (uint16_t)bl;
    for (size_t p = bl; p < len;) {
        size_t s = p + 1, e = s;
        while (e < len && text[e] != '.') e++;
        if (classify(m, s, e, err)) return -1;
        p = e;
    }
    /* §9.7.8.9 is written ld.global{.cop}.nc...: the one row that is not a prefix */
    if (m->op == PTX_I_LD && ptx_mn_has(m, PTX_Q_nc)) m->op = PTX_I_LD_NC;
    return 0;
}
