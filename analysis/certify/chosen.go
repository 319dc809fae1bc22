package certify

import (
	"context"
	"crypto/sha3"
	"fmt"
	"math"
	"math/cmplx"
	"slices"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// Chosen hashed points: how far the worst case lies above the samples.
//
// A certificate holds for every hashed point; compare's samples are
// signatures of hashed points a hash function drew. The roundings a
// sampler's centre collects scale with the magnitudes of ffSampling's
// targets, and those are set by the hashed point: t = hm B / q in FFT
// form, whose value at a root of unity w has modulus |hm(w)| times the
// basis' there, sqrt(|f(w)|^2 + |F(w)|^2) / q (t0 = hm (-F) / q,
// t1 = hm f / q up to sign). A hash draws hm uniformly, so |hm(w)| is
// about sqrt(n) q / sqrt(12) at every root and the targets are typical;
// a hashed point chosen for the key instead puts |hm(w)| near its
// largest, about (q - 1) n / pi, at the root where the basis is largest
// -- the box vector hm_j = q - 1 where cos(pi k j / n - phi) > 0 and 0
// elsewhere, for w = exp(i pi k / n) -- which makes the targets there
// several times larger than any drawn hashed point's. Signing such
// points measures delta_c where the certificate's magnitudes are
// reached, which no sample of drawn points does: a lower bound on the
// true worst case (below the certificate, and over enough attempts above
// the samples of drawn points), and a test of the certificate where its
// magnitudes are reached. No message hashes to such
// a point except by chance (the hash is what keeps signers from choosing
// it); the certificate covers it all the same.
//
// The certificate also covers every output of the sampler in its support,
// |z - mu| up to 19, where a drawn sample lies about 1.5 from its centre;
// the distances t - z reach the centres below through the updates t0 +
// (t1 - z1) l10 and set the magnitudes of the merges. So the attempts can
// also fix their samples at the edge of the support (Check.Edge,
// falcon.WithEdgeSamples): z0 = 18 at every call, a sign drawn. Such
// samples have a vanishing probability -- the base sampler draws z0 = 18
// with probability 2^-72, and BerExp may still reject it -- but they are
// in the support the certificate is stated for, and they raise the
// measured error by about a bit (docs/certify.md).

// Chosen points: the chosenRoots roots of unity where the key's basis is
// largest, each at chosenPhases phases.
const (
	chosenRoots  = 4
	chosenPhases = 5
	// ChosenPoints is how many distinct hashed points ChosenPointsOf
	// returns, over which CheckChosen cycles.
	ChosenPoints = chosenRoots * chosenPhases
)

// ChosenPointsOf returns the ChosenPoints hashed points chosen for sk (see
// above): for each of the chosenRoots roots w = exp(i pi k / n), k odd,
// with the largest |f(w)|^2 + |F(w)|^2 (one of each conjugate pair; the
// polynomials are real), the box vectors aligned with w's mode at
// chosenPhases phases. The choice is a heuristic -- it aims at the
// targets' magnitudes, not at any rounding -- and needs no rigour: what
// it finds is measured, not assumed.
func ChosenPointsOf(sk *falcon.PrivateKey) [][]uint16 {
	n := 1 << sk.LogN
	type root struct {
		k int
		w float64
	}
	roots := make([]root, 0, n/2)
	for k := 1; k < n; k += 2 {
		step := cmplx.Rect(1, math.Pi*float64(k)/float64(n))
		var fw, Fw complex128
		p := complex(1, 0)
		for j := range n {
			fw += complex(float64(sk.SmallF[j]), 0) * p
			Fw += complex(float64(sk.BigF[j]), 0) * p
			p *= step
		}
		a, b := cmplx.Abs(fw), cmplx.Abs(Fw)
		roots = append(roots, root{k, a*a + b*b})
	}
	slices.SortStableFunc(roots, func(x, y root) int {
		if x.w != y.w {
			if x.w > y.w {
				return -1
			}
			return 1
		}
		return x.k - y.k
	})
	points := make([][]uint16, 0, ChosenPoints)
	for _, r := range roots[:min(chosenRoots, len(roots))] {
		for ph := range chosenPhases {
			phi := 2 * math.Pi * float64(ph) / chosenPhases
			hm := make([]uint16, n)
			for j := range n {
				// k j mod 2n keeps the angle exact in float64.
				if math.Cos(math.Pi*float64((r.k*j)%(2*n))/float64(n)-phi) > 0 {
					hm[j] = falcon.Q - 1
				}
			}
			points = append(points, hm)
		}
	}
	return points
}

// CheckChosen runs c.Chosen signing attempts of the hashed points
// ChosenPointsOf(sk) (attempt j signs point j mod ChosenPoints with a
// sampler seed derived from c.Seed and j), their sampler outputs at
// deviation c.Edge from the centres or drawn (shadow.Drawn), with sk over
// b under c.Shadow, as CheckSignatures signs messages, and returns the
// largest delta_c and delta_sigma measured. Every attempt counts, kept or
// not: the certificate bounds every attempt's centres, for every sampler
// output in the support -- z0 up to falcon.MaxBaseSample, whatever its
// probability. It stops with ctx's error when ctx is cancelled between
// attempts.
func CheckChosen(ctx context.Context, b arith.Backend, sc scheme.Scheme, sk *falcon.PrivateKey, c Check, progress func(done, total int)) (Sampled, error) {
	if c.Edge != shadow.Drawn && (c.Edge < 0 || c.Edge > falcon.MaxBaseSample) {
		return Sampled{}, fmt.Errorf("certify: chosen sampler outputs at deviation %d, outside the base sampler's support 0 to %d", c.Edge, falcon.MaxBaseSample)
	}
	points := ChosenPointsOf(sk)
	s, err := c.sample(ctx, b, sc, sk, c.Chosen, "attempts on chosen hashed points", func(s *shadow.Signer, j int) (*shadow.Record, error) {
		seed := sha3.Sum256(fmt.Appendf(nil, "%s chosen %d", c.Seed, j))
		return s.Attempt(sk, points[j%len(points)], seed[:], c.Edge)
	}, progress)
	s.Edge = c.Edge
	return s, err
}
