/*
 * trunc.c -- an fprlab arithmetic plugin of a P-bit truncating format:
 * P significand bits (chosen by the configuration: up to 52, and at least 11,
 * the narrowest format whose constants fprlab rounds for a plugin), every
 * result rounded toward zero, binary64's exponent range without subnormals
 * (a result below 2^-1022 flushes to zero, one above the largest value
 * saturates to it). It is the model of a narrow datapath that drops the
 * bits it has no room for, and computes exactly what fprlab's
 * vprec:P:e11:rz computes.
 *
 *     gcc -O2 -shared -fPIC -o libtrunc.so examples/trunc.c
 *     fprlab sweep --format vprec:40:e11:rz --reference so:./libtrunc.so@40 --params 512 --signatures 50
 *
 * (a sweep signs every format with keys from emu64: over 40 bits, key
 * generation's candidates keep failing, as they do over vprec:40:e11:rz)
 *
 * Values are binary64 numbers with at most P significant bits. Each
 * operation computes the binary64 result r rounded to nearest and the sign
 * of the exact error (exact - r, from a fused multiply-add or Knuth's
 * TwoSum, both exact in this range), which is all that rounding toward zero
 * at P < 53 bits needs: the P-bit grid lies on the 53-bit one, so r's
 * truncation is the exact value's truncation unless r is itself on the
 * P-bit grid and the exact value lies below it in magnitude, where the
 * result is the next P-bit number toward zero. The constants (rounded to
 * nearest at P bits) and expm_p63 (the reference polynomial in this
 * arithmetic) are left to fprlab.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/fprlab_arith.h"

typedef struct {
	int p;          /* significand bits */
	uint64_t ulp;   /* one unit in the last of P bits, in the binary64 encoding */
	double max;     /* the largest finite value, (2^P-1) 2^(1024-P) */
} format;

static double get(const void *p) { double x; memcpy(&x, p, sizeof x); return x; }
static int put(void *p, double x) { memcpy(p, &x, sizeof x); return FPRLAB_OK; }
static uint64_t bits(double x) { uint64_t u; memcpy(&u, &x, sizeof u); return u; }
static double from_bits(uint64_t u) { double x; memcpy(&x, &u, sizeof x); return x; }

/* fit applies the exponent range to a P-bit value. */
static double fit(const format *f, double t)
{
	if (fabs(t) < 0x1p-1022)
		return copysign(0.0, t);
	if (fabs(t) > f->max)
		return copysign(f->max, t);
	return t;
}

/* rz rounds the exact value r + e (r its binary64 rounding to nearest, e of
 * the error's sign) toward zero at P bits, then applies the range. */
static double rz(const format *f, double r, double e)
{
	uint64_t u;
	if (isnan(r))
		return INFINITY; /* fprlab's formats give +Inf for invalid operations */
	if (isinf(r))
		return r;
	u = bits(r) & ~(f->ulp - 1); /* the first P bits of r, sign and exponent kept */
	if (u == bits(r) && e != 0 && (e < 0) != (r < 0))
		u -= f->ulp; /* the exact value lies below r in magnitude */
	return fit(f, from_bits(u));
}

/* overflow is rz for a result r that may have overflowed binary64. */
static double result(const format *f, double x, double y, double r, double e)
{
	if (isinf(r) && !isinf(x) && !isinf(y))
		return copysign(f->max, r);
	return rz(f, r, e);
}

uint32_t fprlab_abi_version(void) { return FPRLAB_ARITH_ABI_VERSION; }

