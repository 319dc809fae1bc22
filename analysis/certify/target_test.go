package certify

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRootTermsCombine checks that rootTerms weighs FFT(hm)'s errors by
// the combined functional G = ga conj(b11) - gb conj(b01), with the signs
// of t0 = FFT(hm) b11 / q and t1 = -FFT(hm) b01 / q: when gb = conj(l) ga
// with l = b11 / b01 slot by slot, G vanishes and only the other terms
// remain; with gb = -conj(l) ga, |G| = 2 |ga b11|. Either way the FFT
// term is at most the norm analysis's |ga| max|b11| + |gb| max|b01|.
func TestRootTermsCombine(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 1))
	const h = 64
	cplx := func(s float64) complex128 { return complex(s*r.NormFloat64(), s*r.NormFloat64()) }
	bd := &bounder{b: binary64Native, x: exactModel(256)}
	tr := &bd.tgt
	tr.fe[stTarget] = 1 // FFT(hm)'s errors: norm 1, all in one stage
	tr.b[0], tr.b[1] = make([]complex128, h), make([]complex128, h)
	ga, gPlus, gMinus := make([]complex128, h), make([]complex128, h), make([]complex128, h)
	var sa float64
	for u := range h {
		tr.b[0][u], tr.b[1][u] = cplx(100), cplx(30)
		tr.bmax[0] = math.Max(tr.bmax[0], absUp(tr.b[0][u]))
		tr.bmax[1] = math.Max(tr.bmax[1], absUp(tr.b[1][u]))
		ga[u] = cplx(1)
		l := tr.b[0][u] / tr.b[1][u]
		gPlus[u] = conj(l) * ga[u]
		gMinus[u] = -gPlus[u]
		sa += real(ga[u]*conj(ga[u])) * real(tr.b[0][u]*conj(tr.b[0][u]))
	}
	iq := 1.0 / q
	norm := (normUp(ga)*tr.bmax[0] + normUp(gPlus)*tr.bmax[1]) * iq
	// G = 0 up to the float64 rounding of l and of the products: the
	// FFT term is then the carried rounding bound, far below |ga b11| / q.
	if e := bd.rootTerms(ga, gPlus, 0, 0)[stTarget]; !(e < 1e-12*math.Sqrt(sa)*iq) {
		t.Errorf("gb = conj(b11/b01) ga: FFT term %g, want about 0 (|ga b11|/q = %g)", e, math.Sqrt(sa)*iq)
	}
	want := 2 * math.Sqrt(sa) * iq
	if e := bd.rootTerms(ga, gMinus, 0, 0)[stTarget]; !(e >= want && e <= want*(1+1e-12)) || e > norm*(1+1e-12) {
		t.Errorf("gb = -conj(b11/b01) ga: FFT term %g, want 2 |ga b11| / q = %g (norm analysis %g)", e, want, norm)
	}
	// The right child's centres depend on t1 alone: |G| = |gb b01|.
	var sb float64
	for u := range h {
		sb += real(gPlus[u]*conj(gPlus[u])) * real(tr.b[1][u]*conj(tr.b[1][u]))
	}
	if e, w := bd.rootTerms(nil, gPlus, 0, 0)[stTarget], math.Sqrt(sb)*iq; !(e >= w && e <= w*(1+1e-12)) {
		t.Errorf("ga = 0: FFT term %g, want |gb b01| / q = %g", e, w)
	}
}

func conj(c complex128) complex128 { return complex(real(c), -imag(c)) }
