/* Small vector helpers usable inside transactions. libm's sinf/cosf/sqrtf touch no shared
 * memory (errno only on domain errors we never produce), so they are wrapped as
 * transaction_pure: called directly, not instrumented. */
#ifndef SV_MATH_H
#define SV_MATH_H

#include <math.h>
#include <stdint.h>

__attribute__((transaction_pure)) static inline float sv_sinf(float x) { return sinf(x); }
__attribute__((transaction_pure)) static inline float sv_cosf(float x) { return cosf(x); }
__attribute__((transaction_pure)) static inline float sv_sqrtf(float x)
{
    return x > 0 ? sqrtf(x) : 0.0f;
}

static inline void vec_copy(const float *a, float *out)
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}
static inline void vec_ma(const float *a, float s, const float *b, float *out)
{
    out[0] = a[0] + s * b[0];
    out[1] = a[1] + s * b[1];
    out[2] = a[2] + s * b[2];
}
static inline float vec_dot(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline float vec_length(const float *a)
{
    return sv_sqrtf(vec_dot(a, a));
}
static inline float vec_normalize(float *a)
{
    float l = vec_length(a);
    if (l > 0) {
        a[0] /= l;
        a[1] /= l;
        a[2] /= l;
    }
    return l;
}

static inline void angle_vectors(const float angles[3], float forward[3], float right[3],
                                 float up[3])
{
    const float to_rad = 3.14159265358979323846f / 180.0f;
    float sy = sv_sinf(angles[1] * to_rad), cy = sv_cosf(angles[1] * to_rad);
    float sp = sv_sinf(angles[0] * to_rad), cp = sv_cosf(angles[0] * to_rad);
    float sr = sv_sinf(angles[2] * to_rad), cr = sv_cosf(angles[2] * to_rad);
    forward[0] = cp * cy;
    forward[1] = cp * sy;
    forward[2] = -sp;
    right[0] = -sr * sp * cy + cr * sy;
    right[1] = -sr * sp * sy - cr * cy;
    right[2] = -sr * cp;
    up[0] = cr * sp * cy + sr * sy;
    up[1] = cr * sp * sy - sr * cy;
    up[2] = cr * cp;
}

/* xorshift32: per-player state, so no shared generator becomes a conflict hotspot. */
static inline uint32_t sv_random(uint32_t *state)
{
    uint32_t x = *state ? *state : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}
/* -1..1 */
static inline float sv_crandom(uint32_t *state)
{
    return (float)(sv_random(state) & 0xffff) / 32767.5f - 1.0f;
}

#endif
