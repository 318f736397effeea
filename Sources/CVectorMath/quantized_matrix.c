// Products x · Wᵀ in integers, for the output projection: 51,864 rows of W against a decoder step's few rows, two
// thirds of a decoder step's time in half floats. W is quantised once, per row, to 12 bits (scale = max |w| / 2047)
// and x per row on every call, as finely as a 32-bit sum of `width` products allows; both are held in 16 bits, in
// panels of 16 rows × 2 columns, the layout of AVX-512 VNNI's pairwise 16-bit dot products. (8 bits, 1.5 times faster,
// moved Whisper's log-probabilities by up to 0.4 nat: its last activations reach 13 times their median.) The integer
// sums are exact, so every kernel gives the same sums and the same floats: what the recogniser reads does not depend
// on the CPU.
#include "vector_math.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { panel_width = flightvoice_panel_rows, pair = 2, weight_limit = 2047 };

size_t flightvoice_quantized_width(size_t width) {
    return (width + pair - 1) / pair * pair;
}

size_t flightvoice_quantized_size(size_t rows, size_t width) {
    return flightvoice_panel_count(rows) * panel_width * flightvoice_quantized_width(width);
}

/// The largest |q| of an input row: `width` products of it and a weight stay within a 32-bit sum.
static inline int32_t input_limit(size_t width) {
    const int64_t limit = INT32_MAX / ((int64_t)flightvoice_quantized_width(width) * weight_limit);
    return limit < INT16_MAX ? (int32_t)limit : INT16_MAX;
}

/// The scale that maps a row whose largest magnitude is `largest` onto -limit ... limit.
static inline float row_scale(const float *row, size_t width, int32_t limit) {
    float largest = 0;
    for (size_t k = 0; k < width; k++) largest = fmaxf(largest, fabsf(row[k]));
    return largest > 0 ? largest / (float)limit : 1;
}

/// value / scale rounded to the nearest integer (ties to even), kept within -limit ... limit.
static inline int16_t quantize(float value, float scale, int32_t limit) {
    long q = lrintf(value / scale);
    if (q > limit) q = limit;
    if (q < -limit) q = -limit;
    return (int16_t)q;
}

/// Where value k of row `index` lies in the panels: its row's panel, then its pair of columns, its lane, its place in the pair.
static inline size_t quantized_offset(size_t width, size_t index, size_t k) {
    return index / panel_width * panel_width * flightvoice_quantized_width(width) + k / pair * panel_width * pair
        + index % panel_width * pair + k % pair;
}

void flightvoice_quantize_row(const float *row, size_t width, size_t index, int16_t *packed, float *scale) {
    *scale = row_scale(row, width, weight_limit);
    for (size_t k = 0; k < flightvoice_quantized_width(width); k++) {
        packed[quantized_offset(width, index, k)] = k < width ? quantize(row[k], *scale, weight_limit) : 0;
    }
}

void flightvoice_dequantize_row(const int16_t *packed, const float *scales, size_t width, size_t index, float *row) {
    for (size_t k = 0; k < width; k++) row[k] = scales[index] * packed[quantized_offset(width, index, k)];
}

/// The `count` rows of x, quantised: values (padded to the quantised width) and a scale per row.
static void quantize_rows(const float *x, size_t count, size_t width, int16_t *values, float *scales) {
    const size_t padded = flightvoice_quantized_width(width);
    const int32_t limit = input_limit(width);
    for (size_t r = 0; r < count; r++) {
        const float *row = x + r * width;
        scales[r] = row_scale(row, width, limit);
        for (size_t k = 0; k < padded; k++) values[r * padded + k] = k < width ? quantize(row[k], scales[r], limit) : 0;
    }
}

/// One input row's 16 sums over a panel.
static void panel_sums_plain(const int16_t *panel, size_t pairs, const int16_t *in, int32_t *sums) {
    for (size_t l = 0; l < panel_width; l++) sums[l] = 0;
    for (size_t g = 0; g < pairs; g++) {
        const int16_t *columns = panel + g * panel_width * pair;
        for (size_t l = 0; l < panel_width; l++) {
            sums[l] += (int32_t)in[g * pair] * columns[l * pair] + (int32_t)in[g * pair + 1] * columns[l * pair + 1];
        }
    }
}

static inline size_t valid_columns(size_t rows, size_t p) {
    const size_t left = rows - p * panel_width;
    return left < panel_width ? left : panel_width;
}

