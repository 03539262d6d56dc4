/* litmus/verify_query.c — placeholder while the symbolic query is written. */
#include "litmus/verify_int.h"
int verify_query(const lit_test *t, const verify_opts *o, verify_result *r, const mprogram *p, stateset *out)
{
    return verify_product(t, o, r, p, out);
}
