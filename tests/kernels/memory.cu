// Memory spaces: local arrays with dynamic indexing, __constant__ tables, __device__ globals with
// initialisers, vector loads/stores (int4/float2), generic pointers into shared memory.
__constant__ int ctab[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 };
__device__ int gcounter = 1000;
__device__ int garr[4] = { 10, 20, 30, 40 };
extern "C" __global__ void local_array(const int *x, int *out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int loc[24];
    for (int i = 0; i < 24; i++) loc[i] = x[g] * i + ctab[i & 15];
    int s = 0;
    for (int i = 0; i < 24; i++) s += loc[(i * 7 + x[g]) % 24];
    out[g] = s + garr[g & 3] + atomicAdd(&gcounter, 1) * 0;
}
extern "C" __global__ void vec_copy(const int4 *in, int4 *out, const float2 *fin, float2 *fout) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int4 v = in[g];
    out[g] = make_int4(v.w, v.z + 1, v.y * 2, v.x - 3);
    float2 f = fin[g];
    fout[g] = make_float2(f.y, f.x);
}
__device__ __noinline__ void bump(int *p, int v) { *p += v; }   // generic pointer into shared
extern "C" __global__ void generic_shared(int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    bump(&s[(t + 1) & 127], 1000);
    __syncthreads();
    out[blockIdx.x * 128 + t] = s[t];
}
