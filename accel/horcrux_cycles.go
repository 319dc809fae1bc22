package accel

import "fmt"

// A cycle model of the fpr-unit's effect on Falcon, from the operation
// counts of a KAT record and per-call costs.
//
// HORCRUX's Table II profiles Falcon-512 (one keygen, sign and verify in
// software on their RISC-V core): FPR_NORM 41,907,348 cycles in 388,031
// calls and FPR 31,438,117 cycles in 731,119 calls, exactly 108 and 43
// cycles per call, which are the software defaults here. With the
// extension each call becomes its three-instruction sequence (Table III);
// the default of one cycle per instruction is the best case, and the
// published speedups imply more (see HorcruxEstimate.ImpliedExtCycles).
// The estimate replaces, in the measured baseline cycles of a phase
// (Table IV), the software cost of the phase's calls by the extension's:
//
//	optimised = baseline - n_FPR (soft_FPR - ext_FPR) - n_NORM64 (soft_NORM64 - ext_NORM64)
//
// Nothing else changes in the model, while HORCRUX's optimised build also
// runs the NTT and the Montgomery products (mq_montymul, modp_montymul) on
// other units of the extension.

// FPRUnitCycles are the per-call costs of the model, in cycles.
type FPRUnitCycles struct {
	SoftFPR, SoftNorm64 float64
	ExtFPR, ExtNorm64   float64
}

// DefaultFPRUnitCycles: software costs from HORCRUX Table II, one cycle
// per fpr-unit instruction.
var DefaultFPRUnitCycles = FPRUnitCycles{SoftFPR: 43, SoftNorm64: 108, ExtFPR: 3, ExtNorm64: 3}

// HorcruxPhase is HORCRUX's Table IV for one phase: baseline and
// optimised kilocycles and the published speedup.
type HorcruxPhase struct {
	Phase            string
	BaselineK, OptK  float64
	PublishedSpeedup float64
}

// HorcruxTableIV is HORCRUX's Table IV for Falcon, per degree (averages
// over 100 KAT executions on their core).
var HorcruxTableIV = map[uint][]HorcruxPhase{
	9: {
		{"keygen", 162348, 117786, 1.38},
		{"sign", 67331, 48610, 1.39},
		{"verify", 585, 258, 2.27},
	},
	10: {
		{"keygen", 576874, 437859, 1.32},
		{"sign", 147135, 116874, 1.26},
		{"verify", 1207, 530, 2.28},
	},
}

// HorcruxEstimate is the model's result for one phase beside the
// published figures.
type HorcruxEstimate struct {
	HorcruxPhase
	FPR, Norm64 uint64 // the phase's calls (the record's counts)
	// SavedK is the kilocycles the fpr-unit saves; EstOptK the
	// estimated optimised kilocycles and EstSpeedup baseline / EstOptK.
	SavedK, EstOptK, EstSpeedup float64
	// ImpliedExtCycles is the per-call extension cost (the same for both
	// sequences, software costs as in the model) at which the fpr-unit
	// alone would give the published optimised cycles; negative when the
	// published saving exceeds what removing the calls entirely would
	// save (the difference then comes from other units), nil for a phase
	// without calls.
	ImpliedExtCycles *float64
}

// EstimateHorcrux applies the model to the counts of one KAT record of
// degree 2^logn (9 or 10).
func EstimateHorcrux(k *KATCounts, logn uint, c FPRUnitCycles) ([]HorcruxEstimate, error) {
	table, ok := HorcruxTableIV[logn]
	if !ok {
		return nil, fmt.Errorf("accel: HORCRUX Table IV has Falcon-512 and Falcon-1024 only, not logn %d", logn)
	}
	phases := map[string]Counts{"keygen": k.Keypair, "sign": k.Sign, "verify": k.Open}
	var out []HorcruxEstimate
	for _, p := range table {
		n := phases[p.Phase]
		e := HorcruxEstimate{HorcruxPhase: p, FPR: n.FPR, Norm64: n.FPRNorm64}
		f, m := float64(n.FPR), float64(n.FPRNorm64)
		e.SavedK = (f*(c.SoftFPR-c.ExtFPR) + m*(c.SoftNorm64-c.ExtNorm64)) / 1e3
		e.EstOptK = p.BaselineK - e.SavedK
		e.EstSpeedup = p.BaselineK / e.EstOptK
		pubSaved := (p.BaselineK - p.OptK) * 1e3
		if f+m > 0 {
			x := (f*c.SoftFPR + m*c.SoftNorm64 - pubSaved) / (f + m)
			e.ImpliedExtCycles = &x
		}
		out = append(out, e)
	}
	return out, nil
}
