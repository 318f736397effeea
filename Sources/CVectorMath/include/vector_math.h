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

/// Row i of the matrix the panels were packed from, as floats, into `row` (`width` floats).
void flightvoice_unpack_row(const uint16_t *packed, size_t width, size_t i, float *row);

/// out (count × rows, row-major) = x (count × width, row-major) · matrixᵀ, from the matrix's panels, in the columns
/// of panels `first_panel` ..< `end_panel` only (the others are not written): a product split by panels can run on
/// several threads. AVX-512, or AVX2 with FMA and F16C, where the CPU has them (chosen at run time), else plain C.
void flightvoice_multiply_packed(const uint16_t *packed, size_t rows, size_t width, const float *x, size_t count, float *out,
                                 size_t first_panel, size_t end_panel);

enum flightvoice_packed_kernel { flightvoice_packed_plain, flightvoice_packed_avx2, flightvoice_packed_avx512 };

/// `flightvoice_multiply_packed` with one kernel, for tests; returns 0 (and computes nothing) where the CPU lacks it.
int flightvoice_multiply_packed_with(enum flightvoice_packed_kernel kernel, const uint16_t *packed, size_t rows, size_t width,
                                     const float *x, size_t count, float *out, size_t first_panel, size_t end_panel);

#endif
