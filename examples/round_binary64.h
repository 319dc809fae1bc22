/*
 * round_binary64.h -- fprlab_from_parts for a binary64 plugin: the exact
 * number of a fprlab_parts, whose significand M may have up to 256 bits,
 * rounded to binary64 as IEEE 754 rounds to nearest: ties to even, a carry
 * out of the significand raises the exponent, a result beyond the largest
 * finite value is an infinity, and below 2^-1022 the result is subnormal
 * (a multiple of 2^-1074, rounded the same way; below 2^-1075, zero).
 * examples/double.c and examples/datapath.cpp (C and C++) include it.
 */
#ifndef FPRLAB_EXAMPLES_ROUND_BINARY64_H
#define FPRLAB_EXAMPLES_ROUND_BINARY64_H

#include <math.h>
#include <stdint.h>

#include "../plugin/fprlab_arith.h"

/* Bits s..s+63 of M (0 <= s <= 256; bits above M's 256 are 0). */
static uint64_t bits_at(const fprlab_parts *in, int s)
{
	int i = s / 64, r = s % 64;
	uint64_t w = i < FPRLAB_MAX_LIMBS ? in->limbs[i] >> r : 0;
	if (r != 0 && i + 1 < FPRLAB_MAX_LIMBS)
		w |= in->limbs[i + 1] << (64 - r);
	return w;
}

/* Whether any of the bits 0..s-1 of M is set. */
static int any_below(const fprlab_parts *in, int s)
{
	int i;
	for (i = 0; i < FPRLAB_MAX_LIMBS && s > 0; i++, s -= 64) {
		uint64_t mask = s >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << s) - 1;
		if ((in->limbs[i] & mask) != 0)
			return 1;
	}
	return 0;
}

/* M * 2^exponent of a FPRLAB_FINITE *in (M != 0) rounded to binary64, sign
 * not applied. */
static double round_binary64(const fprlab_parts *in)
{
	int n = 64 * FPRLAB_MAX_LIMBS, top, keep, drop;
	uint64_t q;
	while (n > 1 && !(in->limbs[(n - 1) / 64] >> ((n - 1) % 64) & 1))
		n--; /* n: the bits of M */
	if (in->exponent > 1024)
		return INFINITY; /* at least 2^1025 */
	if (in->exponent < -1400)
		return 0.0; /* below 2^-1400 * 2^256, far below 2^-1075 */
	top = (int)in->exponent + n - 1; /* 2^top <= |x| < 2^(top+1) */
	keep = top >= -1022 ? 53 : top + 1075; /* significand bits: fewer for subnormals */
	if (keep < 0)
		return 0.0; /* below 2^-1075, half the smallest subnormal */
	drop = n - keep; /* the bits of M below the last kept one */
	if (drop <= 0) /* M fits: exact, or an infinity beyond 2^1024 */
		return ldexp((double)in->limbs[0], (int)in->exponent);
	q = bits_at(in, drop); /* the kept bits */
	if ((bits_at(in, drop - 1) & 1) && ((q & 1) || any_below(in, drop - 1)))
		q++; /* above the half-way point, or on it with q odd: up (q may become 2^keep) */
	return ldexp((double)q, (int)in->exponent + drop); /* exact, or an infinity beyond 2^1024 */
}

#endif
