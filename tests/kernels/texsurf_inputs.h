/* tests/kernels/texsurf_inputs.h — the inputs of the texsurf.cu kernels, shared by
 * tests/test_exec_tex.c (the executor, C) and tests/kernels/record_gpu.cu (a GPU, C++) so that
 * both run the kernels on the same texels and coordinates.  Each test starts with tsi_seed().
 * Coordinates are multiples of 1/64 (texel units) or 1/256 (normalized, extents powers of two):
 * after scaling and the - 0.5 of linear filtering their fractions are multiples of 1/256, so the
 * 1.8 fixed-point weights of linear filtering are exact (CUDA C++ Programming Guide, appendix
 * "Texture Fetching"), and texels are small integers: sums are exact.  Products of two fractions
 * (in 1/4096 for texel units) are not: an H100 rounds them to 1/256 (exec/tex.c lin_weights),
 * which shows where a bilinear footprint mixes texels with the border colour. */
#ifndef PTX_TESTS_TEXSURF_INPUTS_H
#define PTX_TESTS_TEXSURF_INPUTS_H
#include <stdint.h>

static uint32_t tsi_rng;
static void tsi_seed(void) { tsi_rng = 0x7e57u; }
static uint32_t tsi_rnd(void)
{
    tsi_rng = tsi_rng * 1664525u + 1013904223u;
    return tsi_rng ^ (tsi_rng >> 13);
}

enum { TSI_W2 = 8, TSI_H2 = 4, TSI_N2 = 96 };

/* the 8x4 texture of 4 f32 channels: x + 10 y + 100 c - 50 */
static void tsi_fill2(float t[TSI_H2][TSI_W2][4])
{
    for (int y = 0; y < TSI_H2; y++)
        for (int x = 0; x < TSI_W2; x++)
            for (int c = 0; c < 4; c++) t[y][x][c] = (float)(x + 10 * y + 100 * c - 50);
}

/* texel units in [-4, 12) x [-3, 7) in 1/64 steps, or normalized in [-1.5, 2.5) in 1/64 steps */
static void tsi_coords2(int norm, float *xs, float *ys, int n)
{
    for (int i = 0; i < n; i++) {
        if (norm) {
            xs[i] = (float)(int)(tsi_rnd() % 256) / 64.0f - 1.5f;
            ys[i] = (float)(int)(tsi_rnd() % 256) / 64.0f - 1.5f;
        } else {
            xs[i] = (float)(int)(tsi_rnd() % 1024) / 64.0f - 4.0f;
            ys[i] = (float)(int)(tsi_rnd() % 640) / 64.0f - 3.0f;
        }
    }
    xs[0] = 0.5f; ys[0] = 0.5f;   /* texel centres and edges */
    if (!norm) { xs[1] = 7.5f; ys[1] = 3.5f; xs[2] = 8.0f; ys[2] = 4.0f; }
}

/* the tex2D configurations of tx_2d: filter (0 point, 1 linear), normalized coordinates,
 * address mode (0 wrap, 1 clamp, 2 mirror, 3 border, as ptxeAddressMode), the file name; the
 * border colour is (-1, 2, 3.5, 7) */
static const struct { int filter, norm, am; const char *name; } tsi_cfg2[] = {
    { 0, 0, 1, "tx_2d_point_clamp" },    { 1, 0, 1, "tx_2d_linear_clamp" },
    { 1, 0, 3, "tx_2d_linear_border" },  { 0, 0, 0, "tx_2d_point_wrap_unnorm" },
    { 0, 1, 0, "tx_2d_point_nwrap" },    { 1, 1, 0, "tx_2d_linear_nwrap" },
    { 1, 1, 2, "tx_2d_linear_nmirror" }, { 0, 1, 2, "tx_2d_point_nmirror" },
    { 0, 1, 3, "tx_2d_point_nborder" },  { 1, 1, 1, "tx_2d_linear_nclamp" },
};
static const float tsi_border[4] = { -1.0f, 2.0f, 3.5f, 7.0f };

/* tx_3d: 4x4x4 f32 texels x + 4 y + 16 z; normalized coordinates in [-1.5, 2.5) */
enum { TSI_W3 = 4, TSI_N3 = 96 };
static void tsi_inputs3(float t[TSI_W3][TSI_W3][TSI_W3], float *xs, float *ys, float *zs)
{
    for (int z = 0; z < TSI_W3; z++)
        for (int y = 0; y < TSI_W3; y++)
            for (int x = 0; x < TSI_W3; x++) t[z][y][x] = (float)(x + 4 * y + 16 * z);
    for (int i = 0; i < TSI_N3; i++) {
        xs[i] = (float)(int)(tsi_rnd() % 256) / 64.0f - 1.5f;
        ys[i] = (float)(int)(tsi_rnd() % 256) / 64.0f - 1.5f;
        zs[i] = (float)(int)(tsi_rnd() % 256) / 64.0f - 1.5f;
    }
}