int fprlab_init(const char *config, fprlab_info *info, void **ctx)
{
	char *end;
	long p = strtol(config, &end, 10);
	format *f;
	if (config[0] == '\0' || *end != '\0' || p < 2 || p > 52)
		return FPRLAB_ERR_CONFIG;
	f = malloc(sizeof *f);
	if (f == NULL)
		return FPRLAB_ERR_INTERNAL;
	f->p = (int)p;
	f->ulp = (uint64_t)1 << (53 - p);
	f->max = ldexp(ldexp(1.0, (int)p) - 1.0, 1024 - (int)p);
	memset(info, 0, sizeof *info);
	info->value_size = sizeof(double);
	info->significand_bits = (uint32_t)p;
	info->exponent_bits = 11;
	info->flags = FPRLAB_FLAG_BINARY64_LAYOUT;
	strcpy(info->name, "trunc");
	strcpy(info->description, "example plugin: P-bit significand, round toward zero, binary64 range, no subnormals");
	*ctx = f;
	return FPRLAB_OK;
}

int fprlab_decode(void *ctx, const void *px, fprlab_parts *out)
{
	double x = get(px);
	int e;
	(void)ctx;
	memset(out, 0, sizeof *out);
	out->negative = signbit(x) != 0;
	if (isinf(x)) {
		out->kind = FPRLAB_INF;
	} else if (x == 0) {
		out->kind = FPRLAB_ZERO;
	} else {
		double m = frexp(fabs(x), &e);
		out->kind = FPRLAB_FINITE;
		out->limbs[0] = (uint64_t)ldexp(m, 53);
		out->exponent = e - 53;
	}
	return FPRLAB_OK;
}

/* The exact number M*2^exp (M of up to 256 bits), truncated to P bits. */
int fprlab_from_parts(void *ctx, const fprlab_parts *in, void *out)
{
	const format *f = ctx;
	int top = 3, n, i;
	uint64_t m = 0;
	int64_t e;
	double s = in->negative ? -1.0 : 1.0;
	switch (in->kind) {
	case FPRLAB_ZERO: return put(out, copysign(0.0, s));
	case FPRLAB_INF: return put(out, s * INFINITY);
	case FPRLAB_NAN: return put(out, INFINITY);
	case FPRLAB_FINITE: break;
	default: return FPRLAB_ERR_DOMAIN;
	}
	while (top > 0 && in->limbs[top] == 0)
		top--;
	for (n = 64; n > 0 && !(in->limbs[top] >> (n - 1) & 1); n--)
		;
	/* The first P bits of M, as the integer m, and their exponent e. */
	n += 64 * top; /* bits of M */
	e = in->exponent;
	for (i = 0; i < f->p && i < n; i++) {
		int b = n - 1 - i;
		m = m << 1 | (in->limbs[b / 64] >> (b % 64) & 1);
	}
	e += n - i;
	if (e + i > 1024)
		return put(out, s * f->max);
	if (e + i <= -1022)
		return put(out, copysign(0.0, s));
	return put(out, s * ldexp((double)m, (int)e));
}

int fprlab_add(void *ctx, const void *px, const void *py, void *out)
{
	double x = get(px), y = get(py), r = x + y;
	double yv = r - x, e = (x - (r - yv)) + (y - yv); /* TwoSum: x + y = r + e */
	return put(out, result(ctx, x, y, r, e));
}

int fprlab_sub(void *ctx, const void *px, const void *py, void *out)
{
	double y = -get(py);
	return fprlab_add(ctx, px, &y, out);
}

int fprlab_mul(void *ctx, const void *px, const void *py, void *out)
{
	double x = get(px), y = get(py), r = x * y;
	return put(out, result(ctx, x, y, r, isinf(r) ? 0 : fma(x, y, -r)));
}

int fprlab_div(void *ctx, const void *px, const void *py, void *out)
{
	double x = get(px), y = get(py), q = x / y, rem;
	if (isinf(q) || q == 0 || isnan(q))
		return put(out, result(ctx, x, y, q, 0));
	rem = fma(-q, y, x); /* x - q y, exact: x/y - q has the sign of rem/y */
	return put(out, result(ctx, x, y, q, y < 0 ? -rem : rem));
}

int fprlab_inv(void *ctx, const void *px, void *out)
{
	double one = 1.0;
	return fprlab_div(ctx, &one, px, out);
}

