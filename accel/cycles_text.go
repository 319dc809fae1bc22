package accel

import (
	"fmt"
	"io"
)

// The text of accel cycles: its documents as the command prints them.

// M4Document is the --json output of accel cycles --platform cortex-m4f:
// the prediction beside the costs it used and TWFalcon's figures.
type M4Document struct {
	*M4Prediction
	Costs            []M4OpCost `json:"cycles_per_op"`
	PublishedTriword float64    `json:"twfalcon_triword_cycles_512"`
	PublishedEmu64   float64    `json:"twfalcon_emu64_cycles_512"`
	PublishedRatio   float64    `json:"twfalcon_ratio_512"`
}

// Document returns p's --json document.
func (p *M4Prediction) Document() M4Document {
	tw := TWFalconSigning
	return M4Document{p, CortexM4FCosts, tw.Triword, tw.Emu64, tw.Ratio}
}

// WriteText writes p as accel cycles --platform cortex-m4f prints it:
// the signing estimate of triword and emu64 beside TWFalcon's figures.
func (p *M4Prediction) WriteText(w io.Writer) error {
	tw := TWFalconSigning
	fmt.Fprintf(w, "Cortex-M4F, Falcon-%d signing (crypto_sign of the first %d NIST KAT records, mean per signature), calls over\ntriword and emu64 times TWFalcon's cycles per operation\n\n", p.Params, p.Records)
	fmt.Fprintf(w, "%-6s %12s %10s %12s %10s\n", "OP", "TW CALLS", "TW CYC/OP", "EMU CALLS", "EMU CYC/OP")
	for i, c := range CortexM4FCosts {
		fmt.Fprintf(w, "%-6s %12.0f %10g %12.0f %10g\n", c.Op, p.TriwordOps[i], c.Triword, p.Emu64Ops[i], c.Emu64)
	}
	fmt.Fprintf(w, "\npredicted: triword %.1fM cycles, emu64 %.1fM cycles, ratio %.2fx\n", p.TriwordCycles/1e6, p.Emu64Cycles/1e6, p.Ratio)
	if p.Params == 512 {
		fmt.Fprintf(w, "TWFalcon:  triword %.1fM cycles, emu64 %.1fM cycles, ratio %.2fx\n", tw.Triword/1e6, tw.Emu64/1e6, tw.Ratio)
		fmt.Fprintf(w, "model/paper: triword %.2f, emu64 %.2f, ratio %+.1f %%\n", p.TriwordCycles/tw.Triword, p.Emu64Cycles/tw.Emu64, 100*(p.Ratio/tw.Ratio-1))
	} else {
		fmt.Fprintln(w, "TWFalcon publishes Falcon-512 only.")
	}
	_, err := fmt.Fprintf(w, `
Where the model and the paper differ: only add/sub, mul/sqr, div/inv and sqrt are priced; %.0f (triword) and
%.0f (emu64) other arithmetic calls per signature (negation, halving, rounding, comparisons, conversions,
expm_p63, which TWFalcon evaluates in triple word with products and sums of its own) and the integer work of
signing (hashing, decoding, the NTT of complete_private) have no per-op figure and are left out, so the
predicted cycles are lower bounds; whether TWFalcon's figure includes key decoding is not stated in the text
available here. Per-op cycles: Halmans et al., TWFalcon,
ePrint 2025/1991 (Nucleo-L4R5ZI).
`, p.TriwordUnpriced, p.Emu64Unpriced)
	return err
}

// WriteText writes rep, modelled with cost table t, as accel cycles
// prints it.
func (rep *CycleReport) WriteText(w io.Writer, t *CostTable) error {
	fmt.Fprintf(w, "Falcon-%d, cost table %q, counts averaged over NIST KAT records %d to %d (%d records, each checked against the published file)\n\n",
		rep.Params, rep.Platform, rep.Records[0], rep.Records[len(rep.Records)-1], len(rep.Records))
	fmt.Fprintf(w, "%-7s %-14s %12s %12s %12s %10s %10s %12s\n", "PHASE", "UNIT", "MEAN", "MIN", "MAX", "SW cyc/op", "HW cyc/op", "SAVED kCC")
	for _, p := range rep.Phases {
		for _, u := range p.Units {
			fmt.Fprintf(w, "%-7s %-14s %12.1f %12d %12d %10.4g %10.4g %12.1f\n", p.Phase, u.Unit, u.Mean, u.Min, u.Max, u.Software, u.Accel, u.SavedK)
		}
	}
	fmt.Fprintf(w, "\n%-7s %11s %11s %7s %11s %11s %8s %8s %15s %8s\n", "PHASE", "BASE kCC", "COUNTED kCC", "SHARE", "EST kCC", "PUB kCC", "EST SU", "PUB SU", "RECORD SU RANGE", "DIFF")
	for _, p := range rep.Phases {
		est, su, diff := "-", "-", "-"
		if p.Valid {
			est, su = fmt.Sprintf("%.0f", p.EstK), fmt.Sprintf("%.2fx", p.EstSpeedup)
		}
		if p.RelDiff != nil {
			diff = fmt.Sprintf("%+.1f%%", 100**p.RelDiff)
		}
		fmt.Fprintf(w, "%-7s %11.0f %11.0f %6.1f%% %11s %11s %8s %7.2fx %7s-%-7s %8s\n", p.Phase, p.BaselineK, p.CountedSoftK, 100*p.CountedShare,
			est, optK(p.PublishedK), su, p.PublishedSpeedup, SpeedupText(p.MinSpeedup), SpeedupText(p.MaxSpeedup), diff)
	}
	fmt.Fprintln(w)
	for _, p := range rep.Phases {
		if p.Explanation != "" {
			fmt.Fprintf(w, "* %s: %s.\n", p.Phase, p.Explanation)
		}
	}
	if rep.Verify != nil {
		rep.writeVerifyPath(w, t)
	}
	fmt.Fprintln(w, "\nCOUNTED: software cycles of the counted operations at the table's costs; SHARE: of the baseline.")
	fmt.Fprintln(w, "RECORD SU RANGE: the model's speedup for single records (the estimate uses the mean counts).")
	for _, n := range t.Notes {
		fmt.Fprintf(w, "Note: %s\n", n)
	}
	fmt.Fprintln(w, "Sources of the costs:")
	for _, name := range CycleUnits {
		u := t.Units[name]
		fmt.Fprintf(w, "  %s software: %s\n  %s accelerated: %s\n", name, sourceOrNone(u.Software.Source), name, sourceOrNone(u.Accelerated.Source))
	}
	_, err := fmt.Fprintf(w, "  phases: %s\n", sourceOrNone(t.Phases[fmt.Sprint(rep.Params)]["keygen"].Source))
	return err
}

