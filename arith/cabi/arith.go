package cabi

import (
	"math"
	"math/big"

	"github.com/fprlab/fprlab/arith"
)

// MaxValueSize is the largest value a plugin may declare, in bytes
// (FPRLAB_MAX_VALUE_SIZE): room for 72-bit triple words and wider formats.
const MaxValueSize = 32

// Value is one value of a plugin's format: its value_size bytes, then zero
// bytes. fprlab never interprets it (see FPRLAB_FLAG_BINARY64_LAYOUT).
type Value struct{ w [MaxValueSize / 8]uint64 }

// Arith implements arith.Arith[Value] by calls into a loaded plugin. It is
// one pointer; copies share the library.
type Arith struct{ *lib }

var _ arith.Arith[Value] = Arith{}

// Op numbers index the functions of a library (lib.fn). The names are the
// exported symbols without their "fprlab_" prefix.
const (
	opDecode = iota
	opFromParts
	opAdd
	opSub
	opMul
	opDiv
	opNeg
	opHalf
	opInv
	opSqrt
	opRint
	opFloor
	opTrunc
	opLt
	numRequired
	// optional functions
	opOfInt64 = iota - 1
	opScaled
	opFromBinary64
	opSqr
	opDbl
	opExpmP63
	opConstant
	opGM
	numOps
)

var opNames = [numOps]string{"decode", "from_parts", "add", "sub", "mul", "div", "neg", "half", "inv", "sqrt",
	"rint", "floor", "trunc", "lt", "of_int64", "scaled", "from_binary64", "sqr", "dbl", "expm_p63", "constant", "gm"}

// Of converts i (fprlab_of_int64, else fprlab_from_parts of i).
func (a Arith) Of(i int64) Value {
	if a.fn[opOfInt64] != 0 {
		return must(a.callInt(opOfInt64, 3, uint64(i), 0))
	}
	return must(a.fromParts(intParts(i, 0)))
}

// Scaled returns i*2^e rounded once (fprlab_scaled, else fprlab_from_parts).
func (a Arith) Scaled(i int64, e int) Value {
	if a.fn[opScaled] != 0 {
		return must(a.callInt(opScaled, 4, uint64(i), uint64(int64(e))))
	}
	return must(a.fromParts(intParts(i, int64(e))))
}

// FromFloat64 imports x (fprlab_from_binary64, else fprlab_from_parts of
// its exact value).
func (a Arith) FromFloat64(x float64) Value {
	return must(a.fromFloat64(x))
}

// Const returns constant c as loaded (see the package's tables).
func (a Arith) Const(c arith.Constant) Value { return a.consts[c] }

// GM returns twiddle table entry k (0 <= k < 2048) as loaded.
func (a Arith) GM(k int) Value { return a.gm[k] }

func (a Arith) Add(x, y Value) Value { return must(a.call2(opAdd, x, y)) }
func (a Arith) Sub(x, y Value) Value { return must(a.call2(opSub, x, y)) }
func (a Arith) Mul(x, y Value) Value { return must(a.call2(opMul, x, y)) }
func (a Arith) Div(x, y Value) Value { return must(a.call2(opDiv, x, y)) }
func (a Arith) Neg(x Value) Value    { return must(a.call1(opNeg, x)) }
func (a Arith) Half(x Value) Value   { return must(a.call1(opHalf, x)) }
func (a Arith) Inv(x Value) Value    { return must(a.call1(opInv, x)) }
func (a Arith) Sqrt(x Value) Value   { return must(a.call1(opSqrt, x)) }

// Sqr returns x*x (fprlab_sqr, else fprlab_mul).
func (a Arith) Sqr(x Value) Value {
	if a.fn[opSqr] != 0 {
		return must(a.call1(opSqr, x))
	}
	return must(a.call2(opMul, x, x))
}

// Double returns 2x (fprlab_dbl, else fprlab_add).
func (a Arith) Double(x Value) Value {
	if a.fn[opDbl] != 0 {
		return must(a.call1(opDbl, x))
	}
	return must(a.call2(opAdd, x, x))
}

func (a Arith) Rint(x Value) int64  { return int64(must(a.call1(opRint, x)).w[0]) }
func (a Arith) Floor(x Value) int64 { return int64(must(a.call1(opFloor, x)).w[0]) }
func (a Arith) Trunc(x Value) int64 { return int64(must(a.call1(opTrunc, x)).w[0]) }

// Lt reports x < y.
func (a Arith) Lt(x, y Value) bool { return uint32(must(a.call2(opLt, x, y)).w[0]) != 0 }

// ExpmP63 returns the plugin's fprlab_expm_p63, or else the reference
// polynomial evaluated in the plugin's arithmetic as the vprec:P:eE
// formats evaluate it (package oracle's expmPoly): Horner's rule over the
// FACCT coefficients, the product with ccs, then floor(2^63 y) exactly.
func (a Arith) ExpmP63(x, ccs Value) uint64 {
	if a.fn[opExpmP63] != 0 {
		return must(a.call2(opExpmP63, x, ccs)).w[0]
	}
	y := a.expm[0]
	for _, c := range a.expm[1:] {
		y = a.Sub(c, a.Mul(y, x))
	}
	return floor63(a.decode(a.Mul(y, ccs)))
}

// Float64 returns x rounded to the nearest binary64 value (ties to even,
// gradual underflow, overflow to infinity): exact for every value of a
// format of at most 53 bits inside binary64's range.
func (a Arith) Float64(x Value) float64 {
	if a.layout64 {
		return math.Float64frombits(x.w[0])
	}
	return a.decode(x).float64()
}

// Big returns the exact value of x as a new big.Float. big.Float has no
// NaN: a NaN becomes +Inf, the stand-in the oracle uses.
func (a Arith) Big(x Value) *big.Float {
	if a.layout64 {
		f := math.Float64frombits(x.w[0])
		if math.IsNaN(f) {
			f = math.Inf(1)
		}
		return new(big.Float).SetPrec(53).SetFloat64(f)
	}
	return a.decode(x).big()
}

// Name returns the name the plugin reports (fprlab_info.name).
func (a Arith) Name() string { return a.info.name }

// fromFloat64 is fprlab_from_binary64, else fprlab_from_parts of x's exact value.
func (l *lib) fromFloat64(x float64) (Value, error) {
	if l.fn[opFromBinary64] != 0 {
		return l.callInt(opFromBinary64, 3, math.Float64bits(x), 0)
	}
	return l.fromParts(float64Parts(x))
}

// opName is the function of op, without "fprlab_".
func opName(op int) string {
	if op == opRun {
		return "run"
	}
	if op >= numOps {
		return vecNames[op-numOps]
	}
	return opNames[op]
}
