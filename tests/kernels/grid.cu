// Multi-dimensional grids: 3-D grid and block indexing; 2-D transpose through a padded tile.
extern "C" __global__ void grid3d_index(unsigned *out) {
    unsigned bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
    unsigned lin_block = (bz * gridDim.y + by) * gridDim.x + bx;
    unsigned tpb = blockDim.x * blockDim.y * blockDim.z;
    unsigned lin_t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned g = lin_block * tpb + lin_t;
    out[g] = (threadIdx.x) | (threadIdx.y << 4) | (threadIdx.z << 8) | (bx << 12) | (by << 16) | (bz << 20) | ((lin_t & 31) << 24);
}
#define TD 32
extern "C" __global__ void transpose(const float *in, float *out, int w, int h) {
    __shared__ float tile[TD][TD + 1];
    int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
    for (int j = 0; j < TD; j += 8)
        if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TD + threadIdx.x; y = blockIdx.x * TD + threadIdx.y;
    for (int j = 0; j < TD; j += 8)
        if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
