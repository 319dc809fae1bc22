package diverge

import (
	"math"

	"github.com/fprlab/fprlab/falcon"
)

// MaxMultiple is the largest |c| Structure looks for in d = c x^k P.
const MaxMultiple = 8

// Difference is the structure of d = s2_A - s2_B for a differing pair.
type Difference struct {
	// Kind is "f" or "F" when d = C x^K f (or F), x^K f the negacyclic
	// rotation of f (x^K f mod x^n + 1): the secret key. Otherwise it is
	// "other" and only Norm says anything.
	Kind string `json:"kind"`
	C    int    `json:"c,omitempty"`
	K    int    `json:"k,omitempty"`
	// Norm is the Euclidean norm of d.
	Norm float64 `json:"norm"`
	// Nonzero counts d's nonzero coefficients.
	Nonzero int `json:"nonzero"`
}

// KeyRevealing reports whether the difference is a small multiple of a
// rotation of f or F.
func (d Difference) KeyRevealing() bool { return d.Kind == "f" || d.Kind == "F" }

// Structure classifies d = s2a - s2b against the private key.
func Structure(sk *falcon.PrivateKey, s2a, s2b []int16) Difference {
	d := make([]int, len(s2a))
	var out Difference
	var sq float64
	for i := range d {
		d[i] = int(s2a[i]) - int(s2b[i])
		sq += float64(d[i] * d[i])
		if d[i] != 0 {
			out.Nonzero++
		}
	}
	out.Norm = math.Sqrt(sq)
	out.Kind = "other"
	for _, p := range []struct {
		name string
		poly []int8
	}{{"f", sk.SmallF}, {"F", sk.BigF}} {
		if c, k, ok := rotationMultiple(d, p.poly); ok {
			out.Kind, out.C, out.K = p.name, c, k
			return out
		}
	}
	return out
}

// rotate returns x^k p mod x^n + 1 for 0 <= k < n.
func rotate(p []int8, k int) []int {
	n := len(p)
	r := make([]int, n)
	for i, v := range p {
		j := i + k
		if j >= n {
			r[j-n] = -int(v)
		} else {
			r[j] = int(v)
		}
	}
	return r
}

// rotationMultiple finds c (0 < |c| <= MaxMultiple) and k with d = c x^k p.
func rotationMultiple(d []int, p []int8) (c, k int, ok bool) {
	if len(d) != len(p) {
		return 0, 0, false
	}
	first := -1
	for i, v := range d {
		if v != 0 {
			first = i
			break
		}
	}
	if first < 0 {
		return 0, 0, false
	}
	for k := range len(p) {
		r := rotate(p, k)
		if r[first] == 0 || d[first]%r[first] != 0 {
			continue
		}
		c := d[first] / r[first]
		if c == 0 || c > MaxMultiple || c < -MaxMultiple {
			continue
		}
		match := true
		for i := range d {
			if d[i] != c*r[i] {
				match = false
				break
			}
		}
		if match {
			return c, k, true
		}
	}
	return 0, 0, false
}
