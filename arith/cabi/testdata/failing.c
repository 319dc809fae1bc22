/* double.c whose square root returns FPRLAB_ERR_DOMAIN for a negative
 * operand instead of a NaN: an error code fprlab must report. */
#define fprlab_sqrt double_sqrt
#define fprlab_run double_run
#include "../../../examples/double.c"
#undef fprlab_sqrt
#undef fprlab_run

int fprlab_sqrt(void *ctx, const void *x, void *out)
{
	if (get(x) < 0)
		return FPRLAB_ERR_DOMAIN;
	return double_sqrt(ctx, x, out);
}

/* fprlab_run over the failing square root. */
FPRLAB_RUN_FROM_SCALAR(FPRLAB_VALUE_STRIDE(8), 0, fprlab_of_int64, fprlab_expm_p63)
