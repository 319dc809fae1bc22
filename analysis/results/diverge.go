package results

import (
	"errors"
	"fmt"
	"math"
)

// Diverge is the document of `fprlab diverge --json` (DIR/result.json): two
// arithmetics signing the same keys, messages and randomness, and the pairs
// of signatures where they differ. It holds what report and plot read;
// analysis/diverge writes it (its Result), and a test there reads its own
// output back through this type.
type Diverge struct {
	Backend   string     `json:"backend"`
	Against   string     `json:"against"`
	N         int        `json:"n"`
	Seed      string     `json:"seed"`
	Keys      int        `json:"keys"`
	Compared  int        `json:"compared"`
	Differing int        `json:"differing"`
	Rate      float64    `json:"rate"`
	RateCI95  [2]float64 `json:"rate_ci95"`
	CIMethod  string     `json:"ci_method"`
	// KeyRevealing counts the pairs whose s2 difference is c x^k f or
	// c x^k F: the secret key.
	KeyRevealing int `json:"key_revealing"`
	// Right counts the pairs by which side signed as exact arithmetic
	// would ("A", "B", "neither", "undecided"); nil when not judged.
	Right map[string]int `json:"right,omitempty"`
	Ties  int            `json:"ties,omitempty"`
	Pairs []DivergePair  `json:"pairs"`
	Shard string         `json:"shard,omitempty"`
	// Scheme is the scheme signed ("" for Falcon round 3).
	Scheme string `json:"scheme,omitempty"`
}

// DivergePair is one differing pair of a Diverge document, as far as a
// report reads it.
type DivergePair struct {
	Index   int `json:"index"`
	Key     int `json:"key"`
	Parting struct {
		Attempt int     `json:"attempt"`
		Call    int     `json:"call"`
		Kind    string  `json:"kind"`
		Margin  float64 `json:"margin"`
	} `json:"first_decision"`
	Diff struct {
		Kind    string  `json:"kind"`
		C       int     `json:"c,omitempty"`
		K       int     `json:"k,omitempty"`
		Norm    float64 `json:"norm"`
		Nonzero int     `json:"nonzero"`
	} `json:"difference"`
	Exact *struct {
		Right string `json:"right"`
		Tie   bool   `json:"tie,omitempty"`
	} `json:"exact,omitempty"`
}

// KeyRevealing reports whether the pair's difference is the secret key.
func (p *DivergePair) KeyRevealing() bool { return p.Diff.Kind == "f" || p.Diff.Kind == "F" }

// DivergeDoc is a parsed diverge document.
type DivergeDoc struct {
	File string
	Diverge
}

// Name is "A vs B, n = N".
func (d *Diverge) Name() string {
	if d.Scheme != "" {
		return fmt.Sprintf("%s vs %s, %s n = %d", d.Backend, d.Against, d.Scheme, d.N)
	}
	return fmt.Sprintf("%s vs %s, n = %d", d.Backend, d.Against, d.N)
}

// validate checks the counts against each other and the pairs.
func (d *Diverge) validate() error {
	switch {
	case d.Backend == "" || d.Against == "":
		return errors.New(`needs "backend" and "against"`)
	case d.N != 512 && d.N != 1024 && (d.N < 2 || d.N > 1024 || d.N&(d.N-1) != 0):
		return fmt.Errorf("degree n = %d: want a power of two up to 1024", d.N)
	case d.Compared <= 0:
		return fmt.Errorf("compared %d: want at least one signature", d.Compared)
	case d.Differing < 0 || d.Differing > d.Compared:
		return fmt.Errorf("differing %d of %d compared", d.Differing, d.Compared)
	case d.Differing != len(d.Pairs):
		return fmt.Errorf("differing %d but %d pairs listed", d.Differing, len(d.Pairs))
	case d.KeyRevealing < 0 || d.KeyRevealing > d.Differing:
		return fmt.Errorf("key_revealing %d of %d differing", d.KeyRevealing, d.Differing)
	case math.IsNaN(d.Rate) || math.Abs(d.Rate-float64(d.Differing)/float64(d.Compared)) > 1e-9:
		return fmt.Errorf("rate %g is not differing/compared = %d/%d", d.Rate, d.Differing, d.Compared)
	case !(d.RateCI95[0] <= d.Rate && d.Rate <= d.RateCI95[1] && d.RateCI95[0] >= 0 && d.RateCI95[1] <= 1):
		return fmt.Errorf("rate_ci95 %v does not hold the rate %g within [0, 1]", d.RateCI95, d.Rate)
	}
	revealing, judged := 0, 0
	for i := range d.Pairs {
		if d.Pairs[i].KeyRevealing() {
			revealing++
		}
		if d.Pairs[i].Exact != nil {
			judged++
		}
	}
	if revealing != d.KeyRevealing {
		return fmt.Errorf("key_revealing %d but %d pairs are", d.KeyRevealing, revealing)
	}
	total := 0
	for k, n := range d.Right {
		if n < 0 {
			return fmt.Errorf("right[%q] = %d", k, n)
		}
		total += n
	}
	if d.Right != nil && total != judged {
		return fmt.Errorf("right counts %d pairs but %d are judged", total, judged)
	}
	return nil
}
