// datapath.cpp -- an fprlab arithmetic plugin written as a C++ class behind
// extern "C", the shape a Verilator model takes: a stateful object (here it
// counts the operations it executes, as a simulation counts cycles) whose
// methods compute on the datapath's values, and a thin C layer that fprlab
// calls. The datapath here is binary64, so fprlab compare shows it equal
// to native; a Verilator model would instead set its inputs, call eval()
// and read its outputs in each method.
//
//     g++ -O2 -shared -fPIC -o libdatapath.so examples/datapath.cpp
//     fprlab compare --backend so:./libdatapath.so,native --params 512
//
// The object is not thread-safe (its counter, like a simulator's state), so
// the plugin declares FPRLAB_FLAG_SERIAL and fprlab calls it from one
// thread at a time. C++ exceptions must not cross into fprlab: every entry
// point catches them and returns FPRLAB_ERR_INTERNAL.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>

#include "../plugin/fprlab_arith.h"
#include "round_binary64.h"

namespace {

#ifndef FPRLAB_DATAPATH_NAME
// The datapath: binary64 here. A file that defines its own class Datapath
// (same methods) and FPRLAB_DATAPATH_NAME and _DESCRIPTION, then includes
// this file, reuses the C layer below: rtl/plugin.cpp does so with a
// Verilator model's multiplier.
#define FPRLAB_DATAPATH_NAME "datapath"
#define FPRLAB_DATAPATH_DESCRIPTION "example plugin: a C++ datapath class behind extern \"C\" (binary64)"
class Datapath {
public:
	double add(double x, double y) { ++ops_; return x + y; }
	double sub(double x, double y) { ++ops_; return x - y; }
	double mul(double x, double y) { ++ops_; return x * y; }
	double div(double x, double y) { ++ops_; return x / y; }
	double sqrt(double x) { ++ops_; return std::sqrt(x); }
	std::uint64_t ops() const { return ops_; }

private:
	std::uint64_t ops_ = 0;
};
#endif

double get(const void *p) { double x; std::memcpy(&x, p, sizeof x); return x; }
void put(void *p, double x) { std::memcpy(p, &x, sizeof x); }
Datapath &dp(void *ctx) { return *static_cast<Datapath *>(ctx); }

// guard runs f, turning an exception into a status code.
template <class F> int guard(F f)
{
	try {
		f();
		return FPRLAB_OK;
	} catch (const std::bad_alloc &) {
		return FPRLAB_ERR_RANGE;
	} catch (...) {
		return FPRLAB_ERR_INTERNAL;
	}
}

} // namespace

