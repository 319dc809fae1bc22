// Package shadow runs Falcon over a backend while an exact arithmetic
// follows the same control path, and measures the backend against it in the
// quantities of the Falcon specification's precision analysis.
//
// # The mechanism
//
// A shadowed run is Falcon instantiated (falcon.Instantiate) over a pair
// arithmetic: every value is a Pair holding the backend's value B and the
// exact value X, every operation computes both, and every decision (Rint,
// Floor, Trunc, Lt, and the sampler's Bernoulli trials through the integers
// they produce) returns the backend's result. So the control path -- which
// candidates the sampler accepts, which integers z it returns, which
// attempts are short, which key candidates NTRUSolve accepts -- is the
// backend's, and at every SamplerZ call the exact side holds the centre and
// inverse standard deviation that exact arithmetic computes from exact
// inputs (the integer key, the hashed point and the z's chosen so far)
// along that path:
//
//	delta_c(j)     = |mu_B(j) - mu_X(j)|
//	delta_sigma(j) = |isigma_B(j) - isigma_X(j)| / isigma_X(j)
//
// (Falcon specification v1.2, section 2.6 "Precision of the floating-point
// arithmetic"; isigma = 1/sigma as the sampler receives it). Where the exact
// side would have decided differently, the pair records a decision flip;
// those are the events that change the output distribution.
//
// The exact side is any Exact arithmetic: the big-float oracle at P bits
// (Config's zero value: ShadowOracle at Config.OracleBits, 256 in fprlab
// compare) or double-double (ShadowDD, 106-bit significand, fprlab
// compare's default).
package shadow

import (
	"math"
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
)

// Pair is a value of a shadowed run: the backend's value and the exact one.
type Pair[F, X any] struct {
	B F
	X X
}

// Exact is an arithmetic that can serve as the exact side: an Arith that
// also imports big.Float values (the backend's values, exactly, for error
// measurement).
type Exact[X any] interface {
	arith.Arith[X]
	// FromBig returns v rounded to the arithmetic's precision.
	FromBig(v *big.Float) X
}

// Decision is a kind of decision of the arithmetic.
type Decision int

// The decisions a shadow compares.
const (
	DecRint        Decision = iota // Rint: the final rounding of s1, s2; NTRUSolve's Babai quotients
	DecFloor                       // Floor: the sampler's integer part of mu
	DecTrunc                       // Trunc: the sampler's exponent reduction in BerExp
	DecLt                          // Lt: key generation's bound and range checks
	DecBerExp                      // a Bernoulli trial decided the other way with the same random bytes
	DecBerExpMore                  // a Bernoulli trial that exact arithmetic could not decide with the bytes drawn
	DecAcceptance                  // a replacing acceptance test (Config.Acceptance) decided the other way with the same words
	DecBerExpFewer                 // a Bernoulli trial that exact arithmetic decides with fewer bytes than the backend drew
	numDecisions
)

var decisionNames = [numDecisions]string{"rint", "floor", "trunc", "lt", "berexp", "berexp_more_bytes", "acceptance", "berexp_fewer_bytes"}

func (d Decision) String() string { return decisionNames[d] }

// flip is one decision where the two sides differ.
type flip struct {
	// unresolved: the exact side's margin is below its own resolution, so
	// the shadow cannot tell whether exact arithmetic decides otherwise.
	unresolved bool
	kind       Decision
	b, x       int64   // the two outcomes (0/1 for Lt and BerExp)
	idx        int     // index of the decision among those of its kind since the previous event
	gap        float64 // log2 of the exact side's distance to the decision boundary
}

// decisions collects what the pair arithmetic decided since the previous
// observer event, and the smallest margins ever seen.
type decisions struct {
	pending   []flip
	sinceLast [numDecisions]int
	count     [numDecisions]int64
	minMargin [numDecisions]float64 // log2; +Inf before the first
	// minLin is the margin (before its logarithm) of minMargin, for the
	// kinds noted by note: a logarithm is computed only near or below it.
	minLin    [numDecisions]float64
	lastExpmX uint64 // the exact side's ExpmP63 of the latest call
	expmErr   *Hist  // relative errors of the backend's ExpmP63 calls
	acceptErr *Hist  // relative errors of the acceptance probability (see Record.AcceptErr)
}

