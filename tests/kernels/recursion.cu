// Recursion through call (non-inlined device functions) and indirect calls through a pointer.
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ long long ack_like(int m, long long n) { return m == 0 ? n + 1 : ack_like(m - 1, n * 3 + m); }
extern "C" __global__ void fib_rec(int *out) {
    int t = threadIdx.x;
    out[t] = fib(t % 16) + (int)ack_like(t % 5, t);
}
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
typedef int (*binop)(int, int);
extern "C" __global__ void indirect_call(const int *sel, int *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    binop ops[3] = { op_add, op_mul, op_sub };
    binop f = ops[sel[t] % 3];
    out[t] = f(t, 7) + f(3, t);
}
