package accel

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/triword"
	"github.com/fprlab/fprlab/falcon"
)

// A Cortex-M4F estimate of signing in triple word against integer-emulated
// binary64: the signing calls counted over each backend, times TWFalcon's
// per-operation cycles on that core (Halmans, van Vredendaal, Schneider,
// Custers, Gueneysu, "TWFalcon", ePrint 2025/1991, measured on a
// Nucleo-L4R5ZI; the per-operation figures are from the paper's
// performance evaluation, which the abstract-only text here does not carry
// with a table number), beside the paper's signing cycles for Falcon-512:
// 40.7M (triple word) and 22.5M (emulated double), 1.84x.
//
// Only the four priced operations enter the prediction; the others
// (negation, halving, rounding to integers, comparisons, conversions,
// expm_p63) and all the integer work of signing are left out and listed
// with their counts, so the predicted cycles are a lower bound on the
// paper's, and the ratio is the ratio of the floating-point work.

// M4OpCost is one operation's Cortex-M4F cycles in both arithmetics.
type M4OpCost struct {
	Op      string  `json:"op"`
	Triword float64 `json:"triword_cycles"`
	Emu64   float64 `json:"emu64_cycles"`
}

// CortexM4FCosts are TWFalcon's per-operation cycles (triple word,
// emulated double).
var CortexM4FCosts = []M4OpCost{
	{"add", 171, 80},  // add and sub
	{"mul", 76, 45},   // mul and sqr
	{"div", 223, 460}, // div and inv
	{"sqrt", 244, 612},
}

// TWFalconSigning are TWFalcon's Falcon-512 signing cycles on the
// Cortex-M4F.
var TWFalconSigning = struct{ Triword, Emu64, Ratio float64 }{40.7e6, 22.5e6, 1.84}

// pricedCounts returns a backend's signing calls per priced operation.
func pricedCounts(c Calls) []uint64 {
	return []uint64{c.Add + c.Sub, c.Mul + c.Sqr, c.Div + c.Inv, c.Sqrt}
}

// M4Prediction is the estimate over some KAT records' signatures.
type M4Prediction struct {
	Params  int `json:"params"`
	Records int `json:"records"`
	// Mean signing calls per signature over each backend, per priced
	// operation (CortexM4FCosts order), and the unpriced calls.
	TriwordOps      []float64 `json:"triword_calls"`
	Emu64Ops        []float64 `json:"emu64_calls"`
	TriwordUnpriced float64   `json:"triword_unpriced_calls"`
	Emu64Unpriced   float64   `json:"emu64_unpriced_calls"`
	// The predicted cycles per signature and their ratio.
	TriwordCycles float64 `json:"triword_cycles"`
	Emu64Cycles   float64 `json:"emu64_cycles"`
	Ratio         float64 `json:"ratio"`
}

// PredictCortexM4F signs the first records KAT records of degree 2^logn
// (keys generated over emu64, as published) over triword and over emu64,
// counting the calls of each, and prices the mean calls per signature.
func PredictCortexM4F(logn uint, records int) (*M4Prediction, error) {
	if records < 1 || records > 100 {
		return nil, fmt.Errorf("accel: %d records: want 1 to 100", records)
	}
	kb, err := arith.Lookup("emu64")
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	tb, err := arith.Lookup("triword")
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	p := &M4Prediction{Params: 1 << logn, Records: records,
		TriwordOps: make([]float64, len(CortexM4FCosts)), Emu64Ops: make([]float64, len(CortexM4FCosts))}
	for r := range records {
		tc := NewCounting[triword.TW](triword.Arith{})
		ec := NewCounting[emu64.FPR](emu64.Arith{})
		for _, s := range []arith.Backend{tc.Backend(tb), ec.Backend(kb)} {
			rec, err := falcon.KATRequest(r)
			if err != nil {
				return nil, fmt.Errorf("accel: %w", err)
			}
			if err := falcon.GenerateKAT(logn, &rec, falcon.KATOptions{Keygen: kb, Sign: s}); err != nil {
				return nil, err
			}
		}
		for i, n := range pricedCounts(tc.Calls()) {
			p.TriwordOps[i] += float64(n)
		}
		for i, n := range pricedCounts(ec.Calls()) {
			p.Emu64Ops[i] += float64(n)
		}
		p.TriwordUnpriced += float64(unpriced(tc.Calls()))
		p.Emu64Unpriced += float64(unpriced(ec.Calls()))
	}
	n := float64(records)
	for i, c := range CortexM4FCosts {
		p.TriwordOps[i] /= n
		p.Emu64Ops[i] /= n
		p.TriwordCycles += p.TriwordOps[i] * c.Triword
		p.Emu64Cycles += p.Emu64Ops[i] * c.Emu64
	}
	p.TriwordUnpriced /= n
	p.Emu64Unpriced /= n
	p.Ratio = p.TriwordCycles / p.Emu64Cycles
	return p, nil
}

// unpriced is the number of arithmetic calls of c outside the priced
// operations (table reads Const and GM excluded: they cost no operation).
func unpriced(c Calls) uint64 {
	return c.Of + c.Scaled + c.FromFloat64 + c.Neg + c.Half + c.Double + c.Rint + c.Floor + c.Trunc + c.Lt + c.ExpmP63 + c.Float64
}
