// Floating point: saxpy (fma contraction), IEEE div/sqrt, min/max with NaN, f64 math.
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void fp_math(const float *x, const float *y, float *out, const double *dx, double *dout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i], b = y[i];
    float *o = out + 8 * i;
    o[0] = a / b;
    o[1] = sqrtf(fabsf(a));
    o[2] = fminf(a, b);
    o[3] = fmaxf(a, b);
    o[4] = __fmul_rz(a, b);
    o[5] = __fadd_ru(a, b);
    o[6] = __fdiv_rd(a, b);
    o[7] = copysignf(a - b, b);
    double d = dx[i];
    dout[3 * i] = d * d + 1.0 / (d + 0.5);
    dout[3 * i + 1] = sqrt(fabs(d));
    dout[3 * i + 2] = __fma_rz(d, 3.0, -d);
}
