package certify

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"time"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// Target is the precision the Falcon specification asks of
// delta_c + delta_sigma: 2^-46.
const Target = 0x1p-46

// DefaultOracleBits is the precision of the exact side, as compare's
// `--shadow oracle` uses it.
const DefaultOracleBits = 256

// Options configure Certify.
type Options struct {
	// Model is the backend's error model (ModelFor).
	Model Model
	// OracleBits is the exact side's precision (0: DefaultOracleBits).
	OracleBits uint
	// Scheme is the scheme whose signing is analysed (nil: Falcon round
	// 3): its key values are read from one of its own attempts
	// (scheme.Attempter). The bound's operations -- target, ffSampling's
	// splits, merges and updates, the sampler's support -- are those of
	// every scheme here; what differs between them is in the key values.
	Scheme scheme.Scheme
	// Sigma is what delta_sigma takes as the exact 1/sigma, as compare's
	// --exact-sigma: shadow.SigmaReference (or "") the reference's
	// binary64 table, shadow.SigmaFormula the specification's formula
	// (Falcon round 3 only; FN-DSA fixes its table). delta_c does not
	// depend on it.
	Sigma shadow.ExactSigma

	// leafDev replaces the sampler's support bound on |mu_B - z| (19,
	// sample in bound.go) when positive: the tests set it to what an
	// attempt shows, to check the node bounds built on it.
	leafDev float64
}

// attempter is the scheme Certify reads key values with.
func (o Options) attempter() (scheme.Attempter, error) {
	sc := o.Scheme
	if sc == nil {
		var err error
		if sc, err = scheme.Lookup(scheme.Default); err != nil {
			return nil, err
		}
	}
	at, err := scheme.AttempterOf(sc)
	if err != nil {
		return nil, fmt.Errorf("certify: %w", err)
	}
	return at, nil
}

// StageShare is one stage's part of the bound at the worst call.
type StageShare struct {
	Stage string
	Bound float64 // its terms' sum (an upper bound of their contribution)
}

// Result is the certificate of one key over one backend.
type Result struct {
	Backend string
	// Scheme is the scheme analysed (its Name).
	Scheme string
	LogN   uint
	Model  Model
	// DeltaSigma is the largest relative error of a leaf's inverse
	// standard deviation, computed exactly (then rounded to float64), at
	// leaf DeltaSigmaLeaf (sampler calls 2 leaf and 2 leaf + 1).
	DeltaSigma     float64
	DeltaSigmaLeaf int
	// ExactSigma is the exact 1/sigma delta_sigma was measured against
	// (Options.Sigma).
	ExactSigma shadow.ExactSigma
	// DeltaCBound is the largest bound over sampler calls on |mu_B - mu_X|,
	// at call WorstCall (leaf WorstLeaf, tree path WorstPath from the
	// root, R = right child).
	DeltaCBound float64
	WorstCall   int
	WorstLeaf   int
	WorstPath   string
	// Stages splits DeltaCBound by where its terms come from.
	Stages []StageShare
	// SumBound bounds delta_c + delta_sigma (rounded up); Proven when it
	// is at most Target.
	SumBound float64
	Proven   bool
	// CallBounds is the bound at every sampler call, in order.
	CallBounds []float64
	Seconds    float64

	// norms are the norm bounds of step 6 at every inner node, in the
	// order the dynamic path completes them (for the tests).
	norms []nodeNorms
}

// exactModel is the model of the exact side, the oracle at p bits:
// correctly rounded to nearest, unbounded exponent range.
func exactModel(p uint) Model {
	return Model{Name: fmt.Sprintf("oracle:%d", p), AddRel: math.Ldexp(1, -int(p)), MulRel: math.Ldexp(1, -int(p)), IntBits: int(p)}
}

