package arith

// Vector is an optional interface of an arithmetic: the element-wise
// operations of Arith over slices, for backends whose per-operation cost
// is dominated by a fixed overhead that a batch pays once (a plugin called
// through the C ABI, package cabi; the shadow's pair arithmetic over such
// a backend). Falcon's polynomial loops (the FFT, the splits and merges,
// the products and sums of the LDL tree and of ffSampling) use it when the
// arithmetic implements it.
//
// The contract is element-wise: for every i, dst[i] is exactly what the
// scalar operation returns for the operands at index i (AddN: Add(x[i],
// y[i]); SqrN: Sqr(x[i]), which need not be Mul(x[i], x[i])). So a result
// computed through Vector is, by definition, bit for bit the result of
// the scalar code, and only the order in which elements are computed
// differs: an arithmetic whose results depend on that order (a stochastic
// rounding drawing from a state) must not implement Vector.
//
// The slices have the same length (len(dst) elements are computed); dst
// may be the same slice as an operand (element i read before it is
// written) but must not overlap one otherwise.
type Vector[F any] interface {
	AddN(dst, x, y []F)
	SubN(dst, x, y []F)
	MulN(dst, x, y []F)
	NegN(dst, x []F)
	HalfN(dst, x []F)
	SqrN(dst, x []F)
	InvN(dst, x []F)
	// OfN sets dst[i] = Of(src[i]).
	OfN(dst []F, src []int64)
}
