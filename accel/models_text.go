package accel

import (
	"fmt"
	"io"
)

// The text of accel fpru, mult and ripst: their results (models.go) as the
// commands print them, beside the types whose fields they read, so that
// the command only chooses between this and the --json document.

// WriteText writes res as accel fpru prints it: the instruction model's
// check of the record, then the estimate of the fpr-unit alone per phase
// beside HORCRUX Table IV, with a note per phase on what the published
// figure implies.
func (res *FPRUnitReport) WriteText(w io.Writer) error {
	chk, rep, c := res.Exact, res.Model, res.Cycles
	match := "equals the published record"
	if !chk.KATMatch {
		match = "DIFFERS from the published record"
	}
	fmt.Fprintf(w, "Falcon-%d, NIST KAT record %d. Over the fpr-unit instruction model the record %s (%d instructions).\n", res.Params, res.Record, match, res.Instructions)
	fmt.Fprintf(w, "Every result and sampler output against emu64's: %s\n  fpr-unit: %v\n  emu64:    %v\n", chk.Verdict(), chk.Digest, chk.Emu64Digest)
	fmt.Fprintf(w, "Cycles per call: software FPR %g, FPR_NORM64 %g; with the fpr-unit %g, %g.\n", c.SoftFPR, c.SoftNorm64, c.ExtFPR, c.ExtNorm64)
	recs := rep.Records
	fmt.Fprintf(w, "Estimate of the fpr-unit alone from the mean counts of KAT records %d to %d (%d records, each checked against\nthe published file), beside HORCRUX Table IV (averages over 100 KAT executions):\n\n", recs[0], recs[len(recs)-1], len(recs))
	fmt.Fprintf(w, "%-7s %11s %9s %9s %11s %9s %9s %10s %12s %8s %7s %15s %9s\n", "PHASE", "FPR MEAN", "MIN", "MAX", "NORM64 MEAN", "MIN", "MAX",
		"BASE kCC", "PUB OPT kCC", "PUB SU", "EST SU", "RECORD SU RANGE", "IMPLIED")
	for _, p := range rep.Phases {
		f, n := p.Units[0], p.Units[1]
		implied := "-"
		if p.FPRUnitImplied != nil {
			implied = fmt.Sprintf("%.1f", *p.FPRUnitImplied)
		}
		fmt.Fprintf(w, "%-7s %11.1f %9d %9d %11.1f %9d %9d %10.0f %12.0f %7.2fx %6.2fx %7s-%-7s %9s\n", p.Phase, f.Mean, f.Min, f.Max, n.Mean, n.Min, n.Max,
			p.BaselineK, p.PublishedK, p.PublishedSpeedup, p.EstSpeedup, SpeedupText(p.MinSpeedup), SpeedupText(p.MaxSpeedup), implied)
	}
	fmt.Fprintln(w, "\nIMPLIED: the one cycles-per-call cost of both blocks at which the fpr-unit alone gives the published optimised\ncycles. HORCRUX profiles Falcon-512 only; the same costs are assumed at Falcon-1024.")
	for _, p := range rep.Phases {
		var note string
		switch {
		case p.FPRUnitImplied == nil:
			note = fmt.Sprintf("%s has no fpr operation; its published %.2fx comes from HORCRUX's NTT, mq_montymul and Keccak units.", p.Phase, p.PublishedSpeedup)
		case *p.FPRUnitImplied < 0:
			note = fmt.Sprintf("%s: the published saving exceeds what removing every fpr call would save; the rest comes from the\n  modp_montymul, NTT and Keccak units of the same build.", p.Phase)
		case *p.FPRUnitImplied > c.ExtFPR && *p.FPRUnitImplied > c.ExtNorm64:
			note = fmt.Sprintf("%s: the published saving is smaller than the model's: it implies %.1f cycles per call with the extension --\n  operands pass through the 32-bit register file and memory around each sequence (the bus bottleneck\n  HORCRUX names for Falcon), before the NTT, Montgomery and Keccak units of the same build save anything.", p.Phase, *p.FPRUnitImplied)
		default:
			note = fmt.Sprintf("%s: the published saving implies %.1f cycles per call, close to the model's costs; the other units of\n  the extension account for the rest.", p.Phase, *p.FPRUnitImplied)
		}
		if _, err := fmt.Fprintf(w, "* %s\n", note); err != nil {
			return err
		}
	}
	return nil
}

