#ifndef FLIGHTVOICE_VECTOR_MATH_H
#define FLIGHTVOICE_VECTOR_MATH_H

#include <stddef.h>

/// Replaces the `count` floats x at `values` by x - log(sum(exp(x))), four lanes at a time where SSE2 is there.
void flightvoice_log_softmax(float *values, size_t count);

/// exp of each of the `count` floats at `values`, into `results`, as `flightvoice_log_softmax` computes it
/// (for tests: within a few ulp of libm's expf on [-87.3, 88.3]; clamped to that range).
void flightvoice_exp(const float *values, float *results, size_t count);

/// Replaces each of the `count` floats x at `values` by GELU(x) = x/2 (1 + erf(x / sqrt 2)), with erf from
/// Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7), four lanes at a time where SSE2 is there.
void flightvoice_gelu(float *values, size_t count);

/// Floats of the panels `flightvoice_pack_panels` makes of a `rows` × `width` matrix.
size_t flightvoice_packed_size(size_t rows, size_t width);

/// Lays out a row-major `rows` × `width` matrix as panels of 16 rows: panel p holds, for each column k, the 16 values
/// matrix[16p + l][k] (l = 0 ... 15) side by side, zeros past the last row.
void flightvoice_pack_panels(const float *matrix, size_t rows, size_t width, float *packed);

/// Row i of the matrix the panels were packed from, into `row` (`width` floats).
void flightvoice_unpack_row(const float *packed, size_t width, size_t i, float *row);

/// out (count × rows, row-major) = x (count × width, row-major) · matrixᵀ, from the matrix's panels: the output
/// projection, without the copy of the whole matrix a BLAS makes on every call. AVX-512 or AVX2 with FMA where the
/// CPU has them (chosen at run time), else plain C.
void flightvoice_multiply_packed(const float *packed, size_t rows, size_t width, const float *x, size_t count, float *out);

enum flightvoice_projection_kernel { flightvoice_projection_plain, flightvoice_projection_avx2, flightvoice_projection_avx512 };

/// `flightvoice_multiply_packed` with one kernel, for tests; returns 0 (and computes nothing) where the CPU lacks it.
int flightvoice_multiply_packed_with(enum flightvoice_projection_kernel kernel, const float *packed, size_t rows, size_t width,
                                     const float *x, size_t count, float *out);

#endif
