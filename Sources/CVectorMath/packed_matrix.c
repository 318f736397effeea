// Products with a weight matrix W (rows × width, row-major as the model stores it): out = x · Wᵀ. W is packed once,
// when the model loads, as half floats in 16-row panels, the layout the kernels read. A BLAS copied (packed) the
// whole of W on every call, which cost more than the products for a decoder step's few rows; half floats are the
// model file's own values, at half the memory and half the bytes read per product.
#include "vector_math.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

enum { panel_width = flightvoice_panel_rows };

size_t flightvoice_packed_size(size_t rows, size_t width) {
    return (rows + panel_width - 1) / panel_width * panel_width * width;
}

size_t flightvoice_panel_count(size_t rows) {
    return (rows + panel_width - 1) / panel_width;
}

void flightvoice_pack_panels(const uint16_t *matrix, size_t rows, size_t width, uint16_t *packed) {
    const size_t panels = flightvoice_panel_count(rows);
    for (size_t p = 0; p < panels; p++) {
        uint16_t *panel = packed + p * panel_width * width;
        for (size_t k = 0; k < width; k++) {
            for (size_t l = 0; l < panel_width; l++) {
                const size_t row = p * panel_width + l;
                panel[k * panel_width + l] = row < rows ? matrix[row * width + k] : 0;
            }
        }
    }
}

float flightvoice_half_to_float(uint16_t half) {
    const uint32_t sign = (uint32_t)(half & 0x8000) << 16;
    uint32_t exponent = (half >> 10) & 0x1f, mantissa = half & 0x3ff, bits;
    if (exponent == 31) {
        bits = sign | 0x7f800000 | (mantissa << 13);
    } else if (exponent != 0) {
        bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign;
    } else {  // subnormal: normalise
        exponent = 127 - 15 + 1;
        while (!(mantissa & 0x400)) {
            mantissa <<= 1;
            exponent--;
        }
        bits = sign | (exponent << 23) | ((mantissa & 0x3ff) << 13);
    }
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

#if defined(__x86_64__)
__attribute__((target("avx,f16c")))
static void halves_to_floats_f16c(const uint16_t *halves, size_t count, float *floats) {
    size_t i = 0;
    for (; i + 8 <= count; i += 8) _mm256_storeu_ps(floats + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(halves + i))));
    for (; i < count; i++) floats[i] = flightvoice_half_to_float(halves[i]);
}
#endif

void flightvoice_halves_to_floats(const uint16_t *halves, size_t count, float *floats) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c")) {
        halves_to_floats_f16c(halves, count, floats);
        return;
    }
#endif
    for (size_t i = 0; i < count; i++) floats[i] = flightvoice_half_to_float(halves[i]);
}

/// The columns of panel p that are rows of the matrix (16 but in the last panel).
static inline size_t valid_columns(size_t rows, size_t p) {
    const size_t left = rows - p * panel_width;
    return left < panel_width ? left : panel_width;
}

static void multiply_plain(const uint16_t *packed, size_t rows, size_t width, const float *x, size_t count, float *out,
                           size_t first_panel, size_t end_panel) {
    float columns[panel_width];
    for (size_t p = first_panel; p < end_panel; p++) {
        const uint16_t *panel = packed + p * panel_width * width;
        const size_t valid = valid_columns(rows, p);
        for (size_t r = 0; r < count; r++) {
            float sums[panel_width] = {0};
            const float *input = x + r * width;
            for (size_t k = 0; k < width; k++) {
                for (size_t l = 0; l < panel_width; l++) columns[l] = flightvoice_half_to_float(panel[k * panel_width + l]);
                for (size_t l = 0; l < panel_width; l++) sums[l] += input[k] * columns[l];
            }
            memcpy(out + r * rows + p * panel_width, sums, valid * sizeof(float));
        }
    }
}

#if defined(__x86_64__)

// `R` input rows times `P` adjacent panels (16 columns each): per column k, P loads of the panels (in L1 across the
// row groups), widened to floats, R broadcasts, R·P FMAs into R·P accumulators. R and P are constants at each call,
// so the loops unroll and the accumulators stay in registers.
__attribute__((target("avx512f"), always_inline))
static inline void rows_avx512(const uint16_t *panel, size_t width, const float *in, float *target, size_t stride,
                               __mmask16 last_mask, const int R, const int P) {
    __m512 sums[8][2];
    for (int i = 0; i < R; i++) for (int j = 0; j < P; j++) sums[i][j] = _mm512_setzero_ps();
    const size_t panel_size = panel_width * width;
    for (size_t k = 0; k < width; k++) {
        __m512 columns[2];
        for (int j = 0; j < P; j++) columns[j] = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(panel + j * panel_size + k * panel_width)));
        for (int i = 0; i < R; i++) {
            const __m512 value = _mm512_set1_ps(in[i * width + k]);
            for (int j = 0; j < P; j++) sums[i][j] = _mm512_fmadd_ps(value, columns[j], sums[i][j]);
        }
    }
    for (int i = 0; i < R; i++) {
        for (int j = 0; j < P; j++) {
            _mm512_mask_storeu_ps(target + i * stride + j * panel_width, j == P - 1 ? last_mask : (__mmask16)0xFFFF, sums[i][j]);
        }
    }
}