func newDecisions() *decisions {
	d := &decisions{expmErr: NewHist(), acceptErr: NewHist()}
	for i := range d.minMargin {
		d.minMargin[i], d.minLin[i] = math.Inf(1), math.Inf(1)
	}
	return d
}

// note records one decision of kind k with outcomes b (the backend's) and
// x (exact), where the exact side's margin to the boundary is
// log2(margin) - off. res returns the smallest margin (log2) the exact
// side resolves at that point: a differing decision with a smaller margin
// is reported as unresolved rather than as a flip. The logarithm is
// computed only where it can matter -- near or below the smallest margin
// so far (log2 is monotonic to far better than the relative 2^-40 of the
// window), or for a flip -- and res only for a flip. A kind is noted
// either by note or by noteLog2, never both.
func (d *decisions) note(k Decision, b, x int64, margin, off float64, res func() float64) {
	if margin <= d.minLin[k]*(1+0x1p-40) || b != x {
		v := math.Log2(margin) - off
		if v < d.minMargin[k] {
			d.minLin[k] = margin
		}
		d.noteLog2(k, b, x, v, res)
		return
	}
	d.count[k]++
	d.sinceLast[k]++
}

// noteLog2 is note with the margin given as its logarithm.
func (d *decisions) noteLog2(k Decision, b, x int64, marginLog2 float64, res func() float64) {
	d.count[k]++
	idx := d.sinceLast[k]
	d.sinceLast[k]++
	if marginLog2 < d.minMargin[k] {
		d.minMargin[k] = marginLog2
	}
	if b != x {
		d.pending = append(d.pending, flip{kind: k, b: b, x: x, idx: idx, gap: marginLog2, unresolved: marginLog2 < res()})
	}
}

// take returns the flips since the previous event and starts a new window.
func (d *decisions) take() []flip {
	p := d.pending
	d.pending = nil
	d.sinceLast = [numDecisions]int{}
	return p
}

// PairArith is the pair arithmetic over backend A (values F) and exact side
// AX (values X). Use it through its pointer; one PairArith serves one run at
// a time (it keeps that run's decisions), which is how Run uses it: one per
// signature.
type PairArith[F, X any, A arith.Arith[F], AX Exact[X]] struct {
	b A
	// bStaged is b's plan-stage hook (nil for none): the pair passes
	// Falcon's stage boundaries on to the backend.
	bStaged falcon.Staged
	x       AX
	d       *decisions
	// bIsFloat64 is set when every backend value is exactly a float64
	// (binary64 backends and vprec:P with P <= 53), so that importing it
	// into the exact side needs no big.Float.
	bIsFloat64 bool
	// splitX, when set, imports a backend value into the exact side
	// exactly without big.Float where it reports true (see pairImporter).
	splitX func(F) (X, bool)
	// consts overrides constants on the exact side (the choice of the
	// exact 1/sigma, see ExactSigma).
	consts map[arith.Constant]X
	// resLog2 is the exact side's resolution relative to the magnitude of
	// a value (log2; -Inf for none): a decision whose exact margin is
	// smaller is beyond what the shadow can decide.
	resLog2 float64
	// importX, errsX and stageX, when set (see specialise), compute toX,
	// errs and observer.addStage for the exact side's own value type,
	// without the indirection of the generic code; they give the same
	// values.
	importX func(F) X
	errsX   func(Pair[F, X]) (abs, rel float64)
	stageX  func(vs []Pair[F, X], h *Hist)
}

// resAt is the smallest margin the exact side resolves near magnitude v.
func (p *PairArith[F, X, A, AX]) resAt(v float64) float64 {
	return math.Log2(math.Max(math.Abs(v), 1)) + p.resLog2
}

var _ arith.Arith[Pair[float64, *big.Float]] = (*PairArith[float64, *big.Float, arith.Arith[float64], BigExact])(nil)

// EnterStage implements falcon.Staged for backends that compute stages in
// formats of their own (precision plans); the exact side has one format.
func (p *PairArith[F, X, A, AX]) EnterStage(s falcon.PlanStage) falcon.PlanStage {
	if p.bStaged == nil {
		return s
	}
	return p.bStaged.EnterStage(s)
}

// toX imports the backend's value v exactly into the exact side.
func (p *PairArith[F, X, A, AX]) toX(v F) X {
	if p.importX != nil {
		return p.importX(v)
	}
	if p.bIsFloat64 {
		return p.x.FromFloat64(p.b.Float64(v))
	}
	if p.splitX != nil {
		if x, ok := p.splitX(v); ok {
			return x
		}
	}
	return p.x.FromBig(p.b.Big(v))
}

