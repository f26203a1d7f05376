/* The library's math and string builtins (numbers as QuakeWorld's defs.qc). They touch only
 * the calling context (parameters, return value, v_forward/v_right/v_up), so they run from
 * the interpreter loop directly, uninstrumented. Results follow the original engines'
 * formulas (float precision, whole degrees, ftos's formats). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "qc_internal.h"

static qc_status bi_makevectors(qc_ctx *ctx)
{
    const struct qc_system_offsets *sys = &ctx->vm->sys;
    float ang[3];
    qc_parm_vector(ctx, 0, ang);
    const double to_rad = M_PI * 2 / 360;
    float a = (float)(ang[1] * to_rad); /* yaw */
    float sy = sinf(a), cy = cosf(a);
    a = (float)(ang[0] * to_rad); /* pitch */
    float sp = sinf(a), cp = cosf(a);
    a = (float)(ang[2] * to_rad); /* roll */
    float sr = sinf(a), cr = cosf(a);
    float forward[3] = { cp * cy, cp * sy, -sp };
    float right[3] = { -1 * sr * sp * cy + -1 * cr * -sy, -1 * sr * sp * sy + -1 * cr * cy,
                       -1 * sr * cp };
    float up[3] = { cr * sp * cy + -sr * -sy, cr * sp * sy + -sr * cy, cr * cp };
    qc_ctx_set_vector(ctx, sys->v_forward, forward);
    qc_ctx_set_vector(ctx, sys->v_right, right);
    qc_ctx_set_vector(ctx, sys->v_up, up);
    return QC_OK;
}

static qc_status bi_random(qc_ctx *ctx)
{
    uint32_t x = ctx->rng; /* xorshift32 */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    ctx->rng = x;
    qc_set_return_float(ctx, (float)(x & 0x7fff) / (float)0x7fff);
    return QC_OK;
}

static float length(const float v[3])
{
    return sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static qc_status bi_normalize(qc_ctx *ctx)
{
    float v[3], out[3] = { 0, 0, 0 };
    qc_parm_vector(ctx, 0, v);
    float len = length(v);
    if (len != 0) {
        len = 1 / len;
        for (int k = 0; k < 3; k++)
            out[k] = v[k] * len;
    }
    qc_set_return_vector(ctx, out);
    return QC_OK;
}

static qc_status bi_vlen(qc_ctx *ctx)
{
    float v[3];
    qc_parm_vector(ctx, 0, v);
    qc_set_return_float(ctx, length(v));
    return QC_OK;
}

/* Whole degrees in [0, 360), as (int) truncation of atan2 in degrees. */
static float degrees(double y, double x)
{
    float d = (float)(int)(atan2(y, x) * 180 / M_PI);
    return d < 0 ? d + 360 : d;
}

static qc_status bi_vectoyaw(qc_ctx *ctx)
{
    float v[3];
    qc_parm_vector(ctx, 0, v);
    qc_set_return_float(ctx, v[1] == 0 && v[0] == 0 ? 0 : degrees(v[1], v[0]));
    return QC_OK;
}

static qc_status bi_vectoangles(qc_ctx *ctx)
{
    float v[3], out[3] = { 0, 0, 0 };
    qc_parm_vector(ctx, 0, v);
    if (v[1] == 0 && v[0] == 0) {
        out[0] = v[2] > 0 ? 90 : 270;
    } else {
        out[1] = degrees(v[1], v[0]);
        out[0] = degrees(v[2], sqrt((double)v[0] * v[0] + (double)v[1] * v[1]));
    }
    qc_set_return_vector(ctx, out);
    return QC_OK;
}

static qc_status bi_rint(qc_ctx *ctx)
{
    float f = qc_parm_float(ctx, 0);
    qc_set_return_float(ctx, (float)qc_float_to_int(f > 0 ? f + 0.5f : f - 0.5f));
    return QC_OK;
}

static qc_status bi_floor(qc_ctx *ctx)
{
    qc_set_return_float(ctx, (float)floor(qc_parm_float(ctx, 0)));
    return QC_OK;
}

static qc_status bi_ceil(qc_ctx *ctx)
{
    qc_set_return_float(ctx, (float)ceil(qc_parm_float(ctx, 0)));
    return QC_OK;
}

static qc_status bi_fabs(qc_ctx *ctx)
{
    qc_set_return_float(ctx, fabsf(qc_parm_float(ctx, 0)));
    return QC_OK;
}

static qc_status bi_ftos(qc_ctx *ctx)
{
    float v = qc_parm_float(ctx, 0);
    char text[64];
    if (v > -2147483648.0f && v < 2147483648.0f && v == (float)(int32_t)v)
        snprintf(text, sizeof text, "%d", (int32_t)v);
    else
        snprintf(text, sizeof text, "%5.1f", v);
    qc_set_return_int(ctx, qc_string_temp(ctx, text));
    return QC_OK;
}

static qc_status bi_vtos(qc_ctx *ctx)
{
    float v[3];
    qc_parm_vector(ctx, 0, v);
    char text[160];
    snprintf(text, sizeof text, "'%5.1f %5.1f %5.1f'", v[0], v[1], v[2]);
    qc_set_return_int(ctx, qc_string_temp(ctx, text));
    return QC_OK;
}

static qc_status bi_stof(qc_ctx *ctx)
{
    const char *s = qc_string_get(ctx->vm, qc_parm_int(ctx, 0));
    if (!s)
        return qc_raise(ctx, QC_ERR_BAD_STRING, "stof: bad string value %d",
                        qc_parm_int(ctx, 0));
    qc_set_return_float(ctx, (float)atof(s));
    return QC_OK;
}

const struct qc_builtin_def qc_math_builtins[] = {
    { 1, "makevectors", "v_forward, v_right, v_up from the angles (pitch, yaw, roll)",
      .loop = bi_makevectors },
    { 7, "random", "a float in [0, 1] from the context's own generator", .loop = bi_random },
    { 9, "normalize", "the unit vector (0 0 0 stays 0 0 0)", .loop = bi_normalize },
    { 12, "vlen", "the length of a vector", .loop = bi_vlen },
    { 13, "vectoyaw", "the yaw of a vector in whole degrees, 0..359", .loop = bi_vectoyaw },
    { 26, "ftos", "a float as text: %d when whole, else %5.1f (temporary string)",
      .loop = bi_ftos },
    { 27, "vtos", "a vector as text '%5.1f %5.1f %5.1f' (temporary string)", .loop = bi_vtos },
    { 36, "rint", "rounds half away from zero", .loop = bi_rint },
    { 37, "floor", "largest integer <= v", .loop = bi_floor },
    { 38, "ceil", "smallest integer >= v", .loop = bi_ceil },
    { 43, "fabs", "absolute value", .loop = bi_fabs },
    { 51, "vectoangles", "(pitch, yaw, 0) of a vector in whole degrees",
      .loop = bi_vectoangles },
    { 81, "stof", "the number at the start of a string (atof)", .loop = bi_stof },
    { 0 }
};
