package certify_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/analysis/certify"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/falcon"
)

// normRecorder measures, in a signing attempt, the norms of every inner
// node's targets t1 and t0 (before the update), of the merged samples z1
// and z0, and of t1 - z1 and t0 - z0, in the order the dynamic path
// merges. pair[L] is the target pair of the node at level L: the root's
// from the target, the others from their parent's split.
type normRecorder struct {
	pair    map[int][2][]float64
	dev     float64 // the largest |mu - z| at a sampler call
	level   []int
	iter    []int
	t, z, d []float64
}

func norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

func (r *normRecorder) Stage(st falcon.Stage, level, iter int, values ...[]float64) {
	switch st {
	case falcon.StageTarget:
		r.pair[level] = [2][]float64{append([]float64(nil), values[0]...), append([]float64(nil), values[1]...)}
	case falcon.StageSplit:
		v, h := values[0], len(values[0])/2
		r.pair[level-1] = [2][]float64{append([]float64(nil), v[:h]...), append([]float64(nil), v[h:]...)}
	case falcon.StageMerge:
		t, z := r.pair[level][iter], values[0]
		diff := make([]float64, len(t))
		for i := range t {
			diff[i] = t[i] - z[i]
		}
		r.level, r.iter = append(r.level, level), append(r.iter, iter)
		r.t, r.z, r.d = append(r.t, norm(t)), append(r.z, norm(z)), append(r.d, norm(diff))
	}
}

func (r *normRecorder) Sample(mu, isigma float64, z int64, rejections int) {
	r.dev = math.Max(r.dev, math.Abs(mu-float64(z)))
}
func (r *normRecorder) BerExp(expm uint64, shift uint, drawn uint64, nbytes int, accept bool) {}
func (r *normRecorder) Attempt(at *falcon.Attempt)                                            {}

// TestNodeNorms checks the norm bounds of step 6 of the analysis against
// the norms signing attempts show at every inner node: of the targets, of
// the merged samples and of the targets less the samples. The analysis
// bounds them for every sampler output in the support (|mu - z| < 19);
// the attempts' samples lie far closer to their centres, so the check
// takes the bounds the analysis gives for the attempts' own largest
// |mu - z| -- otherwise no error in how deviations add up the tree could
// show. |t0 - z0| must count the update: z0 is sampled around
// t0 + (t1 - z1) l10, not t0, so it reaches |l10| |t1 - z1| beyond the
// leaves' own deviations (the test fails without that term). The
// attempts run over native, whose values are within the certified errors
// (relative 2^-29 here) of the real-number run R the bounds speak of;
// hashed points are random, and one extreme (all q - 1).
func TestNodeNorms(t *testing.T) {
	b := lookup(t, "native")
	m, err := certify.ModelFor(b, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, logn := range []uint{9, 10} {
		if testing.Short() && logn == 10 {
			continue
		}
		sk := katKey(t, logn, 0)
		n := 1 << logn
		r := rand.New(rand.NewPCG(uint64(logn), 34))
		var recs []*normRecorder
		dev := 0.0
		for trial := range 4 {
			hm := make([]uint16, n)
			for i := range hm {
				if trial == 0 {
					hm[i] = falcon.Q - 1
				} else {
					hm[i] = uint16(r.IntN(falcon.Q))
				}
			}
			seed := make([]byte, 56)
			seed[0] = byte(trial)
			rec := &normRecorder{pair: map[int][2][]float64{}}
			ib := falcon.Instantiate[float64](b, native.Arith{}, falcon.Observer[float64](rec))
			if _, err := falcon.SignAttemptDyn(ib, sk, hm, seed); err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
			dev = math.Max(dev, rec.dev)
		}
		res, err := certify.Certify(b, sk, certify.WithLeafDeviation(certify.Options{Model: m}, dev))
		if err != nil {
			t.Fatal(err)
		}
		level, iter, bt, bz, bd := res.NodeNorms()
		if len(level) != 2*(n-1) {
			t.Fatalf("logn %d: %d node records, want %d", logn, len(level), 2*(n-1))
		}
		for trial, rec := range recs {
			if len(rec.level) != len(level) {
				t.Fatalf("logn %d: the attempt merged %d times, the analysis has %d nodes", logn, len(rec.level), len(level))
			}
			const tol = 1 + 0x1p-20
			bad := 0
			for i := range level {
				if rec.level[i] != level[i] || rec.iter[i] != iter[i] {
					t.Fatalf("logn %d: merge %d at level %d iter %d, analysis at level %d iter %d", logn, i, rec.level[i], rec.iter[i], level[i], iter[i])
				}
				for _, c := range []struct {
					what       string
					got, bound float64
				}{{"|t|", rec.t[i], bt[i]}, {"|z|", rec.z[i], bz[i]}, {"|t - z|", rec.d[i], bd[i]}} {
					if c.got > c.bound*tol {
						if bad++; bad <= 5 {
							t.Errorf("logn %d, hashed point %d, level %d iter %d: %s = %.6g above its bound %.6g (leaf deviations up to %.3g)", logn, trial, level[i], iter[i], c.what, c.got, c.bound, dev)
						}
					}
				}
			}
		}
	}
}
