// bench/check/scale/scope.h — the orders and the scope of the GPUMC-family kernels (issue #36):
// the fixed variant (acquire/release at device scope) and its two natural misuses, chosen at
// compile time (build.sh: -DBUGGY_RELAXED, -DBUGGY_BLOCK).
#pragma once
#include <cuda/atomic>
#if defined(BUGGY_RELAXED)          // acquire and release weakened to relaxed
#define ACQ cuda::std::memory_order_relaxed
#define REL cuda::std::memory_order_relaxed
#define SCOPE cuda::thread_scope_device
#elif defined(BUGGY_BLOCK)          // device scope narrowed to the block
#define ACQ cuda::std::memory_order_acquire
#define REL cuda::std::memory_order_release
#define SCOPE cuda::thread_scope_block
#else                               // fixed
#define ACQ cuda::std::memory_order_acquire
#define REL cuda::std::memory_order_release
#define SCOPE cuda::thread_scope_device
#endif
#define RLX cuda::std::memory_order_relaxed
template <class T> using aref = cuda::atomic_ref<T, SCOPE>;
