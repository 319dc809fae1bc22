package cabi

import (
	"fmt"
	"unsafe"

	"github.com/fprlab/fprlab/arith"
)

// The optional vector functions of the ABI (fprlab_add_n, ...): one call
// into the plugin per batch of values instead of one per value. A call
// into C costs about 90 ns of CPU however little the operation does, and
// Falcon's polynomial loops make hundreds of thousands of them per
// shadowed signature; see arith.Vector for the element-wise contract.

var (
	_ arith.Vector[Value]  = Arith{}
	_ arith.Vector[Value8] = Arith8{}
)

// Vector op numbers: numOps+op indexes lib.fn.
const (
	vecAdd = iota
	vecSub
	vecMul
	vecNeg
	vecHalf
	vecSqr
	vecInv
	vecOf
	numVec
)

// vecNames are the functions' names without "fprlab_"; vecScalar the
// scalar op each one is element-wise (sqr_n's is sqr, whose own fallback
// is mul).
var (
	vecNames  = [numVec]string{"add_n", "sub_n", "mul_n", "neg_n", "half_n", "sqr_n", "inv_n", "of_int64_n"}
	vecScalar = [numVec]int{opAdd, opSub, opMul, opNeg, opHalf, opSqr, opInv, opOfInt64}
)

// vecChunk is the most values one vector call takes: longer slices are
// cut into chunks, which bounds the scratch memory (3 arrays of
// vecChunk values of up to 32 bytes) and costs one more call per 1024
// values.
const vecChunk = 1024

// vscratch is the memory of one vector call: the operand and result
// arrays at the plugin's stride. It comes from lib.vpool, so a call
// allocates nothing once the pool holds one.
type vscratch struct {
	x, y, out []uint64
	args2     [5]uintptr // ctx, x, y, out, n
	args1     [4]uintptr // ctx, x, out, n
}

func (l *lib) vget() *vscratch {
	if s, ok := l.vpool.Get().(*vscratch); ok {
		return s
	}
	w := l.strideWords()*vecChunk + 1 // and a guard word after the last value
	s := new(vscratch)
	s.x, s.y, s.out = pluginWords(s, w), pluginWords(s, w), pluginWords(s, w)
	x, y, out := uintptr(unsafe.Pointer(&s.x[0])), uintptr(unsafe.Pointer(&s.y[0])), uintptr(unsafe.Pointer(&s.out[0]))
	s.args2 = [5]uintptr{l.ctx, x, y, out, 0}
	s.args1 = [4]uintptr{l.ctx, x, out, 0}
	return s
}

// strideWords is FPRLAB_VALUE_STRIDE(value_size) in 64-bit words.
func (l *lib) strideWords() int { return (int(l.info.valueSize) + 7) / 8 }

// words is v's 64-bit words.
func words[V value](v *V) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(v)), unsafe.Sizeof(*v)/8)
}

// pack copies the plugin's bytes of vs into a (stride-sized values).
func pack[V value](a []uint64, vs []V, sw int) {
	if sw == 1 {
		for i := range vs {
			a[i] = bits64(&vs[i])
		}
		return
	}
	for i := range vs {
		copy(a[i*sw:(i+1)*sw], words(&vs[i])[:sw])
	}
}

// unpack copies the values of a into dst, zero beyond the plugin's bytes
// (as a scalar result is).
func unpack[V value](dst []V, a []uint64, sw int) {
	if sw == 1 {
		for i := range dst {
			var v V
			*(*uint64)(unsafe.Pointer(&v)) = a[i]
			dst[i] = v
		}
		return
	}
	for i := range dst {
		var v V
		copy(words(&v)[:sw], a[i*sw:(i+1)*sw])
		dst[i] = v
	}
}

// vec computes dst[i] = op(x[i], y[i]), or op(x[i]) for y nil: one
// call of the vector function per chunk, or the scalar function per
// element (fallback).
func vec[V value](l *lib, op int, dst, x, y []V) {
	n := len(dst)
	x = x[:n]
	if y != nil {
		y = y[:n]
	}
	if l.fn[numOps+op] == 0 {
		for i := range dst {
			if y != nil {
				dst[i] = ArithOf[V]{l}.op2(vecScalar[op], x[i], y[i])
			} else {
				dst[i] = scalar1(l, op, x[i])
			}
		}
		return
	}
	s := l.vget()
	sw := l.strideWords()
	for lo := 0; lo < n; lo += vecChunk {
		hi := min(lo+vecChunk, n)
		pack(s.x, x[lo:hi], sw)
		args := s.args1[:4]
		var yc []V
		if y != nil {
			yc = y[lo:hi]
			pack(s.y, yc, sw)
			args = s.args2[:5]
		}
		args[len(args)-1] = uintptr(hi - lo)
		s.armVec((hi-lo)*sw, y != nil)
		st := l.invoke(numOps+op, args)
		if err := l.checkVec(numOps+op, s, (hi-lo)*sw, y != nil); err != nil {
			clear(dst)
			Fail(err)
			return
		}
		if st != statusOK {
			vecFailed(l, op, st, dst[lo:hi], x[lo:hi], yc)
			continue
		}
		unpack(dst[lo:hi], s.out, sw)
	}
	l.vpool.Put(s)
}

// scalar1 is the scalar operation of the one-operand vector op, with the
// scalar API's own fallbacks (Sqr: fprlab_sqr, else fprlab_mul).
func scalar1[V value](l *lib, op int, x V) V {
	if op == vecSqr {
		return ArithOf[V]{l}.Sqr(x)
	}
	return ArithOf[V]{l}.op1(vecScalar[op], x)
}

