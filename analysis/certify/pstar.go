package certify

import (
	"fmt"
	"math"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// The range of precisions PStar searches: vprec:PStarLow to
// vprec:PStarHigh (round to nearest, 11-bit exponent).
const PStarLow, PStarHigh = 24, 160

// PStarResult is the certified P* of one key.
type PStarResult struct {
	// PStar is the least P at which vprec:P is proven (bound <= Target);
	// nil when none up to PStarHigh is.
	PStar *int `json:"pstar"`
	// SumBoundLog2 is log2 of the bound at PStar; BelowLog2 that at
	// PStar - 1, which is not proven (nil when PStar is PStarLow). Both
	// are absent from certify --pstar's JSON when nil.
	SumBoundLog2 *float64 `json:"sum_bound_log2,omitempty"`
	BelowLog2    *float64 `json:"below_sum_bound_log2,omitempty"`
}

// PStar finds the least P with vprec:P proven for sk signing scheme sc
// (nil: round 3), by bisection between PStarLow and PStarHigh, and checks
// the answer: proven at P*, not at P* - 1. Bisection assumes the bound
// falls as P grows; a key where it does not is reported as an error
// rather than given a wrong P*.
func PStar(sk *falcon.PrivateKey, sc scheme.Scheme, sigma shadow.ExactSigma) (PStarResult, error) {
	var res PStarResult
	sums := map[int]float64{}
	bound := func(p int) (float64, error) {
		if v, ok := sums[p]; ok {
			return v, nil
		}
		b, err := arith.Lookup(fmt.Sprintf("vprec:%d", p))
		if err != nil {
			return 0, err
		}
		m, err := ModelFor(b, "")
		if err != nil {
			return 0, err
		}
		r, err := Certify(b, sk, Options{Model: m, Scheme: sc, Sigma: sigma})
		if err != nil {
			return 0, err
		}
		sums[p] = r.SumBound
		return r.SumBound, nil
	}
	top, err := bound(PStarHigh)
	if err != nil || top > Target {
		return res, err
	}
	lo, hi := PStarLow-1, PStarHigh // bound(lo) unknown or above, bound(hi) proven
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		v, err := bound(mid)
		if err != nil {
			return res, err
		}
		if v <= Target {
			hi = mid
		} else {
			lo = mid
		}
	}
	p := hi
	at := math.Log2(sums[p])
	res.PStar, res.SumBoundLog2 = &p, &at
	if p > PStarLow {
		v, err := bound(p - 1)
		if err != nil {
			return res, err
		}
		if v <= Target {
			return res, fmt.Errorf("vprec:%d is proven but vprec:%d, above it, was not found by bisection: the bound is not monotone in P here", p-1, p)
		}
		below := math.Log2(v)
		res.BelowLog2 = &below
	}
	return res, nil
}

// Summarize certifies each key signing scheme sc (nil: round 3) over b and
// gives the worst bounds and the number proven, as a compare summary
// records them (compare --certify).
func Summarize(b arith.Backend, sc scheme.Scheme, sigma shadow.ExactSigma, keys []*falcon.PrivateKey) (*shadow.Certified, error) {
	m, err := ModelFor(b, "")
	if err != nil {
		return nil, err
	}
	c := &shadow.Certified{Keys: len(keys), SumBoundLog2: math.Inf(-1), DeltaCBoundLog2: math.Inf(-1), ErrorModel: m.String()}
	for _, sk := range keys {
		r, err := Certify(b, sk, Options{Model: m, Scheme: sc, Sigma: sigma})
		if err != nil {
			return nil, err
		}
		if r.Proven {
			c.Proven++
		}
		c.SumBoundLog2 = math.Max(c.SumBoundLog2, math.Log2(r.SumBound))
		c.DeltaCBoundLog2 = math.Max(c.DeltaCBoundLog2, math.Log2(r.DeltaCBound))
	}
	return c, nil
}
