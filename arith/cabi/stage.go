package cabi

import (
	"fmt"

	"github.com/fprlab/fprlab/arith/plan"
)

// Plugins as stages of precision plans: "plan:ldl=so:./libtrunc.so@40+
// all=vprec:53" computes the ffLDL tree in the plugin and the rest in
// vprec:53. Package plan carries values of its own type (vfloat.V or
// big.Float) across stages; a plugin stage imports each operand with
// fprlab_from_parts -- rounded by the plugin's own rule, as its hardware
// would round a value fed from a wider datapath -- computes with the
// plugin's operations and decisions, and exports each result exactly with
// fprlab_decode. Package plan does that, and refuses a plugin its carrier
// cannot hold; this package only registers how a plugin is opened and how
// its values cross (the hook keeps package plan, and everything else
// that runs plans, free of purego). Inside a plan, a '+', ',' or '%' of
// PATH or CONFIG is written %2B, %2C, %25 (see plan.RegisterForeign).
func init() {
	plan.RegisterForeign("so", "so:PATH[@CONFIG]", func(arg string) (*plan.ForeignFormat, error) {
		a, err := Open(arg)
		if err != nil {
			return nil, err
		}
		return plan.NewForeign(plan.Foreign[Value]{
			Backend: a.Backend("so:" + arg),
			Arith:   a,
			Import:  func(p plan.Parts) Value { return must(a.importOperand(p)) },
			Export:  func(x Value) plan.Parts { return fromParts(a.decode(x)) },
			Fail:    func(err error) { Fail(err) },
		}), nil
	})
}

// importOperand is fprlab_from_parts of an operand entering a plugin
// stage; its failure says what the plan asked of the plugin.
func (a ArithOf[V]) importOperand(p plan.Parts) (Value, error) {
	q := toParts(p)
	v, err := a.fromParts(q)
	if err != nil {
		err = fmt.Errorf("%w, importing an operand with a %d-bit significand into a plan stage (fprlab_from_parts must round any number of up to 256 bits by the format's rule)", err, q.bitLen())
	}
	return v, err
}

// toParts and fromParts convert between plan's exact numbers and the
// ABI's (struct fprlab_parts); both are exact.
func toParts(p plan.Parts) parts {
	q := parts{kind: int32(p.Kind), exponent: p.Exp, limbs: p.M}
	if p.Neg {
		q.negative = 1
	}
	return q
}

func fromParts(p parts) plan.Parts {
	return plan.Parts{Kind: plan.PartsKind(p.kind), Neg: p.negative != 0, Exp: p.exponent, M: p.limbs}
}
