/*
 * double.c -- an fprlab arithmetic plugin over the host's binary64 double.
 *
 *     gcc -O2 -shared -fPIC -o libdouble.so examples/double.c
 *     fprlab compare --backend so:./libdouble.so,native --params 512
 *
 * Its signatures, KAT records and shadow statistics are native's bit for
 * bit: the same operations on the same values. Compile without contracting
 * products into fused multiply-adds (GCC does not contract across the
 * separate functions below; -ffp-contract=off makes it explicit).
 *
 * Values are binary64 numbers with binary64's range: results beyond it are
 * infinities, below 2^-1022 subnormal (the host's gradual underflow, where
 * vprec:53:e11 flushes to zero; Falcon's values stay far from both ends).
 * fprlab_from_parts rounds an exact number of up to 256 bits by the same
 * rules (round_binary64.h), so that in a precision plan the plugin's stage
 * can be fed from a wider stage, as a binary64 unit rounds a wider operand.
 */
#include <math.h>
#include <string.h>
#include <stdint.h>

#include "../plugin/fprlab_arith.h"
#include "round_binary64.h"

static double get(const void *p) { double x; memcpy(&x, p, sizeof x); return x; }
static int put(void *p, double x) { memcpy(p, &x, sizeof x); return FPRLAB_OK; }

uint32_t fprlab_abi_version(void) { return FPRLAB_ARITH_ABI_VERSION; }

int fprlab_init(const char *config, fprlab_info *info, void **ctx)
{
	if (config[0] != '\0')
		return FPRLAB_ERR_CONFIG;
	memset(info, 0, sizeof *info);
	info->value_size = sizeof(double);
	info->significand_bits = 53;
	info->exponent_bits = 11;
	info->flags = FPRLAB_FLAG_BINARY64_CONSTANTS | FPRLAB_FLAG_BINARY64_LAYOUT;
	strcpy(info->name, "double");
	strcpy(info->description, "example plugin: the host's C double");
	*ctx = NULL;
	return FPRLAB_OK;
}

int fprlab_decode(void *ctx, const void *px, fprlab_parts *out)
{
	double x = get(px);
	int e;
	(void)ctx;
	memset(out, 0, sizeof *out);
	out->negative = signbit(x) != 0;
	if (isnan(x)) {
		out->kind = FPRLAB_NAN;
	} else if (isinf(x)) {
		out->kind = FPRLAB_INF;
	} else if (x == 0) {
		out->kind = FPRLAB_ZERO;
	} else {
		/* |x| = f * 2^e with 0.5 <= f < 1; f * 2^53 is an integer (also
		 * for subnormals, whose f has trailing zeros). */
		double f = frexp(fabs(x), &e);
		out->kind = FPRLAB_FINITE;
		out->limbs[0] = (uint64_t)ldexp(f, 53);
		out->exponent = e - 53;
	}
	return FPRLAB_OK;
}

int fprlab_from_parts(void *ctx, const fprlab_parts *in, void *out)
{
	double x;
	(void)ctx;
	switch (in->kind) {
	case FPRLAB_ZERO: x = 0.0; break;
	case FPRLAB_INF: x = INFINITY; break;
	case FPRLAB_NAN: return put(out, NAN);
	case FPRLAB_FINITE:
		/* any significand of up to 256 bits, rounded as binary64 rounds */
		x = round_binary64(in);
		break;
	default: return FPRLAB_ERR_DOMAIN;
	}
	return put(out, in->negative ? -x : x);
}

int fprlab_of_int64(void *ctx, int64_t i, void *out) { (void)ctx; return put(out, (double)i); }
int fprlab_scaled(void *ctx, int64_t i, int64_t e, void *out) { (void)ctx; return put(out, ldexp((double)i, (int)e)); }
int fprlab_from_binary64(void *ctx, uint64_t bits, void *out) { (void)ctx; return put(out, get(&bits)); }

int fprlab_add(void *ctx, const void *x, const void *y, void *out) { (void)ctx; return put(out, get(x) + get(y)); }
int fprlab_sub(void *ctx, const void *x, const void *y, void *out) { (void)ctx; return put(out, get(x) - get(y)); }
int fprlab_mul(void *ctx, const void *x, const void *y, void *out) { (void)ctx; return put(out, get(x) * get(y)); }
int fprlab_div(void *ctx, const void *x, const void *y, void *out) { (void)ctx; return put(out, get(x) / get(y)); }
int fprlab_neg(void *ctx, const void *x, void *out) { (void)ctx; return put(out, -get(x)); }
int fprlab_half(void *ctx, const void *x, void *out) { (void)ctx; return put(out, get(x) * 0.5); }
int fprlab_inv(void *ctx, const void *x, void *out) { (void)ctx; return put(out, 1.0 / get(x)); }
int fprlab_sqrt(void *ctx, const void *x, void *out) { (void)ctx; return put(out, sqrt(get(x))); }
int fprlab_lt(void *ctx, const void *x, const void *y, int32_t *out) { (void)ctx; *out = get(x) < get(y); return FPRLAB_OK; }
int fprlab_trunc(void *ctx, const void *x, int64_t *out) { (void)ctx; *out = (int64_t)get(x); return FPRLAB_OK; }

