package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// fprlab accel cycles: the per-phase cycle model of package accel (counted
// operations times a platform's per-unit costs), averaged over KAT records.

type accelCyclesOptions struct {
	Params    string
	Scheme    string
	KeySource string
	Platform  string
	Records   int
	JSON      bool
	// recordsSet is whether --records was given.
	recordsSet bool
}

// costTableLimit bounds a cost table file.
const costTableLimit = 1 << 20

func newAccelCyclesCmd(s *streams) *cobra.Command {
	opts := &accelCyclesOptions{}
	cmd := &cobra.Command{
		Use:   "cycles --params 512|1024",
		Short: "Cycle model per phase: counted operations times a platform's per-unit costs, beside the published speedups",
		Long: `cycles counts the operations of the first --records NIST KAT records (each checked
against the published file) per phase -- FPR and FPR_NORM64 (the fpr packing and
normalising blocks), modp_montymul, mq_montymul, Keccak-f[1600] -- and applies a
cost table: software and accelerated cycles per operation, and the platform's
measured software cycles per phase. Per phase:

  saved     = sum over units of mean count x (software - accelerated cycles)
  optimised = baseline - saved,   speedup = baseline / optimised

printed beside the published optimised cycles and speedup, with the count's mean,
min and max over the records and the speedup range of single records. A speedup
within 10 % of the published one is reproduced; otherwise the row says which
published figure disagrees and by how much.

--platform horcrux is HORCRUX's table (software costs from its Table II,
accelerated ones from Table VII and section VI-B, baselines from Table IV);
--platform FILE.json reads a table of the same form (see accel/costs/horcrux.json).
Each miss names the accelerated cost per operation that alone would give the
published figure and the speedup with KAT record 0's counts alone (HORCRUX Table
II's run). A table with a "verify_path" section also gets the verify path bottom
up: hash-to-point's Keccak permutations, NTT and iNTT butterflies, pointwise
products and the per-coefficient rest (with the norm check), in software and on
the units, in cycles and, when the table gives energy_nj, in energy.
--platform cortex-m4f instead prices the signing calls counted over triword and
emu64 with TWFalcon's Cortex-M4F cycles per operation, beside its 40.7M / 22.5M
cycles (1.84x) for Falcon-512.
The NIST flow signs with the dynamic variant, so key expansion is part of sign.

--scheme fn-dsa prices FN-DSA's verify path only (a table with a "verify_path"
section): the FN-DSA signatures of accel counts --scheme fn-dsa, verified as
go-fn-dsa verifies -- the key's digest and hash-to-point on the Keccak unit, 2n
pointwise products instead of round 3's 3n. They are go-fn-dsa's KAT records of
the degree with their FN-DSA keys (10, j = 0 to 9; --records 1 to 10, default
all ten), or with --key-source falcon the signatures made with the keys and
seeds of the first --records NIST KAT records (round-3 keys).
The phase model is round 3's only (its baselines are measured round-3 cycles), as
is --platform cortex-m4f.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.recordsSet = cmd.Flags().Changed("records")
			return runAccelCycles(cmd.Context(), opts, s)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Params, "params", "", "degree: 512 or 1024")
	fl.StringVar(&opts.Platform, "platform", "horcrux", "cost table: a built-in platform (horcrux), cortex-m4f (signing in triword against emu64), or a JSON file")
	fl.IntVar(&opts.Records, "records", 100, "KAT records to count and average, the first 1 to 100 (--scheme fn-dsa with FN-DSA keys: go-fn-dsa's, 1 to 10, default 10)")
	fl.BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	addSchemeFlag(cmd, &opts.Scheme)
	fl.StringVar(&opts.KeySource, "key-source", "", "fn-dsa: keys from `SOURCE`: fn-dsa (go-fn-dsa's KAT records with their own keys; the default) or falcon (the NIST KAT records' round-3 keys)")
	return cmd
}

// loadCostTable returns the built-in table of a platform name, or the
// table in the named JSON file.
func loadCostTable(s *streams, platform string) (*accel.CostTable, error) {
	if slices.Contains(accel.Platforms, platform) {
		return accel.PlatformCosts(platform)
	}
	if !strings.HasSuffix(strings.ToLower(platform), ".json") && platform != "-" {
		return nil, fmt.Errorf("--platform %s: not a built-in platform (%s) nor a .json cost table file", platform, strings.Join(accel.Platforms, ", "))
	}
	data, err := s.readInput("platform", platform, costTableLimit, rawFile)
	if err != nil {
		return nil, err
	}
	t, err := accel.ParseCostTable(data)
	if err != nil {
		return nil, fmt.Errorf("--platform %s: %w", platform, err)
	}
	return t, nil
}

func runAccelCycles(ctx context.Context, opts *accelCyclesOptions, s *streams) error {
	logn, err := katDegreeLogn(opts.Params)
	if err != nil {
		return err
	}
	if opts.Records < 1 || opts.Records > falcon.MaxKATRequests || opts.Records > 100 {
		return fmt.Errorf("--records %d: want 1 to 100 (the published KAT records)", opts.Records)
	}
	sc, err := parseScheme(opts.Scheme)
	if err != nil {
		return err
	}
	ks, err := parseKeySource(opts.KeySource, sc)
	if err != nil {
		return err
	}
	c, counted := sc.(schemeCounter)
	if !counted && !sc.ReplaysNISTKAT() {
		return fmt.Errorf("--scheme %s: accel cycles prices the NIST round-3 flow and the schemes %s", sc.Name(), strings.Join(scheme.With(isCounter), ", "))
	}
	ownKeys := counted && ks != shadow.KeysFalcon
	if ownKeys {
		n := c.KATRecordsPerDegree()
		if !opts.recordsSet {
			opts.Records = n
		}
		if opts.Records > n {
			return fmt.Errorf("--records %d: %s's KAT has %d records per degree (%s keys); --key-source falcon takes up to 100 NIST records (round-3 keys)", opts.Records, c.KATSource(), n, c.Description())
		}
	}
	if opts.Platform == "cortex-m4f" {
		if counted {
			return fmt.Errorf("--scheme %s: --platform cortex-m4f prices round-3 signing with TWFalcon's figures; it is round 3 only", sc.Name())
		}
		return printCyclesM4(logn, opts, s)
	}
	t, err := loadCostTable(s, opts.Platform)
	if err != nil {
		return err
	}
	if counted {
		return runAccelCyclesScheme(ctx, c, logn, ownKeys, opts, t, s)
	}
	params := 1 << logn
	if _, ok := t.Phases[fmt.Sprint(params)]; !ok {
		return fmt.Errorf("--platform %s: the cost table has no figures for Falcon-%d", opts.Platform, params)
	}
	recs, counts, err := accel.CountKATPhases(ctx, logn, opts.Records)
	if err != nil {
		return stepError(ctx, err)
	}
	rep, err := accel.ModelCycles(t, params, recs, counts)
	if err != nil {
		return err
	}
	if opts.JSON {
		return printJSON(s.Out, rep)
	}
	return printCycleReport(s, rep, t)
}

// printCyclesM4 prints the Cortex-M4F signing estimate of triword and
// emu64 beside TWFalcon's figures.
func printCyclesM4(logn uint, opts *accelCyclesOptions, s *streams) error {
	p, err := accel.PredictCortexM4F(logn, opts.Records)
	if err != nil {
		return err
	}
	tw := accel.TWFalconSigning
	if opts.JSON {
		return printJSON(s.Out, struct {
			*accel.M4Prediction
			Costs            []accel.M4OpCost `json:"cycles_per_op"`
			PublishedTriword float64          `json:"twfalcon_triword_cycles_512"`
			PublishedEmu64   float64          `json:"twfalcon_emu64_cycles_512"`
			PublishedRatio   float64          `json:"twfalcon_ratio_512"`
		}{p, accel.CortexM4FCosts, tw.Triword, tw.Emu64, tw.Ratio})
	}
	w := s.Out
	fmt.Fprintf(w, "Cortex-M4F, Falcon-%d signing (crypto_sign of the first %d NIST KAT records, mean per signature), calls over\ntriword and emu64 times TWFalcon's cycles per operation\n\n", p.Params, p.Records)
	fmt.Fprintf(w, "%-6s %12s %10s %12s %10s\n", "OP", "TW CALLS", "TW CYC/OP", "EMU CALLS", "EMU CYC/OP")
	for i, c := range accel.CortexM4FCosts {
		fmt.Fprintf(w, "%-6s %12.0f %10g %12.0f %10g\n", c.Op, p.TriwordOps[i], c.Triword, p.Emu64Ops[i], c.Emu64)
	}
	fmt.Fprintf(w, "\npredicted: triword %.1fM cycles, emu64 %.1fM cycles, ratio %.2fx\n", p.TriwordCycles/1e6, p.Emu64Cycles/1e6, p.Ratio)
	if p.Params == 512 {
		fmt.Fprintf(w, "TWFalcon:  triword %.1fM cycles, emu64 %.1fM cycles, ratio %.2fx\n", tw.Triword/1e6, tw.Emu64/1e6, tw.Ratio)
		fmt.Fprintf(w, "model/paper: triword %.2f, emu64 %.2f, ratio %+.1f %%\n", p.TriwordCycles/tw.Triword, p.Emu64Cycles/tw.Emu64, 100*(p.Ratio/tw.Ratio-1))
	} else {
		fmt.Fprintln(w, "TWFalcon publishes Falcon-512 only.")
	}
	_, err = fmt.Fprintf(w, `
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

func printCycleReport(s *streams, rep *accel.CycleReport, t *accel.CostTable) error {
	w := s.Out
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
			est, optK(p.PublishedK), su, p.PublishedSpeedup, suStr(p.MinSpeedup), suStr(p.MaxSpeedup), diff)
	}
	fmt.Fprintln(w)
	for _, p := range rep.Phases {
		if p.Explanation != "" {
			fmt.Fprintf(w, "* %s: %s.\n", p.Phase, p.Explanation)
		}
	}
	if rep.Verify != nil {
		printVerifyPath(s, rep, t)
	}
	fmt.Fprintln(w, "\nCOUNTED: software cycles of the counted operations at the table's costs; SHARE: of the baseline.")
	fmt.Fprintln(w, "RECORD SU RANGE: the model's speedup for single records (the estimate uses the mean counts).")
	for _, n := range t.Notes {
		fmt.Fprintf(w, "Note: %s\n", n)
	}
	fmt.Fprintln(w, "Sources of the costs:")
	for _, name := range accel.CycleUnits {
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

func suStr(x float64) string {
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

// printVerifyPath prints the bottom-up verify path beside the table's
// published verify figures.
func printVerifyPath(s *streams, rep *accel.CycleReport, t *accel.CostTable) {
	w, v := s.Out, rep.Verify
	fmt.Fprintf(w, "\nVerify path (bottom up: hash-to-point on the Keccak unit, the NTT-based product on the NTT unit, the norm\ncheck and the rest per coefficient), mean per verification over the %d records:\n\n", v.Records)
	printVerifySteps(w, v)
	if f, ok := t.Phases[fmt.Sprint(rep.Params)]["verify"]; ok && f.PublishedSpeedup > 0 {
		fmt.Fprintf(w, "published: %.0f -> %.0f kcycles, %.2fx (%s)\n", f.BaselineK, f.PublishedK, f.PublishedSpeedup, sourceOrNone(f.Source))
	}
	fmt.Fprintln(w, "Karl et al., ACM TECS 23(2) 2024 (abstract): up to 67.5 % less energy for Falcon verification on their RISC-V\nNTT and Keccak accelerators (22 nm ASIC); a table with their per-operation energies gives the comparable figure.")
	printVerifySources(w, t)
}

// printVerifySteps prints a verify path's operations, total and speedup.
func printVerifySteps(w io.Writer, v *accel.VerifyPathReport) {
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

// printVerifySources prints where the verify path's costs come from.
func printVerifySources(w io.Writer, t *accel.CostTable) {
	if t.VerifyPath.Description != "" {
		fmt.Fprintf(w, "Verify-path costs: %s\n", t.VerifyPath.Description)
	}
	for _, name := range accel.VerifyUnits {
		u := t.VerifyPath.Units[name]
		fmt.Fprintf(w, "  %s software: %s\n  %s accelerated: %s\n", name, sourceOrNone(u.Software.Source), name, sourceOrNone(u.Accelerated.Source))
	}
}

// accelCyclesFNDSAJSON is the --json output of accel cycles --scheme fn-dsa
// (of a scheme with an accel.Counter).
type accelCyclesFNDSAJSON struct {
	Scheme string `json:"scheme"`
	Params int    `json:"params"`
	// KeySource is "fn-dsa" (Records are go-fn-dsa KAT records j, with
	// their FN-DSA keys) or "falcon" (NIST KAT records, round-3 keys).
	KeySource  string                  `json:"key_source"`
	Platform   string                  `json:"platform"`
	Records    []int                   `json:"records"`
	VerifyPath *accel.VerifyPathReport `json:"verify_path"`
	Notes      []string                `json:"notes"`
}

// runAccelCyclesScheme prices the verify path of a scheme with a counter
// over the first opts.Records records: of its own KAT with its own keys
// (ownKeys), or made with the keys of the NIST KAT records.
func runAccelCyclesScheme(ctx context.Context, sc schemeCounter, logn uint, ownKeys bool, opts *accelCyclesOptions, t *accel.CostTable, s *streams) error {
	if t.VerifyPath == nil {
		return fmt.Errorf("--scheme %s: the cost table of --platform %s has no verify_path section, and the phase model is round 3's only", sc.Name(), opts.Platform)
	}
	var recs []int
	var keccak []uint64
	for r := range opts.Records {
		if ctx != nil && ctx.Err() != nil {
			return interrupted("")
		}
		var c *accel.FNDSACounts
		var err error
		if ownKeys {
			c, err = sc.CountKAT(logn, r)
		} else {
			c, err = sc.CountRound3Keys(logn, r)
		}
		if err != nil {
			return err
		}
		recs = append(recs, r)
		keccak = append(keccak, c.VerifyInt.KeccakF1600)
	}
	v, err := accel.ModelVerifyPathOps(t.VerifyPath, 1<<logn, recs, keccak, sc.VerifyOps)
	if err != nil {
		return err
	}
	ks := shadow.KeysFalcon
	if ownKeys {
		ks = shadow.KeysOf(sc)
	}
	res := accelCyclesFNDSAJSON{Scheme: sc.Name(), Params: 1 << logn, KeySource: string(ks), Platform: opts.Platform, Records: recs, VerifyPath: v, Notes: sc.CyclesNotes()}
	if opts.JSON {
		return printJSON(s.Out, res)
	}
	w := s.Out
	over := fmt.Sprintf("the %s signatures made with the keys of NIST KAT records %d to %d (%d records, round-3 keys)", sc.Description(), recs[0], recs[len(recs)-1], len(recs))
	if ownKeys {
		over = fmt.Sprintf("the signatures of %s's KAT records %d to %d of the degree (%d records, their %s keys)", sc.KATSource(), recs[0], recs[len(recs)-1], len(recs), sc.Description())
	}
	fmt.Fprintf(w, "%s verify path, cost table %q (bottom up: the key's digest and hash-to-point on the Keccak unit, the\nNTT-based product on the NTT unit, the norm check and the rest per coefficient), mean per verification over\n%s:\n\n", sc.Title(logn), opts.Platform, over)
	printVerifySteps(w, v)
	printVerifySources(w, t)
	for _, n := range res.Notes {
		fmt.Fprintln(w, "*", n)
	}
	return nil
}
