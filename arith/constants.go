package arith

import (
	"fmt"
	"math"
	"math/big"

	"github.com/ALTree/bigfloat"
)

// Constant names one of the floating-point constants the reference uses
// (fpr.h). Indexed families (1/sigma, sigma_min, 2^(1-logn)) are reached
// through InvSigma, SigmaMin and P2.
//
// Constants are named in code, never read from input, so a value outside
// 0..NumConstants-1, or a logn outside 0..MaxLogN given to InvSigma,
// SigmaMin or P2, is a programming error: the functions of this file panic
// on it, as an index out of range does, rather than return an error that
// every floating-point operation would have to carry.
type Constant int

// The reference's scalar constants.
const (
	Zero          Constant = iota // 0
	One                           // 1
	Two                           // 2
	OneHalf                       // 1/2
	InvSqrt2                      // 1/sqrt(2)
	InvSqrt8                      // 1/sqrt(8)
	Q                             // q = 12289
	InvQ                          // 1/q
	Inv2SqrSigma0                 // 1/(2*sigma_max^2), sigma_max = 1.8205
	Log2                          // ln 2
	InvLog2                       // 1/ln 2
	BnormMax                      // 16822.4121, the Gram-Schmidt norm bound of keygen
	PTwo31                        // 2^31
	PTwo31m1                      // 2^31-1
	MTwo31m1                      // -(2^31-1)
	PTwo63m1                      // 2^63-1 as binary64 (= 2^63)
	MTwo63m1                      // -(2^63-1) as binary64 (= -2^63)
	PTwo63                        // 2^63
	numScalar
)

// Offsets of the indexed families; each holds entries for logn = 0..10
// (entry 0 of InvSigma and SigmaMin is unused by the reference and is 0).
const (
	invSigmaBase = numScalar + 11*iota
	sigmaMinBase
	p2Base
	numConstants
)

// MaxLogN is the largest degree exponent Falcon defines (n = 1024).
const MaxLogN = 10

// InvSigma is 1/sigma for degree 2^logn (fpr_inv_sigma[logn]), 1 <= logn <= 10
// (it panics for logn > 10; see Constant).
func InvSigma(logn uint) Constant { return invSigmaBase + Constant(checkLogn(logn)) }

// SigmaMin is sigma_min for degree 2^logn (fpr_sigma_min[logn]), 1 <= logn <=
// 10 (it panics for logn > 10; see Constant).
func SigmaMin(logn uint) Constant { return sigmaMinBase + Constant(checkLogn(logn)) }

// P2 is 2^(1-logn) (fpr_p2_tab[logn]), the scale of the inverse FFT, 0 <= logn <= 10
// (it panics for logn > 10; see Constant).
func P2(logn uint) Constant { return p2Base + Constant(checkLogn(logn)) }

func checkLogn(logn uint) uint {
	if logn > MaxLogN {
		panic(fmt.Sprintf("arith: logn %d out of range 0..10", logn))
	}
	return logn
}

// NumConstants is the number of distinct Constant values; valid constants
// are 0 <= c < NumConstants.
const NumConstants = int(numConstants)

