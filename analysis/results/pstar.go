package results

import (
	"fmt"
	"sort"
)

// Criterion is a precision requirement P* answers.
type Criterion string

// The criteria of P*.
const (
	// Worst: the per-signature worst delta_c + delta_sigma (the maximum
	// over all signatures of the maximum over their sampler calls) is at
	// most 2^-46, the Falcon specification's bound.
	Worst Criterion = "worst"
	// Median: the median over sampler calls of delta_c + delta_sigma is
	// at most 2^-46.
	Median Criterion = "median"
	// NoFlips: no decision flip occurred in the sample.
	NoFlips Criterion = "flips"
)

// Criteria lists them in report order.
var Criteria = []Criterion{Worst, Median, NoFlips}

// Describe says what the criterion requires.
func (c Criterion) Describe() string {
	switch c {
	case Worst:
		return "per-signature worst δc+δσ ≤ 2^-46"
	case Median:
		return "per-leaf median δc+δσ ≤ 2^-46"
	case NoFlips:
		return "no decision flip in the sample"
	}
	return string(c)
}

// Curve identifies the points of a sweep that form one curve: one Falcon
// degree, one rounding, one exponent width.
type Curve struct {
	Params   int
	Rounding string
	ExpBits  int
}

// String is the curve's legend: "Falcon-512 rn", "Falcon-512 rz e11".
func (c Curve) String() string {
	s := fmt.Sprintf("Falcon-%d %s", c.Params, c.Rounding)
	if c.ExpBits > 0 {
		s += fmt.Sprintf(" e%d", c.ExpBits)
	}
	return s
}

// Curves groups the swept points (not the reference backends) by curve,
// each sorted by precision, curves in a stable order.
func Curves(pts []Point) ([]Curve, map[Curve][]Point) {
	m := map[Curve][]Point{}
	for _, p := range pts {
		if !p.IsSwept() {
			continue
		}
		r, e := p.Family()
		k := Curve{int(p.Params), r, e}
		m[k] = append(m[k], p)
	}
	keys := make([]Curve, 0, len(m))
	for k, v := range m {
		sort.SliceStable(v, func(i, j int) bool { return v[i].Bits < v[j].Bits })
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.Params != b.Params {
			return a.Params < b.Params
		}
		if a.Rounding != b.Rounding {
			return a.Rounding < b.Rounding
		}
		return a.ExpBits < b.ExpBits
	})
	return keys, m
}

// PStar is the answer to "how many significand bits are enough" for one
// curve and criterion.
type PStar struct {
	Curve     Curve
	Criterion Criterion
	// Bits is the least swept precision P at which the criterion holds,
	// at P and at every larger swept precision of the curve (so that one
	// lucky point below a failing one does not count). Found is false
	// when it holds at no precision (or fails at the largest).
	Bits  int
	Found bool
	// AtLowest: the criterion already holds at the lowest swept
	// precision, so P* is at most Bits.
	AtLowest bool
	// Known is false when the documents lack the data (no flips field).
	Known bool
	// Signatures is the smallest sample size among the curve's points.
	Signatures int64
	// Range is the swept precision range.
	MinBits, MaxBits int
}

// holds evaluates a criterion on one point; known is false without data.
func holds(p *Point, c Criterion) (ok, known bool) {
	switch c {
	case Worst:
		v := p.PerSignature.Sum.Max
		return float64(v) <= -46, !isNaN(v)
	case Median:
		v := p.PerLeaf.Sum.Median
		return float64(v) <= -46, !isNaN(v)
	case NoFlips:
		n, ok := p.FlipsTotal()
		return n == 0, ok
	}
	return false, false
}

func isNaN(l Log2) bool { return l != l }

// PStars computes P* for every curve and criterion.
func PStars(pts []Point) []PStar {
	keys, m := Curves(pts)
	var out []PStar
	for _, k := range keys {
		v := m[k]
		for _, c := range Criteria {
			ps := PStar{Curve: k, Criterion: c, Known: true, MinBits: v[0].Bits, MaxBits: v[len(v)-1].Bits, Signatures: v[0].Signatures}
			for i := len(v) - 1; i >= 0; i-- {
				ok, known := holds(&v[i], c)
				if !known {
					ps.Known = false
					break
				}
				if !ok {
					break
				}
				ps.Bits, ps.Found, ps.AtLowest = v[i].Bits, true, i == 0
			}
			for _, p := range v {
				ps.Signatures = min(ps.Signatures, p.Signatures)
			}
			if !ps.Known {
				ps.Found = false
			}
			out = append(out, ps)
		}
	}
	return out
}

// String renders the answer: "P* = 49", "P* <= 24", "none up to 80", "unknown".
func (p PStar) String() string {
	switch {
	case !p.Known:
		return "not in the data"
	case !p.Found:
		return fmt.Sprintf("none up to %d bits", p.MaxBits)
	case p.AtLowest:
		return fmt.Sprintf("≤ %d bits", p.Bits)
	}
	return fmt.Sprintf("%d bits", p.Bits)
}
