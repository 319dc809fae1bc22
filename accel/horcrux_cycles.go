package accel

// The fpr-unit alone: HORCRUX's cost table with the fpr packing (FPR) and
// normalising (FPR_NORM64) blocks at given per-call costs and every other
// unit left in software, so that the per-phase model credits the fpr-unit
// only.
//
// HORCRUX's Table II profiles Falcon-512 (one keygen, sign and verify in
// software on their RISC-V core): FPR_NORM 41,907,348 cycles in 388,031
// calls and FPR 31,438,117 cycles in 731,119 calls, exactly 108 and 43
// cycles per call, which are the software defaults here. With the
// extension each call becomes its three-instruction sequence (Table III);
// the default of one cycle per instruction is the best case, and the
// published speedups imply more (PhaseCycles.FPRUnitImplied). The
// optimised build of Table IV also runs the Montgomery products and
// Keccak on other units of the extension, so the fpr-unit alone is a
// lower bound on the published speedups; ModelCycles over the full table
// (PlatformCosts("horcrux")) credits them all.

// FPRUnitCycles are the per-call costs of the fpr-unit model, in cycles.
type FPRUnitCycles struct {
	SoftFPR    float64 `json:"software_fpr"`
	SoftNorm64 float64 `json:"software_fpr_norm64"`
	ExtFPR     float64 `json:"fpr_unit_fpr"`
	ExtNorm64  float64 `json:"fpr_unit_fpr_norm64"`
}

// DefaultFPRUnitCycles: software costs from HORCRUX Table II, one cycle
// per fpr-unit instruction.
var DefaultFPRUnitCycles = FPRUnitCycles{SoftFPR: 43, SoftNorm64: 108, ExtFPR: 3, ExtNorm64: 3}

// FPRUnitTable returns HORCRUX's cost table (its Table IV baselines and
// published figures) with the fpr-unit blocks at costs c and every other
// unit unaccelerated.
func FPRUnitTable(c FPRUnitCycles) (*CostTable, error) {
	t, err := PlatformCosts("horcrux")
	if err != nil {
		return nil, err
	}
	t.Platform = "horcrux fpr-unit only"
	for name, u := range t.Units {
		switch name {
		case "fpr":
			u.Software = CostEntry{Cycles: c.SoftFPR, Source: "per-call software cost given (default HORCRUX Table II)"}
			u.Accelerated = CostEntry{Cycles: c.ExtFPR, Source: "per-call fpr-unit cost given (default one cycle per instruction of the Table III sequence)"}
		case "fpr_norm64":
			u.Software = CostEntry{Cycles: c.SoftNorm64, Source: "per-call software cost given (default HORCRUX Table II)"}
			u.Accelerated = CostEntry{Cycles: c.ExtNorm64, Source: "per-call fpr-unit cost given (default one cycle per instruction of the Table III sequence)"}
		default:
			u.Accelerated = u.Software
			u.Accelerated.Source = "left in software (fpr-unit only)"
		}
		t.Units[name] = u
	}
	return t, nil
}
