/* examples/double.c that aborts on the N-th square root when the
 * environment holds FPRLAB_TEST_ABORT_AT=N: a plugin crashing in the middle
 * of a campaign (Falcon takes one square root per leaf of the signing tree). */
#include <stdlib.h>

#define fprlab_sqrt double_sqrt
#define fprlab_run double_run
#include "../../../examples/double.c"
#undef fprlab_sqrt
#undef fprlab_run

int fprlab_sqrt(void *ctx, const void *x, void *out)
{
	static long calls, at = -1;
	if (at < 0) {
		const char *s = getenv("FPRLAB_TEST_ABORT_AT");
		at = s != NULL ? atol(s) : 0;
	}
	if (at > 0 && __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST) == at)
		abort();
	return double_sqrt(ctx, x, out);
}

/* fprlab_run over the aborting square root (the leaves' square roots
 * come through it). */
FPRLAB_RUN_FROM_SCALAR(FPRLAB_VALUE_STRIDE(8), 0, fprlab_of_int64, fprlab_expm_p63)
