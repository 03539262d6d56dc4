// Tiled matrix multiply with shared-memory tiles (int and float with fma), 2-D grid.
#define T 16
extern "C" __global__ void matmul_i32(const int *A, const int *B, int *C, int n) {
    __shared__ int As[T][T], Bs[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    int acc = 0;
    for (int k0 = 0; k0 < n; k0 += T) {
        As[threadIdx.y][threadIdx.x] = (row < n && k0 + threadIdx.x < n) ? A[row * n + k0 + threadIdx.x] : 0;
        Bs[threadIdx.y][threadIdx.x] = (col < n && k0 + threadIdx.y < n) ? B[(k0 + threadIdx.y) * n + col] : 0;
        __syncthreads();
        for (int k = 0; k < T; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = acc;
}
extern "C" __global__ void matmul_f32(const float *A, const float *B, float *C, int n) {
    __shared__ float As[T][T], Bs[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += T) {
        As[threadIdx.y][threadIdx.x] = (row < n && k0 + threadIdx.x < n) ? A[row * n + k0 + threadIdx.x] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (col < n && k0 + threadIdx.y < n) ? B[(k0 + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; k++) acc = __fmaf_rn(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = acc;
}
