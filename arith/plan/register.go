package plan

import (
	"fmt"
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/vfloat"
)

func init() {
	arith.RegisterFamily(arith.Family{
		Name:  "plan",
		Usage: "plan:STAGE=FORMAT+...[+all=FORMAT]",
		Description: "precision plan: each stage of signing (" + stageList() + ") in its own vprec format or binary64, operands converted into the " +
			"stage's format as a datapath would; key generation runs in the fft stage's format",
		New: func(arg string) (arith.Backend, error) {
			p, err := Parse(arg)
			if err != nil {
				return arith.Backend{}, err
			}
			return Backend(p)
		},
	})
}

// Backend returns the backend that signs with plan p. Its Bits is the
// widest stage's significand and its ExpBits the widest stage's exponent
// range (0, unbounded, when any stage's is).
func Backend(p Plan) (arith.Backend, error) {
	impls := make([]any, len(p))
	bits, expBits, unbounded := 0, 0, false
	for i, name := range p {
		b, err := arith.Lookup(name)
		if err != nil {
			return arith.Backend{}, err
		}
		impls[i] = b.Impl
		bits = max(bits, b.Bits)
		expBits = max(expBits, b.ExpBits)
		unbounded = unbounded || b.ExpBits == 0
	}
	// The stages' formats share one value type: vfloat's for the vprec
	// formats it implements, big.Float's for the others (the reference
	// implementation, vprecbig, and the widest formats).
	var impl any
	fast, err := build[vfloat.V](impls)
	impl = fast
	if err != nil {
		ref, errBig := build[*big.Float](impls)
		if errBig != nil {
			return arith.Backend{}, fmt.Errorf("plan %s: the stages' formats do not share one implementation (%v; %v)", p, err, errBig)
		}
		impl = ref
	}
	if unbounded {
		expBits = 0
	}
	return arith.Backend{
		Name:        p.Name(),
		Bits:        bits,
		ExpBits:     expBits,
		Description: "precision plan " + p.String(),
		Impl:        impl,
	}, nil
}

// build makes the plan arithmetic over value type F from the stages'
// implementations, which must all be Format[F].
func build[F any](impls []any) (arith.Arith[F], error) {
	var f [len(Plan{})]Format[F]
	for i, impl := range impls {
		a, ok := impl.(Format[F])
		if !ok {
			return nil, fmt.Errorf("stage %s: format %T cannot convert values of type %T", Stages()[i], impl, *new(F))
		}
		f[i] = a
	}
	return New[F](f), nil
}
