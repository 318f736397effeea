// The log-softmax over Whisper's 51,864-token vocabulary, after every decoder step, and GELU, in the encoder's and
// decoder's feed-forward blocks. With libm's expf and erff called per element (Swift's SIMD types were scalarised
// here), they were most of the model's own loops.
#include "vector_math.h"

#include <math.h>

#if defined(__SSE2__)
#include <emmintrin.h>

// Cephes' expf: x = n ln2 + r with |r| <= ln2/2, a degree-6 polynomial for exp(r), then 2^n put in the exponent
// bits. Inputs are clamped to [-87.3, 88.3] so that 2^n stays a normal float: below, exp(x) < 1.2e-38 adds nothing to
// a softmax's sum, whose largest term is 1.
static inline __m128 exp4(__m128 x) {
    x = _mm_min_ps(_mm_max_ps(x, _mm_set1_ps(-87.3f)), _mm_set1_ps(88.3f));
    // Adding 1.5 * 2^23 rounds x log2(e) to the nearest whole n and leaves n in the low bits of the sum's pattern.
    const __m128 shifter = _mm_set1_ps(12582912.0f);
    const __m128 shifted = _mm_add_ps(_mm_mul_ps(x, _mm_set1_ps(1.44269504088896341f)), shifter);
    const __m128 n = _mm_sub_ps(shifted, shifter);
    // ln 2 in two parts, so that r = x - n ln2 loses no bits.
    __m128 r = _mm_sub_ps(x, _mm_mul_ps(n, _mm_set1_ps(0.693359375f)));
    r = _mm_add_ps(r, _mm_mul_ps(n, _mm_set1_ps(2.12194440e-4f)));
    __m128 p = _mm_set1_ps(1.9875691500e-4f);
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(1.3981999507e-3f));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(8.3334519073e-3f));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(4.1665795894e-2f));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(1.6666665459e-1f));
    p = _mm_add_ps(_mm_mul_ps(p, r), _mm_set1_ps(5.0000001201e-1f));
    const __m128 e = _mm_add_ps(_mm_add_ps(_mm_mul_ps(p, _mm_mul_ps(r, r)), r), _mm_set1_ps(1.0f));
    const __m128i exponent = _mm_slli_epi32(
        _mm_add_epi32(_mm_sub_epi32(_mm_castps_si128(shifted), _mm_set1_epi32(0x4B400000)), _mm_set1_epi32(127)), 23);
    return _mm_mul_ps(e, _mm_castsi128_ps(exponent));
}

