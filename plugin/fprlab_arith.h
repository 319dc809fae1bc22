/*
 * fprlab_arith.h -- the C ABI of an fprlab arithmetic plugin, version 1.
 *
 * A plugin is a shared library that implements Falcon's floating-point
 * operation set (the reference implementation's "fpr" layer, fpr.h of
 * Falcon-impl-20211101) over values of its own format. fprlab loads it by
 * name -- the backend "so:PATH" or "so:PATH@CONFIG" -- and then signs,
 * verifies, regenerates the NIST KAT and shadows it with an exact arithmetic
 * exactly as it does its built-in backends:
 *
 *     gcc -O2 -shared -fPIC -o libmine.so mine.c
 *     fprlab compare --backend so:./libmine.so,native --params 512
 *
 * The library exports the functions below under exactly these names (a C++
 * library declares them inside extern "C", which this header does). fprlab
 * opens the library, checks fprlab_abi_version() against the version it was
 * built for and refuses another, calls fprlab_init once per configuration,
 * and then calls the operations, from several threads at once unless the
 * plugin sets FPRLAB_FLAG_SERIAL.
 *
 * Values. A value is an opaque block of info->value_size bytes (1 to
 * FPRLAB_MAX_VALUE_SIZE), at an address aligned to 8 bytes, that fprlab
 * copies but never interprets (except under FPRLAB_FLAG_BINARY64_LAYOUT).
 * Operands are passed as const pointers, results are written through out
 * pointers; an operation must not modify its operands, and out never
 * aliases an operand. Values may be copied and kept by fprlab indefinitely,
 * so a value must not point to memory the plugin later frees.
 *
 * Errors. Every function returns FPRLAB_OK or one of the FPRLAB_ERR_ codes.
 * A plugin that cannot compute a result (a value it cannot represent, an
 * internal failure of a simulation) returns a code rather than crashing;
 * fprlab then stops the run with a message naming the operation and the
 * code (status 2), before anything is recorded from it. Results outside the
 * format's range that the format defines (overflow to infinity or to the
 * largest value, flush to zero) are ordinary results, not errors.
 *
 * Exactness. fprlab measures the plugin against an exact shadow: every
 * value the plugin computes is imported into the shadow through
 * fprlab_decode, which must give the value's exact sign, exponent and
 * integer significand -- no rounding. fprlab_from_parts is the inverse, an
 * import of an exact binary number into the format.
 *
 * Semantics (as fpr.h): add, sub, mul, div, inv, sqrt, sqr, of_int64,
 * scaled, from_binary64 and from_parts round by the format's own rule; neg
 * and half (and dbl) are exact in the format; rint rounds to nearest with
 * ties to even, floor toward minus infinity, trunc toward zero; lt is
 * x < y. Falcon never calls div (it multiplies by an inverse) but other
 * fprlab commands do.
 *
 * Process. The plugin runs inside the fprlab process: a crash in it ends
 * the process. fprlab campaigns written with --out keep every finished
 * record on disk and resume where they stopped (see docs/plugins.md,
 * "Crashes").
 *
 * Vector functions. A call into the plugin costs fprlab far more than a
 * binary64 operation (about 100 ns of CPU through purego's call into C), so
 * the plugin may also export element-wise operations over arrays (see
 * "Optional vector functions" below), which fprlab's polynomial loops use
 * instead of one call per value. They are optional: a plugin without them
 * is called one value at a time, with the same results.
 *
 * Programs. Likewise the plugin may export fprlab_run, which executes a
 * short chain of dependent operations (the sampler's, per candidate) in
 * one call; FPRLAB_RUN_FROM_SCALAR defines it from the scalar functions.
 *
 * This header is part of fprlab and versioned with it: a change that
 * alters the layout of a structure, the meaning of a function or a flag
 * increments FPRLAB_ARITH_ABI_VERSION. Adding an optional function does
 * not: a plugin built against an earlier header of the same version lacks
 * it, and fprlab falls back as documented (the vector functions and
 * fprlab_run were added to version 1 in this way).
 */
#ifndef FPRLAB_ARITH_H
#define FPRLAB_ARITH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FPRLAB_ARITH_ABI_VERSION 1

