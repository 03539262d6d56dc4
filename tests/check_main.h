/* tests/check_main.h — shared main() for the Check-based test binaries.
 * A test file defines `static void add_tests(TCase *tc)` and then includes this header;
 * the binary runs one suite named after the file and exits non-zero on any failure. */
#ifndef PTX_CHECK_MAIN_H
#define PTX_CHECK_MAIN_H
#include <check.h>
#include <stdlib.h>

#ifndef TEST_TIMEOUT
#define TEST_TIMEOUT 120
#endif

static void add_tests(TCase *tc);

int main(void)
{
#ifdef TEST_FILE
    Suite *s = suite_create(TEST_FILE);
#else
    Suite *s = suite_create("tests");
#endif
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, TEST_TIMEOUT);
    add_tests(tc);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
#endif
