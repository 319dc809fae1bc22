/* double.c without its vector functions and fprlab_run (renamed away): a
 * plugin of before they existed, which fprlab calls one value at a time. */
#define fprlab_add_n scalaronly_add_n
#define fprlab_sub_n scalaronly_sub_n
#define fprlab_mul_n scalaronly_mul_n
#define fprlab_neg_n scalaronly_neg_n
#define fprlab_half_n scalaronly_half_n
#define fprlab_sqr_n scalaronly_sqr_n
#define fprlab_inv_n scalaronly_inv_n
#define fprlab_of_int64_n scalaronly_of_int64_n
#define fprlab_run scalaronly_run
#include "../../../examples/double.c"