/* tx_cube: 6 faces of 4x4 f32 texels 100 f + 10 y + x; directions with a unique major axis of
 * magnitude 4 and minor axes at odd eighths in (-4, 4) */
enum { TSI_WC = 4, TSI_NC = 96 };
static void tsi_inputs_cube(float t[6][TSI_WC][TSI_WC], float *xs, float *ys, float *zs)
{
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < TSI_WC; y++)
            for (int x = 0; x < TSI_WC; x++) t[f][y][x] = (float)(100 * f + 10 * y + x);
    for (int i = 0; i < TSI_NC; i++) {
        int major = (int)(tsi_rnd() % 3), sign = tsi_rnd() & 1 ? 1 : -1;
        float v[3];
        for (int k = 0; k < 3; k++)
            v[k] = k == major ? 4.0f * (float)sign
                              : (float)((int)(tsi_rnd() % 32) * 2 - 31) / 8.0f;
        xs[i] = v[0]; ys[i] = v[1]; zs[i] = v[2];
    }
}

/* tx_layered: 3 layers of 4x4 f32 texels 1000 l + 10 y + x; layers 0..4 (3, 4 clamp to 2) */
enum { TSI_WL = 4, TSI_LL = 3, TSI_NL = 64 };
static void tsi_inputs_layered(float t[TSI_LL][TSI_WL][TSI_WL], float *xs, float *ys, int *ls)
{
    for (int l = 0; l < TSI_LL; l++)
        for (int y = 0; y < TSI_WL; y++)
            for (int x = 0; x < TSI_WL; x++) t[l][y][x] = (float)(1000 * l + 10 * y + x);
    for (int i = 0; i < TSI_NL; i++) {
        xs[i] = (float)(int)(tsi_rnd() % 512) / 64.0f - 2.0f;
        ys[i] = (float)(int)(tsi_rnd() % 512) / 64.0f - 2.0f;
        ls[i] = (int)(tsi_rnd() % 5);
    }
}

/* tx_2d1: 8x4 one-channel texels as u8 (unorm), s16 (snorm, -32768 at (0, 0)) and f16 (small
 * integers x - 2 y); tx_2di: s8 x 4 and u16 x 2 texels read as integers */
static void tsi_formats(uint8_t u8[TSI_H2][TSI_W2], int16_t s16[TSI_H2][TSI_W2],
                        uint16_t f16[TSI_H2][TSI_W2])
{
    for (int y = 0; y < TSI_H2; y++)
        for (int x = 0; x < TSI_W2; x++) {
            u8[y][x] = (uint8_t)(x * 37 + y * 71);
            s16[y][x] = (int16_t)(x == 0 && y == 0 ? -32768 : (x * 9001 - y * 13007));
            int v = x - 2 * y;
            unsigned av = (unsigned)(v < 0 ? -v : v), e = 0;
            while (av >> (e + 1)) e++;
            f16[y][x] = v == 0 ? 0 : (uint16_t)((v < 0 ? 0x8000u : 0) | (e + 15) << 10 |
                                                ((av << (10 - e)) & 0x3ff));
        }
}
static void tsi_ints(int8_t s8[TSI_H2][TSI_W2][4], uint16_t u16[TSI_H2][TSI_W2][2])
{
    for (int y = 0; y < TSI_H2; y++)
        for (int x = 0; x < TSI_W2; x++) {
            for (int c = 0; c < 4; c++) s8[y][x][c] = (int8_t)(x * 31 - y * 17 + c * 50);
            u16[y][x][0] = (uint16_t)(x * 4099 + y);
            u16[y][x][1] = (uint16_t)(65535 - x * y);
        }
}

/* the 1.8 fixed-point weight itself: an 8x4 f32 texture with T(x, y) = 256 x, sampled linearly at
 * x = 0.5 + k / 997 (fractions that are not multiples of 1/256) on the row centre y = 1.5, so
 * the result is 256 i + 256 a with a the quantized weight: an integer that shows the rounding */
enum { TSI_NQ = 64 };
static void tsi_fixed_point(float t[TSI_H2][TSI_W2], float *xs, float *ys)
{
    for (int y = 0; y < TSI_H2; y++)
        for (int x = 0; x < TSI_W2; x++) t[y][x] = (float)(256 * x);
    for (int k = 0; k < TSI_NQ; k++) {
        xs[k] = 0.5f + (float)(k * 97) / 997.0f;
        ys[k] = 1.5f;
    }
}
#endif