// WriteText writes r as accel mult prints it: each design's cost model and
// the record's products and cycle bounds, its DSP resources beside
// Peregrino's clocks, and its check against emu64 and the published
// record.
func (r *MultReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Falcon-%d, NIST KAT record %d: mantissa multipliers inside emu64\n\n", r.Params, r.Record)
	fmt.Fprintf(w, "%-15s %5s %6s %4s %6s %5s %4s %5s %12s %12s %14s %14s %5s\n", "DESIGN", "WIDTH", "BLOCKS", "PP", "ADDERS", "DEPTH", "LAT", "ISSUE",
		"KEYGEN PROD", "SIGN PROD", "KEYGEN LAT-CC", "SIGN LAT-CC", "KAT")
	for _, d := range r.Designs {
		kat := "ok"
		if !d.Exact.Exact() {
			kat = "DIFF"
		}
		fmt.Fprintf(w, "%-15s %5d %6d %4d %6d %5d %4d %5d %12d %12d %14d %14d %5s\n", d.Design, d.Width, d.Cost.Blocks, d.Cost.PartialProducts,
			d.Cost.Adders, d.Cost.AdderDepth, d.Cost.LatencyCycles, d.Cost.IssueCycles,
			d.Phases[0].Served, d.Phases[1].Served, d.Phases[0].LatencyBound, d.Phases[1].LatencyBound, kat)
	}
	fmt.Fprintln(w, "\nBLOCKS: multiplier blocks; PP: block products per product; LAT: latency in cycles; ISSUE: cycles between independent products.")
	fmt.Fprintln(w, "PROD: products the design serves (53-bit designs: fpr_mul only; 64-bit: also expm_p63's fixed-point products).")
	fmt.Fprintln(w, "LAT-CC: products x latency, the cycles of a chain of dependent products; x ISSUE instead for independent ones.")
	for _, d := range r.Designs[len(r.Designs)/2:] {
		fmt.Fprintf(w, "%s: %s; %s.\n", d.Design, d.Cost.Block, d.Cost.Pipelining)
	}
	fmt.Fprintf(w, "\nResources (DSPs of the blocks on each slice, the largest block's DSP cascade and its frequency class,\narea x time of the record's signing products as DSPs x latency-bound cycles):\n\n")
	fmt.Fprintf(w, "%-15s %5s %8s %8s %6s %6s %5s %14s %14s %9s %16s\n", "DESIGN", "WIDTH", "DSP48E1", "DSP48E2", "CASC", "CLASS", "DEPTH", "E1 DSP-MCC", "E2 DSP-MCC", "PUB MHZ", "E1 DSP-ms (PUB)")
	for _, d := range r.Designs {
		e1, e2 := d.Resources[0], d.Resources[1]
		sign := float64(d.Phases[1].LatencyBound)
		pub, at := "-", "-"
		if mhz := PeregrinoClock(d.Design); mhz > 0 && d.Width == 64 {
			pub, at = fmt.Sprintf("%g", mhz), fmt.Sprintf("%.1f", float64(e1.DSPs)*sign/(mhz*1e3))
		}
		fmt.Fprintf(w, "%-15s %5d %8d %8d %6s %6s %5d %14.1f %14.1f %9s %16s\n", d.Design, d.Width, e1.DSPs, e2.DSPs,
			fmt.Sprintf("%d/%d", e1.MaxCascade, e2.MaxCascade), e1.FmaxClass+"/"+e2.FmaxClass, e1.Pipeline,
			float64(e1.DSPs)*sign/1e6, float64(e2.DSPs)*sign/1e6, pub, at)
	}
	fmt.Fprintf(w, `
CASC, CLASS: DSP48E1/DSP48E2. Class A: one DSP per stage, B: a cascade of two, C: three or four, D: more -- an
ordering by the longest DSP chain in one cycle (Peregrino IV-E: chaining DSPs lengthens the logic delay), not a
clock prediction. PUB MHZ: Peregrino's clocks for its two Karatsuba versions (section VI; Artix-7 XC7A200T,
DSP48E1); DSP-ms (PUB) is area x time at that clock. Slices: %s; %s.
`, DSP48E1.Source, DSP48E2.Source)
	fmt.Fprintf(w, "\nKAT: ok when the record equals the published one AND every result and sampler output equals emu64's\n(emu64: %v):\n", r.Designs[0].Exact.Emu64Digest)
	for _, d := range r.Designs {
		if _, err := fmt.Fprintf(w, "  %-15s %2d bits  %s  sha256 %s\n", d.Design, d.Width, d.Exact.Verdict(), d.Exact.Digest.SHA256); err != nil {
			return err
		}
	}
	return nil
}

