/* double.c whose functions write past the blocks fprlab hands them when
 * an operand is 7777 (the guard regions must stop the run naming the
 * function): fprlab_add one value (8 bytes) past its 8-byte result, inside
 * the 32-byte block; fprlab_mul 8 bytes past the 32-byte block;
 * fprlab_decode 8 bytes past its struct fprlab_parts; fprlab_mul_n one
 * value past its output array; fprlab_run, when its first value register
 * is 7777, into its read-only program text, and when it is 7778 one byte
 * past the text. */
#define fprlab_add double_add
#define fprlab_mul double_mul
#define fprlab_decode double_decode
#define fprlab_mul_n double_mul_n
#define fprlab_run double_run
#include "../../../examples/double.c"
#undef fprlab_add
#undef fprlab_mul
#undef fprlab_decode
#undef fprlab_mul_n
#undef fprlab_run

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

int fprlab_run(void *ctx, const fprlab_insn *prog, size_t n, void *v, int64_t *iv, size_t *failed)
{
	double x = get(v);
	if (x == 7777)
		((fprlab_insn *)prog)[0].b ^= 1;
	if (x == 7778)
		((unsigned char *)(prog + n))[0] ^= 1;
	return double_run(ctx, prog, n, v, iv, failed);
}