/* The largest value a plugin may declare, in bytes. */
#define FPRLAB_MAX_VALUE_SIZE 32
/* Limbs of a decoded significand: 256 bits. */
#define FPRLAB_MAX_LIMBS 4
#define FPRLAB_NAME_SIZE 64
#define FPRLAB_DESCRIPTION_SIZE 192

/* Status codes returned by every function. */
enum fprlab_status {
	FPRLAB_OK = 0,
	FPRLAB_ERR_RANGE = 1,       /* a value the format cannot represent */
	FPRLAB_ERR_DOMAIN = 2,      /* an operation undefined on its operands */
	FPRLAB_ERR_CONFIG = 3,      /* fprlab_init: a configuration it does not accept */
	FPRLAB_ERR_UNSUPPORTED = 4, /* an optional function declining this argument */
	FPRLAB_ERR_INTERNAL = 5     /* anything else (a simulation that failed) */
};

/* Flags of fprlab_info.flags. */
enum fprlab_flags {
	/*
	 * The constants, the FFT twiddles and the coefficients of the reference
	 * polynomial of expm_p63 are the reference's binary64 values, imported
	 * with from_binary64 (a binary64 datapath, as Falcon's native build).
	 * Without this flag, and where fprlab_constant / fprlab_gm do not supply
	 * them, fprlab computes each one correctly rounded (to nearest, ties to
	 * even) at significand_bits and imports it exactly with
	 * fprlab_from_parts, as its vprec:P formats do.
	 */
	FPRLAB_FLAG_BINARY64_CONSTANTS = 1u << 0,
	/*
	 * The first 8 bytes of every value are an IEEE 754 binary64 number in
	 * host byte order whose value is exactly the value's (NaN payloads
	 * aside). fprlab then reads values without calling fprlab_decode (which
	 * must still be exported; fprlab checks the two agree when it loads the
	 * library). Only for formats whose values are all binary64 numbers.
	 */
	FPRLAB_FLAG_BINARY64_LAYOUT = 1u << 1,
	/*
	 * The plugin is not thread-safe (a simulator with global state): fprlab
	 * makes one call at a time into it.
	 */
	FPRLAB_FLAG_SERIAL = 1u << 2
};

/* What fprlab_init reports about the format. */
typedef struct fprlab_info {
	uint32_t value_size;       /* bytes of a value, 1..FPRLAB_MAX_VALUE_SIZE */
	uint32_t significand_bits; /* precision P in bits, 2..256 (53 for binary64) */
	/*
	 * Exponent range, as the width of the exponent field of the IEEE 754
	 * binary format with the same range (emax = 2^(E-1)-1): 11 for
	 * binary64's range, 0 for an unbounded exponent.
	 */
	uint32_t exponent_bits;
	uint32_t flags;                          /* enum fprlab_flags */
	char name[FPRLAB_NAME_SIZE];             /* short name, NUL-terminated */
	char description[FPRLAB_DESCRIPTION_SIZE]; /* one line, NUL-terminated */
} fprlab_info;

/* Classes of a decoded value. */
enum fprlab_kind {
	FPRLAB_ZERO = 0,   /* a zero; negative gives its sign */
	FPRLAB_FINITE = 1, /* (-1)^negative * limbs * 2^exponent, limbs != 0 */
	FPRLAB_INF = 2,    /* an infinity; negative gives its sign */
	FPRLAB_NAN = 3     /* not a number */
};

/*
 * An exact binary number: for FPRLAB_FINITE the value is
 * (-1)^negative * M * 2^exponent, where the integer M is
 * limbs[0] + limbs[1]*2^64 + limbs[2]*2^128 + limbs[3]*2^192 (least
 * significant limb first) and M != 0. M need not be normalised (trailing
 * zero bits are allowed). For the other kinds only negative is read.
 */
typedef struct fprlab_parts {
	int32_t kind;     /* enum fprlab_kind */
	int32_t negative; /* 1 for a negative value, else 0 */
	int64_t exponent;
	uint64_t limbs[FPRLAB_MAX_LIMBS];
} fprlab_parts;

