/* double.c declaring the significand width and exponent range of its
 * configuration "BITS:EXPBITS" (e.g. "200:11", "53:0"): whether a plan's
 * carrier holds a plugin's values is decided by the declaration alone,
 * before any value is computed. Its values stay the host's doubles (the
 * layout flag goes: it promises at most 53 bits). */
#include <stdio.h>

#define fprlab_init double_init
#include "../../../examples/double.c"
#undef fprlab_init

int fprlab_init(const char *config, fprlab_info *info, void **ctx)
{
	unsigned bits, exp;
	char end;
	int st;
	if (sscanf(config, "%u:%u%c", &bits, &exp, &end) != 2)
		return FPRLAB_ERR_CONFIG;
	st = double_init("", info, ctx);
	info->significand_bits = bits;
	info->exponent_bits = exp;
	info->flags &= ~(uint32_t)FPRLAB_FLAG_BINARY64_LAYOUT;
	return st;
}