/// Scales one input row's sums over panel p into its row of out: the one place sums become floats, for every kernel.
static inline void write_sums(const int32_t *sums, size_t rows, size_t p, float input_scale, const float *scales, float *row) {
    const size_t first = p * panel_width;
    for (size_t l = 0; l < valid_columns(rows, p); l++) row[first + l] = (float)sums[l] * (input_scale * scales[first + l]);
}

static void multiply_plain(const int16_t *packed, const float *scales, size_t rows, size_t width, const int16_t *values,
                           const float *value_scales, size_t count, float *out, size_t first_panel, size_t end_panel) {
    const size_t padded = flightvoice_quantized_width(width);
    int32_t sums[panel_width];
    for (size_t p = first_panel; p < end_panel; p++) {
        for (size_t r = 0; r < count; r++) {
            panel_sums_plain(packed + p * panel_width * padded, padded / pair, values + r * padded, sums);
            write_sums(sums, rows, p, value_scales[r], scales, out + r * rows);
        }
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

// `R` input rows times `P` adjacent panels: per pair of columns, P panel loads, R broadcasts, R·P dot products, the
// sums of R·P registers written to `sums` as [row][panel][16].
__attribute__((target("avx512f,avx512vnni"), always_inline))
static inline void rows_vnni(const int16_t *panel, size_t padded, const int16_t *in, int32_t *sums, const int R, const int P) {
    __m512i totals[8][2];
    for (int i = 0; i < R; i++) for (int j = 0; j < P; j++) totals[i][j] = _mm512_setzero_si512();
    const size_t panel_size = panel_width * padded;
    for (size_t g = 0; g < padded / pair; g++) {
        __m512i columns[2];
        for (int j = 0; j < P; j++) columns[j] = _mm512_loadu_si512((const void *)(panel + j * panel_size + g * panel_width * pair));
        for (int i = 0; i < R; i++) {
            int32_t both;
            memcpy(&both, in + i * padded + g * pair, sizeof both);
            const __m512i value = _mm512_set1_epi32(both);
            for (int j = 0; j < P; j++) totals[i][j] = _mm512_dpwssd_epi32(totals[i][j], value, columns[j]);
        }
    }
    for (int i = 0; i < R; i++) {
        for (int j = 0; j < P; j++) _mm512_storeu_si512((void *)(sums + (i * 2 + j) * panel_width), totals[i][j]);
    }
}

__attribute__((target("avx512f,avx512vnni"), always_inline))
static inline void panels_vnni(const int16_t *panel, size_t padded, const int16_t *in, size_t count, int32_t *sums, const int P) {
    size_t r = 0;
    for (; r + 8 <= count; r += 8) rows_vnni(panel, padded, in + r * padded, sums + r * 2 * panel_width, 8, P);
    const int16_t *rest = in + r * padded;
    int32_t *target = sums + r * 2 * panel_width;
    switch (count - r) {
    case 7: rows_vnni(panel, padded, rest, target, 7, P); break;
    case 6: rows_vnni(panel, padded, rest, target, 6, P); break;
    case 5: rows_vnni(panel, padded, rest, target, 5, P); break;
    case 4: rows_vnni(panel, padded, rest, target, 4, P); break;
    case 3: rows_vnni(panel, padded, rest, target, 3, P); break;
    case 2: rows_vnni(panel, padded, rest, target, 2, P); break;
    case 1: rows_vnni(panel, padded, rest, target, 1, P); break;
    default: break;
    }
}

__attribute__((target("avx512f,avx512vnni")))
static void multiply_vnni(const int16_t *packed, const float *scales, size_t rows, size_t width, const int16_t *values,
                          const float *value_scales, size_t count, float *out, size_t first_panel, size_t end_panel) {
    const size_t padded = flightvoice_quantized_width(width);
    int32_t *sums = malloc(count * 2 * panel_width * sizeof(int32_t));
    for (size_t p = first_panel; p < end_panel; p += 2) {
        const int P = p + 2 <= end_panel ? 2 : 1;
        if (P == 2) panels_vnni(packed + p * panel_width * padded, padded, values, count, sums, 2);
        else panels_vnni(packed + p * panel_width * padded, padded, values, count, sums, 1);
        for (size_t r = 0; r < count; r++) {
            for (int j = 0; j < P; j++) write_sums(sums + (r * 2 + j) * panel_width, rows, p + j, value_scales[r], scales, out + r * rows);
        }
    }
    free(sums);
}

// `R` input rows of one panel, its lanes in two 8-lane halves: per pair of columns, two loads, R broadcasts, 2R
// pairwise multiply-adds (the 16-bit dot product VNNI fuses).
__attribute__((target("avx2"), always_inline))
static inline void rows_avx2(const int16_t *panel, size_t padded, const int16_t *in, int32_t *sums, const int R) {
    __m256i low[4], high[4];
    for (int i = 0; i < R; i++) low[i] = high[i] = _mm256_setzero_si256();
    for (size_t g = 0; g < padded / pair; g++) {
        const __m256i first = _mm256_loadu_si256((const __m256i *)(panel + g * panel_width * pair));
        const __m256i second = _mm256_loadu_si256((const __m256i *)(panel + g * panel_width * pair + panel_width));
        for (int i = 0; i < R; i++) {
            int32_t both;
            memcpy(&both, in + i * padded + g * pair, sizeof both);
            const __m256i value = _mm256_set1_epi32(both);
            low[i] = _mm256_add_epi32(low[i], _mm256_madd_epi16(value, first));
            high[i] = _mm256_add_epi32(high[i], _mm256_madd_epi16(value, second));
        }
    }
    for (int i = 0; i < R; i++) {
        _mm256_storeu_si256((__m256i *)(sums + i * panel_width), low[i]);
        _mm256_storeu_si256((__m256i *)(sums + i * panel_width + 8), high[i]);
    }
}

__attribute__((target("avx2")))
static void multiply_avx2(const int16_t *packed, const float *scales, size_t rows, size_t width, const int16_t *values,
                          const float *value_scales, size_t count, float *out, size_t first_panel, size_t end_panel) {
    const size_t padded = flightvoice_quantized_width(width);
    int32_t sums[4 * panel_width];
    for (size_t p = first_panel; p < end_panel; p++) {
        const int16_t *panel = packed + p * panel_width * padded;
        for (size_t r = 0; r < count; r += 4) {
            const int16_t *in = values + r * padded;
            switch (count - r) {
            case 1: rows_avx2(panel, padded, in, sums, 1); break;
            case 2: rows_avx2(panel, padded, in, sums, 2); break;
            case 3: rows_avx2(panel, padded, in, sums, 3); break;
            default: rows_avx2(panel, padded, in, sums, 4); break;
            }
            for (size_t i = r; i < count && i < r + 4; i++) {
                write_sums(sums + (i - r) * panel_width, rows, p, value_scales[i], scales, out + i * rows);
            }
        }
    }
}
#endif

int flightvoice_multiply_quantized_with(enum flightvoice_quantized_kernel kernel, const int16_t *packed, const float *scales,
                                        size_t rows, size_t width, const float *x, size_t count, float *out,
                                        size_t first_panel, size_t end_panel) {
    switch (kernel) {
    case flightvoice_quantized_plain:
        break;
#if defined(__x86_64__)
    case flightvoice_quantized_avx2:
        if (!__builtin_cpu_supports("avx2")) return 0;
        break;
    case flightvoice_quantized_vnni:
        if (!(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni"))) return 0;
        break;
#endif
    default:
        return 0;
    }
    const size_t padded = flightvoice_quantized_width(width);
    int16_t *values = malloc(count * padded * sizeof(int16_t));
    float *value_scales = malloc(count * sizeof(float));
    quantize_rows(x, count, width, values, value_scales);
    switch (kernel) {
#if defined(__x86_64__)
    case flightvoice_quantized_vnni:
        multiply_vnni(packed, scales, rows, width, values, value_scales, count, out, first_panel, end_panel);
        break;
    case flightvoice_quantized_avx2:
        multiply_avx2(packed, scales, rows, width, values, value_scales, count, out, first_panel, end_panel);
        break;
#endif
    default:
        multiply_plain(packed, scales, rows, width, values, value_scales, count, out, first_panel, end_panel);
    }
    free(values);
    free(value_scales);
    return 1;
}

void flightvoice_multiply_quantized(const int16_t *packed, const float *scales, size_t rows, size_t width, const float *x,
                                    size_t count, float *out, size_t first_panel, size_t end_panel) {
    if (flightvoice_multiply_quantized_with(flightvoice_quantized_vnni, packed, scales, rows, width, x, count, out, first_panel, end_panel)) return;
    if (flightvoice_multiply_quantized_with(flightvoice_quantized_avx2, packed, scales, rows, width, x, count, out, first_panel, end_panel)) return;
    flightvoice_multiply_quantized_with(flightvoice_quantized_plain, packed, scales, rows, width, x, count, out, first_panel, end_panel);
}