/*
 * The reference's constants (fpr.h), numbered as the id argument of
 * fprlab_constant receives them. The families hold one entry per
 * logn = 0..10: FPRLAB_CONST_INV_SIGMA + logn is fpr_inv_sigma[logn], and so
 * on (entry 0 of inv_sigma and sigma_min is 0).
 */
enum fprlab_constant_id {
	FPRLAB_CONST_ZERO = 0,
	FPRLAB_CONST_ONE,
	FPRLAB_CONST_TWO,
	FPRLAB_CONST_ONEHALF,
	FPRLAB_CONST_INVSQRT2,
	FPRLAB_CONST_INVSQRT8,
	FPRLAB_CONST_Q,             /* 12289 */
	FPRLAB_CONST_INVERSE_OF_Q,  /* 1/12289 */
	FPRLAB_CONST_INV_2SQRSIGMA0, /* 1/(2*1.8205^2) */
	FPRLAB_CONST_LOG2,          /* ln 2 */
	FPRLAB_CONST_INV_LOG2,      /* 1/ln 2 */
	FPRLAB_CONST_BNORM_MAX,     /* 16822.4121 */
	FPRLAB_CONST_PTWO31,        /* 2^31 */
	FPRLAB_CONST_PTWO31M1,      /* 2^31-1 */
	FPRLAB_CONST_MTWO31M1,      /* -(2^31-1) */
	FPRLAB_CONST_PTWO63M1,      /* 2^63-1 as binary64 (2^63) */
	FPRLAB_CONST_MTWO63M1,      /* -(2^63-1) as binary64 (-2^63) */
	FPRLAB_CONST_PTWO63,        /* 2^63 */
	FPRLAB_CONST_INV_SIGMA = 18, /* + logn, 0..10 */
	FPRLAB_CONST_SIGMA_MIN = 29, /* + logn, 0..10 */
	FPRLAB_CONST_P2 = 40,        /* + logn: 2^(1-logn) */
	FPRLAB_NUM_CONSTANTS = 51
};

/* ---- Required functions ---- */

/* Returns FPRLAB_ARITH_ABI_VERSION of the header the library was built with. */
uint32_t fprlab_abi_version(void);

/*
 * Prepares the arithmetic for config (the text after '@' in "so:PATH@CONFIG",
 * "" without one; the plugin defines its syntax), fills *info and stores in
 * *ctx a pointer fprlab passes back to every call (NULL is fine). fprlab
 * calls it once per distinct config and never frees the context.
 */
int fprlab_init(const char *config, fprlab_info *info, void **ctx);

/* Writes the exact value of x. */
int fprlab_decode(void *ctx, const void *x, fprlab_parts *out);
/*
 * Imports the exact number *in, rounded by the format's own rule (the one
 * its add and mul round by). *in is any number of struct fprlab_parts: a
 * significand M of up to 256 bits (all four limbs) and any exponent, not
 * only a value of the format, since in a precision plan every operand that
 * enters the plugin's stage from a wider stage arrives with its full
 * significand. The rounding must look at every bit of M (ties, and the
 * sticky bits far below them), carry into the exponent when the rounded
 * significand overflows, and apply the format's range: a value too large
 * becomes what the format's overflow gives (an infinity, or saturation), a
 * value too small what its underflow gives (subnormal or zero). For a
 * finite *in it returns FPRLAB_OK, never FPRLAB_ERR_RANGE. A value the
 * format holds imports exactly (fprlab passes constants already rounded to
 * significand_bits). examples/round_binary64.h does this for binary64.
 */
int fprlab_from_parts(void *ctx, const fprlab_parts *in, void *out);

int fprlab_add(void *ctx, const void *x, const void *y, void *out);
int fprlab_sub(void *ctx, const void *x, const void *y, void *out);
int fprlab_mul(void *ctx, const void *x, const void *y, void *out);
int fprlab_div(void *ctx, const void *x, const void *y, void *out);
int fprlab_neg(void *ctx, const void *x, void *out);
int fprlab_half(void *ctx, const void *x, void *out);
int fprlab_inv(void *ctx, const void *x, void *out);
int fprlab_sqrt(void *ctx, const void *x, void *out);
int fprlab_rint(void *ctx, const void *x, int64_t *out);
int fprlab_floor(void *ctx, const void *x, int64_t *out);
int fprlab_trunc(void *ctx, const void *x, int64_t *out);
/* *out = 1 if x < y, else 0. */
int fprlab_lt(void *ctx, const void *x, const void *y, int32_t *out);

