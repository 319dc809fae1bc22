// Package arith defines the floating-point operation set that Falcon needs
// (the reference implementation's "fpr" layer) as an interface, so that the
// same Falcon code can run over interchangeable arithmetics.
//
// A backend is a value of a type implementing Arith[F] for its own value type
// F. Backends are chosen by name at run time through the registry in
// registry.go (`fprlab backends` lists the names); the bundled ones, one
// package each, linked together by package arith/backends:
//
//   - emu64: binary64 emulated with integers, the reference's FALCON_FPEMU
//     semantics (F = emu64.FPR, a uint64);
//   - native: hardware binary64, never fused into FMA, FALCON_FPNATIVE
//     (F = float64);
//   - triword: triple-word binary32, three float32 limbs, in several
//     variants (F = triword.TW);
//   - ddouble: double-word binary64, the "dd" backend (F = ddouble.DD);
//   - oracle: the big-float oracle at P bits ("oracle", "oracle:P") and the
//     big.Float reference of the vprec formats ("vprecbig:...")
//     (F = *big.Float);
//   - vfloat: the vprec formats ("vprec:P", "vprec:P:eE[:rz|:sr=SEED]") for
//     P <= 113 without big.Float, bit for bit the oracle's (F = vfloat.V);
//   - plan: precision plans ("plan:STAGE=FORMAT+..."), each stage of
//     signing in its own format (F of the formats, *big.Float or vfloat.V).
//
// Each value type is registered once with every consumer of backends (the
// Falcon engine, the shadow, the error analysis, the sampler recorder) by
// package valuetype; a consumer keeps its instances in an Instances table.
//
// # Why type parameters, and what they cost
//
// Falcon is written once, as generic code over [F any, A Arith[F]]. Go
// compiles a method call on a type parameter into a call through a
// dictionary that is never inlined: measured with Go 1.26 on an FFT
// butterfly pass (hand-written float64 2.4 us, any method-based generic
// variant 11-14 us) this costs about 5x for float64 kernels, about 1.5x for
// triword and 10-20% for emu64 (zero-size backends, value receivers and PGO
// do not change it). We accept that cost on the generic path because one source
// of Falcon that every backend runs is what makes the backends comparable:
// a difference in output is then a difference in arithmetic, never in code.
// Where speed matters, the generic code is instantiated by a generator
// rather than by hand: package falcon runs the native, emu64 and triword
// backends on copies of its generic code with F and A substituted
// (float64 and native.Arith, emu64.FPR and emu64.Arith, triword.TW and
// triword.Arith, whose calls are direct and can inline), written by
// falcon/internal/monogen from one table of instances, chosen by the
// engine for exactly those arithmetic types, and tested bit for bit
// against the generic code over the same arithmetic. Interface values
// (dynamic dispatch through Arith[F] boxed in an interface) would cost the
// same call overhead plus allocations for non-pointer F, so they were not
// chosen.
//
// # Batches
//
// A backend whose every operation pays a fixed cost far above the
// arithmetic (a plugin called through the C ABI, package cabi: about 100
// ns a call) may also implement Vector, element-wise operations over
// slices; Falcon's polynomial loops then make one call per batch
// (falcon/fft_batch.go), each element computed by the same scalar
// operation on the same operands, so the results stay bit for bit those
// of the loops. The check is made once per polynomial operation, in the
// generic code only: monogen writes the native, emu64 and triword copies
// of those hooks as constant false (or, for native's SIMD kernels, by
// hand), so their loops are untouched. Such a backend may also implement
// Runner (program.go): a straight-line Program of dependent operations --
// a sampler candidate's arithmetic, a small ffSampling node's step -- in
// one call, with the results of RunScalar, the operations one at a time.
//
// # Semantics every backend follows
//
// Operations are those of the reference (Falcon-impl-20211101, fpr.h):
// Add, Sub, Mul, Sqr, Div, Inv, Sqrt and Of/Scaled are rounded by the
// backend's own rule (round to nearest even at 53 bits for binary64
// backends); Neg, Half and Double are exact; Rint rounds half to even, Floor
// and Trunc round toward -inf and 0; ExpmP63 approximates 2^63*ccs*exp(-x)
// for 0 <= x < ln 2 and 0 <= ccs < 1, and differs per backend by design.
// Library code never calls Div: every division is Inv followed by Mul.
package arith

import "math/big"

// Arith is the complete Falcon floating-point operation set over values of
// type F. Implementations must treat F values as immutable: an operation
// never modifies its operands (this matters for pointer types such as
// *big.Float).
type Arith[F any] interface {
	// Of converts an integer exactly when it fits the backend's precision,
	// otherwise rounds it (fpr_of).
	Of(i int64) F
	// Scaled returns i*2^e, rounded once (fpr_scaled).
	Scaled(i int64, e int) F
	// FromFloat64 imports a binary64 value exactly (binary64 constants and
	// test inputs). Backends with less than 53 bits round it.
	FromFloat64(x float64) F
	// Const returns one of the named constants of the reference. Binary64
	// backends return the reference's own binary64 value; backends with more
	// precision may compute it at their precision (see Constant).
	Const(c Constant) F
	// GM returns entry k (0 <= k < 2048) of the FFT twiddle table laid out
	// as the reference's fpr_gm_tab: entries 2j and 2j+1 are the real and
	// imaginary parts of the j-th root, see GMAngle.
	GM(k int) F

	Add(x, y F) F
	Sub(x, y F) F
	Neg(x F) F
	Half(x F) F
	Double(x F) F
	Mul(x, y F) F
	Sqr(x F) F
	Inv(x F) F
	Div(x, y F) F
	Sqrt(x F) F

	// Rint rounds to the nearest integer, ties to even (fpr_rint).
	Rint(x F) int64
	// Floor rounds toward minus infinity (fpr_floor).
	Floor(x F) int64
	// Trunc rounds toward zero (fpr_trunc).
	Trunc(x F) int64
	// Lt reports x < y (fpr_lt).
	Lt(x, y F) bool

	// ExpmP63 returns an approximation of 2^63*ccs*exp(-x) for
	// 0 <= x < ln 2 and 0 <= ccs < 1 (fpr_expm_p63). Each backend uses its
	// own evaluation; the contract is at least 45 correct bits. At ccs = 1
	// (a leaf whose sigma equals sigma_min exactly) backends differ: the
	// reference's emulated build, and so emu64, truncates 2^63 to 0.
	ExpmP63(x, ccs F) uint64

	// Float64 returns x rounded to the nearest binary64 value.
	Float64(x F) float64
	// Big returns the exact value of x as a new big.Float (its precision is
	// large enough to hold x without rounding).
	Big(x F) *big.Float
}

// Fused is implemented by an arithmetic that also has a fused
// multiply-add, x*y + z rounded once, and that wants Falcon to use it
// where a datapath with one fuses (the native-fma backend, the reference's
// AVX2+FMA build). Falcon's code calls FMA only at the places that build
// fuses; on an arithmetic without Fused the same places compute Mul then
// Add, two roundings, so every other backend is unchanged.
type Fused[F any] interface {
	FMA(x, y, z F) F
}
