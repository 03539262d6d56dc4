/* tests/check_quiet.h — Check's assertions without the record of every passing one.
 * Check 0.15 ends each passing ck_assert_* with _mark_point(), one write(2) of a location record
 * to its message file (where a later crash or timeout is reported).  In the tests that assert
 * inside loops over millions of values this dominated: test_isa made 3.6 M such writes, 4 s of
 * its 8.  A file that includes this header after <check.h> keeps every ck_assert_* macro and
 * its failure message; a passing assertion just costs its comparison.  A crash is reported at
 * the test's start or at its last explicit mark_point() (ASan builds print the stack anyway). */
#ifndef PTX_CHECK_QUIET_H
#define PTX_CHECK_QUIET_H
#include <check.h>

#undef ck_assert_msg
#define ck_assert_msg(expr, ...) \
    ((expr) ? (void)0 \
            : _ck_assert_failed(__FILE__, __LINE__, "Assertion '" #expr "' failed", ##__VA_ARGS__))
#endif
