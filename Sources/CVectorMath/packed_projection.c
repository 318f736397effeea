// The output projection, logits = x · Eᵀ with E the 51,864 × 384 token embeddings (80 MB). OpenBLAS copies (packs)
// the whole of E on every call, which cost more than the products themselves for the few rows of a decoder step;
// here E is packed once, when the model loads, in the layout the kernels read.
#include "vector_math.h"

#include <string.h>

enum { panel_width = 16 };

size_t flightvoice_packed_size(size_t rows, size_t width) {
    return (rows + panel_width - 1) / panel_width * panel_width * width;
}

void flightvoice_pack_panels(const float *matrix, size_t rows, size_t width, float *packed) {
    const size_t panels = (rows + panel_width - 1) / panel_width;
    for (size_t p = 0; p < panels; p++) {
        float *panel = packed + p * panel_width * width;
        for (size_t k = 0; k < width; k++) {
            for (size_t l = 0; l < panel_width; l++) {
                const size_t row = p * panel_width + l;
                panel[k * panel_width + l] = row < rows ? matrix[row * width + k] : 0;
            }
        }
    }
}

void flightvoice_unpack_row(const float *packed, size_t width, size_t i, float *row) {
    const float *panel = packed + i / panel_width * panel_width * width;
    for (size_t k = 0; k < width; k++) row[k] = panel[k * panel_width + i % panel_width];
}

/// The columns of panel p that are rows of the matrix (16 but in the last panel).
static inline size_t valid_columns(size_t rows, size_t p) {
    const size_t left = rows - p * panel_width;
    return left < panel_width ? left : panel_width;
}

static void multiply_plain(const float *packed, size_t rows, size_t width, const float *x, size_t count, float *out) {
    const size_t panels = (rows + panel_width - 1) / panel_width;
    for (size_t p = 0; p < panels; p++) {
        const float *panel = packed + p * panel_width * width;
        const size_t valid = valid_columns(rows, p);
        for (size_t r = 0; r < count; r++) {
            float sums[panel_width] = {0};
            const float *input = x + r * width;
            for (size_t k = 0; k < width; k++) {
                for (size_t l = 0; l < panel_width; l++) sums[l] += input[k] * panel[k * panel_width + l];
            }
            memcpy(out + r * rows + p * panel_width, sums, valid * sizeof(float));
        }
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

// `R` input rows times `P` adjacent panels (16 columns each): per column k, P loads of the panels (in L1 across the
// row groups), R broadcasts, R·P FMAs into R·P accumulators. R and P are constants at each call, so the loops unroll
// and the accumulators stay in registers.
__attribute__((target("avx512f"), always_inline))
static inline void rows_avx512(const float *panel, size_t width, const float *in, float *target, size_t stride,
                               __mmask16 last_mask, const int R, const int P) {
    __m512 sums[8][2];
    for (int i = 0; i < R; i++) for (int j = 0; j < P; j++) sums[i][j] = _mm512_setzero_ps();
    const size_t panel_size = panel_width * width;
    for (size_t k = 0; k < width; k++) {
        __m512 columns[2];
        for (int j = 0; j < P; j++) columns[j] = _mm512_loadu_ps(panel + j * panel_size + k * panel_width);
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
static inline void panels_avx512(const float *panel, size_t rows, size_t width, const float *x, size_t count, float *target,
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
static void multiply_avx512(const float *packed, size_t rows, size_t width, const float *x, size_t count, float *out) {
    const size_t panels = (rows + panel_width - 1) / panel_width;
    size_t p = 0;
    for (; p + 2 <= panels; p += 2) {
        const __mmask16 mask = (__mmask16)((1u << valid_columns(rows, p + 1)) - 1);
        panels_avx512(packed + p * panel_width * width, rows, width, x, count, out + p * panel_width, mask, 2);
    }
    if (p < panels) {
        const __mmask16 mask = (__mmask16)((1u << valid_columns(rows, p)) - 1);
        panels_avx512(packed + p * panel_width * width, rows, width, x, count, out + p * panel_width, mask, 1);
    }
}

// `R` input rows of one panel, two 8-lane halves each.
__attribute__((target("avx2,fma"), always_inline))
static inline void rows_avx2(const float *panel, size_t width, const float *in, float *target, size_t stride, size_t valid, const int R) {
    __m256 low[4], high[4];
    for (int i = 0; i < R; i++) { low[i] = _mm256_setzero_ps(); high[i] = _mm256_setzero_ps(); }
    for (size_t k = 0; k < width; k++) {
        const __m256 first = _mm256_loadu_ps(panel + k * panel_width), second = _mm256_loadu_ps(panel + k * panel_width + 8);
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

__attribute__((target("avx2,fma")))
static void multiply_avx2(const float *packed, size_t rows, size_t width, const float *x, size_t count, float *out) {
    const size_t panels = (rows + panel_width - 1) / panel_width;
    for (size_t p = 0; p < panels; p++) {
        const float *panel = packed + p * panel_width * width;
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

int flightvoice_multiply_packed_with(enum flightvoice_projection_kernel kernel, const float *packed, size_t rows, size_t width,
                                     const float *x, size_t count, float *out) {
    switch (kernel) {
    case flightvoice_projection_plain:
        multiply_plain(packed, rows, width, x, count, out);
        return 1;
#if defined(__x86_64__)
    case flightvoice_projection_avx2:
        if (!(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))) return 0;
        multiply_avx2(packed, rows, width, x, count, out);
        return 1;
    case flightvoice_projection_avx512:
        if (!__builtin_cpu_supports("avx512f")) return 0;
        multiply_avx512(packed, rows, width, x, count, out);
        return 1;
#endif
    default:
        return 0;
    }
}

void flightvoice_multiply_packed(const float *packed, size_t rows, size_t width, const float *x, size_t count, float *out) {
    if (flightvoice_multiply_packed_with(flightvoice_projection_avx512, packed, rows, width, x, count, out)) return;
    if (flightvoice_multiply_packed_with(flightvoice_projection_avx2, packed, rows, width, x, count, out)) return;
    multiply_plain(packed, rows, width, x, count, out);
}
