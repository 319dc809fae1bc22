package plan

import (
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/oracle"
)

// Format is an arithmetic a plan stage can compute in: any arith.Arith
// that can also round a value of another format of the same value type
// into its own (the vprec formats: package arith/vfloat, and their
// big.Float reference in arith/oracle; and a foreign arithmetic, such as
// a plugin, made to compute over the plan's value type: see NewForeign).
type Format[F any] interface {
	arith.Arith[F]
	// Convert rounds x into the format as one of its results would be
	// rounded; the identity on the format's own values.
	Convert(x F) F
}

// Arith computes each plan stage in its own format. Falcon tells it where
// stages begin (arith.Staged) and gives each signing run its own copy
// (arith.RunForker), so one Arith serves concurrent runs. Outside the
// stages Falcon marks (key generation, which plans do not cover) it
// computes in the fft stage's format.
type Arith[F any, A Format[F]] struct {
	f   [arith.NumPlanStages]A
	cur *arith.PlanStage
}

var (
	_ arith.Staged                             = (*Arith[*big.Float, oracle.Arith])(nil)
	_ arith.RunForker[arith.Arith[*big.Float]] = (*Arith[*big.Float, oracle.Arith])(nil)
)

// New returns the plan arithmetic with format f[s] for stage s.
func New[F any, A Format[F]](f [arith.NumPlanStages]A) *Arith[F, A] {
	return &Arith[F, A]{f: f, cur: new(arith.PlanStage)}
}

// EnterStage implements arith.Staged.
func (p *Arith[F, A]) EnterStage(s arith.PlanStage) arith.PlanStage {
	prev := *p.cur
	*p.cur = s
	return prev
}

// ForRun implements arith.RunForker for the arith.Arith[F] a backend
// holds: a copy sharing the formats, with its own current stage, and its
// own copy of each format with per-run state (a foreign stage's memory of
// converted values), one per format however many stages it computes.
func (p *Arith[F, A]) ForRun() arith.Arith[F] {
	r := &Arith[F, A]{f: p.f, cur: new(arith.PlanStage)}
	var forked map[runLocal[F]]A
	for i, a := range p.f {
		l, ok := any(a).(runLocal[F])
		if !ok {
			continue
		}
		n, done := forked[l]
		if !done {
			if n, ok = l.forRun().(A); !ok {
				n = a
			}
			if forked == nil {
				forked = map[runLocal[F]]A{}
			}
			forked[l] = n
		}
		r.f[i] = n
	}
	return r
}

// Stage returns the current stage.
func (p *Arith[F, A]) Stage() arith.PlanStage { return *p.cur }

// at returns the current stage's format.
func (p *Arith[F, A]) at() A { return p.f[*p.cur] }

func (p *Arith[F, A]) Of(i int64) F            { return p.at().Of(i) }
func (p *Arith[F, A]) Scaled(i int64, e int) F { return p.at().Scaled(i, e) }
func (p *Arith[F, A]) FromFloat64(x float64) F { return p.at().FromFloat64(x) }
func (p *Arith[F, A]) Const(c arith.Constant) F {
	return p.at().Const(c)
}
func (p *Arith[F, A]) GM(k int) F { return p.at().GM(k) }

func (p *Arith[F, A]) Add(x, y F) F { a := p.at(); return a.Add(a.Convert(x), a.Convert(y)) }
func (p *Arith[F, A]) Sub(x, y F) F { a := p.at(); return a.Sub(a.Convert(x), a.Convert(y)) }
func (p *Arith[F, A]) Mul(x, y F) F { a := p.at(); return a.Mul(a.Convert(x), a.Convert(y)) }
func (p *Arith[F, A]) Div(x, y F) F { a := p.at(); return a.Div(a.Convert(x), a.Convert(y)) }
func (p *Arith[F, A]) Neg(x F) F    { a := p.at(); return a.Neg(a.Convert(x)) }
func (p *Arith[F, A]) Half(x F) F   { a := p.at(); return a.Half(a.Convert(x)) }
func (p *Arith[F, A]) Double(x F) F { a := p.at(); return a.Double(a.Convert(x)) }
func (p *Arith[F, A]) Sqr(x F) F    { a := p.at(); return a.Sqr(a.Convert(x)) }
func (p *Arith[F, A]) Inv(x F) F    { a := p.at(); return a.Inv(a.Convert(x)) }
func (p *Arith[F, A]) Sqrt(x F) F   { a := p.at(); return a.Sqrt(a.Convert(x)) }

func (p *Arith[F, A]) Rint(x F) int64  { a := p.at(); return a.Rint(a.Convert(x)) }
func (p *Arith[F, A]) Floor(x F) int64 { a := p.at(); return a.Floor(a.Convert(x)) }
func (p *Arith[F, A]) Trunc(x F) int64 { a := p.at(); return a.Trunc(a.Convert(x)) }
func (p *Arith[F, A]) Lt(x, y F) bool  { a := p.at(); return a.Lt(a.Convert(x), a.Convert(y)) }

// ExpmP63 is computed in the expm stage's format, whatever the current
// stage.
func (p *Arith[F, A]) ExpmP63(x, ccs F) uint64 {
	a := p.f[arith.PlanExpm]
	return a.ExpmP63(a.Convert(x), a.Convert(ccs))
}

// Float64Pair splits a value into two binary64 numbers where the formats'
// value type can (vfloat: the shadow imports values this way, without
// big.Float); ok is false otherwise. Any stage's format splits any value
// (a foreign stage's as its carrier does).
func (p *Arith[F, A]) Float64Pair(x F) (hi, lo float64, ok bool) {
	if s, ok := any(p.f[0]).(interface {
		Float64Pair(x F) (hi, lo float64, ok bool)
	}); ok {
		return s.Float64Pair(x)
	}
	return 0, 0, false
}

// Float64 and Big export a value exactly (as every format does).
func (p *Arith[F, A]) Float64(x F) float64 { return p.at().Float64(x) }
func (p *Arith[F, A]) Big(x F) *big.Float  { return p.at().Big(x) }
