package analysis

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/oracle"
)

// measurers are the error measurements of one backend arithmetic.
type measurers struct {
	// op measures one operation (MeasureOpError).
	op func(k arith.Op, seq int, cfg OpErrorConfig, minExp int) runStats
	// expm is the error of ExpmP63(x, ccs) against ref (MeasureExpmCurve).
	expm func(ref oracle.Arith, x, ccs float64) float64
}

// instances holds the measurements of the registered value types.
var instances arith.Instances[measurers]

// RegisterValueType instantiates the error analysis for backends whose
// Impl is an A with values F (A = arith.Arith[F] for every such backend).
// It is called by package valuetype, the one place that registers a value
// type with every consumer.
func RegisterValueType[F any, A arith.Arith[F]]() {
	arith.Add(&instances, func(a A) measurers {
		return measurers{
			op: func(k arith.Op, seq int, cfg OpErrorConfig, minExp int) runStats {
				return run(a, k, seq, cfg, minExp)
			},
			expm: func(ref oracle.Arith, x, ccs float64) float64 { return expmErrLog2(a, ref, x, ccs) },
		}
	})
}

// measurersOf returns the measurements of b's arithmetic.
func measurersOf(b arith.Backend) (measurers, error) {
	m, ok := instances.For(b.Impl)
	if !ok {
		return m, fmt.Errorf("backend %q has value type %T, which the error analysis is not instantiated for (register it with package valuetype)", b.Name, b.Impl)
	}
	return m, nil
}