// errs returns |B - X| (absolute) and |B - X| / |X| (relative) of a pair;
// the relative error of a pair whose exact value is zero is +Inf unless B
// is zero too.
func (p *PairArith[F, X, A, AX]) errs(v Pair[F, X]) (abs, rel float64) {
	if p.errsX != nil {
		return p.errsX(v)
	}
	d := math.Abs(p.x.Float64(p.x.Sub(p.toX(v.B), v.X)))
	if d == 0 {
		return 0, 0
	}
	ref := math.Abs(p.x.Float64(v.X))
	if ref == 0 {
		return d, math.Inf(1)
	}
	return d, d / ref
}

func (p *PairArith[F, X, A, AX]) Of(i int64) Pair[F, X] { return Pair[F, X]{p.b.Of(i), p.x.Of(i)} }
func (p *PairArith[F, X, A, AX]) Scaled(i int64, e int) Pair[F, X] {
	return Pair[F, X]{p.b.Scaled(i, e), p.x.Scaled(i, e)}
}
func (p *PairArith[F, X, A, AX]) FromFloat64(v float64) Pair[F, X] {
	return Pair[F, X]{p.b.FromFloat64(v), p.x.FromFloat64(v)}
}
func (p *PairArith[F, X, A, AX]) Const(c arith.Constant) Pair[F, X] {
	if v, ok := p.consts[c]; ok {
		return Pair[F, X]{p.b.Const(c), v}
	}
	return Pair[F, X]{p.b.Const(c), p.x.Const(c)}
}
func (p *PairArith[F, X, A, AX]) GM(k int) Pair[F, X] { return Pair[F, X]{p.b.GM(k), p.x.GM(k)} }
func (p *PairArith[F, X, A, AX]) Add(u, v Pair[F, X]) Pair[F, X] {
	return Pair[F, X]{p.b.Add(u.B, v.B), p.x.Add(u.X, v.X)}
}
func (p *PairArith[F, X, A, AX]) Sub(u, v Pair[F, X]) Pair[F, X] {
	return Pair[F, X]{p.b.Sub(u.B, v.B), p.x.Sub(u.X, v.X)}
}
func (p *PairArith[F, X, A, AX]) Neg(u Pair[F, X]) Pair[F, X] {
	return Pair[F, X]{p.b.Neg(u.B), p.x.Neg(u.X)}
}
func (p *PairArith[F, X, A, AX]) Half(u Pair[F, X]) Pair[F, X] {
	return Pair[F, X]{p.b.Half(u.B), p.x.Half(u.X)}
}
func (p *PairArith[F, X, A, AX]) Double(u Pair[F, X]) Pair[F, X] {
	return Pair[F, X]{p.b.Double(u.B), p.x.Double(u.X)}
}
func (p *PairArith[F, X, A, AX]) Mul(u, v Pair[F, X]) Pair[F, X] {
	return Pair[F, X]{p.b.Mul(u.B, v.B), p.x.Mul(u.X, v.X)}
}
func (p *PairArith[F, X, A, AX]) Sqr(u Pair[F, X]) Pair[F, X] {
	return Pair[F, X]{p.b.Sqr(u.B), p.x.Sqr(u.X)}
}
func (p *PairArith[F, X, A, AX]) Inv(u Pair[F, X]) Pair[F, X] {
	return Pair[F, X]{p.b.Inv(u.B), p.x.Inv(u.X)}
}
func (p *PairArith[F, X, A, AX]) Div(u, v Pair[F, X]) Pair[F, X] {
	return Pair[F, X]{p.b.Div(u.B, v.B), p.x.Div(u.X, v.X)}
}
func (p *PairArith[F, X, A, AX]) Sqrt(u Pair[F, X]) Pair[F, X] {
	return Pair[F, X]{p.b.Sqrt(u.B), p.x.Sqrt(u.X)}
}

// Rint returns the backend's rounding; the exact side's margin is the
// distance of its value to the nearest half-integer.
func (p *PairArith[F, X, A, AX]) Rint(u Pair[F, X]) int64 {
	return p.noteRint(p.b.Rint(u.B), u)
}

