/* double.c with 24-byte values: a magic word, the double, and its bits
 * complemented. The values are the host's doubles, but fprlab sees an
 * opaque block wider than 8 bytes (a Value, not a Value8), as a triple
 * word or a wide simulated format would be; every function checks the
 * block it is given, so a value fprlab truncated, shifted or mixed up
 * fails with FPRLAB_ERR_INTERNAL instead of passing unnoticed. It must
 * give native's signatures and records, as double.c does. */
#define fprlab_init double_init
#define fprlab_decode double_decode
#define fprlab_from_parts double_from_parts
#define fprlab_of_int64 double_of_int64
#define fprlab_scaled double_scaled
#define fprlab_from_binary64 double_from_binary64
#define fprlab_add double_add
#define fprlab_sub double_sub
#define fprlab_mul double_mul
#define fprlab_div double_div
#define fprlab_neg double_neg
#define fprlab_half double_half
#define fprlab_inv double_inv
#define fprlab_sqrt double_sqrt
#define fprlab_lt double_lt
#define fprlab_trunc double_trunc
#define fprlab_floor double_floor
#define fprlab_rint double_rint
#define fprlab_expm_p63 double_expm_p63
#define fprlab_add_n double_add_n
#define fprlab_sub_n double_sub_n
#define fprlab_mul_n double_mul_n
#define fprlab_neg_n double_neg_n
#define fprlab_half_n double_half_n
#define fprlab_sqr_n double_sqr_n
#define fprlab_inv_n double_inv_n
#define fprlab_of_int64_n double_of_int64_n
#define fprlab_run double_run
#include "../../../examples/double.c"
#undef fprlab_init
#undef fprlab_decode
#undef fprlab_from_parts
#undef fprlab_of_int64
#undef fprlab_scaled
#undef fprlab_from_binary64
#undef fprlab_add
#undef fprlab_sub
#undef fprlab_mul
#undef fprlab_div
#undef fprlab_neg
#undef fprlab_half
#undef fprlab_inv
#undef fprlab_sqrt
#undef fprlab_lt
#undef fprlab_trunc
#undef fprlab_floor
#undef fprlab_rint
#undef fprlab_expm_p63
#undef fprlab_run
#undef fprlab_add_n
#undef fprlab_sub_n
#undef fprlab_mul_n
#undef fprlab_neg_n

#define WIDE 24
#define MAGIC 0x5eed0f1a7b0c4d2eull

typedef struct { uint64_t magic, bits, inv; } wide;

/* load reads the double of a block, or fails on a malformed one. */
static int load(const void *p, double *x)
{
	wide w;
	memcpy(&w, p, sizeof w);
	if (w.magic != MAGIC || w.inv != ~w.bits)
		return FPRLAB_ERR_INTERNAL;
	memcpy(x, &w.bits, sizeof *x);
	return FPRLAB_OK;
}

static void store(void *p, double x)
{
	wide w = {MAGIC, 0, 0};
	memcpy(&w.bits, &x, sizeof x);
	w.inv = ~w.bits;
	memcpy(p, &w, sizeof w);
}

int fprlab_init(const char *config, fprlab_info *info, void **ctx)
{
	int st = double_init(config, info, ctx);
	info->value_size = WIDE;
	info->flags &= ~(uint32_t)FPRLAB_FLAG_BINARY64_LAYOUT;
	strcpy(info->name, "wide24");
	strcpy(info->description, "test plugin: doubles in 24-byte blocks");
	return st;
}

/* A result through double.c's function, stored as a block. */
#define OUT1(call) \
	double r; \
	int st = (call); \
	if (st == FPRLAB_OK) \
		store(out, r); \
	return st

int fprlab_decode(void *ctx, const void *x, fprlab_parts *out)
{
	double a;
	int st = load(x, &a);
	return st != FPRLAB_OK ? st : double_decode(ctx, &a, out);
}

int fprlab_from_parts(void *ctx, const fprlab_parts *in, void *out) { OUT1(double_from_parts(ctx, in, &r)); }
int fprlab_of_int64(void *ctx, int64_t i, void *out) { OUT1(double_of_int64(ctx, i, &r)); }
int fprlab_scaled(void *ctx, int64_t i, int64_t e, void *out) { OUT1(double_scaled(ctx, i, e, &r)); }
int fprlab_from_binary64(void *ctx, uint64_t b, void *out) { OUT1(double_from_binary64(ctx, b, &r)); }

#define BIN(name) \
	int fprlab_##name(void *ctx, const void *x, const void *y, void *out) \
	{ \
		double a, b; \
		if (load(x, &a) != FPRLAB_OK || load(y, &b) != FPRLAB_OK) \
			return FPRLAB_ERR_INTERNAL; \
		OUT1(double_##name(ctx, &a, &b, &r)); \
	}
#define UN(name) \
	int fprlab_##name(void *ctx, const void *x, void *out) \
	{ \
		double a; \
		if (load(x, &a) != FPRLAB_OK) \
			return FPRLAB_ERR_INTERNAL; \
		OUT1(double_##name(ctx, &a, &r)); \
	}
#define TOINT(name, type) \
	int fprlab_##name(void *ctx, const void *x, type *out) \
	{ \
		double a; \
		if (load(x, &a) != FPRLAB_OK) \
			return FPRLAB_ERR_INTERNAL; \
		return double_##name(ctx, &a, out); \
	}
BIN(add)
BIN(sub)
BIN(mul)
BIN(div)
UN(neg)
UN(half)
UN(inv)
UN(sqrt)
TOINT(trunc, int64_t)
TOINT(floor, int64_t)
TOINT(rint, int64_t)

int fprlab_lt(void *ctx, const void *x, const void *y, int32_t *out)
{
	double a, b;
	if (load(x, &a) != FPRLAB_OK || load(y, &b) != FPRLAB_OK)
		return FPRLAB_ERR_INTERNAL;
	return double_lt(ctx, &a, &b, out);
}

int fprlab_expm_p63(void *ctx, const void *x, const void *ccs, uint64_t *out)
{
	double a, b;
	if (load(x, &a) != FPRLAB_OK || load(ccs, &b) != FPRLAB_OK)
		return FPRLAB_ERR_INTERNAL;
	return double_expm_p63(ctx, &a, &b, out);
}

FPRLAB_VECTOR2_FROM_SCALAR(add, FPRLAB_VALUE_STRIDE(WIDE))
FPRLAB_VECTOR2_FROM_SCALAR(sub, FPRLAB_VALUE_STRIDE(WIDE))
FPRLAB_VECTOR2_FROM_SCALAR(mul, FPRLAB_VALUE_STRIDE(WIDE))
FPRLAB_VECTOR1_FROM_SCALAR(neg, FPRLAB_VALUE_STRIDE(WIDE))
FPRLAB_RUN_FROM_SCALAR(FPRLAB_VALUE_STRIDE(WIDE), 0, fprlab_of_int64, fprlab_expm_p63)
