/* Vector math shared by the world (pmove, traces) and the server, usable inside transactions.
 * libm's sinf/cosf/sqrtf touch no shared memory (only errno on domain errors, which these
 * wrappers never produce), so they are wrapped as transaction_pure: called directly, not
 * instrumented. The vector helpers are transaction_safe: their pointers may point at shared
 * state (a player's origin), which a transaction must read through its barriers. */
#ifndef QW_MATH_H
#define QW_MATH_H

#include <libtm.h>
#include <math.h>

LIBTM_PURE static inline float qw_sinf(float x) { return sinf(x); }
LIBTM_PURE static inline float qw_cosf(float x) { return cosf(x); }
LIBTM_PURE static inline float qw_sqrtf(float x)
{
    return x > 0 ? sqrtf(x) : 0.0f;
}

LIBTM_SAFE static inline void qw_vec_copy(const float *a, float *out)
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}
/* out = a + b */
LIBTM_SAFE static inline void qw_vec_add(const float *a, const float *b, float *out)
{
    out[0] = a[0] + b[0];
    out[1] = a[1] + b[1];
    out[2] = a[2] + b[2];
}
/* out = a - b */
LIBTM_SAFE static inline void qw_vec_subtract(const float *a, const float *b, float *out)
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}
/* out = a + s * b */
LIBTM_SAFE static inline void qw_vec_ma(const float *a, float s, const float *b, float *out)
{
    out[0] = a[0] + s * b[0];
    out[1] = a[1] + s * b[1];
    out[2] = a[2] + s * b[2];
}
LIBTM_SAFE static inline float qw_vec_dot(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
LIBTM_SAFE static inline float qw_vec_length(const float *a)
{
    return qw_sqrtf(qw_vec_dot(a, a));
}
/* Scales a to length 1 (a zero vector stays zero); returns the old length. */
LIBTM_SAFE static inline float qw_vec_normalize(float *a)
{
    float l = qw_vec_length(a);
    if (l > 0) {
        a[0] /= l;
        a[1] /= l;
        a[2] /= l;
    }
    return l;
}

/* Quake's view vectors for angles in degrees (pitch, yaw, roll). */
LIBTM_SAFE static inline void qw_angle_vectors(const float angles[3], float forward[3],
                                                float right[3], float up[3])
{
    const float to_rad = 3.14159265358979323846f / 180.0f;
    float sy = qw_sinf(angles[1] * to_rad), cy = qw_cosf(angles[1] * to_rad);
    float sp = qw_sinf(angles[0] * to_rad), cp = qw_cosf(angles[0] * to_rad);
    float sr = qw_sinf(angles[2] * to_rad), cr = qw_cosf(angles[2] * to_rad);
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

#endif