// noteRint notes the decision of rb, the backend's rounding of u, and
// returns it.
func (p *PairArith[F, X, A, AX]) noteRint(rb int64, u Pair[F, X]) int64 {
	rx := p.x.Rint(u.X)
	frac := math.Abs(p.x.Float64(p.x.Sub(u.X, p.x.Of(rx))))
	p.d.note(DecRint, rb, rx, 0.5-frac, 0, func() float64 { return p.resAt(float64(rx)) })
	return rb
}

// Floor returns the backend's floor; the margin is the distance of the
// exact value to the nearest integer.
func (p *PairArith[F, X, A, AX]) Floor(u Pair[F, X]) int64 {
	return p.noteFloor(p.b.Floor(u.B), u)
}

// noteFloor notes the decision of rb, the backend's floor of u, and
// returns it.
func (p *PairArith[F, X, A, AX]) noteFloor(rb int64, u Pair[F, X]) int64 {
	rx := p.x.Floor(u.X)
	frac := p.x.Float64(p.x.Sub(u.X, p.x.Of(rx)))
	p.d.note(DecFloor, rb, rx, min(frac, 1-frac), 0, func() float64 { return p.resAt(float64(rx)) })
	return rb
}

// Trunc is Floor toward zero.
func (p *PairArith[F, X, A, AX]) Trunc(u Pair[F, X]) int64 {
	return p.noteTrunc(p.b.Trunc(u.B), u)
}

// noteTrunc notes the decision of rb, the backend's truncation of u, and
// returns it.
func (p *PairArith[F, X, A, AX]) noteTrunc(rb int64, u Pair[F, X]) int64 {
	rx := p.x.Trunc(u.X)
	frac := math.Abs(p.x.Float64(p.x.Sub(u.X, p.x.Of(rx))))
	p.d.note(DecTrunc, rb, rx, min(frac, 1-frac), 0, func() float64 { return p.resAt(float64(rx)) })
	return rb
}

// Lt returns the backend's comparison; the margin is |u - v| exactly.
func (p *PairArith[F, X, A, AX]) Lt(u, v Pair[F, X]) bool {
	lb, lx := p.b.Lt(u.B, v.B), p.x.Lt(u.X, v.X)
	gap := math.Abs(p.x.Float64(p.x.Sub(u.X, v.X)))
	p.d.note(DecLt, b2i(lb), b2i(lx), gap, 0, func() float64 {
		return p.resAt(math.Max(math.Abs(p.x.Float64(u.X)), math.Abs(p.x.Float64(v.X))))
	})
	return lb
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// ExpmP63 returns the backend's value. It keeps the exact side's value for
// the Bernoulli trial that follows (see Session.BerExp) and measures the
// backend's own error: against 2^63 ccs exp(-x) at the backend's inputs,
// obtained from the exact side's value at the exact inputs by a first-order
// correction (the inputs differ by about 2^-50 relative over binary64, so
// the neglected second-order term is near 2^-100).
func (p *PairArith[F, X, A, AX]) ExpmP63(x, ccs Pair[F, X]) uint64 {
	return p.noteExpm(p.b.ExpmP63(x.B, ccs.B), x, ccs)
}

// noteExpm measures vb, the measured side's 2^63 ccs exp(-x), against the
// exact side's and returns it.
func (p *PairArith[F, X, A, AX]) noteExpm(vb uint64, x, ccs Pair[F, X]) uint64 {
	vx := p.x.ExpmP63(x.X, ccs.X)
	p.d.lastExpmX = vx
	if vx != 0 {
		dx := p.x.Float64(p.x.Sub(p.toX(x.B), x.X))
		dccs := p.x.Float64(p.x.Sub(p.toX(ccs.B), ccs.X)) / p.x.Float64(ccs.X)
		fx := float64(vx)
		// exact(xB, ccsB) ~ vx (1 - dx) (1 + dccs)
		e := float64(int64(vb-vx)) - fx*(dccs-dx)
		p.d.expmErr.AddLinear(math.Abs(e) / fx)
		p.d.acceptErr.AddLinear(math.Abs(float64(int64(vb-vx))) / fx)
	}
	return vb
}

func (p *PairArith[F, X, A, AX]) Float64(u Pair[F, X]) float64 { return p.b.Float64(u.B) }
func (p *PairArith[F, X, A, AX]) Big(u Pair[F, X]) *big.Float  { return p.b.Big(u.B) }
