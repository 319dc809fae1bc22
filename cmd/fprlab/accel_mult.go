package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
)

// ---- mult ----

// accelMultOptions holds the flags of accel mult.
type accelMultOptions struct {
	accelRecordFlags
}

func newAccelMultCmd(s *streams) *cobra.Command {
	opts := &accelMultOptions{}
	cmd := &cobra.Command{
		Use:   "mult --params 512|1024",
		Short: "Mantissa multiplier designs: cost per product and per phase, and the KAT record regenerated with each",
		Long: `mult lists the 53- and 64-bit mantissa multiplier designs (schoolbook on 32-bit
limbs, tiling onto 25x18 DSPs, Comba on 16-bit limbs with one DSP, Karatsuba on 64
bits and on 64+32 bits) with their cost model (multiplier blocks, partial products,
adders, adder depth, latency and issue interval under the stated pipelining), the
products each phase of the KAT record needs (fpr_mul's 53x53 products, and for a
64-bit design also the 13 fixed-point 64x64 products of each fpr_expm_p63) with
their cycle bounds, and whether the record regenerated over emu64 with the design
as its multiplier equals the published one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAccelMult(cmd.Context(), opts, s) },
	}
	opts.bind(cmd)
	return cmd
}

func runAccelMult(_ context.Context, opts *accelMultOptions, s *streams) error {
	logn, k, err := countRecord(&opts.accelRecordFlags)
	if err != nil {
		return err
	}
	res, err := accel.CheckMultipliers(logn, opts.Record, k)
	if err != nil {
		return err
	}
	exact := res.Exact()
	if opts.JSON {
		if err := printJSON(s.Out, res); err != nil {
			return err
		}
		if !exact {
			return notExactError("a multiplier design")
		}
		return nil
	}
	w := s.Out
	fmt.Fprintf(w, "Falcon-%d, NIST KAT record %d: mantissa multipliers inside emu64\n\n", res.Params, res.Record)
	fmt.Fprintf(w, "%-15s %5s %6s %4s %6s %5s %4s %5s %12s %12s %14s %14s %5s\n", "DESIGN", "WIDTH", "BLOCKS", "PP", "ADDERS", "DEPTH", "LAT", "ISSUE",
		"KEYGEN PROD", "SIGN PROD", "KEYGEN LAT-CC", "SIGN LAT-CC", "KAT")
	for _, r := range res.Designs {
		kat := "ok"
		if !r.Exact.Exact() {
			kat = "DIFF"
		}
		fmt.Fprintf(w, "%-15s %5d %6d %4d %6d %5d %4d %5d %12d %12d %14d %14d %5s\n", r.Design, r.Width, r.Cost.Blocks, r.Cost.PartialProducts,
			r.Cost.Adders, r.Cost.AdderDepth, r.Cost.LatencyCycles, r.Cost.IssueCycles,
			r.Phases[0].Served, r.Phases[1].Served, r.Phases[0].LatencyBound, r.Phases[1].LatencyBound, kat)
	}
	fmt.Fprintln(w, "\nBLOCKS: multiplier blocks; PP: block products per product; LAT: latency in cycles; ISSUE: cycles between independent products.")
	fmt.Fprintln(w, "PROD: products the design serves (53-bit designs: fpr_mul only; 64-bit: also expm_p63's fixed-point products).")
	fmt.Fprintln(w, "LAT-CC: products x latency, the cycles of a chain of dependent products; x ISSUE instead for independent ones.")
	for _, r := range res.Designs[len(res.Designs)/2:] {
		fmt.Fprintf(w, "%s: %s; %s.\n", r.Design, r.Cost.Block, r.Cost.Pipelining)
	}
	fmt.Fprintf(w, "\nResources (DSPs of the blocks on each slice, the largest block's DSP cascade and its frequency class,\narea x time of the record's signing products as DSPs x latency-bound cycles):\n\n")
	fmt.Fprintf(w, "%-15s %5s %8s %8s %6s %6s %5s %14s %14s %9s %16s\n", "DESIGN", "WIDTH", "DSP48E1", "DSP48E2", "CASC", "CLASS", "DEPTH", "E1 DSP-MCC", "E2 DSP-MCC", "PUB MHZ", "E1 DSP-ms (PUB)")
	for _, r := range res.Designs {
		e1, e2 := r.Resources[0], r.Resources[1]
		sign := float64(r.Phases[1].LatencyBound)
		pub, at := "-", "-"
		if mhz := accel.PeregrinoClock(r.Design); mhz > 0 && r.Width == 64 {
			pub, at = fmt.Sprintf("%g", mhz), fmt.Sprintf("%.1f", float64(e1.DSPs)*sign/(mhz*1e3))
		}
		fmt.Fprintf(w, "%-15s %5d %8d %8d %6s %6s %5d %14.1f %14.1f %9s %16s\n", r.Design, r.Width, e1.DSPs, e2.DSPs,
			fmt.Sprintf("%d/%d", e1.MaxCascade, e2.MaxCascade), e1.FmaxClass+"/"+e2.FmaxClass, e1.Pipeline,
			float64(e1.DSPs)*sign/1e6, float64(e2.DSPs)*sign/1e6, pub, at)
	}
	fmt.Fprintf(w, `
CASC, CLASS: DSP48E1/DSP48E2. Class A: one DSP per stage, B: a cascade of two, C: three or four, D: more -- an
ordering by the longest DSP chain in one cycle (Peregrino IV-E: chaining DSPs lengthens the logic delay), not a
clock prediction. PUB MHZ: Peregrino's clocks for its two Karatsuba versions (section VI; Artix-7 XC7A200T,
DSP48E1); DSP-ms (PUB) is area x time at that clock. Slices: %s; %s.
`, accel.DSP48E1.Source, accel.DSP48E2.Source)
	fmt.Fprintf(w, "\nKAT: ok when the record equals the published one AND every result and sampler output equals emu64's\n(emu64: %v):\n", res.Designs[0].Exact.Emu64Digest)
	for _, r := range res.Designs {
		fmt.Fprintf(w, "  %-15s %2d bits  %s  sha256 %s\n", r.Design, r.Width, r.Exact.Verdict(), r.Exact.Digest.SHA256)
	}
	if !exact {
		return notExactError("a multiplier design")
	}
	return nil
}
