package certify

import (
	"fmt"
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// keyValues are the values of signing that depend on the key alone, as
// one arithmetic computes them, held exactly: the basis polynomials the
// target uses (-f and -F in FFT form), l10 of every inner node of the
// ffLDL tree in the order the dynamic path computes them (a node, then
// its right subtree, then its left one), the inverse standard deviation
// of every leaf in the order the sampler meets them, and the arithmetic's
// twiddle table (per analysed stage for a precision plan) and 1/q.
type keyValues struct {
	logn     uint
	b01, b11 []*big.Float
	ldl      [][]*big.Float
	leaves   []*big.Float
	gm       []*big.Float
	// gmTarget is the twiddle table of the target's stage of a precision
	// plan (nil: gm, for every other arithmetic).
	gmTarget []*big.Float
	invQ     *big.Float
}

// recorder is the observer that collects keyValues from one signing
// attempt over an arithmetic A with values F.
type recorder[F any, A arith.Arith[F]] struct {
	a  A
	kv *keyValues
}

func (r *recorder[F, A]) bigs(vs []F) []*big.Float {
	out := make([]*big.Float, len(vs))
	for i, v := range vs {
		out[i] = r.a.Big(v)
	}
	return out
}

func (r *recorder[F, A]) Stage(st falcon.Stage, level, iter int, values ...[]F) {
	switch st {
	case falcon.StageBasis:
		r.kv.b01, r.kv.b11 = r.bigs(values[1]), r.bigs(values[3])
	case falcon.StageLDL:
		r.kv.ldl = append(r.kv.ldl, r.bigs(values[0]))
	case falcon.StageLeaf:
		r.kv.leaves = append(r.kv.leaves, r.a.Big(values[0][0]))
	}
}

func (r *recorder[F, A]) Sample(mu, isigma F, z int64, rejections int)                          {}
func (r *recorder[F, A]) BerExp(expm uint64, shift uint, drawn uint64, nbytes int, accept bool) {}
func (r *recorder[F, A]) Attempt(at *falcon.Attempt)                                            {}

// capturer runs one signing attempt of a key over a backend and returns
// its keyValues.
type capturer func(b arith.Backend, sk *falcon.PrivateKey, at scheme.Attempter) (*keyValues, error)

var capturers arith.Instances[capturer]

// RegisterValueType instantiates the capture of key values for backends
// whose Impl is an A with values F. It is called by package valuetype, the
// one place that registers a value type with every consumer.
func RegisterValueType[F any, A arith.Arith[F]]() {
	arith.Add(&capturers, func(a A) capturer {
		return func(b arith.Backend, sk *falcon.PrivateKey, at scheme.Attempter) (*keyValues, error) {
			return capture[F](a, b, sk, at)
		}
	})
}

// capture runs one signing attempt of scheme at (round 3's: the dynamic
// path, falcon.Sign's, which compare's shadow measures) with an arbitrary
// hashed point and seed: the key's values do not depend on either, and
// the attempt's outcome does not matter.
func capture[F any, A arith.Arith[F]](a A, b arith.Backend, sk *falcon.PrivateKey, at scheme.Attempter) (*keyValues, error) {
	kv := &keyValues{logn: sk.LogN}
	rec := &recorder[F, A]{a: a, kv: kv}
	ib := falcon.Instantiate[F](b, a, falcon.Observer[F](rec))
	n := 1 << sk.LogN
	hm := make([]uint16, n)
	if err := at.SignAttempt(ib, sk, hm, nil); err != nil {
		return nil, fmt.Errorf("certify: signing over %s: %w", b.Name, err)
	}
	// The twiddles and 1/q the analysed operations use. A precision plan
	// computes them in the current stage's format (arith/plan: constants
	// come from the stage's own format, not converted), so they are read
	// in each analysed stage: the twiddles in the target's and in
	// ffSampling's, 1/q (used by the target alone) in the target's.
	table := func(a A) []*big.Float {
		gm := make([]*big.Float, 2048)
		for k := range gm {
			gm[k] = a.Big(a.GM(k))
		}
		return gm
	}
	ra := falcon.ForRun[F](a)
	if st, ok := any(ra).(arith.Staged); ok {
		prev := st.EnterStage(arith.PlanTarget)
		kv.gmTarget = table(ra)
		kv.invQ = ra.Big(ra.Const(arith.InvQ))
		st.EnterStage(arith.PlanFFSampling)
		kv.gm = table(ra)
		st.EnterStage(prev)
	} else {
		kv.gm = table(ra)
		kv.invQ = ra.Big(ra.Const(arith.InvQ))
	}
	if len(kv.b01) != n || len(kv.leaves) != n || len(kv.ldl) != n-1 {
		return nil, fmt.Errorf("certify: signing over %s showed %d basis values, %d leaves and %d tree nodes, want %d, %d, %d (the observer did not see one signing attempt's events)",
			b.Name, len(kv.b01), len(kv.leaves), len(kv.ldl), n, n, n-1)
	}
	return kv, nil
}

// captureKey returns the key values of sk over b, as scheme at signs.
func captureKey(b arith.Backend, sk *falcon.PrivateKey, at scheme.Attempter) (*keyValues, error) {
	c, ok := capturers.For(b.Impl)
	if !ok {
		return nil, fmt.Errorf("certify: backend %q has value type %T, for which the analysis is not instantiated (register it with package valuetype)", b.Name, b.Impl)
	}
	return c(b, sk, at)
}
