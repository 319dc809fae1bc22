/* double.c whose multiplications (scalar and vector) return
 * FPRLAB_ERR_RANGE for an operand of 13, and whose fprlab_add_n returns
 * FPRLAB_ERR_INTERNAL for an operand of 13 where fprlab_add does not (a
 * plugin breaking the contract): errors fprlab must report. */
#define fprlab_mul double_mul
#define fprlab_mul_n double_mul_n
#define fprlab_add_n double_add_n
#include "../../../examples/double.c"
#undef fprlab_mul
#undef fprlab_mul_n
#undef fprlab_add_n

int fprlab_mul(void *ctx, const void *x, const void *y, void *out)
{
	if (get(x) == 13 || get(y) == 13)
		return FPRLAB_ERR_RANGE;
	return double_mul(ctx, x, y, out);
}

FPRLAB_VECTOR2_FROM_SCALAR(mul, FPRLAB_VALUE_STRIDE(8))

int fprlab_add_n(void *ctx, const void *x, const void *y, void *out, size_t n)
{
	const double *a = x, *b = y;
	for (size_t i = 0; i < n; i++)
		if (a[i] == 13 || b[i] == 13)
			return FPRLAB_ERR_INTERNAL;
	return double_add_n(ctx, x, y, out, n);
}