extern "C" {

uint32_t fprlab_abi_version(void) { return FPRLAB_ARITH_ABI_VERSION; }

int fprlab_init(const char *config, fprlab_info *info, void **ctx)
{
	if (config[0] != '\0')
		return FPRLAB_ERR_CONFIG;
	return guard([&] {
		*ctx = new Datapath();
		std::memset(info, 0, sizeof *info);
		info->value_size = sizeof(double);
		info->significand_bits = 53;
		info->exponent_bits = 11;
		info->flags = FPRLAB_FLAG_BINARY64_CONSTANTS | FPRLAB_FLAG_BINARY64_LAYOUT | FPRLAB_FLAG_SERIAL;
		std::strcpy(info->name, FPRLAB_DATAPATH_NAME);
		std::strcpy(info->description, FPRLAB_DATAPATH_DESCRIPTION);
	});
}

int fprlab_decode(void *, const void *px, fprlab_parts *out)
{
	double x = get(px);
	std::memset(out, 0, sizeof *out);
	out->negative = std::signbit(x);
	if (std::isnan(x)) {
		out->kind = FPRLAB_NAN;
	} else if (std::isinf(x)) {
		out->kind = FPRLAB_INF;
	} else if (x == 0) {
		out->kind = FPRLAB_ZERO;
	} else {
		int e;
		double f = std::frexp(std::fabs(x), &e);
		out->kind = FPRLAB_FINITE;
		out->limbs[0] = static_cast<uint64_t>(std::ldexp(f, 53));
		out->exponent = e - 53;
	}
	return FPRLAB_OK;
}

int fprlab_from_parts(void *, const fprlab_parts *in, void *out)
{
	double x = 0;
	switch (in->kind) {
	case FPRLAB_ZERO: break;
	case FPRLAB_INF: x = INFINITY; break;
	case FPRLAB_NAN: x = NAN; break;
	case FPRLAB_FINITE:
		x = round_binary64(in); // an operand from a wider datapath, rounded at the input
		break;
	default: return FPRLAB_ERR_DOMAIN;
	}
	put(out, in->negative ? -x : x);
	return FPRLAB_OK;
}

int fprlab_from_binary64(void *, uint64_t bits, void *out) { std::memcpy(out, &bits, 8); return FPRLAB_OK; }
int fprlab_of_int64(void *, int64_t i, void *out) { put(out, static_cast<double>(i)); return FPRLAB_OK; }
int fprlab_scaled(void *, int64_t i, int64_t e, void *out) { put(out, std::ldexp(static_cast<double>(i), static_cast<int>(e))); return FPRLAB_OK; }

int fprlab_add(void *c, const void *x, const void *y, void *o) { return guard([&] { put(o, dp(c).add(get(x), get(y))); }); }
int fprlab_sub(void *c, const void *x, const void *y, void *o) { return guard([&] { put(o, dp(c).sub(get(x), get(y))); }); }
int fprlab_mul(void *c, const void *x, const void *y, void *o) { return guard([&] { put(o, dp(c).mul(get(x), get(y))); }); }
int fprlab_div(void *c, const void *x, const void *y, void *o) { return guard([&] { put(o, dp(c).div(get(x), get(y))); }); }
int fprlab_inv(void *c, const void *x, void *o) { return guard([&] { put(o, dp(c).div(1.0, get(x))); }); }
int fprlab_sqrt(void *c, const void *x, void *o) { return guard([&] { put(o, dp(c).sqrt(get(x))); }); }
int fprlab_neg(void *, const void *x, void *o) { put(o, -get(x)); return FPRLAB_OK; }
int fprlab_half(void *c, const void *x, void *o) { return guard([&] { put(o, dp(c).mul(get(x), 0.5)); }); }
int fprlab_lt(void *, const void *x, const void *y, int32_t *o) { *o = get(x) < get(y); return FPRLAB_OK; }
int fprlab_trunc(void *, const void *x, int64_t *o) { *o = static_cast<int64_t>(get(x)); return FPRLAB_OK; }

int fprlab_floor(void *, const void *px, int64_t *o)
{
	double x = get(px);
	int64_t r = static_cast<int64_t>(x);
	*o = x < static_cast<double>(r) ? r - 1 : r;
	return FPRLAB_OK;
}

// Round half to even as the reference's fpr_rint (see double.c).
int fprlab_rint(void *, const void *px, int64_t *o)
{
	double x = get(px);
	int64_t sx = static_cast<int64_t>(x - 1.0), tx = static_cast<int64_t>(x);
	int64_t rp = static_cast<int64_t>(x + 4503599627370496.0) - (int64_t(1) << 52);
	int64_t rn = static_cast<int64_t>(x - 4503599627370496.0) + (int64_t(1) << 52);
	int64_t m = sx >> 63;
	rn &= m;
	rp &= ~m;
	uint32_t ub = static_cast<uint32_t>(static_cast<uint64_t>(tx) >> 52);
	m = -static_cast<int64_t>((((ub + 1) & 0xFFF) - 2) >> 31);
	rp &= m;
	rn &= m;
	tx &= ~m;
	*o = tx | rn | rp;
	return FPRLAB_OK;
}

// The vector functions: the datapath's methods over arrays (a Verilator
// model would stream them through its pipeline). Each element is what the
// scalar function computes; an exception stops the array with its code.
int fprlab_add_n(void *c, const void *x, const void *y, void *o, size_t n)
{
	return guard([&] { for (size_t i = 0; i < n; i++) put(static_cast<double *>(o) + i, dp(c).add(get(static_cast<const double *>(x) + i), get(static_cast<const double *>(y) + i))); });
}
int fprlab_sub_n(void *c, const void *x, const void *y, void *o, size_t n)
{
	return guard([&] { for (size_t i = 0; i < n; i++) put(static_cast<double *>(o) + i, dp(c).sub(get(static_cast<const double *>(x) + i), get(static_cast<const double *>(y) + i))); });
}
int fprlab_mul_n(void *c, const void *x, const void *y, void *o, size_t n)
{
	return guard([&] { for (size_t i = 0; i < n; i++) put(static_cast<double *>(o) + i, dp(c).mul(get(static_cast<const double *>(x) + i), get(static_cast<const double *>(y) + i))); });
}
FPRLAB_VECTOR1_FROM_SCALAR(neg, FPRLAB_VALUE_STRIDE(8))
FPRLAB_VECTOR1_FROM_SCALAR(half, FPRLAB_VALUE_STRIDE(8))
FPRLAB_VECTOR1_FROM_SCALAR(inv, FPRLAB_VALUE_STRIDE(8))

FPRLAB_RUN_FROM_SCALAR(FPRLAB_VALUE_STRIDE(8), 0, fprlab_of_int64, 0)

} // extern "C"
