#ifndef FLIGHTVOICE_VECTOR_MATH_H
#define FLIGHTVOICE_VECTOR_MATH_H

#include <stddef.h>
#include <stdint.h>

/// Replaces the `count` floats x at `values` by x - log(sum(exp(x))), four lanes at a time where SSE2 is there.
void flightvoice_log_softmax(float *values, size_t count);

/// exp of each of the `count` floats at `values`, into `results`, as `flightvoice_log_softmax` computes it
/// (for tests: within a few ulp of libm's expf on [-87.3, 88.3]; clamped to that range).
void flightvoice_exp(const float *values, float *results, size_t count);

/// Replaces each of the `count` floats x at `values` by GELU(x) = x/2 (1 + erf(x / sqrt 2)), with erf from
/// Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7), four lanes at a time where SSE2 is there.
void flightvoice_gelu(float *values, size_t count);

/// Rows of the matrix in one panel.
enum { flightvoice_panel_rows = 16 };

/// Half floats of the panels `flightvoice_pack_panels` makes of a `rows` × `width` matrix.
size_t flightvoice_packed_size(size_t rows, size_t width);

/// Panels of a matrix of `rows` rows.
size_t flightvoice_panel_count(size_t rows);

/// Lays out a row-major `rows` × `width` matrix of half floats (IEEE binary16 bit patterns) as panels of 16 rows:
/// panel p holds, for each column k, the 16 values matrix[16p + l][k] (l = 0 ... 15) side by side, zeros past the last
/// row. A matrix can be packed 16 rows at a time, each block into `packed` + 16 · width · (its first row / 16).
void flightvoice_pack_panels(const uint16_t *matrix, size_t rows, size_t width, uint16_t *packed);

/// The float a half float's bit pattern stands for (exact: every half float is a float).
float flightvoice_half_to_float(uint16_t half);

/// `count` half floats widened to floats (F16C where the CPU has it); exact, as `flightvoice_half_to_float`.
void flightvoice_halves_to_floats(const uint16_t *halves, size_t count, float *floats);

/// out (count × rows, row-major) = x (count × width, row-major) · matrixᵀ, from the matrix's panels, in the columns
/// of panels `first_panel` ..< `end_panel` only (the others are not written): a product split by panels can run on
/// several threads. AVX-512, or AVX2 with FMA and F16C, where the CPU has them (chosen at run time), else plain C.
void flightvoice_multiply_packed(const uint16_t *packed, size_t rows, size_t width, const float *x, size_t count, float *out,
                                 size_t first_panel, size_t end_panel);

enum flightvoice_packed_kernel { flightvoice_packed_plain, flightvoice_packed_avx2, flightvoice_packed_avx512 };

/// `flightvoice_multiply_packed` with one kernel, for tests; returns 0 (and computes nothing) where the CPU lacks it.
int flightvoice_multiply_packed_with(enum flightvoice_packed_kernel kernel, const uint16_t *packed, size_t rows, size_t width,
                                     const float *x, size_t count, float *out, size_t first_panel, size_t end_panel);

/// Columns of a quantised panel row: `width` rounded up to an even number (a zero past the last column).
size_t flightvoice_quantized_width(size_t width);

/// 16-bit values of the panels `flightvoice_quantize_row` fills for a `rows` × `width` matrix (zeroed before the first row).
size_t flightvoice_quantized_size(size_t rows, size_t width);

/// Quantises row `index` of a matrix (`width` floats at `row`) to 12 bits, w ≈ scale · q with q in -2047 ... 2047 and
/// scale = max |w| / 2047, into its place in `packed`: panels of 16 rows in which each pair of columns holds the
/// 16 rows' two values side by side. Writes the row's scale.
void flightvoice_quantize_row(const float *row, size_t width, size_t index, int16_t *packed, float *scale);

/// Row `index` of a quantised matrix as floats (scale · q), into `row` (`width` floats).
void flightvoice_dequantize_row(const int16_t *packed, const float *scales, size_t width, size_t index, float *row);

/// `flightvoice_multiply_packed` for a quantised matrix (`scales` per row as `flightvoice_quantize_row` wrote them):
/// each row of x is quantised per row too (to 16 bits at most, fewer where `width` products would overflow a 32-bit
/// sum), the products summed exactly in 32-bit integers and scaled back to floats. AVX-512 VNNI, or AVX2, where the
/// CPU has them (chosen at run time), else plain C: every kernel gives the same floats, to the bit.
void flightvoice_multiply_quantized(const int16_t *packed, const float *scales, size_t rows, size_t width, const float *x,
                                    size_t count, float *out, size_t first_panel, size_t end_panel);

enum flightvoice_quantized_kernel { flightvoice_quantized_plain, flightvoice_quantized_avx2, flightvoice_quantized_vnni };

/// `flightvoice_multiply_quantized` with one kernel, for tests; returns 0 (and computes nothing) where the CPU lacks it.
int flightvoice_multiply_quantized_with(enum flightvoice_quantized_kernel kernel, const int16_t *packed, const float *scales,
                                        size_t rows, size_t width, const float *x, size_t count, float *out,
                                        size_t first_panel, size_t end_panel);

#endif
