/*
 * wide.c -- a test plugin that computes in the host's double but declares
 * the significand width and exponent range of its configuration
 * "BITS:EXPBITS" (e.g. "200:11", "53:0"): what a plan's carrier must
 * refuse or accept is decided by the declaration alone, before any value
 * is computed. Constants are binary64's (from_binary64).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../../plugin/fprlab_arith.h"

static double get(const void *p) { double x; memcpy(&x, p, sizeof x); return x; }
static int put(void *p, double x) { memcpy(p, &x, sizeof x); return FPRLAB_OK; }

uint32_t fprlab_abi_version(void) { return FPRLAB_ARITH_ABI_VERSION; }

int fprlab_init(const char *config, fprlab_info *info, void **ctx)
{
	unsigned bits, exp;
	char end;
	if (sscanf(config, "%u:%u%c", &bits, &exp, &end) != 2)
		return FPRLAB_ERR_CONFIG;
	memset(info, 0, sizeof *info);
	info->value_size = sizeof(double);
	info->significand_bits = bits;
	info->exponent_bits = exp;
	info->flags = FPRLAB_FLAG_BINARY64_CONSTANTS;
	strcpy(info->name, "wide");
	strcpy(info->description, "test plugin: double, declaring another width");
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
		double f = frexp(fabs(x), &e);
		out->kind = FPRLAB_FINITE;
		out->limbs[0] = (uint64_t)ldexp(f, 53);
		out->exponent = e - 53;
	}
	return FPRLAB_OK;
}

/* Not exact beyond 53 bits: the tests never import such values. */
int fprlab_from_parts(void *ctx, const fprlab_parts *in, void *out)
{
	double x = 0;
	int i;
	(void)ctx;
	switch (in->kind) {
	case FPRLAB_ZERO: break;
	case FPRLAB_INF: x = INFINITY; break;
	case FPRLAB_NAN: return put(out, NAN);
	case FPRLAB_FINITE:
		for (i = 3; i >= 0; i--)
			x += ldexp((double)in->limbs[i], (int)in->exponent + 64 * i);
		break;
	default: return FPRLAB_ERR_DOMAIN;
	}
	return put(out, in->negative ? -x : x);
}

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
int fprlab_floor(void *ctx, const void *x, int64_t *out) { (void)ctx; *out = (int64_t)floor(get(x)); return FPRLAB_OK; }
int fprlab_rint(void *ctx, const void *x, int64_t *out) { (void)ctx; *out = (int64_t)nearbyint(get(x)); return FPRLAB_OK; }
