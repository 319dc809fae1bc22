package plan

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/vfloat"
)

func init() {
	arith.RegisterFamily(arith.Family{
		Name:  "plan",
		Usage: "plan:STAGE=FORMAT+...[+all=FORMAT]",
		Description: "precision plan: each stage of signing (" + stageList() + ") in its own vprec format, binary64 or plugin, operands converted into the " +
			"stage's format as a datapath would; key generation runs in the fft stage's format",
		New: func(arg string) (arith.Backend, error) {
			p, err := Parse(arg)
			if err != nil {
				return arith.Backend{}, err
			}
			return Backend(p)
		},
		Forms: []arith.FamilyForm{{
			Usage: "plan:STAGE=so:PATH[@CONFIG]+...",
			Description: "a stage computed by an arithmetic plugin: operands enter rounded by its fprlab_from_parts, its operations and decisions " +
				"compute the stage, results leave exactly (fprlab_decode); write '+', ',' and '%' of PATH or CONFIG as %2B, %2C, %25; " +
				"the plugin needs a bounded exponent range and a significand the plan carries (128 bits beside vprec stages, 256 beside vprecbig)",
		}},
	})
}

// Backend returns the backend that signs with plan p. Its Bits is the
// widest stage's significand and its ExpBits the widest stage's exponent
// range (0, unbounded, when any stage's is).
func Backend(p Plan) (arith.Backend, error) {
	impls := make([]any, len(p))
	opened := map[string]*ForeignFormat{}
	bits, expBits, unbounded := 0, 0, false
	for i, name := range p {
		var b arith.Backend
		if f := opened[name]; f != nil {
			impls[i], b = f, f.backend
		} else if f, isForeign, err := openForeign(name); isForeign {
			if err != nil {
				return arith.Backend{}, fmt.Errorf("stage %s: %w", Stages()[i], err)
			}
			opened[name] = f
			impls[i], b = f, f.backend
		} else {
			if b, err = arith.Lookup(name); err != nil {
				return arith.Backend{}, err
			}
			impls[i] = b.Impl
		}
		bits = max(bits, b.Bits)
		expBits = max(expBits, b.ExpBits)
		unbounded = unbounded || b.ExpBits == 0
	}
	impl, err := carry(p, impls)
	if err != nil {
		return arith.Backend{}, err
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

// carry builds the plan arithmetic over the value type its stages share,
// the carrier: vfloat's for the vprec formats it implements, big.Float's
// for the others (the reference implementation, vprecbig, and the widest
// formats). The vprec stages choose it; foreign stages then compute over
// it, or are refused when it cannot hold their values. A plan of foreign
// stages alone is carried by vfloat.V where their significands fit it.
func carry(p Plan, impls []any) (any, error) {
	overV := func(f *ForeignFormat) (Format[vfloat.V], error) { return f.overV() }
	overBig := func(f *ForeignFormat) (Format[*big.Float], error) { return f.overBig() }
	vprecV, vprecBig, fitsV := true, true, true
	for _, impl := range impls {
		if f, ok := impl.(*ForeignFormat); ok {
			fitsV = fitsV && f.backend.Bits <= vfloat.SignificandBits
			continue
		}
		_, isV := impl.(Format[vfloat.V])
		_, isBig := impl.(Format[*big.Float])
		vprecV, vprecBig = vprecV && isV, vprecBig && isBig
	}
	switch {
	case vprecV && vprecBig: // foreign stages alone
		if fitsV {
			return build(impls, overV)
		}
		return build(impls, overBig)
	case vprecV:
		return build(impls, overV)
	case vprecBig:
		return build(impls, overBig)
	}
	// vprec formats of both implementations: those wider than vfloat's
	// significand compute over big.Float, so the others do too, with
	// vprecbig's code (the same results bit for bit).
	if wide, err := overBigFloat(p, impls); err == nil {
		return build(wide, overBig)
	}
	_, err := build(impls, overV)
	_, errBig := build(impls, overBig)
	return nil, fmt.Errorf("plan %s: the stages' formats do not share one implementation (%v; %v)", p, err, errBig)
}

// overBigFloat returns impls with every stage computed over vfloat.V
// replaced by vprecbig's implementation of the same format, which computes
// over big.Float; it fails when a stage's format has none.
func overBigFloat(p Plan, impls []any) ([]any, error) {
	wide := slices.Clone(impls)
	for i, impl := range impls {
		if _, isBig := impl.(Format[*big.Float]); isBig {
			continue
		}
		if _, isForeign := impl.(*ForeignFormat); isForeign {
			continue
		}
		rest, ok := strings.CutPrefix(p[i], "vprec:")
		if !ok {
			return nil, fmt.Errorf("stage %s: format %s has no big.Float implementation", Stages()[i], p[i])
		}
		b, err := arith.Lookup("vprecbig:" + rest)
		if err != nil {
			return nil, err
		}
		wide[i] = b.Impl
	}
	return wide, nil
}

// build makes the plan arithmetic over value type F from the stages'
// implementations, which must all be Format[F] or foreign (made a stage
// over F by over, once per format).
func build[F any](impls []any, over func(*ForeignFormat) (Format[F], error)) (arith.Arith[F], error) {
	var f [len(Plan{})]Format[F]
	made := map[*ForeignFormat]Format[F]{}
	for i, impl := range impls {
		if ff, ok := impl.(*ForeignFormat); ok {
			a, done := made[ff]
			if !done {
				var err error
				if a, err = over(ff); err != nil {
					return nil, fmt.Errorf("stage %s: %w", Stages()[i], err)
				}
				made[ff] = a
			}
			f[i] = a
			continue
		}
		a, ok := impl.(Format[F])
		if !ok {
			return nil, fmt.Errorf("stage %s: format %T cannot convert values of type %T", Stages()[i], impl, *new(F))
		}
		f[i] = a
	}
	return New[F](f), nil
}
