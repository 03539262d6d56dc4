// Kernels that fault on purpose (compiled with -lineinfo): the executor's fault report names
// the CUDA source line.
extern "C" __global__ void oob_store(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i * 7;
    out[i + n] = v;   // line 7: out of bounds for i + n >= allocation
}

extern "C" __global__ void trap_on(const int *in, int *out, int bad)
{
    int i = threadIdx.x;
    if (in[i] == bad) __trap();   // line 13
    out[i] = in[i] + 1;
}

extern "C" __global__ void wild_ptr(int *out, long long addr)
{
    int *p = (int *)addr;
    out[threadIdx.x] = *p;   // line 20: load from an address outside every allocation
}
