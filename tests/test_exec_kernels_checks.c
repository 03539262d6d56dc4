/* tests/test_exec_kernels_checks.c — every kernel of tests/test_exec_kernels.c again, with all
 * four checks on (memcheck, racecheck, synccheck, initcheck): the same results, and no finding
 * on any correct kernel (issue #14).  The fault kernels of faults.cu still fault. */
#include "include/ptxexec.h"
#define KERNEL_CHECKS PTXE_CHECK_ALL
#include "test_exec_kernels.c"
