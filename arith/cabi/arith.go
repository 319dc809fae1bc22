package cabi

import (
	"math"
	"math/big"
	"unsafe"

	"github.com/fprlab/fprlab/arith"
)

// MaxValueSize is the largest value a plugin may declare, in bytes
// (FPRLAB_MAX_VALUE_SIZE): room for 72-bit triple words and wider formats.
const MaxValueSize = 32

// Value is one value of a plugin's format: its value_size bytes, then zero
// bytes. fprlab never interprets it (see FPRLAB_FLAG_BINARY64_LAYOUT).
type Value struct{ w [MaxValueSize / 8]uint64 }

// Value8 is a value of a plugin whose values take at most 8 bytes (a
// binary64 datapath, or narrower): the same bytes as a Value without the
// 24 zero bytes, which every copy of a value in Falcon's loops and the
// shadow's pairs would move for nothing (they made a shadowed signature
// over the double plugin about a third slower).
type Value8 struct{ w [1]uint64 }

// value is the Go type of a plugin's values: Value8 for a value_size of
// at most 8, Value otherwise (Open's Backend chooses).
type value interface{ Value | Value8 }

// ArithOf implements arith.Arith[V] by calls into a loaded plugin. It is
// one pointer; copies share the library.
type ArithOf[V value] struct{ *lib }

// Arith is a plugin's arithmetic over Value, for any value_size; Arith8
// over Value8, for a value_size of at most 8.
type (
	Arith  = ArithOf[Value]
	Arith8 = ArithOf[Value8]
)

var (
	_ arith.Arith[Value]  = Arith{}
	_ arith.Arith[Value8] = Arith8{}
)

// wide returns v as a Value (its bytes, then zeros), the form the calls
// into the plugin take; narrow is the inverse for a value of V's size.
func wide[V value](v V) Value {
	var w Value
	*(*V)(unsafe.Pointer(&w)) = v
	return w
}

func narrow[V value](w Value) V { return *(*V)(unsafe.Pointer(&w)) }

// bits64 is the first 8 bytes of v (its binary64 number under
// FPRLAB_FLAG_BINARY64_LAYOUT).
func bits64[V value](v *V) uint64 { return *(*uint64)(unsafe.Pointer(v)) }

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
func (a ArithOf[V]) Of(i int64) V {
	if a.fn[opOfInt64] != 0 {
		return narrow[V](must(a.callInt(opOfInt64, 3, uint64(i), 0)))
	}
	return narrow[V](must(a.fromParts(intParts(i, 0))))
}

// Scaled returns i*2^e rounded once (fprlab_scaled, else fprlab_from_parts).
func (a ArithOf[V]) Scaled(i int64, e int) V {
	if a.fn[opScaled] != 0 {
		return narrow[V](must(a.callInt(opScaled, 4, uint64(i), uint64(int64(e)))))
	}
	return narrow[V](must(a.fromParts(intParts(i, int64(e)))))
}

// FromFloat64 imports x (fprlab_from_binary64, else fprlab_from_parts of
// its exact value).
func (a ArithOf[V]) FromFloat64(x float64) V {
	return narrow[V](must(a.fromFloat64(x)))
}

// Const returns constant c as loaded (see the package's tables).
func (a ArithOf[V]) Const(c arith.Constant) V { return narrow[V](a.consts[c]) }

// GM returns twiddle table entry k (0 <= k < 2048) as loaded.
func (a ArithOf[V]) GM(k int) V { return narrow[V](a.gm[k]) }

// op2 and op1 call a scalar operation of two operands or one.
func (a ArithOf[V]) op2(op int, x, y V) V { return narrow[V](must(a.call2(op, wide(x), wide(y)))) }
func (a ArithOf[V]) op1(op int, x V) V    { return narrow[V](must(a.call1(op, wide(x)))) }

// int1 calls an operation of one operand with an integer result.
func (a ArithOf[V]) int1(op int, x V) int64 { return int64(must(a.call1(op, wide(x))).w[0]) }

func (a ArithOf[V]) Add(x, y V) V { return a.op2(opAdd, x, y) }
func (a ArithOf[V]) Sub(x, y V) V { return a.op2(opSub, x, y) }
func (a ArithOf[V]) Mul(x, y V) V { return a.op2(opMul, x, y) }
func (a ArithOf[V]) Div(x, y V) V { return a.op2(opDiv, x, y) }
func (a ArithOf[V]) Neg(x V) V    { return a.op1(opNeg, x) }
func (a ArithOf[V]) Half(x V) V   { return a.op1(opHalf, x) }
func (a ArithOf[V]) Inv(x V) V    { return a.op1(opInv, x) }
func (a ArithOf[V]) Sqrt(x V) V   { return a.op1(opSqrt, x) }

// Sqr returns x*x (fprlab_sqr, else fprlab_mul).
func (a ArithOf[V]) Sqr(x V) V {
	if a.fn[opSqr] != 0 {
		return a.op1(opSqr, x)
	}
	return a.op2(opMul, x, x)
}

// Double returns 2x (fprlab_dbl, else fprlab_add).
func (a ArithOf[V]) Double(x V) V {
	if a.fn[opDbl] != 0 {
		return a.op1(opDbl, x)
	}
	return a.op2(opAdd, x, x)
}

func (a ArithOf[V]) Rint(x V) int64  { return a.int1(opRint, x) }
func (a ArithOf[V]) Floor(x V) int64 { return a.int1(opFloor, x) }
func (a ArithOf[V]) Trunc(x V) int64 { return a.int1(opTrunc, x) }

// Lt reports x < y.
func (a ArithOf[V]) Lt(x, y V) bool {
	return uint32(must(a.call2(opLt, wide(x), wide(y))).w[0]) != 0
}

// ExpmP63 returns the plugin's fprlab_expm_p63, or else the reference
// polynomial evaluated in the plugin's arithmetic as the vprec:P:eE
// formats evaluate it (package oracle's expmPoly): Horner's rule over the
// FACCT coefficients, the product with ccs, then floor(2^63 y) exactly.
func (a ArithOf[V]) ExpmP63(x, ccs V) uint64 {
	if a.fn[opExpmP63] != 0 {
		return must(a.call2(opExpmP63, wide(x), wide(ccs))).w[0]
	}
	y := narrow[V](a.expm[0])
	for _, c := range a.expm[1:] {
		y = a.Sub(narrow[V](c), a.Mul(y, x))
	}
	return floor63(a.decode(wide(a.Mul(y, ccs))))
}

// Float64 returns x rounded to the nearest binary64 value (ties to even,
// gradual underflow, overflow to infinity): exact for every value of a
// format of at most 53 bits inside binary64's range.
func (a ArithOf[V]) Float64(x V) float64 {
	if a.layout64 {
		return math.Float64frombits(bits64(&x))
	}
	return a.decode(wide(x)).float64()
}

// Big returns the exact value of x as a new big.Float. big.Float has no
// NaN: a NaN becomes +Inf, the stand-in the oracle uses.
func (a ArithOf[V]) Big(x V) *big.Float {
	if a.layout64 {
		f := math.Float64frombits(bits64(&x))
		if math.IsNaN(f) {
			f = math.Inf(1)
		}
		return new(big.Float).SetPrec(53).SetFloat64(f)
	}
	return a.decode(wide(x)).big()
}

// Name returns the name the plugin reports (fprlab_info.name).
func (a ArithOf[V]) Name() string { return a.info.name }

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