// vecFailed reports a vector function's status st through Fail: the
// element is found by calling the scalar function on the elements in
// order (the contract makes it fail on the same element); dst gets zero
// values, as a failed scalar operation returns.
func vecFailed[V value](l *lib, op int, st int32, dst, x, y []V) {
	elem := -1
	for i := range x {
		var err error
		if y != nil {
			_, err = l.call2(vecScalar[op], wide(x[i]), wide(y[i]))
		} else if op == vecSqr && l.fn[opSqr] == 0 {
			_, err = l.call2(opMul, wide(x[i]), wide(x[i]))
		} else {
			_, err = l.call1(vecScalar[op], wide(x[i]))
		}
		if err != nil {
			elem = i
			break
		}
	}
	clear(dst)
	Fail(&OpError{Backend: l.label, Op: vecNames[op], Code: st, Element: elem, Len: len(x)})
}

// AddN sets dst[i] = x[i] + y[i] (fprlab_add_n, else fprlab_add per element).
func (a ArithOf[V]) AddN(dst, x, y []V) { vec(a.lib, vecAdd, dst, x, y) }

// SubN sets dst[i] = x[i] - y[i] (fprlab_sub_n, else fprlab_sub).
func (a ArithOf[V]) SubN(dst, x, y []V) { vec(a.lib, vecSub, dst, x, y) }

// MulN sets dst[i] = x[i] * y[i] (fprlab_mul_n, else fprlab_mul).
func (a ArithOf[V]) MulN(dst, x, y []V) { vec(a.lib, vecMul, dst, x, y) }

// NegN sets dst[i] = -x[i] (fprlab_neg_n, else fprlab_neg).
func (a ArithOf[V]) NegN(dst, x []V) { vec(a.lib, vecNeg, dst, x, nil) }

// HalfN sets dst[i] = x[i]/2 (fprlab_half_n, else fprlab_half).
func (a ArithOf[V]) HalfN(dst, x []V) { vec(a.lib, vecHalf, dst, x, nil) }

// SqrN sets dst[i] = Sqr(x[i]) (fprlab_sqr_n; else fprlab_sqr per element
// where the plugin has it, else fprlab_mul_n(x, x), Sqr's own fallback).
func (a ArithOf[V]) SqrN(dst, x []V) {
	if a.fn[numOps+vecSqr] == 0 && a.fn[opSqr] == 0 {
		vec(a.lib, vecMul, dst, x, x)
		return
	}
	vec(a.lib, vecSqr, dst, x, nil)
}

// InvN sets dst[i] = 1/x[i] (fprlab_inv_n, else fprlab_inv).
func (a ArithOf[V]) InvN(dst, x []V) { vec(a.lib, vecInv, dst, x, nil) }

// OfN sets dst[i] = Of(src[i]) (fprlab_of_int64_n, else Of per element).
func (a ArithOf[V]) OfN(dst []V, src []int64) {
	n := len(dst)
	src = src[:n]
	if a.fn[numOps+vecOf] == 0 {
		for i, v := range src {
			dst[i] = a.Of(v)
		}
		return
	}
	s := a.vget()
	for lo := 0; lo < n; lo += vecChunk {
		hi := min(lo+vecChunk, n)
		for i, v := range src[lo:hi] {
			s.x[i] = uint64(v)
		}
		s.args1[3] = uintptr(hi - lo)
		sw := a.strideWords()
		s.x[hi-lo] = canary // the integers take a word each
		s.out[(hi-lo)*sw] = canary
		st := a.invoke(numOps+vecOf, s.args1[:4])
		switch {
		case s.out[(hi-lo)*sw] != canary:
			clear(dst)
			Fail(a.overrun(numOps+vecOf, "output array"))
			return
		case s.x[hi-lo] != canary:
			clear(dst)
			Fail(a.overrun(numOps+vecOf, "operand array"))
			return
		}
		if st != statusOK {
			ofFailed(a.lib, st, dst[lo:hi], src[lo:hi])
			continue
		}
		unpack(dst[lo:hi], s.out, a.strideWords())
	}
	a.vpool.Put(s)
}

// ofFailed is vecFailed for fprlab_of_int64_n.
func ofFailed[V value](l *lib, st int32, dst []V, src []int64) {
	elem := -1
	for i, v := range src {
		var err error
		if l.fn[opOfInt64] != 0 {
			_, err = l.callInt(opOfInt64, 3, uint64(v), 0)
		} else {
			_, err = l.fromParts(intParts(v, 0))
		}
		if err != nil {
			elem = i
			break
		}
	}
	clear(dst)
	Fail(&OpError{Backend: l.label, Op: vecNames[vecOf], Code: st, Element: elem, Len: len(src)})
}

// VectorFunctions lists the vector functions the plugin exports.
func (a ArithOf[V]) VectorFunctions() []string {
	var fs []string
	for op, f := range a.fn[numOps:opRun] {
		if f != 0 {
			fs = append(fs, "fprlab_"+vecNames[op])
		}
	}
	return fs
}

// vecMessage is the part of an OpError's message about the element of a
// vector function.
func (e *OpError) vecMessage() string {
	if e.Len == 0 {
		return ""
	}
	if e.Element < 0 {
		return fmt.Sprintf(" on a batch of %d values (the scalar function fails on none of them)", e.Len)
	}
	return fmt.Sprintf(" at element %d of %d", e.Element, e.Len)
}
