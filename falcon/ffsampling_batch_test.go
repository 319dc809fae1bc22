package falcon

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
)

// scalarNative is native through the generic code without batches or
// programs: ffSamplingDyn and the sampler's operation-by-operation path.
type scalarNative struct{ native.Arith }

// runNative is vecNative with arith.Runner, each program run one native
// operation at a time (arith.RunScalar, the contract's definition): the
// batched LDL tree, the traced small-node steps, the sampler's and the
// final roundings' programs all run over it.
type runNative struct {
	vecNative
	runs *int
}

func (r runNative) Run(p *arith.Program, v []float64, i []int64) {
	*r.runs++
	arith.RunScalar(r.Arith, p, v, i)
}

// TestBatchedSigningEvents: signing through batches (the level-by-level
// LDL tree) and through batches and programs (also the traced small-node
// steps, the sampler's programs and the final roundings) gives the KAT
// signatures, and an observer sees exactly the events, in the same order
// with the same values, as through the scalar generic code
// (ffSamplingDyn, one operation at a time), on vectors of both degrees.
func TestBatchedSigningEvents(t *testing.T) {
	vs := loadSignKAT(t)
	nb := mustBackend(t, "native")
	batches, runs := 0, 0
	vec := vecNative{batches: &batches}
	run := runNative{vecNative: vec, runs: &runs}
	for _, v := range []signKATVector{vs[0], vs[60], vs[len(vs)-1]} {
		want, err := hex.DecodeString(v.Sig)
		if err != nil {
			t.Fatal(err)
		}
		sign := func(b arith.Backend, d *eventDigest[float64]) []byte {
			sig, err := Sign(b, v.key(), []byte(v.Message), Padded, bytes.NewReader(v.stream(t)))
			if err != nil {
				t.Fatal(err)
			}
			return sig
		}
		ds := [3]*eventDigest[float64]{newEventDigest(float64Bits), newEventDigest(float64Bits), newEventDigest(float64Bits)}
		sigs := [3][]byte{
			sign(Instantiate(nb, scalarNative{}, Observer[float64](ds[0])), ds[0]),
			sign(Instantiate(nb, vec, Observer[float64](ds[1])), ds[1]),
			sign(Instantiate(nb, run, Observer[float64](ds[2])), ds[2]),
		}
		for k, name := range []string{"scalar", "batched", "batched with programs"} {
			if !bytes.Equal(sigs[k], want) {
				t.Errorf("vector %d (n = %d), %s: signature differs from the KAT's", v.Index, v.N, name)
			}
			if k > 0 && !bytes.Equal(ds[k].h.Sum(nil), ds[0].h.Sum(nil)) {
				t.Errorf("vector %d (n = %d), %s: observer events differ from the scalar code's", v.Index, v.N, name)
			}
		}
	}
	if batches == 0 || runs == 0 {
		t.Errorf("%d batches, %d programs run", batches, runs)
	}
}

// TestTraceRegisters: the steps of levels 1 to 4 fit a program's
// registers (the update step's of level 5 does not, and falls back to the
// batches).
func TestTraceRegisters(t *testing.T) {
	for st := range numTraceSteps {
		for L := uint(1); L <= maxTracedLevel; L++ {
			ts := buildTrace(st, L)
			if ts == nil {
				if L <= 4 {
					t.Errorf("step %d, level %d: no program", st, L)
				}
				continue
			}
			t.Logf("step %d, level %d: %d instructions, %d registers, %d events", st, L, len(ts.prog.Insns()), ts.nregs, len(ts.events))
		}
	}
	if buildTrace(stepBetween, 5) != nil {
		t.Errorf("level 5's update step fits a program")
	}
}
