package diverge

import (
	"fmt"
	"math"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
)

// The trace of one signing run: the decisions the sampler and the signing
// loop took, in order, as a falcon.Observer sees them. Two runs from the
// same randomness take the same decisions until the first one their
// arithmetics round differently; that event is where they part.

type eventKind uint8

const (
	evSample eventKind = iota
	evBerExp
	evLattice
	evAttempt
)

type event struct {
	kind       eventKind
	z          int64
	rejections int
	mu         float64
	floor      int64  // the side's own floor of mu (mu above is rounded to binary64)
	threshold  uint64 // BerExp: (2 expm - 1) >> shift
	drawn      uint64
	nbytes     int
	accept     bool
	sqNorm     uint32
	short      bool
	lattice    []float64
}

// trace is what a recorder collects.
type trace struct{ events []event }

// recorder is a falcon.Observer that keeps the decisions of a run, with
// values converted to binary64 (margins only need a few digits).
type recorder[F any, A arith.Arith[F]] struct {
	a A
	t *trace
}

func (r *recorder[F, A]) Stage(st falcon.Stage, level, iter int, values ...[]F) {
	if st != falcon.StageLattice {
		return
	}
	var v []float64
	for _, p := range values {
		for _, x := range p {
			v = append(v, r.a.Float64(x))
		}
	}
	r.t.events = append(r.t.events, event{kind: evLattice, lattice: v})
}

func (r *recorder[F, A]) Sample(mu, isigma F, z int64, rejections int) {
	r.t.events = append(r.t.events, event{kind: evSample, z: z, rejections: rejections, mu: r.a.Float64(mu), floor: r.a.Floor(mu)})
}

func (r *recorder[F, A]) BerExp(expm uint64, shift uint, drawn uint64, nbytes int, accept bool) {
	r.t.events = append(r.t.events, event{kind: evBerExp, threshold: (2*expm - 1) >> shift, drawn: drawn, nbytes: nbytes, accept: accept})
}

func (r *recorder[F, A]) Attempt(at *falcon.Attempt) {
	r.t.events = append(r.t.events, event{kind: evAttempt, sqNorm: at.SqNorm, short: at.Short})
}

// recorders instantiates Falcon with a recorder for each registered value
// type (RegisterValueType, called by package valuetype).
var recorders arith.Instances[func(b arith.Backend, t *trace) arith.Backend]

// RegisterValueType lets diverge trace backends whose Impl is an A with
// values F.
func RegisterValueType[F any, A arith.Arith[F]]() {
	arith.Add(&recorders, func(a A) func(arith.Backend, *trace) arith.Backend {
		return func(b arith.Backend, t *trace) arith.Backend {
			return falcon.Instantiate[F](b, a, falcon.Observer[F](&recorder[F, A]{a: a, t: t}))
		}
	})
}

// traced returns b instantiated with a recorder into t.
func traced(b arith.Backend, t *trace) (arith.Backend, error) {
	mk, ok := recorders.For(b.Impl)
	if !ok {
		return b, fmt.Errorf("diverge: backend %q has value type %T, which is not registered for tracing (package valuetype)", b.Name, b.Impl)
	}
	return mk(b, t), nil
}

// Decision kinds, as Parting.Kind spells them.
const (
	KindFloor      = "floor"      // SamplerZ's floor of the centre mu
	KindBerExp     = "BerExp"     // a Bernoulli trial of SamplerZ
	KindRint       = "rint"       // rounding the lattice point into s1, s2
	KindAcceptance = "acceptance" // the attempt's norm test
	KindRestart    = "restart"    // one run signed again (the encoding did not fit), the other did not
)

// Parting is the first decision where two runs from the same randomness
// part.
type Parting struct {
	// Attempt counts signing attempts from 0; Call is the SamplerZ call
	// within the attempt (from 0; two per leaf of the ffSampling tree),
	// Leaf = Call/2. For rint and acceptance, Call is the number of calls
	// the attempt made.
	Attempt int    `json:"attempt"`
	Leaf    int    `json:"leaf"`
	Call    int    `json:"call"`
	Kind    string `json:"kind"`
	// Margin is how near the decision was to going the other way on side
	// A: for floor, the distance of mu to the integer between the two
	// sides' floors; for rint, the distance of the coefficient to the
	// half-integer between the two roundings (in the lattice point's
	// units); for BerExp, |drawn - threshold| / 2^64 over the bytes
	// compared; for acceptance, |sqnorm - bound| / bound.
	Margin float64 `json:"margin"`
}

// floorOfCall reports the parting as a floor when the sampler call under
// way at event i -- whose Bernoulli trials come before its Sample event --
// took different floors of its centre on the two sides: the trials then
// differ because their centres' fractional parts do, and the floor is the
// decision where the runs part.
func floorOfCall(a, b *trace, i int, p Parting) (Parting, bool) {
	next := func(t *trace) *event {
		for j := i; j < len(t.events); j++ {
			switch t.events[j].kind {
			case evSample:
				return &t.events[j]
			case evBerExp:
			default:
				return nil
			}
		}
		return nil
	}
	x, y := next(a), next(b)
	if x == nil || y == nil {
		return p, false
	}
	if x.floor == y.floor {
		return p, false
	}
	p.Kind = KindFloor
	p.Margin = math.Abs(x.mu - float64(max(x.floor, y.floor)))
	return p, true
}

// part finds where traces a and b part; l2Bound is the degree's norm bound.
func part(a, b *trace, l2Bound uint32) Parting {
	attempt, call := 0, 0
	n := min(len(a.events), len(b.events))
	for i := 0; i < n; i++ {
		x, y := &a.events[i], &b.events[i]
		p := Parting{Attempt: attempt, Call: call, Leaf: call / 2}
		if x.kind != y.kind {
			if q, ok := floorOfCall(a, b, i, p); ok {
				return q
			}
			p.Kind = KindRestart
			return p
		}
		switch x.kind {
		case evBerExp:
			if x.accept != y.accept {
				if q, ok := floorOfCall(a, b, i, p); ok {
					return q
				}
				p.Kind = KindBerExp
				shift := uint(64 - 8*x.nbytes)
				if x.nbytes >= 8 {
					shift = 0
				}
				d := x.drawn>>shift<<shift - x.threshold>>shift<<shift
				if x.drawn < x.threshold {
					d = x.threshold>>shift<<shift - x.drawn>>shift<<shift
				}
				p.Margin = float64(d) / 0x1p64
				return p
			}
		case evSample:
			if x.floor != y.floor {
				p.Kind = KindFloor
				p.Margin = math.Abs(x.mu - float64(max(x.floor, y.floor)))
				return p
			}
			if x.z != y.z || x.rejections != y.rejections {
				p.Kind = KindBerExp
				return p
			}
			call++
		case evLattice:
			for j := range min(len(x.lattice), len(y.lattice)) {
				if math.RoundToEven(x.lattice[j]) != math.RoundToEven(y.lattice[j]) {
					p.Kind = KindRint
					p.Margin = math.Abs(math.Abs(x.lattice[j]-math.Floor(x.lattice[j])) - 0.5)
					return p
				}
			}
		case evAttempt:
			if x.short != y.short {
				p.Kind = KindAcceptance
				p.Margin = math.Abs(float64(x.sqNorm)-float64(l2Bound)) / float64(l2Bound)
				return p
			}
			attempt, call = attempt+1, 0
		}
	}
	return Parting{Attempt: attempt, Call: call, Leaf: call / 2, Kind: KindRestart}
}
