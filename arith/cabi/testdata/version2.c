/* A library built for another version of the ABI. */
#include <stdint.h>
uint32_t fprlab_abi_version(void) { return 2; }