// binary64Bits holds the reference's binary64 bit patterns (fpr.h, FPEMU
// build), which are also the values of its native build.
var binary64Bits = func() [numConstants]uint64 {
	var t [numConstants]uint64
	scalar := map[Constant]uint64{
		Zero:          0,
		One:           4607182418800017408,
		Two:           4611686018427387904,
		OneHalf:       4602678819172646912,
		InvSqrt2:      4604544271217802189,
		InvSqrt8:      4600040671590431693,
		Q:             4667981563525332992,
		InvQ:          4545632735260551042,
		Inv2SqrSigma0: 4594603506513722306,
		Log2:          4604418534313441775,
		InvLog2:       4609176140021203710,
		BnormMax:      4670353323383631276,
		PTwo31:        4746794007248502784,
		PTwo31m1:      4746794007244308480,
		MTwo31m1:      13970166044099084288,
		PTwo63m1:      4890909195324358656,
		MTwo63m1:      14114281232179134464,
		PTwo63:        4890909195324358656,
	}
	for c, b := range scalar {
		t[c] = b
	}
	invSigma := [11]uint64{0,
		4574611497772390042, 4574501679055810265, 4574396282908341804,
		4574245855758572086, 4574103865040221165, 4573969550563515544,
		4573842244705920822, 4573721358406441454, 4573606369665796042,
		4573496814039276259}
	sigmaMin := [11]uint64{0,
		4607707126469777035, 4607777455861499430, 4607846828256951418,
		4607949175006100261, 4608049571757433526, 4608148125896792003,
		4608244935301382692, 4608340089478362016, 4608433670533905013,
		4608525754002622308}
	for i := range 11 {
		t[invSigmaBase+Constant(i)] = invSigma[i]
		t[sigmaMinBase+Constant(i)] = sigmaMin[i]
		t[p2Base+Constant(i)] = math.Float64bits(math.Ldexp(1, 1-i))
	}
	return t
}()

// Binary64 returns the reference's binary64 value of c (it panics for a c
// that is not a Constant; see Constant).
func Binary64(c Constant) float64 { return math.Float64frombits(binary64Bits[c]) }

// String names the constant as the reference does.
func (c Constant) String() string {
	names := [...]string{"zero", "one", "two", "onehalf", "invsqrt2", "invsqrt8",
		"q", "inverse_of_q", "inv_2sqrsigma0", "log2", "inv_log2", "bnorm_max",
		"ptwo31", "ptwo31m1", "mtwo31m1", "ptwo63m1", "mtwo63m1", "ptwo63"}
	switch {
	case c >= 0 && c < numScalar:
		return names[c]
	case c >= invSigmaBase && c < sigmaMinBase:
		return fmt.Sprintf("inv_sigma[%d]", c-invSigmaBase)
	case c >= sigmaMinBase && c < p2Base:
		return fmt.Sprintf("sigma_min[%d]", c-sigmaMinBase)
	case c >= p2Base && c < numConstants:
		return fmt.Sprintf("p2_tab[%d]", c-p2Base)
	}
	return fmt.Sprintf("Constant(%d)", int(c))
}

// Exact returns c at prec bits, rounded to nearest even. Constants with a
// mathematical definition (1/q, ln 2, 1/sqrt 2, 1/(2*1.8205^2), powers of
// two) are computed at that precision. The sigma-dependent parameters
// (1/sigma, sigma_min) and the Gram-Schmidt bound 16822.4121 are defined by
// the reference as binary64 values, and Exact returns exactly those values:
// they are parameters of the scheme, not results of arithmetic. It panics
// for a c that is not a Constant (see Constant).
func Exact(c Constant, prec uint) *big.Float {
	z := new(big.Float).SetPrec(prec)
	switch c {
	case InvSqrt2, InvSqrt8:
		d := int64(2)
		if c == InvSqrt8 {
			d = 8
		}
		w := new(big.Float).SetPrec(prec + 16).SetInt64(d)
		w.Sqrt(w)
		return z.Quo(big.NewFloat(1), w)
	case InvQ:
		return z.Quo(big.NewFloat(1), big.NewFloat(12289))
	case Inv2SqrSigma0:
		// sigma_max = 1.8205 = 18205/10^4: 1/(2 sigma_max^2) = 10^8/(2*18205^2).
		return z.Quo(big.NewFloat(1e8), new(big.Float).SetInt64(2*18205*18205))
	case Log2:
		return z.Set(Ln2(prec + 16))
	case InvLog2:
		return z.Quo(big.NewFloat(1), Ln2(prec+16))
	}
	return z.SetFloat64(Binary64(c))
}