static inline float horizontal_sum(__m128 v) {
    float lanes[4];
    _mm_storeu_ps(lanes, v);
    return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

static inline float horizontal_max(__m128 v) {
    float lanes[4];
    _mm_storeu_ps(lanes, v);
    return fmaxf(fmaxf(lanes[0], lanes[1]), fmaxf(lanes[2], lanes[3]));
}

/// The 0-3 floats after the last whole vector, padded with -infinity (exp 0, never the maximum).
static inline __m128 load_tail(const float *values, size_t count) {
    float lanes[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < count; i++) lanes[i] = values[i];
    return _mm_loadu_ps(lanes);
}

/// The first `count` (0-3) lanes of `v`.
static inline void store_tail(float *values, size_t count, __m128 v) {
    float lanes[4];
    _mm_storeu_ps(lanes, v);
    for (size_t i = 0; i < count; i++) values[i] = lanes[i];
}

void flightvoice_log_softmax(float *values, size_t count) {
    const size_t whole = count & ~(size_t)3;
    const __m128 tail = load_tail(values + whole, count - whole);
    // Two accumulators each, so that consecutive vectors do not wait on one another.
    __m128 max0 = tail, max1 = tail;
    size_t i = 0;
    for (; i + 8 <= whole; i += 8) {
        max0 = _mm_max_ps(max0, _mm_loadu_ps(values + i));
        max1 = _mm_max_ps(max1, _mm_loadu_ps(values + i + 4));
    }
    for (; i < whole; i += 4) max0 = _mm_max_ps(max0, _mm_loadu_ps(values + i));
    const float maximum = horizontal_max(_mm_max_ps(max0, max1));
    const __m128 shift = _mm_set1_ps(maximum);
    __m128 sum0 = exp4(_mm_sub_ps(tail, shift)), sum1 = _mm_setzero_ps();
    for (i = 0; i + 8 <= whole; i += 8) {
        sum0 = _mm_add_ps(sum0, exp4(_mm_sub_ps(_mm_loadu_ps(values + i), shift)));
        sum1 = _mm_add_ps(sum1, exp4(_mm_sub_ps(_mm_loadu_ps(values + i + 4), shift)));
    }
    for (; i < whole; i += 4) sum0 = _mm_add_ps(sum0, exp4(_mm_sub_ps(_mm_loadu_ps(values + i), shift)));
    const float log_sum = maximum + logf(horizontal_sum(_mm_add_ps(sum0, sum1)));
    const __m128 subtract = _mm_set1_ps(log_sum);
    for (i = 0; i < whole; i += 4) _mm_storeu_ps(values + i, _mm_sub_ps(_mm_loadu_ps(values + i), subtract));
    for (; i < count; i++) values[i] -= log_sum;
}

// GELU on four lanes: erf(|z|) = 1 - t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) exp(-z^2), t = 1 / (1 + p |z|), then
// the sign of z put back.
static inline __m128 gelu4(__m128 x) {
    const __m128 z = _mm_mul_ps(x, _mm_set1_ps(0.70710678118654752f));
    const __m128 sign = _mm_and_ps(z, _mm_castsi128_ps(_mm_set1_epi32((int)0x80000000u)));
    const __m128 magnitude = _mm_xor_ps(z, sign);
    const __m128 t = _mm_div_ps(_mm_set1_ps(1.0f), _mm_add_ps(_mm_set1_ps(1.0f), _mm_mul_ps(magnitude, _mm_set1_ps(0.3275911f))));
    __m128 p = _mm_set1_ps(1.061405429f);
    p = _mm_add_ps(_mm_mul_ps(p, t), _mm_set1_ps(-1.453152027f));
    p = _mm_add_ps(_mm_mul_ps(p, t), _mm_set1_ps(1.421413741f));
    p = _mm_add_ps(_mm_mul_ps(p, t), _mm_set1_ps(-0.284496736f));
    p = _mm_add_ps(_mm_mul_ps(p, t), _mm_set1_ps(0.254829592f));
    p = _mm_mul_ps(p, t);
    const __m128 erf_magnitude = _mm_sub_ps(_mm_set1_ps(1.0f), _mm_mul_ps(p, exp4(_mm_sub_ps(_mm_setzero_ps(), _mm_mul_ps(magnitude, magnitude)))));
    const __m128 erf = _mm_xor_ps(erf_magnitude, sign);
    return _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(0.5f), x), _mm_add_ps(_mm_set1_ps(1.0f), erf));
}

void flightvoice_gelu(float *values, size_t count) {
    const size_t whole = count & ~(size_t)3;
    for (size_t i = 0; i < whole; i += 4) _mm_storeu_ps(values + i, gelu4(_mm_loadu_ps(values + i)));
    store_tail(values + whole, count - whole, gelu4(load_tail(values + whole, count - whole)));
}

void flightvoice_exp(const float *values, float *results, size_t count) {
    const size_t whole = count & ~(size_t)3;
    for (size_t i = 0; i < whole; i += 4) _mm_storeu_ps(results + i, exp4(_mm_loadu_ps(values + i)));
    store_tail(results + whole, count - whole, exp4(load_tail(values + whole, count - whole)));
}

#else

void flightvoice_log_softmax(float *values, size_t count) {
    float maximum = -INFINITY;
    for (size_t i = 0; i < count; i++) maximum = fmaxf(maximum, values[i]);
    float sum = 0;
    for (size_t i = 0; i < count; i++) sum += expf(values[i] - maximum);
    const float log_sum = maximum + logf(sum);
    for (size_t i = 0; i < count; i++) values[i] -= log_sum;
}

void flightvoice_gelu(float *values, size_t count) {
    for (size_t i = 0; i < count; i++) values[i] = 0.5f * values[i] * (1.0f + erff(values[i] * 0.70710678118654752f));
}

void flightvoice_exp(const float *values, float *results, size_t count) {
    for (size_t i = 0; i < count; i++) results[i] = expf(fminf(fmaxf(values[i], -87.3f), 88.3f));
}

#endif
