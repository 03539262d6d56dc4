/* check/stateset.c — a set of final states (vectors of observable values), open addressing.
 * Used by both decision procedures to collect the reachable states of a test. */
#include "check/stateset.h"
#include "base/alloc.h"
#include <stdlib.h>
#include <string.h>

static uint64_t hash_state(const int64_t *s, int nobs)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < nobs; i++) { h ^= (uint64_t)s[i]; h *= 1099511628211ull; h ^= h >> 29; }
    return h;
}

int ss_find(const stateset *ss, const int64_t *s)
{
    if (!ss->nslot) return -1;
    uint64_t h = hash_state(s, ss->nobs);
    for (int k = 0; k < ss->nslot; k++) {
        int i = ss->slot[(h + (uint64_t)k) % (uint64_t)ss->nslot];
        if (!i) return -1;
        if (!memcmp(&ss->v[(size_t)(i - 1) * (size_t)ss->nobs], s, (size_t)ss->nobs * sizeof *s))
            return i - 1;
    }
    return -1;
}

static void ss_rehash(stateset *ss)
{
    ss->nslot = ss->nslot ? ss->nslot * 2 : 64;
    free(ss->slot);
    ss->slot = xcalloc((size_t)ss->nslot, sizeof *ss->slot);
    for (int i = 0; i < ss->n; i++) {
        uint64_t h = hash_state(&ss->v[(size_t)i * (size_t)ss->nobs], ss->nobs);
        for (int k = 0;; k++) {
            int *p = &ss->slot[(h + (uint64_t)k) % (uint64_t)ss->nslot];
            if (!*p) { *p = i + 1; break; }
        }
    }
}

int ss_add(stateset *ss, const int64_t *s)
{
    if (ss_find(ss, s) >= 0) return 0;
    if (ss->n == ss->cap) {
        ss->cap = ss->cap ? ss->cap * 2 : 16;
        ss->v =
            xrealloc(ss->v, (size_t)ss->cap * (size_t)(ss->nobs ? ss->nobs : 1) * sizeof *ss->v);
    }
    memcpy(&ss->v[(size_t)ss->n * (size_t)ss->nobs], s, (size_t)ss->nobs * sizeof *s);
    ss->n++;
    if (ss->n * 2 > ss->nslot) ss_rehash(ss);
    else {
        uint64_t h = hash_state(s, ss->nobs);
        for (int k = 0;; k++) {
            int *p = &ss->slot[(h + (uint64_t)k) % (uint64_t)ss->nslot];
            if (!*p) { *p = ss->n; break; }
        }
    }
    return 1;
}

void ss_free(stateset *ss)
{
    free(ss->v);
    free(ss->slot);
    memset(ss, 0, sizeof *ss);
}
