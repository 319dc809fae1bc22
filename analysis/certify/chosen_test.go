package certify_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/cmplx"
	"slices"
	"testing"

	"github.com/fprlab/fprlab/analysis/certify"
	"github.com/fprlab/fprlab/falcon"
)

// targetEnergy returns sum over the roots w of x^n + 1 of |hm(w)|^2
// (|f(w)|^2 + |F(w)|^2): q^2 times the squared norm of ffSampling's root
// targets (t0, t1) = hm (-F, f) / q in FFT form, up to the FFT's scale.
func targetEnergy(sk *falcon.PrivateKey, hm []uint16) float64 {
	n := len(hm)
	var e float64
	for k := 1; k < 2*n; k += 2 {
		var h, f, F complex128
		for j := n - 1; j >= 0; j-- {
			w := cmplx.Rect(1, math.Pi*float64(k*j%(2*n))/float64(n))
			h += complex(float64(hm[j]), 0) * w
			f += complex(float64(sk.SmallF[j]), 0) * w
			F += complex(float64(sk.BigF[j]), 0) * w
		}
		a, b, c := cmplx.Abs(h), cmplx.Abs(f), cmplx.Abs(F)
		e += a * a * (b*b + c*c)
	}
	return e
}

// TestChosenPoints checks that the chosen hashed points are hashed points
// (n values in [0, q), here 0 or q - 1), distinct, and do what they are
// chosen for: ffSampling's root targets have a norm several times (here about 3 to 4 times) larger
// than for any of as many hashed messages.
func TestChosenPoints(t *testing.T) {
	sk := katKey(t, 9, 0)
	points := certify.ChosenPointsOf(sk)
	if len(points) != certify.ChosenPoints {
		t.Fatalf("%d points, want %d", len(points), certify.ChosenPoints)
	}
	var chosenMin float64 = math.Inf(1)
	for i, hm := range points {
		if len(hm) != 512 {
			t.Fatalf("point %d: %d values", i, len(hm))
		}
		for j, v := range hm {
			if v != 0 && v != falcon.Q-1 {
				t.Fatalf("point %d: value %d at %d", i, v, j)
			}
		}
		for k := range i {
			if slices.Equal(points[k], hm) {
				t.Errorf("points %d and %d are the same", k, i)
			}
		}
		chosenMin = math.Min(chosenMin, targetEnergy(sk, hm))
	}
	var drawnMax float64
	for j := range certify.ChosenPoints {
		nonce := make([]byte, falcon.NonceSize)
		copy(nonce, binary.LittleEndian.AppendUint64(nil, uint64(j)))
		hm := falcon.HashToPoint(nonce, fmt.Appendf(nil, "message %d", j), 9)
		drawnMax = math.Max(drawnMax, targetEnergy(sk, hm))
	}
	ratio := math.Sqrt(chosenMin / drawnMax)
	t.Logf("root targets' norm: chosen points at least %.2f times the largest of %d hashed messages'", ratio, certify.ChosenPoints)
	if ratio < 2.5 {
		t.Errorf("the chosen points' targets are only %.2f times the hashed messages' (want at least 2.5)", ratio)
	}
}