/* ---- Optional functions (fprlab's fallback in brackets) ---- */

/* i rounded [from_parts of i] */
int fprlab_of_int64(void *ctx, int64_t i, void *out);
/* i*2^e rounded once [from_parts of i, e] */
int fprlab_scaled(void *ctx, int64_t i, int64_t e, void *out);
/* The binary64 number with these bits, rounded [from_parts of its exact value] */
int fprlab_from_binary64(void *ctx, uint64_t bits, void *out);
/* x*x [mul(x, x)] */
int fprlab_sqr(void *ctx, const void *x, void *out);
/* 2x [add(x, x)] */
int fprlab_dbl(void *ctx, const void *x, void *out);
/*
 * An approximation of 2^63*ccs*exp(-x) for 0 <= x < ln 2, 0 <= ccs <= 1
 * (fpr_expm_p63). [fprlab evaluates the reference's polynomial in the
 * plugin's arithmetic: y = c0, y = c_i - y*x for the FACCT coefficients
 * c_1..c_12 (Horner's rule), y = y*ccs, then floor(2^63*y) exactly, as the
 * vprec:P:eE formats do.]
 */
int fprlab_expm_p63(void *ctx, const void *x, const void *ccs, uint64_t *out);
/*
 * Constant id (enum fprlab_constant_id) [see FPRLAB_FLAG_BINARY64_CONSTANTS];
 * FPRLAB_ERR_UNSUPPORTED for an id it leaves to fprlab.
 */
int fprlab_constant(void *ctx, int32_t id, void *out);
/*
 * Entry k (0..2047) of the FFT twiddle table laid out as fpr_gm_tab [as
 * for constants]; FPRLAB_ERR_UNSUPPORTED to leave it to fprlab.
 */
int fprlab_gm(void *ctx, int32_t k, void *out);

/* ---- Optional vector functions ---- */

/*
 * The distance in bytes between consecutive values of an array: value_size
 * rounded up to a multiple of 8, so that every value of an array is
 * aligned as a single value is (8 for a double).
 */
#define FPRLAB_VALUE_STRIDE(value_size) (((size_t)(value_size) + 7u) & ~(size_t)7u)

/*
 * Element-wise operations over arrays of n values (n >= 1) laid out at
 * FPRLAB_VALUE_STRIDE(value_size): out[i] = op(x[i], y[i]) for i < n.
 *
 * Contract: element i of out is, bit for bit, what the scalar function
 * returns for the operands of element i (fprlab_add_n: fprlab_add;
 * fprlab_sqr_n: fprlab_sqr where the plugin exports it, else
 * fprlab_mul(x, x)). fprlab relies on it: a signature computed through the
 * vector functions is the scalar one. The elements may be computed in any
 * order, so a plugin whose results depend on the order of its calls (a
 * stochastic rounding drawing from a state) must not export them. The
 * arrays do not overlap each other; each is aligned to 8 bytes.
 *
 * Errors: the first element that fails makes the function return its
 * status (out is then unspecified); fprlab reports the function, the
 * code and the element, which it finds by calling the scalar function on
 * the elements in order.
 *
 * Each is optional and detected when the library is loaded; without it,
 * fprlab calls the scalar function once per element. Export all of them or
 * only those worth it (fprlab's polynomial loops are mostly add, sub and
 * mul).
 */
int fprlab_add_n(void *ctx, const void *x, const void *y, void *out, size_t n);
int fprlab_sub_n(void *ctx, const void *x, const void *y, void *out, size_t n);
int fprlab_mul_n(void *ctx, const void *x, const void *y, void *out, size_t n);
int fprlab_neg_n(void *ctx, const void *x, void *out, size_t n);
int fprlab_half_n(void *ctx, const void *x, void *out, size_t n);
int fprlab_sqr_n(void *ctx, const void *x, void *out, size_t n);
int fprlab_inv_n(void *ctx, const void *x, void *out, size_t n);
/*
 * out[i] = the integer in[i] as fprlab_of_int64 converts it (or, for a
 * plugin without fprlab_of_int64, as fprlab_from_parts imports it):
 * the conversions of the key's and the hashed message's coefficients.
 */