__attribute__((target("avx512f"), always_inline))
static inline void panels_avx512(const uint16_t *panel, size_t rows, size_t width, const float *x, size_t count, float *target,
                                 __mmask16 last_mask, const int P) {
    size_t r = 0;
    for (; r + 8 <= count; r += 8) rows_avx512(panel, width, x + r * width, target + r * rows, rows, last_mask, 8, P);
    const float *in = x + r * width;
    float *out = target + r * rows;
    switch (count - r) {
    case 7: rows_avx512(panel, width, in, out, rows, last_mask, 7, P); break;
    case 6: rows_avx512(panel, width, in, out, rows, last_mask, 6, P); break;
    case 5: rows_avx512(panel, width, in, out, rows, last_mask, 5, P); break;
    case 4: rows_avx512(panel, width, in, out, rows, last_mask, 4, P); break;
    case 3: rows_avx512(panel, width, in, out, rows, last_mask, 3, P); break;
    case 2: rows_avx512(panel, width, in, out, rows, last_mask, 2, P); break;
    case 1: rows_avx512(panel, width, in, out, rows, last_mask, 1, P); break;
    default: break;
    }
}

__attribute__((target("avx512f")))
static void multiply_avx512(const uint16_t *packed, size_t rows, size_t width, const float *x, size_t count, float *out,
                            size_t first_panel, size_t end_panel) {
    size_t p = first_panel;
    for (; p + 2 <= end_panel; p += 2) {
        const __mmask16 mask = (__mmask16)((1u << valid_columns(rows, p + 1)) - 1);
        panels_avx512(packed + p * panel_width * width, rows, width, x, count, out + p * panel_width, mask, 2);
    }
    if (p < end_panel) {
        const __mmask16 mask = (__mmask16)((1u << valid_columns(rows, p)) - 1);
        panels_avx512(packed + p * panel_width * width, rows, width, x, count, out + p * panel_width, mask, 1);
    }
}

// `R` input rows of one panel, two 8-lane halves each.
__attribute__((target("avx2,fma,f16c"), always_inline))
static inline void rows_avx2(const uint16_t *panel, size_t width, const float *in, float *target, size_t stride, size_t valid, const int R) {
    __m256 low[4], high[4];
    for (int i = 0; i < R; i++) { low[i] = _mm256_setzero_ps(); high[i] = _mm256_setzero_ps(); }
    for (size_t k = 0; k < width; k++) {
        const __m256 first = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(panel + k * panel_width)));
        const __m256 second = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(panel + k * panel_width + 8)));
        for (int i = 0; i < R; i++) {
            const __m256 value = _mm256_set1_ps(in[i * width + k]);
            low[i] = _mm256_fmadd_ps(value, first, low[i]);
            high[i] = _mm256_fmadd_ps(value, second, high[i]);
        }
    }
    for (int i = 0; i < R; i++) {
        float *row = target + i * stride;
        if (valid == panel_width) {
            _mm256_storeu_ps(row, low[i]);
            _mm256_storeu_ps(row + 8, high[i]);
        } else {
            float lanes[panel_width];
            _mm256_storeu_ps(lanes, low[i]);
            _mm256_storeu_ps(lanes + 8, high[i]);
            memcpy(row, lanes, valid * sizeof(float));
        }
    }
}

__attribute__((target("avx2,fma,f16c")))
static void multiply_avx2(const uint16_t *packed, size_t rows, size_t width, const float *x, size_t count, float *out,
                          size_t first_panel, size_t end_panel) {
    for (size_t p = first_panel; p < end_panel; p++) {
        const uint16_t *panel = packed + p * panel_width * width;
        const size_t valid = valid_columns(rows, p);
        float *target = out + p * panel_width;
        size_t r = 0;
        for (; r + 4 <= count; r += 4) rows_avx2(panel, width, x + r * width, target + r * rows, rows, valid, 4);
        switch (count - r) {
        case 3: rows_avx2(panel, width, x + r * width, target + r * rows, rows, valid, 3); break;
        case 2: rows_avx2(panel, width, x + r * width, target + r * rows, rows, valid, 2); break;
        case 1: rows_avx2(panel, width, x + r * width, target + r * rows, rows, valid, 1); break;
        default: break;
        }
    }
}
#endif

int flightvoice_multiply_packed_with(enum flightvoice_packed_kernel kernel, const uint16_t *packed, size_t rows, size_t width,
                                     const float *x, size_t count, float *out, size_t first_panel, size_t end_panel) {
    switch (kernel) {
    case flightvoice_packed_plain:
        multiply_plain(packed, rows, width, x, count, out, first_panel, end_panel);
        return 1;
#if defined(__x86_64__)
    case flightvoice_packed_avx2:
        if (!(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"))) return 0;
        multiply_avx2(packed, rows, width, x, count, out, first_panel, end_panel);
        return 1;
    case flightvoice_packed_avx512:
        if (!__builtin_cpu_supports("avx512f")) return 0;
        multiply_avx512(packed, rows, width, x, count, out, first_panel, end_panel);
        return 1;
#endif
    default:
        return 0;
    }
}

void flightvoice_multiply_packed(const uint16_t *packed, size_t rows, size_t width, const float *x, size_t count, float *out,
                                 size_t first_panel, size_t end_panel) {
    if (flightvoice_multiply_packed_with(flightvoice_packed_avx512, packed, rows, width, x, count, out, first_panel, end_panel)) return;
    if (flightvoice_multiply_packed_with(flightvoice_packed_avx2, packed, rows, width, x, count, out, first_panel, end_panel)) return;
    multiply_plain(packed, rows, width, x, count, out, first_panel, end_panel);
}
