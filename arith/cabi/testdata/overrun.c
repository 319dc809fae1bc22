/* double.c whose functions write past the blocks fprlab hands them when
 * an operand is 7777 (the guard regions must stop the run naming the
 * function): fprlab_add one value (8 bytes) past its 8-byte result, inside
 * the 32-byte block; fprlab_mul 8 bytes past the 32-byte block;
 * fprlab_decode 8 bytes past its struct fprlab_parts; fprlab_mul_n one
 * value past its output array. */
#define fprlab_add double_add
#define fprlab_mul double_mul
#define fprlab_decode double_decode
#define fprlab_mul_n double_mul_n
#include "../../../examples/double.c"
#undef fprlab_add
#undef fprlab_mul
#undef fprlab_decode
#undef fprlab_mul_n

int fprlab_add(void *ctx, const void *x, const void *y, void *out)
{
	if (get(x) == 7777)
		put((char *)out + 8, 1);
	return double_add(ctx, x, y, out);
}

int fprlab_mul(void *ctx, const void *x, const void *y, void *out)
{
	if (get(x) == 7777)
		put((char *)out + FPRLAB_MAX_VALUE_SIZE, 1);
	return double_mul(ctx, x, y, out);
}

int fprlab_decode(void *ctx, const void *x, fprlab_parts *out)
{
	if (get(x) == 7777)
		put(out + 1, 1);
	return double_decode(ctx, x, out);
}

int fprlab_mul_n(void *ctx, const void *x, const void *y, void *out, size_t n)
{
	const double *a = x;
	if (a[0] == 7777)
		put((char *)out + n * 8, 1);
	return double_mul_n(ctx, x, y, out, n);
}
