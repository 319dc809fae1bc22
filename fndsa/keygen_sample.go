package fndsa

import (
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/shakeprng"
)

// Key generation, first half: drawing the candidate secrets f and g from a
// seed and the cheap tests a candidate must pass before NTRUSolve is tried,
// as go-fn-dsa (commit e24833f, kgen.go and kgen_gauss.go) does it. FIPS 206
// is not final; these are facts of that implementation, not of a standard.
//
// A candidate is drawn from the SHAKE256 stream of the seed (package
// shakeprng), f first and then g, and is rejected, in this order, if
// ||(g, -f)||^2 >= 16823 (the bound 1.17^2*q = 16822.41 of the Falcon
// specification, section 3.8.2), if f is not invertible modulo
// (X^n+1, q), or if the Gram-Schmidt norm of its orthogonalized vector is
// too large (checkOrthoNorm, fixed point). Rejected candidates are simply
// followed by the next two polynomials of the stream.

// gaussCDF holds, per degree class, the cumulative distribution (scaled to
// 2^16) of the centred discrete Gaussian of standard deviation
// 1.17*sqrt(q/(2n)) that f and g coefficients follow, for values -k..k-1
// with k = len/2 (Falcon specification, section 3.8.2; the table values
// are go-fn-dsa's). Degrees below 256 add 256/n samples of the degree-256
// distribution, whose variance then scales as 1/n too.
var (
	gaussCDF256 = []uint16{
		1, 3, 6, 11, 22, 40, 73, 129, 222, 371, 602, 950, 1460, 2183, 3179, 4509,
		6231, 8395, 11032, 14150, 17726, 21703, 25995, 30487, 35048, 39540, 43832, 47809, 51385, 54503, 57140, 59304,
		61026, 62356, 63352, 64075, 64585, 64933, 65164, 65313, 65406, 65462, 65495, 65513, 65524, 65529, 65532, 65534,
	}
	gaussCDF512 = []uint16{
		1, 4, 11, 28, 65, 146, 308, 615, 1164, 2083, 3535, 5692, 8706, 12669, 17574, 23285,
		29542, 35993, 42250, 47961, 52866, 56829, 59843, 62000, 63452, 64371, 64920, 65227, 65389, 65470, 65507, 65524,
		65531, 65534,
	}
	gaussCDF1024 = []uint16{
		2, 8, 28, 94, 280, 742, 1761, 3753, 7197, 12472, 19623, 28206, 37329, 45912, 53063, 58338,
		61782, 63774, 64793, 65255, 65441, 65507, 65527, 65533,
	}
)

// sampleSmall fills f with one polynomial of odd parity (odd sum of
// coefficients) from p: whole polynomials of even parity are discarded and
// redrawn, as are single coefficients outside [-127, 127] (possible only
// for n <= 16, where many samples are added).
//
// One sample reads 16 bits y and counts the table entries below y; the
// count is shifted by -len/2. The comparison is done without branches on
// y (a borrow into bit 16), which also fixes the result for y equal to an
// entry: an entry counts when it is strictly below y.
func sampleSmall(logn uint, p *shakeprng.PRNG, f []int8) {
	tab, reps := gaussCDF256, 1
	switch {
	case logn == 9:
		tab = gaussCDF512
	case logn == 10:
		tab = gaussCDF1024
	case logn < 8:
		reps = 1 << (8 - logn)
	}
	half := int32(len(tab) / 2)
	n := 1 << logn
	for {
		parity := int32(0)
		for i := 0; i < n; {
			s := int32(0)
			for range reps {
				y := uint32(p.U16())
				s -= half
				for _, c := range tab {
					s += int32((uint32(c) - y) >> 31)
				}
			}
			if s < -127 || s > 127 {
				continue
			}
			f[i] = int8(s)
			parity ^= s
			i++
		}
		if parity&1 != 0 {
			return
		}
	}
}

// candidateVerdict names the first test a candidate (f, g) fails, "" if it
// passes them all and goes on to NTRUSolve.
func candidateVerdict(logn uint, f, g []int8) string {
	sn := int32(0)
	for i := range f {
		sn += int32(f[i])*int32(f[i]) + int32(g[i])*int32(g[i])
	}
	if sn >= 16823 {
		return "norm"
	}
	if _, err := falcon.ComputePublic(f, g, logn); err != nil {
		return "invertible"
	}
	if !checkOrthoNorm(logn, f, g) {
		return "ortho"
	}
	return ""
}