// Defined returns c at prec bits from its definition, as a format that
// holds every constant at its own precision needs it. It is Exact(c, prec)
// except for the parameters Exact takes from the reference's binary64
// literals: 1/sigma and sigma_min come from the specification's formulas
// (InvSigmaFormula, SigmaMinFormula) and the Gram-Schmidt bound is its
// definition 1.17^2 q = 16822.4121 (Falcon specification v1.2, section
// 3.8.2, Algorithm 5 line 9), exactly. The reference's
// binary64 1/sigma is one ulp above the correctly rounded formula at every
// degree, its sigma_min and bound are the correct roundings (tested).
// 2^63-1 and its negative stay the reference's binary64 roundings (2^63):
// they are the range limits of its conversions, defined as binary64
// values. Entry 0 of the 1/sigma and sigma_min families, which the
// reference leaves 0, is 0. It panics for a c that is not a Constant.
func Defined(c Constant, prec uint) *big.Float {
	switch {
	case c == invSigmaBase || c == sigmaMinBase:
		return new(big.Float).SetPrec(prec)
	case c > invSigmaBase && c < sigmaMinBase:
		return InvSigmaFormula(uint(c-invSigmaBase), prec)
	case c > sigmaMinBase && c < p2Base:
		return SigmaMinFormula(uint(c-sigmaMinBase), prec)
	case c == BnormMax:
		// 1.17^2 q = 117^2 * 12289 / 10^4.
		return new(big.Float).SetPrec(prec).Quo(new(big.Float).SetInt64(117*117*12289), big.NewFloat(1e4))
	}
	return Exact(c, prec)
}

// SigmaMinFormula returns the specification's sigma_min for degree
// n = 2^logn at prec bits (Falcon specification v1.2, section 3.13):
//
//	sigma_min = (1/pi) sqrt(ln(4n (1 + 1/eps)) / 2),  1/eps = sqrt(2^64 lambda),
//
// with lambda = max(2, n/4) (128 for Falcon-512, 256 for Falcon-1024).
// logn must be in 1..10 (the degrees Falcon defines): another value is a
// programming error and panics, as InvSigma does.
func SigmaMinFormula(logn uint, prec uint) *big.Float {
	if logn < 1 || logn > MaxLogN {
		panic(fmt.Sprintf("arith: sigma_min of logn %d: Falcon defines logn 1..%d", logn, MaxLogN))
	}
	w := prec + 64
	n := int64(1) << logn
	lambda := max(2, n/4)
	invEps := new(big.Float).SetPrec(w).SetMantExp(new(big.Float).SetPrec(w).SetInt64(lambda), 64)
	invEps.Sqrt(invEps)
	x := new(big.Float).SetPrec(w).Add(invEps, new(big.Float).SetInt64(1))
	x.Mul(x, new(big.Float).SetPrec(w).SetInt64(4*n))
	bigfloatMu.Lock()
	l := bigfloat.Log(x)
	bigfloatMu.Unlock()
	l.Quo(l, new(big.Float).SetInt64(2))
	l.Sqrt(l)
	l.Quo(l, Pi(w))
	return new(big.Float).SetPrec(prec).Set(l)
}

// InvSigmaFormula returns 1/sigma = 1/(1.17 sqrt(q) sigma_min) at prec
// bits (Falcon specification v1.2, section 3.13), with sigma_min from
// SigmaMinFormula (1.17 = 117/100 exactly); logn must be in 1..10, as
// there.
func InvSigmaFormula(logn uint, prec uint) *big.Float {
	w := prec + 64
	sq := new(big.Float).SetPrec(w).SetInt64(12289)
	sq.Sqrt(sq)
	s := new(big.Float).SetPrec(w).Quo(new(big.Float).SetPrec(w).SetInt64(117), new(big.Float).SetPrec(w).SetInt64(100))
	s.Mul(s, sq)
	s.Mul(s, SigmaMinFormula(logn, w))
	return new(big.Float).SetPrec(prec).Quo(new(big.Float).SetPrec(w).SetInt64(1), s)
}
