// bench/gpu/diag_tex.cu — the smallest texture-object launches, to find why the recorder's tex
// group is refused on the lent H100 ("operation not supported", 2026-11-26 runs 1 and 2):
// a linear-memory texture with tex1Dfetch and a 2D CUDA-array texture with tex2D, each launch
// checked; prints the device's texture attributes.  Built by bench/gpu/diag_mbar.sh.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fetch1d(cudaTextureObject_t t, float *o) { o[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x); }
__global__ void fetch2d(cudaTextureObject_t t, float *o) { o[threadIdx.x] = tex2D<float>(t, threadIdx.x + 0.5f, 0.5f); }
__global__ void plain(float *o) { o[threadIdx.x] = threadIdx.x; }

static int report(const char *what)
{
    cudaError_t e = cudaGetLastError();
    if (!e) e = cudaDeviceSynchronize();
    printf("%-28s %s (%s)\n", what, e ? cudaGetErrorString(e) : "ok", cudaGetErrorName(e));
    return e != cudaSuccess;
}

int main()
{
    int dev = 0, v = 0;
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, dev);
    printf("device %s cc %d.%d\n", p.name, p.major, p.minor);
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxTexture1DLinearWidth, dev); printf("maxTexture1DLinear %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxTexture2DWidth, dev); printf("maxTexture2DWidth %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrComputeMode, dev); printf("computeMode %d\n", v);
    float *d, *o, h[32];
    for (int i = 0; i < 32; i++) h[i] = i * 1.5f;
    cudaMalloc(&d, sizeof h); cudaMalloc(&o, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    plain<<<1, 32>>>(o); report("plain kernel");
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = d;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = sizeof h;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
    printf("%-28s %s\n", "create linear texture", cudaGetErrorString(e));
    fetch1d<<<1, 32>>>(t, o); report("tex1Dfetch launch");
    cudaArray_t a;
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    e = cudaMallocArray(&a, &f, 32, 1);
    printf("%-28s %s\n", "cudaMallocArray", cudaGetErrorString(e));
    cudaMemcpy2DToArray(a, 0, 0, h, sizeof h, sizeof h, 1, cudaMemcpyHostToDevice);
    cudaResourceDesc ra = {};
    ra.resType = cudaResourceTypeArray;
    ra.res.array.array = a;
    cudaTextureObject_t t2 = 0;
    e = cudaCreateTextureObject(&t2, &ra, &td, nullptr);
    printf("%-28s %s\n", "create array texture", cudaGetErrorString(e));
    fetch2d<<<1, 32>>>(t2, o); report("tex2D launch");
    return 0;
}