int fprlab_sqrt(void *ctx, const void *px, void *out)
{
	double x = get(px), s;
	if (x < 0)
		return put(out, INFINITY);
	s = sqrt(x);
	return put(out, rz(ctx, s, s == 0 || isinf(s) ? 0 : fma(-s, s, x)));
}

int fprlab_neg(void *ctx, const void *px, void *out) { (void)ctx; return put(out, -get(px)); }
int fprlab_half(void *ctx, const void *px, void *out) { double x = get(px); return put(out, isinf(x) ? x : fit(ctx, x * 0.5)); }
int fprlab_dbl(void *ctx, const void *px, void *out) { double x = get(px); return put(out, isinf(x) ? x : fit(ctx, x * 2.0)); }
int fprlab_lt(void *ctx, const void *px, const void *py, int32_t *out) { (void)ctx; *out = get(px) < get(py); return FPRLAB_OK; }

/* Integers of up to 64 bits, truncated to P bits, times 2^e. */
int fprlab_scaled(void *ctx, int64_t i, int64_t e, void *out)
{
	const format *f = ctx;
	uint64_t u = i < 0 ? -(uint64_t)i : (uint64_t)i;
	int n = 0;
	double s = i < 0 ? -1.0 : 1.0;
	if (u == 0)
		return put(out, 0.0);
	while (n < 64 && u >> n)
		n++;
	if (n > f->p)
		u &= ~(((uint64_t)1 << (n - f->p)) - 1);
	if (e + n > 1024)
		return put(out, s * f->max);
	if (e + n <= -1022)
		return put(out, copysign(0.0, s));
	return put(out, s * ldexp((double)u, (int)e));
}

int fprlab_of_int64(void *ctx, int64_t i, void *out) { return fprlab_scaled(ctx, i, 0, out); }

/* Conversions to integers saturate beyond the int64 range. */
static int64_t to_int(double t)
{
	if (t >= 0x1p63)
		return INT64_MAX;
	if (t < -0x1p63)
		return INT64_MIN;
	return (int64_t)t;
}

int fprlab_trunc(void *ctx, const void *px, int64_t *out) { (void)ctx; *out = to_int(get(px)); return FPRLAB_OK; }
int fprlab_floor(void *ctx, const void *px, int64_t *out) { (void)ctx; *out = to_int(floor(get(px))); return FPRLAB_OK; }
int fprlab_rint(void *ctx, const void *px, int64_t *out)
{
	double x = get(px), t = floor(x), d = x - t; /* exact: x and t are close */
	(void)ctx;
	if (d > 0.5 || (d == 0.5 && fmod(t, 2.0) != 0))
		t += 1.0;
	*out = to_int(t);
	return FPRLAB_OK;
}

/* The optional vector functions, as loops over the scalar ones (the
 * header's conveniences): one call from fprlab per array instead of one
 * per value. No sqr_n: without fprlab_sqr, a square is fprlab_mul(x, x),
 * which fprlab then batches with fprlab_mul_n. */
FPRLAB_VECTOR2_FROM_SCALAR(add, FPRLAB_VALUE_STRIDE(8))
FPRLAB_VECTOR2_FROM_SCALAR(sub, FPRLAB_VALUE_STRIDE(8))
FPRLAB_VECTOR2_FROM_SCALAR(mul, FPRLAB_VALUE_STRIDE(8))
FPRLAB_VECTOR1_FROM_SCALAR(neg, FPRLAB_VALUE_STRIDE(8))
FPRLAB_VECTOR1_FROM_SCALAR(half, FPRLAB_VALUE_STRIDE(8))
FPRLAB_VECTOR1_FROM_SCALAR(inv, FPRLAB_VALUE_STRIDE(8))
/* fprlab evaluates expm_p63 itself, between two calls of fprlab_run. */
FPRLAB_RUN_FROM_SCALAR(FPRLAB_VALUE_STRIDE(8), 0, fprlab_of_int64, 0)