int fprlab_of_int64_n(void *ctx, const int64_t *in, void *out, size_t n);

/*
 * Conveniences: define fprlab_NAME_n as a loop calling the plugin's own
 * scalar fprlab_NAME on each element (values stride bytes apart, e.g.
 * FPRLAB_VALUE_STRIDE(8)), returning the first error. Such a function
 * meets the contract by construction and saves fprlab's call per element;
 * a model that computes a whole array faster (a pipelined simulation fed
 * one element per cycle) writes its own.
 *
 *     FPRLAB_VECTOR2_FROM_SCALAR(add, FPRLAB_VALUE_STRIDE(8))
 */
#define FPRLAB_VECTOR2_FROM_SCALAR(name, stride) \
	int fprlab_##name##_n(void *ctx, const void *x, const void *y, void *out, size_t n) \
	{ \
		size_t i; \
		for (i = 0; i < n; i++) { \
			int st = fprlab_##name(ctx, (const char *)x + i * (stride), \
				(const char *)y + i * (stride), (char *)out + i * (stride)); \
			if (st != FPRLAB_OK) \
				return st; \
		} \
		return FPRLAB_OK; \
	}
#define FPRLAB_VECTOR1_FROM_SCALAR(name, stride) \
	int fprlab_##name##_n(void *ctx, const void *x, void *out, size_t n) \
	{ \
		size_t i; \
		for (i = 0; i < n; i++) { \
			int st = fprlab_##name(ctx, (const char *)x + i * (stride), (char *)out + i * (stride)); \
			if (st != FPRLAB_OK) \
				return st; \
		} \
		return FPRLAB_OK; \
	}

/* ---- Optional program function ---- */

/*
 * Some of Falcon's arithmetic is a chain of dependent operations that no
 * array covers: the rejection sampler computes about a dozen operations
 * per candidate, each on the one before. fprlab_run executes such a
 * chain -- a straight-line program -- in one call. It is optional: without
 * it, fprlab calls the scalar functions one at a time, with the same
 * results.
 *
 * A program works on two register files: v, an array of values at
 * FPRLAB_VALUE_STRIDE(value_size), and iv, an array of int64_t. Each
 * instruction reads registers a and b and writes register dst:
 *
 *     ADD, SUB, MUL          v[dst] = op(v[a], v[b])
 *     SQR, NEG, HALF, INV, SQRT  v[dst] = op(v[a])
 *     OF_INT64               v[dst] = of_int64((int32_t)iv[a]), the low 32
 *                            bits of iv[a] as a signed integer
 *     RINT, FLOOR, TRUNC     iv[dst] = op(v[a])
 *     EXPM_P63               iv[dst] = expm_p63(v[a], v[b]) (as uint64_t)
 *
 * Contract: every register is written, bit for bit, as the scalar
 * functions would write it, in the program's order: SQR is fprlab_sqr
 * where the plugin exports it, else fprlab_mul(x, x). fprlab gives
 * fprlab_run OF_INT64 only if the plugin exports fprlab_of_int64, and
 * EXPM_P63 only if it exports fprlab_expm_p63 (it computes those itself
 * otherwise). Every register is written at most once in a program and a
 * destination is never an operand of its instruction, so no result
 * aliases an operand. The opcodes are fprlab's own numbers of the
 * operations (not consecutive).
 *
 * Errors: the first instruction that fails stops the program; the function
 * stores its index in *failed and returns its status, which fprlab reports
 * with the instruction. An opcode the plugin does not know is
 * FPRLAB_ERR_UNSUPPORTED.
 */
enum fprlab_opcode {
	FPRLAB_OP_OF_INT64 = 0,
	FPRLAB_OP_ADD = 5,
	FPRLAB_OP_SUB = 6,
	FPRLAB_OP_NEG = 7,
	FPRLAB_OP_HALF = 8,
	FPRLAB_OP_MUL = 10,
	FPRLAB_OP_SQR = 11,
	FPRLAB_OP_INV = 12,
	FPRLAB_OP_SQRT = 14,
	FPRLAB_OP_RINT = 15,
	FPRLAB_OP_FLOOR = 16,
	FPRLAB_OP_TRUNC = 17,
	FPRLAB_OP_EXPM_P63 = 19
};