func optK(x float64) string {
	if x == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", x)
}

// SpeedupText is a speedup as the cycle tables print it ("1.84x"; "inf"
// when nothing is left to run).
func SpeedupText(x float64) string {
	if x > 1e6 {
		return "inf"
	}
	return fmt.Sprintf("%.2fx", x)
}

func sourceOrNone(s string) string {
	if s == "" {
		return "(no source given)"
	}
	return s
}

// writeVerifyPath writes the bottom-up verify path beside the table's
// published verify figures.
func (rep *CycleReport) writeVerifyPath(w io.Writer, t *CostTable) {
	v := rep.Verify
	fmt.Fprintf(w, "\nVerify path (bottom up: hash-to-point on the Keccak unit, the NTT-based product on the NTT unit, the norm\ncheck and the rest per coefficient), mean per verification over the %d records:\n\n", v.Records)
	v.WriteText(w)
	if f, ok := t.Phases[fmt.Sprint(rep.Params)]["verify"]; ok && f.PublishedSpeedup > 0 {
		fmt.Fprintf(w, "published: %.0f -> %.0f kcycles, %.2fx (%s)\n", f.BaselineK, f.PublishedK, f.PublishedSpeedup, sourceOrNone(f.Source))
	}
	fmt.Fprintln(w, "Karl et al., ACM TECS 23(2) 2024 (abstract): up to 67.5 % less energy for Falcon verification on their RISC-V\nNTT and Keccak accelerators (22 nm ASIC); a table with their per-operation energies gives the comparable figure.")
	t.WriteVerifySources(w)
}

// WriteText writes a verify path's operations, total and speedup.
func (v *VerifyPathReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%-16s %10s %6s %6s %10s %10s %10s %10s", "OPERATION", "MEAN", "MIN", "MAX", "SW cyc/op", "HW cyc/op", "SW kCC", "HW kCC")
	if v.HasEnergy {
		fmt.Fprintf(w, " %10s %10s", "SW nJ", "HW nJ")
	}
	fmt.Fprintln(w)
	for _, st := range v.Steps {
		fmt.Fprintf(w, "%-16s %10.1f %6d %6d %10.4g %10.4g %10.1f %10.1f", st.Unit, st.Mean, st.Min, st.Max, st.SoftCyc, st.AccelCyc, st.SoftK, st.AccelK)
		if v.HasEnergy {
			fmt.Fprintf(w, " %10.1f %10.1f", st.SoftNJ, st.AccelNJ)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%-16s %10s %6s %6s %10s %10s %10.1f %10.1f", "total", "", "", "", "", "", v.SoftK, v.AccelK)
	if v.HasEnergy {
		fmt.Fprintf(w, " %10.1f %10.1f", v.SoftNJ, v.AccelNJ)
	}
	fmt.Fprintf(w, "\n\nspeedup %.2fx (single records %.2fx-%.2fx)", v.Speedup, v.MinSpeedup, v.MaxSpeedup)
	if v.HasEnergy {
		fmt.Fprintf(w, ", energy saving %.1f %%", 100*v.EnergySaving)
	}
	if v.Record0Speedup != nil {
		fmt.Fprintf(w, "; KAT record 0 alone: %.0f -> %.0f kcycles, %.2fx", *v.Record0SoftK, *v.Record0AccelK, *v.Record0Speedup)
		if v.Record0Saving != nil {
			fmt.Fprintf(w, ", energy saving %.1f %%", 100**v.Record0Saving)
		}
	}
	fmt.Fprintln(w)
}

// WriteVerifySources writes where the verify path's costs come from.
func (t *CostTable) WriteVerifySources(w io.Writer) {
	if t.VerifyPath.Description != "" {
		fmt.Fprintf(w, "Verify-path costs: %s\n", t.VerifyPath.Description)
	}
	for _, name := range VerifyUnits {
		u := t.VerifyPath.Units[name]
		fmt.Fprintf(w, "  %s software: %s\n  %s accelerated: %s\n", name, sourceOrNone(u.Software.Source), name, sourceOrNone(u.Accelerated.Source))
	}
}
