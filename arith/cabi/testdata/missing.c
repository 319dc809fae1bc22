/* A plugin of the right version that lacks most required functions. */
#include "../../../plugin/fprlab_arith.h"
uint32_t fprlab_abi_version(void) { return FPRLAB_ARITH_ABI_VERSION; }
int fprlab_add(void *ctx, const void *x, const void *y, void *out) { (void)ctx; (void)x; (void)y; (void)out; return FPRLAB_OK; }
