/* double.c whose square root returns FPRLAB_ERR_DOMAIN for a negative
 * operand instead of a NaN: an error code fprlab must report. */
#define fprlab_sqrt double_sqrt
#include "../../../examples/double.c"
#undef fprlab_sqrt

int fprlab_sqrt(void *ctx, const void *x, void *out)
{
	if (get(x) < 0)
		return FPRLAB_ERR_DOMAIN;
	return double_sqrt(ctx, x, out);
}
