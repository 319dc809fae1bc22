/* examples/double.c turned hostile at the N-th call of one function, as
 * the environment says: FPRLAB_TEST_HOSTILE=MODE, FPRLAB_TEST_HOSTILE_AT=N.
 * The modes of fprlab_sqrt (Falcon takes one square root per leaf of the
 * signing tree; the leaves' come through fprlab_run):
 *   exit0, exit7  exit(0) or exit(7)
 *   abort         abort()
 *   segv          a write through a null pointer
 *   loop          an endless loop
 *   print         "hostile plugin says hello" on standard output
 * and of fprlab_mul_n (the polynomial products):
 *   over8         a value written past the output array
 *   over64k       64 KiB written past the output array
 * and of fprlab_init:
 *   initsegv      a write through a null pointer
 * Without FPRLAB_TEST_HOSTILE it is double.c. */
#include <stdio.h>
#include <stdlib.h>

#define fprlab_init double_init
#define fprlab_sqrt double_sqrt
#define fprlab_run double_run
#define fprlab_mul_n double_mul_n
#include "../../../examples/double.c"
#undef fprlab_init
#undef fprlab_sqrt
#undef fprlab_run
#undef fprlab_mul_n

/* fires reports whether this is the N-th call counted in *calls and the
 * mode is mode. */
static int fires(long *calls, const char *mode)
{
	const char *m = getenv("FPRLAB_TEST_HOSTILE"), *at = getenv("FPRLAB_TEST_HOSTILE_AT");
	if (m == NULL || at == NULL || strcmp(m, mode) != 0)
		return 0;
	return __atomic_add_fetch(calls, 1, __ATOMIC_SEQ_CST) == atol(at);
}

int fprlab_init(const char *config, fprlab_info *info, void **ctx)
{
	static long calls;
	static volatile int *volatile nowhere;
	if (fires(&calls, "initsegv"))
		*nowhere = 1;
	return double_init(config, info, ctx);
}

int fprlab_sqrt(void *ctx, const void *x, void *out)
{
	static long calls[5];
	static volatile int *volatile nowhere;
	if (fires(&calls[0], "exit0"))
		exit(0);
	if (fires(&calls[1], "exit7"))
		exit(7);
	if (fires(&calls[2], "abort"))
		abort();
	if (fires(&calls[3], "segv"))
		*nowhere = 1;
	if (fires(&calls[4], "loop"))
		for (volatile long spin = 0;; spin++)
			;
	static long printed;
	if (fires(&printed, "print")) {
		printf("hostile plugin says hello\n");
		fflush(stdout);
	}
	return double_sqrt(ctx, x, out);
}

int fprlab_mul_n(void *ctx, const void *x, const void *y, void *out, size_t n)
{
	static long calls[2];
	int st = double_mul_n(ctx, x, y, out, n);
	if (fires(&calls[0], "over8"))
		memset((char *)out + 8 * n, 0x5a, 8);
	if (fires(&calls[1], "over64k"))
		memset((char *)out + 8 * n, 0x5a, 64 << 10);
	return st;
}

/* fprlab_run over the hostile square root. */
FPRLAB_RUN_FROM_SCALAR(FPRLAB_VALUE_STRIDE(8), 0, fprlab_of_int64, fprlab_expm_p63)
