// plugin.cpp -- the fprlab arithmetic plugin around the Verilated fmul64.sv:
// every multiplication (mul, the squares, the halvings, and the mul_n
// batches Falcon's polynomial loops send) sets the model's inputs, calls
// eval() and reads its output; add, sub, div and sqrt stay binary64 C. The
// C layer is examples/datapath.cpp's, included below around this class.
//
// One library per parameter set: the parameters are fixed when Verilator
// elaborates the RTL (run.sh does all of this):
//
//     verilator --cc -Mdir obj -GTRUNC=16 -GCOMP=0 -GRZ=0 fmul64.sv
//     g++ -O2 -shared -fPIC -Iobj -I/usr/share/verilator/include \
//         -I/usr/share/verilator/include/vltstd -DFMUL64_PARAMS='"t16"' \
//         -o libfmul64-t16.so plugin.cpp obj/*.cpp \
//         /usr/share/verilator/include/verilated.cpp
//     fprlab compare --backend so:./libfmul64-t16.so,native --params 512
//
// A Verilated model is not thread-safe, so the plugin declares
// FPRLAB_FLAG_SERIAL (datapath.cpp's flags) and fprlab calls it from one
// thread at a time.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>

#include "Vfmul64.h"
#include "verilated.h"

#ifndef FMUL64_PARAMS
#define FMUL64_PARAMS "?"
#endif

namespace {

class Datapath {
public:
	Datapath() : ctx_(new VerilatedContext), m_(new Vfmul64(ctx_.get())) {}
	~Datapath() { m_->final(); }
	double add(double x, double y) { return x + y; }
	double sub(double x, double y) { return x - y; }
	double div(double x, double y) { return x / y; }
	double sqrt(double x) { return std::sqrt(x); }
	// mul is the RTL's: bits in, eval(), bits out.
	double mul(double x, double y)
	{
		std::uint64_t a, b, r;
		std::memcpy(&a, &x, 8);
		std::memcpy(&b, &y, 8);
		m_->a = a;
		m_->b = b;
		m_->eval();
		r = m_->y;
		double z;
		std::memcpy(&z, &r, 8);
		return z;
	}

private:
	std::unique_ptr<VerilatedContext> ctx_;
	std::unique_ptr<Vfmul64> m_;
};

} // namespace

#define FPRLAB_DATAPATH_NAME "fmul64-" FMUL64_PARAMS
#define FPRLAB_DATAPATH_DESCRIPTION "Verilated fmul64.sv (" FMUL64_PARAMS "): RTL binary64 multiplier, other operations binary64"
#include "../datapath.cpp"