/* One instruction: register numbers index v or iv as the opcode says. */
typedef struct fprlab_insn {
	uint8_t op; /* enum fprlab_opcode */
	uint8_t dst;
	uint8_t a;
	uint8_t b;
} fprlab_insn;

int fprlab_run(void *ctx, const fprlab_insn *prog, size_t n, void *v, int64_t *iv, size_t *failed);

/* The low 32 bits of i as a signed integer, without C's
 * implementation-defined conversion of an out-of-range value. */
static inline int64_t fprlab_low_int32(int64_t i)
{
	uint64_t u = (uint64_t)i & 0xffffffffu;
	return (int64_t)(u ^ 0x80000000u) - (int64_t)0x80000000;
}

/*
 * Convenience: define fprlab_run as an interpreter over the plugin's own
 * scalar functions (values stride bytes apart), which meets the contract
 * by construction. The plugin names its optional functions, or passes 0
 * for one it does not export:
 *
 *     FPRLAB_RUN_FROM_SCALAR(FPRLAB_VALUE_STRIDE(8), 0, fprlab_of_int64, fprlab_expm_p63)
 */
#define FPRLAB_RUN_FROM_SCALAR(stride, sqr_fn, of_int64_fn, expm_p63_fn) \
	int fprlab_run(void *ctx, const fprlab_insn *prog, size_t n, void *v, int64_t *iv, size_t *failed) \
	{ \
		int (*sqr_)(void *, const void *, void *) = sqr_fn; \
		int (*of_)(void *, int64_t, void *) = of_int64_fn; \
		int (*expm_)(void *, const void *, const void *, uint64_t *) = expm_p63_fn; \
		char *r = (char *)v; \
		size_t k; \
		for (k = 0; k < n; k++) { \
			const fprlab_insn *in = &prog[k]; \
			void *d = r + (size_t)in->dst * (stride); \
			const void *a = r + (size_t)in->a * (stride); \
			const void *b = r + (size_t)in->b * (stride); \
			int st; \
			switch (in->op) { \
			case FPRLAB_OP_ADD: st = fprlab_add(ctx, a, b, d); break; \
			case FPRLAB_OP_SUB: st = fprlab_sub(ctx, a, b, d); break; \
			case FPRLAB_OP_MUL: st = fprlab_mul(ctx, a, b, d); break; \
			case FPRLAB_OP_SQR: st = sqr_ ? sqr_(ctx, a, d) : fprlab_mul(ctx, a, a, d); break; \
			case FPRLAB_OP_NEG: st = fprlab_neg(ctx, a, d); break; \
			case FPRLAB_OP_HALF: st = fprlab_half(ctx, a, d); break; \
			case FPRLAB_OP_INV: st = fprlab_inv(ctx, a, d); break; \
			case FPRLAB_OP_SQRT: st = fprlab_sqrt(ctx, a, d); break; \
			case FPRLAB_OP_OF_INT64: \
				st = of_ ? of_(ctx, fprlab_low_int32(iv[in->a]), d) : FPRLAB_ERR_UNSUPPORTED; \
				break; \
			case FPRLAB_OP_RINT: st = fprlab_rint(ctx, a, &iv[in->dst]); break; \
			case FPRLAB_OP_FLOOR: st = fprlab_floor(ctx, a, &iv[in->dst]); break; \
			case FPRLAB_OP_TRUNC: st = fprlab_trunc(ctx, a, &iv[in->dst]); break; \
			case FPRLAB_OP_EXPM_P63: \
				st = expm_ ? expm_(ctx, a, b, (uint64_t *)&iv[in->dst]) : FPRLAB_ERR_UNSUPPORTED; \
				break; \
			default: st = FPRLAB_ERR_UNSUPPORTED; \
			} \
			if (st != FPRLAB_OK) { \
				*failed = k; \
				return st; \
			} \
		} \
		return FPRLAB_OK; \
	}

#ifdef __cplusplus
}
#endif

#endif /* FPRLAB_ARITH_H */
