#ifndef FLIGHTVOICE_VECTOR_MATH_H
#define FLIGHTVOICE_VECTOR_MATH_H

#include <stddef.h>

/// Replaces the `count` floats x at `values` by x - log(sum(exp(x))), four lanes at a time where SSE2 is there.
void flightvoice_log_softmax(float *values, size_t count);

/// exp of each of the `count` floats at `values`, into `results`, as `flightvoice_log_softmax` computes it
/// (for tests: within a few ulp of libm's expf on [-87.3, 88.3]; clamped to that range).
void flightvoice_exp(const float *values, float *results, size_t count);

#endif
