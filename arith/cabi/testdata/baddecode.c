/* double.c whose fprlab_decode gives a value of kind 7, which enum
 * fprlab_kind lacks: the self-check at load fails, and the message must
 * name the backend once. */
#define fprlab_decode double_decode
#include "../../../examples/double.c"
#undef fprlab_decode

int fprlab_decode(void *ctx, const void *x, fprlab_parts *out)
{
	int st = double_decode(ctx, x, out);
	out->kind = 7;
	return st;
}