int fprlab_floor(void *ctx, const void *px, int64_t *out)
{
	double x = get(px);
	int64_t r = (int64_t)x;
	(void)ctx;
	*out = x < (double)r ? r - 1 : r;
	return FPRLAB_OK;
}

/* Round to nearest, ties to even, as the reference's fpr_rint: adding and
 * subtracting 2^52 makes the FPU round; masks select the result for x >= 0,
 * x < 0 and |x| >= 2^52 without branches. */
int fprlab_rint(void *ctx, const void *px, int64_t *out)
{
	double x = get(px);
	int64_t sx = (int64_t)(x - 1.0), tx = (int64_t)x;
	int64_t rp = (int64_t)(x + 4503599627370496.0) - ((int64_t)1 << 52);
	int64_t rn = (int64_t)(x - 4503599627370496.0) + ((int64_t)1 << 52);
	int64_t m = sx >> 63;
	uint32_t ub;
	(void)ctx;
	rn &= m;
	rp &= ~m;
	ub = (uint32_t)((uint64_t)tx >> 52);
	m = -(int64_t)((((ub + 1) & 0xFFF) - 2) >> 31);
	rp &= m;
	rn &= m;
	tx &= ~m;
	*out = tx | rn | rp;
	return FPRLAB_OK;
}

/* 2^63*ccs*exp(-x): Horner's rule in binary64 over the FACCT polynomial's
 * coefficients (Zhao, Steinfeld, Sakzad, ePrint 2018/1234; Falcon
 * specification v1.2, section 3.9.3), each product rounded before its
 * subtraction, then the product with ccs, scaled by 2^63 and truncated. */
int fprlab_expm_p63(void *ctx, const void *px, const void *pccs, uint64_t *out)
{
	static const double c[] = {
		0.000000002073772366009083061987, 0.000000025299506379442070029551,
		0.000000275607356160477811864927, 0.000002755586350219122514855659,
		0.000024801566833585381209939524, 0.000198412739277311890541063977,
		0.001388888894063186997887560103, 0.008333333327800835146903501993,
		0.041666666666110491190622155955, 0.166666666666984014666397229121,
		0.500000000000019206858326015208, 0.999999999999994892974086724280,
		1.000000000000000000000000000000,
	};
	double x = get(px), y = c[0];
	size_t i;
	(void)ctx;
	for (i = 1; i < sizeof c / sizeof c[0]; i++) {
		volatile double p = y * x; /* never fused with the subtraction */
		y = c[i] - p;
	}
	y = y * get(pccs);
	*out = (uint64_t)(y * 9223372036854775808.0);
	return FPRLAB_OK;
}

/* The optional vector functions: the scalar operations above over arrays
 * (doubles are 8 bytes, so FPRLAB_VALUE_STRIDE is sizeof(double) and the
 * arrays are plain double arrays). Element i is computed exactly as the
 * scalar function computes it. */
#define VEC2(name, expr) \
	int fprlab_##name##_n(void *ctx, const void *px, const void *py, void *pout, size_t n) \
	{ \
		const double *x = px, *y = py; \
		double *out = pout; \
		(void)ctx; \
		for (size_t i = 0; i < n; i++) \
			out[i] = (expr); \
		return FPRLAB_OK; \
	}
#define VEC1(name, expr) \
	int fprlab_##name##_n(void *ctx, const void *px, void *pout, size_t n) \
	{ \
		const double *x = px; \
		double *out = pout; \
		(void)ctx; \
		for (size_t i = 0; i < n; i++) \
			out[i] = (expr); \
		return FPRLAB_OK; \
	}
VEC2(add, x[i] + y[i])
VEC2(sub, x[i] - y[i])
VEC2(mul, x[i] * y[i])
VEC1(neg, -x[i])
VEC1(half, x[i] * 0.5)
VEC1(sqr, x[i] * x[i]) /* no fprlab_sqr: the product of fprlab_mul */
VEC1(inv, 1.0 / x[i])

int fprlab_of_int64_n(void *ctx, const int64_t *in, void *pout, size_t n)
{
	double *out = pout;
	(void)ctx;
	for (size_t i = 0; i < n; i++)
		out[i] = (double)in[i];
	return FPRLAB_OK;
}

/* The sampler's chains of operations in one call each (fprlab_run, an
 * interpreter over the functions above; double.c has no fprlab_sqr). */
FPRLAB_RUN_FROM_SCALAR(FPRLAB_VALUE_STRIDE(8), 0, fprlab_of_int64, fprlab_expm_p63)
