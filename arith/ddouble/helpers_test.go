package ddouble

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith/oracle"
)

var dd Arith

// ora is the 256-bit oracle every result is checked against.
var ora = func() oracle.Arith {
	o, err := oracle.New(256)
	if err != nil {
		panic(err)
	}
	return o
}()

// samples returns n, or n/50 in -short mode.
func samples(n int) int {
	if testing.Short() {
		return n / 50
	}
	return n
}

// Falcon's signing values have binary exponents between about -110 and
// 80 (zeros aside); random operands are drawn over that range.
const minExp, maxExp = -110, 80

// randFloat returns a random binary64 number with exponent in [lo, hi]
// and a uniformly random significand and sign.
func randFloat(r *rand.Rand, lo, hi int) float64 {
	e := lo + r.IntN(hi-lo+1)
	x := math.Float64frombits(uint64(e+1023)<<52 | r.Uint64()&(1<<52-1))
	if r.IntN(2) == 0 {
		x = -x
	}
	return x
}

// randDD returns a random normalised double word with Hi's exponent in
// [lo, hi]: a random low part just below half an ulp of Hi (sometimes a
// few binades lower, sometimes zero), renormalised with 2Sum so that
// Hi = RN(Hi + Lo) holds whatever the draw.
func randDD(r *rand.Rand, lo, hi int) DD {
	h := randFloat(r, lo, hi)
	if r.IntN(16) == 0 {
		return DD{h, 0}
	}
	_, e := math.Frexp(h)
	l := randFloat(r, e-54-r.IntN(4), e-54)
	s, t := twoSum(h, l)
	return DD{s, t}
}

// isNormalised reports Hi = RN(Hi + Lo).
func isNormalised(x DD) bool { return x.Hi+x.Lo == x.Hi }

// relErr returns |got - exact| / |exact| (0 when both are zero, +Inf when
// only exact is).
func relErr(got, exact *big.Float) float64 {
	if exact.Sign() == 0 {
		if got.Sign() == 0 {
			return 0
		}
		return math.Inf(1)
	}
	d := new(big.Float).SetPrec(64).Sub(got, exact)
	d.Quo(d, exact)
	f, _ := d.Float64()
	return math.Abs(f)
}

// inU2 expresses a relative error in units of u^2 = 2^-106.
func inU2(e float64) float64 { return e / (u * u) }
