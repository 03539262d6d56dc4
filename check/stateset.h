/* check/stateset.h — a set of final states: vectors of nobs observable values. */
#ifndef PTX_LITMUS_STATESET_H
#define PTX_LITMUS_STATESET_H
#include <stdint.h>

typedef struct {
    int nobs;
    int64_t *v;            /* n x nobs */
    int n, cap;
    int *slot;             /* index+1, 0 = empty */
    int nslot;
} stateset;

int ss_find(const stateset *ss, const int64_t *s);   /* index or -1 */
int ss_add(stateset *ss, const int64_t *s);          /* 1 when new */
void ss_free(stateset *ss);
#endif