// Certify computes, for the key sk over backend b, the exact delta_sigma
// and a bound on delta_c valid for every hashed point and every sampler
// output (see the package documentation), against the oracle at
// opts.OracleBits bits.
func Certify(b arith.Backend, sk *falcon.PrivateKey, opts Options) (*Result, error) {
	t0 := time.Now()
	if sk == nil {
		return nil, errors.New("certify: no key")
	}
	if sk.LogN < 2 || sk.LogN > 10 {
		return nil, fmt.Errorf("certify: degree 2^%d not supported (want 4 to 1024)", sk.LogN)
	}
	if opts.OracleBits == 0 {
		opts.OracleBits = DefaultOracleBits
	}
	if opts.OracleBits < 64 || opts.OracleBits > 4096 {
		return nil, fmt.Errorf("certify: oracle precision %d out of range 64..4096", opts.OracleBits)
	}
	m, mt := opts.Model, opts.Model
	if m.Target != nil {
		mt = *m.Target
	}
	for _, m := range []Model{m, mt} {
		if !(m.AddRel > 0 && m.MulRel > 0 && m.AddRel < 0x1p-8 && m.MulRel < 0x1p-8 && m.Abs >= 0 && m.ConvRel >= 0 && m.ConvRel < 0x1p-8) {
			return nil, fmt.Errorf("certify: error model %q has no usable relative bound", m.Name)
		}
		if m.IntBits < 15 {
			return nil, fmt.Errorf("certify: error model %q converts integers exactly only below 2^%d; the hashed point needs 2^14", m.Name, m.IntBits)
		}
	}
	at, err := opts.attempter()
	if err != nil {
		return nil, err
	}
	if err := at.CheckLogN(sk.LogN); err != nil && !scheme.IsDefault(at) {
		return nil, fmt.Errorf("certify: %w", err)
	}
	ob, err := arith.Lookup(fmt.Sprintf("oracle:%d", opts.OracleBits))
	if err != nil {
		return nil, err
	}
	kv, err := captureKey(b, sk, at)
	if err != nil {
		return nil, err
	}
	kx, err := captureKey(ob, sk, at)
	if err != nil {
		return nil, err
	}
	bd := &bounder{b: m, t: mt, x: exactModel(opts.OracleBits), kv: kv, kx: kx, support: supportDev}
	if opts.leafDev > 0 {
		bd.support = opts.leafDev
	}
	// The twiddles and 1/q as the analysed stages hold them (a plan's are
	// read in each stage's format, capture), measured exactly.
	bd.twB, bd.twT, bd.twX = twiddleErrors(kv, kx)
	bd.invQB, bd.invQX = invQError(kv.invQ), invQError(kx.invQ)

	res := &Result{Backend: b.Name, Scheme: at.Name(), LogN: sk.LogN, Model: m, ExactSigma: shadow.SigmaReference}
	// delta_sigma, exactly, leaf by leaf. The exact side's leaves are
	// sqrt(leaf) (1/sigma) with the reference's 1/sigma; from the formula
	// they are those times formula/reference, computed at twice the
	// oracle's precision (the shadow's exact side computes them with the
	// formula's value directly: the two differ by a rounding at the
	// oracle's precision, far below any delta_sigma measured here).
	switch opts.Sigma {
	case "", shadow.SigmaReference:
	case shadow.SigmaFormula:
		if opts.Scheme != nil && opts.Scheme.FixedInvSigma() {
			return nil, fmt.Errorf("certify: %s fixes its 1/sigma table: its exact 1/sigma is the reference's, not the formula's", opts.Scheme.Name())
		}
		w := 2 * opts.OracleBits
		ratio := new(big.Float).SetPrec(w).Quo(arith.InvSigmaFormula(sk.LogN, w), arith.Exact(arith.InvSigma(sk.LogN), w))
		for i, v := range kx.leaves {
			kx.leaves[i] = new(big.Float).SetPrec(w).Mul(v, ratio)
		}
		res.ExactSigma = shadow.SigmaFormula
	default:
		return nil, fmt.Errorf("certify: exact 1/sigma %q: want %q or %q", opts.Sigma, shadow.SigmaFormula, shadow.SigmaReference)
	}
	for i := range kv.leaves {
		d := exactSub(kv.leaves[i], kx.leaves[i])
		d.Abs(d)
		rel := new(big.Float).SetPrec(256).Quo(d, new(big.Float).Abs(kx.leaves[i]))
		f, _ := rel.Float64()
		if f > res.DeltaSigma || i == 0 {
			res.DeltaSigma, res.DeltaSigmaLeaf = f, i
		}
	}
	dsUp := up(res.DeltaSigma)

	t0v, t1v := bd.target(sk.LogN)
	if _, _, _, _, err := bd.node(sk.LogN, t0v, t1v, "", -1, 0, [numStages]float64{}, [numStages]float64{}); err != nil {
		return nil, err
	}
	bd.pathBounds()
	if bd.nodes != len(kv.ldl) || len(bd.calls) != 2<<sk.LogN {
		return nil, fmt.Errorf("certify: internal error: %d of %d tree nodes, %d sampler calls", bd.nodes, len(kv.ldl), len(bd.calls))
	}
	res.norms = bd.norms
	res.CallBounds = make([]float64, len(bd.calls))
	for i, c := range bd.calls {
		res.CallBounds[i] = c.bound
		if i == 0 || c.bound > res.DeltaCBound {
			res.DeltaCBound, res.WorstCall, res.WorstLeaf, res.WorstPath = c.bound, i, c.leaf, c.path
		}
	}
	w := bd.calls[res.WorstCall]
	for k, e := range w.e {
		res.Stages = append(res.Stages, StageShare{Stage: stageNames[k], Bound: e})
	}
	res.SumBound = add(res.DeltaCBound, dsUp)
	res.Proven = res.SumBound <= Target
	res.Seconds = time.Since(t0).Seconds()
	return res, nil
}

// gmRefBits is the precision of the reference roots of unity the sides'
// twiddles are compared with; refErr bounds the reference's own error
// (arith.GMExact computes sine and cosine with guard bits at its
// precision: 2^-600 leaves 40 bits of margin at 640).
const (
	gmRefBits = 640
	refErr    = 0x1p-600
)

// twiddleErrors returns bounds on the modulus of the difference between
// each side's twiddle factors (table entries 2j, 2j+1 for 1 <= j < 1024,
// every root the FFT, split and merge use up to degree 1024) and the true
// roots: the backend's in ffSampling (tb) and in the target (tt, a plan's
// target stage has a table of its own), the exact side's (tx).
func twiddleErrors(kv, kx *keyValues) (tb, tt, tx float64) {
	gmt := kv.gmTarget
	if gmt == nil {
		gmt = kv.gm
	}
	for j := 1; j < 1024; j++ {
		var eb, et, ex [2]float64
		for c := range 2 {
			ref := arith.GMExact(2*j+c, gmRefBits)
			eb[c] = add(bigDiffUp(kv.gm[2*j+c], ref), refErr)
			et[c] = add(bigDiffUp(gmt[2*j+c], ref), refErr)
			ex[c] = add(bigDiffUp(kx.gm[2*j+c], ref), refErr)
		}
		tb = math.Max(tb, hypot(eb[0], eb[1]))
		tt = math.Max(tt, hypot(et[0], et[1]))
		tx = math.Max(tx, hypot(ex[0], ex[1]))
	}
	return tb, tt, tx
}

// invQError returns an upper bound of |v - 1/q|, computed exactly.
func invQError(v *big.Float) float64 {
	r, _ := v.Rat(nil)
	d := new(big.Rat).Sub(r, big.NewRat(1, 12289))
	f, _ := d.Abs(d).Float64()
	return up(f)
}
