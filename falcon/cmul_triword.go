package falcon

import "github.com/fprlab/fprlab/arith/triword"

// cmulTriword is cmul (fft.go) with F = triword.TW, A = triword.Arith,
// written by hand (monogen's triwordHand): triword.Arith.CMul returns, bit
// for bit, cmul's Sub(Mul(xr, yr), Mul(xi, yi)) and Add(Mul(xr, yi),
// Mul(xi, yr)), but computes the four independent real products together,
// so that their latency chains overlap. The FFT-domain kernels spend most
// of triword signing in complex products.
func cmulTriword(a triword.Arith, xr, xi, yr, yi triword.TW) (triword.TW, triword.TW) {
	return a.CMul(xr, xi, yr, yi)
}