// WriteText writes r as accel ripst prints it: the published table, the
// simulation's run and its measured acceptance rate (with the pipelined
// design's formula at that rate), the simulated designs, and what the
// simulation's random bits count beside the pipelined design's
// measurement.
func (r *RIPSTReport) WriteText(w io.Writer) error {
	sim, rec := r.Simulations, r.Sampler
	fmt.Fprintf(w, "RIPST (p = %g), Vojacek and Novotny, TCHES 2026/4\n\n", AcceptRate)
	fmt.Fprintf(w, "%-28s %-13s %6s %6s %5s %10s %10s\n", "DESIGN", "MODEL", "TTFS", "TTNS", "MHZ", "CYCLES", "NS")
	for _, t := range r.Table {
		fmt.Fprintf(w, "%-28s %-13s %6g %6g %5g %10.2f %10.2f\n", t.Design, t.Model, t.TTFS, t.TTNS, t.MHz, t.RIPSTCycles, t.RIPSTNs)
	}
	fmt.Fprintf(w, "\nSimulated on %d leaf pairs of real signing (Falcon-%d, %d KAT records, %s): %.4f attempts per pair, %.3f random bits per attempt (byte-wise BerExp)\n",
		sim[0].Pairs, r.Params, r.Records, r.Backend, sim[0].UsefulPerPair, rec.RandomBitsPerAttempt())
	pm := AcceptanceRate(rec.Attempts)
	pd := SamplerDesigns[len(SamplerDesigns)-1]
	alt, err := RIPSTCycles(pd.Model, pd.TTFS, pd.TTNS, pm)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Measured acceptance rate %.4f over %d attempts (%d samples), beside the table's p = %g; the %s formula\nat the measured rate gives %.2f cycles for %s (TTFS %g, TTNS %g).\n\n",
		pm, totalAttempts(rec.Attempts), len(rec.Attempts), AcceptRate, pd.Model, alt, pd.Name, pd.TTFS, pd.TTNS)
	fmt.Fprintf(w, "%-28s %5s %10s %10s %10s %12s %12s %12s\n", "DESIGN", "LANES", "CYC/PAIR", "NS/PAIR", "ISSUED", "BITS BYTEW", "BITS 2xBER64", "BITS NEEDED")
	for _, s := range sim {
		fmt.Fprintf(w, "%-28s %5d %10.3f %10.2f %10.3f %12.1f %12.1f %12.1f\n", s.Design, s.Lanes, s.CyclesPerPair, s.RIPSTNs, s.IssuedPerPair,
			s.RandomBitsPerPair, s.RandomBitsPerPairTwoBern, s.RandomBitsPerPairUseful)
	}
	m := PipelinedMeasured
	_, err = fmt.Fprintf(w, `
Their hardware measured %.2f cycles and %.2f random bits per pair
(%s). The simulation's bits count
every issued attempt with the reference's per-attempt randomness (72-bit base sample, sign byte, BerExp bytes)
or with two full 64-bit Bernoulli words; the pipelined design's own, smaller per-attempt budget is not in the
published abstract, so %.2f is not reproduced (it implies about %.1f bits per issued attempt).
`, m.CyclesPerPair, m.RandomBitsPerPair, m.Source, m.RandomBitsPerPair, m.RandomBitsPerPair/sim[len(sim)-1].IssuedPerPair)
	return err
}
