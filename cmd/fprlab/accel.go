package main

import (
	"bytes"
	"context"
	"crypto/sha3"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
	"github.com/fprlab/fprlab/internal/ffsfsm"
	"github.com/fprlab/fprlab/internal/safefile"
)

// fprlab accel: the hardware datapath models of package accel, replayed on
// real Falcon runs (NIST KAT records).

func newAccelCmd(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "accel",
		Short: "Hardware models of Falcon's datapaths replayed on real runs: counts, fpr-unit, multipliers, ffSampling, SamplerZ",
		Long: `accel replays NIST KAT records through bit-exact models of hardware datapaths
and reports what they cost:

  counts      operation counts per phase (fpr operations as the reference's FPEMU
              build counts them, mq_montymul, Keccak-f[1600])
  fpru        the HORCRUX fpr-unit: instruction model checked on the record, and
              the estimated speedup per phase beside HORCRUX Table IV
  mult        mantissa multiplier designs (schoolbook, 25x18 DSP tiling, Comba,
              Karatsuba 64 and 64+32): cost, and the record regenerated with each
  ffsampling  ffSampling as a state machine with an explicit stack: depth,
              memory and state transitions, checked against the recursive version
  ripst       pipelined SamplerZ: the RIPST table and a cycle-level simulation
              driven by the accept/reject sequence of real signing
  cycles      cycles per phase from counted operations and a platform's cost
              table, over up to 100 KAT records, beside HORCRUX Table IV, and the
              verify path on Keccak and NTT units
  latency     cycles per signature of a signer built from an FFT unit, an fpr
              datapath, the ffSampling state machine, a SamplerZ pipeline and a
              host interface`,
		// Run without a subcommand: see requireSubcommand.
	}
	cmd.AddCommand(newAccelCountsCmd(s), newAccelFpruCmd(s), newAccelMultCmd(s), newAccelFFSamplingCmd(s), newAccelRipstCmd(s), newAccelCyclesCmd(s), newAccelLatencyCmd(s))
	return cmd
}

// checkPlotPrefix checks a --plot PREFIX, of which PREFIX.png and
// PREFIX.svg are written: a prefix that names an existing device,
// directory or other non-regular file (--plot /dev/full would create
// /dev/full.png beside the device) or that already ends in .png or .svg
// (x.png.png) is a mistake, and "-" has no place for two files.
func checkPlotPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	if prefix == safefile.Stdio {
		return errors.New("--plot -: --plot takes a file name prefix (PREFIX.png and PREFIX.svg are written), not standard output")
	}
	if ext := strings.ToLower(filepath.Ext(prefix)); ext == ".png" || ext == ".svg" {
		return fmt.Errorf("--plot %s: give the prefix without the extension (%s.png and %s.svg are written)", prefix, prefix, prefix)
	}
	if st, err := os.Stat(prefix); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("--plot %s: names an existing %s; --plot takes a file name prefix (PREFIX.png and PREFIX.svg are written)", prefix, fileKind(st.Mode()))
	}
	return nil
}

// fileKind names the kind of a file mode for messages.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&os.ModeCharDevice != 0, m&os.ModeDevice != 0:
		return "device"
	case m&os.ModeNamedPipe != 0:
		return "pipe"
	}
	return "special file"
}

// accelRecordFlags are the flags that choose a KAT record.
type accelRecordFlags struct {
	Params string
	Record int
	JSON   bool
}

func (f *accelRecordFlags) bind(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.Params, "params", "", "degree: 512 or 1024")
	fl.IntVar(&f.Record, "kat-record", 0, "NIST KAT record, 0 to 99")
	fl.IntVar(&f.Record, "record", 0, "the same as --kat-record")
	fl.BoolVar(&f.JSON, "json", false, "print the result as JSON")
}

// degree validates the flags and returns logn.
func (f *accelRecordFlags) degree() (uint, error) {
	logn, err := katDegreeLogn(f.Params)
	if err != nil {
		return 0, err
	}
	ref, err := katref.Lookup(logn)
	if err != nil {
		return 0, err
	}
	if f.Record < 0 || f.Record >= ref.Records {
		return 0, fmt.Errorf("--kat-record %d: want a record of the published KAT, 0 to %d", f.Record, ref.Records-1)
	}
	return logn, nil
}

// countRecord counts a record and checks it against the published file.
func countRecord(f *accelRecordFlags) (uint, *accel.KATCounts, error) {
	logn, err := f.degree()
	if err != nil {
		return 0, nil, err
	}
	k, err := accel.CountKATRecord(logn, f.Record)
	if err != nil {
		return 0, nil, err
	}
	if err := checkPublished(logn, &k.Record); err != nil {
		return 0, nil, err
	}
	return logn, k, nil
}

// checkPublished compares a generated record with the published one: a
// difference would mean the numbers describe some other computation.
func checkPublished(logn uint, r *falcon.KATRecord) error {
	data, err := katref.Response(logn)
	if err != nil {
		return err
	}
	_, recs, err := falcon.ParseKAT(data)
	if err != nil {
		return err
	}
	if r.Count >= len(recs) {
		return fmt.Errorf("the published KAT file has no record %d", r.Count)
	}
	if m := falcon.CompareKATRecord(r, &recs[r.Count]); m != nil {
		return fmt.Errorf("record %d differs from the published KAT in %s at byte %d", m.Record, m.Field, m.Offset)
	}
	return nil
}

// ---- counts ----

// countsPhaseJSON is one phase of accel counts --json: the fpr counters
// and the integer counters (the names of the reference's counts file, and
// keccak_f1600).
type countsPhaseJSON struct {
	accel.Counts
	accel.IntCounts
}

type countsPhasesJSON struct {
	Keygen countsPhaseJSON `json:"keygen"`
	Sign   countsPhaseJSON `json:"sign"`
	Verify countsPhaseJSON `json:"verify"`
}

// countsJSON is the stable --json output of accel counts.
type countsJSON struct {
	Params  int              `json:"params"`
	Record  int              `json:"record"`
	Backend string           `json:"backend"`
	Phases  countsPhasesJSON `json:"phases"`
	Total   countsPhaseJSON  `json:"total"`
	// Candidates passed keygen's Gram-Schmidt bound.
	Candidates   int      `json:"keygen_candidates"`
	SignAttempts int      `json:"sign_attempts"`
	Notes        []string `json:"notes"`
}

var accelCountsNotes = []string{
	"fpr counters: calls of fprlab's Arith through emu64, in the structure of the reference's FPEMU build (add includes sub, mul sqr and 2 per expm_p63, div inv, trunc 2 per expm_p63; FPR = scaled+add+mul+div+sqrt, FPR_NORM64 = scaled+add)",
	"modp_montymul: counted in fprlab's NTRUSolve, which makes the reference's sequence of Montgomery products modulo the RNS primes (every NTRUSolve run, failed ones included)",
	"mq_montymul: from the reference's call structure (compute_public per keygen candidate passing the Gram-Schmidt bound, stopping at f's first zero NTT slot; complete_private in sign; to_ntt_monty and verify_raw in verify)",
	"keccak_f1600: from the bytes absorbed and squeezed (rate 136): the keygen stream, hash-to-point, the 56-byte sampler seeds",
}

// accelCountsOptions holds the flags of accel counts.
type accelCountsOptions struct {
	accelRecordFlags
	Scheme string
	// KeySource and FNDSARecord choose an FN-DSA count's input: a record
	// of go-fn-dsa's KAT with its FN-DSA keys (the default), or with
	// --key-source falcon the NIST record --kat-record with its round-3
	// keys.
	KeySource   string
	FNDSARecord int
	// changed reports whether a flag was given.
	changed func(name string) bool
}

func newAccelCountsCmd(s *streams) *cobra.Command {
	opts := &accelCountsOptions{}
	cmd := &cobra.Command{
		Use:   "counts --params 512|1024",
		Short: "Operation counts per phase of a NIST KAT record (fpr operations, modp/mq_montymul, Keccak-f[1600])",
		Long: `counts runs one record of the NIST KAT flow (crypto_sign_keypair, crypto_sign,
crypto_sign_open) over emu64, the reference's FALCON_FPEMU arithmetic, checks it
against the published file, and prints per phase:

  the fpr operations as an instrumented reference build counts them (FPR is the
  packing routine, FPR_NORM64 the normaliser: the blocks of a hardware fpr unit);
  modp_montymul, the Montgomery products of NTRUSolve (keygen only);
  mq_montymul, from the reference's call structure (NTT, iNTT, divisions);
  keccak_f1600, from the bytes each SHAKE256 absorbs and squeezes.

Falcon-512 record 0: FPR 731,119, FPR_NORM64 388,031, modp_montymul 975,905,
Keccak-f 503 (HORCRUX Table II), mq_montymul 17,664 / 20,992 / 8,448.

--scheme fn-dsa counts an FN-DSA signature (FIPS 206 draft, as go-fn-dsa) and
its verification: by default record --fn-dsa-record J (0 to 9) of go-fn-dsa's
own KAT at the degree, with its FN-DSA keys (fndsa.KeyGen of the record's seed),
context, message and signing seed -- the signature is go-fn-dsa's, checked
against the record's pin SHA3-256(sk || vk || sig); with --key-source falcon
the NIST record --kat-record with its round-3 keys, beside round 3's counts of
that record.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.changed = cmd.Flags().Changed
			sc, err := parseScheme(opts.Scheme)
			if err != nil {
				return err
			}
			if sc == shadow.SchemeFNDSA {
				return runAccelCountsFNDSA(opts, s)
			}
			if opts.KeySource != "" || opts.changed("fn-dsa-record") {
				return errors.New("--key-source and --fn-dsa-record apply to --scheme fn-dsa only (round 3 counts the NIST record --kat-record)")
			}
			return runAccelCounts(cmd.Context(), &opts.accelRecordFlags, s)
		},
	}
	opts.bind(cmd)
	addSchemeFlag(cmd, &opts.Scheme)
	fl := cmd.Flags()
	fl.StringVar(&opts.KeySource, "key-source", "", "fn-dsa: keys from `SOURCE`: fn-dsa (a go-fn-dsa KAT record's own keys, --fn-dsa-record; the default) or falcon (the NIST KAT record's round-3 keys, --kat-record)")
	fl.IntVar(&opts.FNDSARecord, "fn-dsa-record", 0, "fn-dsa: record `J` of go-fn-dsa's KAT at the degree, 0 to 9 (FN-DSA keys)")
	return cmd
}

func runAccelCounts(_ context.Context, opts *accelRecordFlags, s *streams) error {
	logn, k, err := countRecord(opts)
	if err != nil {
		return err
	}
	res := countsJSON{
		Params: 1 << logn, Record: opts.Record, Backend: "emu64",
		Phases: countsPhasesJSON{
			Keygen: countsPhaseJSON{Counts: k.Keypair, IntCounts: k.KeypairInt},
			Sign:   countsPhaseJSON{Counts: k.Sign, IntCounts: k.SignInt},
			Verify: countsPhaseJSON{Counts: k.Open, IntCounts: k.OpenInt},
		},
		Total:      countsPhaseJSON{Counts: k.Total(), IntCounts: k.TotalInt()},
		Candidates: k.Candidates, SignAttempts: k.SignAttempts,
		Notes: accelCountsNotes,
	}
	if opts.JSON {
		return printJSON(s.Out, res)
	}
	w := s.Out
	fmt.Fprintf(w, "Falcon-%d, NIST KAT record %d over emu64 (matches the published record)\n\n", res.Params, res.Record)
	fmt.Fprintf(w, "%-14s %12s %12s %12s %12s\n", "COUNTER", "KEYGEN", "SIGN", "VERIFY", "TOTAL")
	p := res.Phases
	phases := []countsPhaseJSON{p.Keygen, p.Sign, p.Verify, res.Total}
	for i, name := range accel.CounterNames {
		fmt.Fprintf(w, "%-14s", name)
		for _, ph := range phases {
			fmt.Fprintf(w, " %12d", ph.Counts.Values()[i])
		}
		fmt.Fprintln(w)
	}
	for _, row := range []struct {
		name string
		v    func(accel.IntCounts) uint64
	}{
		{"modp_montymul", func(c accel.IntCounts) uint64 { return c.ModpMontymul }},
		{"mq_montymul", func(c accel.IntCounts) uint64 { return c.MqMontymul }},
		{"keccak_f1600", func(c accel.IntCounts) uint64 { return c.KeccakF1600 }},
	} {
		fmt.Fprintf(w, "%-14s", row.name)
		for _, ph := range phases {
			fmt.Fprintf(w, " %12d", row.v(ph.IntCounts))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nkeygen candidates past the Gram-Schmidt bound: %d; signing attempts: %d\n", res.Candidates, res.SignAttempts)
	for _, n := range res.Notes {
		fmt.Fprintln(w, "*", n)
	}
	return nil
}

// ---- fpru ----

type fpruOptions struct {
	accelRecordFlags
	Cycles  accel.FPRUnitCycles
	Records int
	Plot    string
}

// fpruJSON is the --json output of accel fpru.
type fpruJSON struct {
	Params int `json:"params"`
	Record int `json:"record"`
	// ModelMatchesKAT: the record regenerated over emu64 with packing and
	// normalisation done by the instruction model equals the published
	// one; Instructions are the fpr-unit instructions it issued.
	ModelMatchesKAT bool                `json:"instruction_model_matches_kat"`
	Exact           exactCheck          `json:"exactness"`
	Instructions    uint64              `json:"instructions"`
	Cycles          accel.FPRUnitCycles `json:"cycles_per_call"`
	// Model is the per-phase estimate of the fpr-unit alone over the mean
	// counts of the first --records KAT records.
	Model *accel.CycleReport `json:"model"`
}

func newAccelFpruCmd(s *streams) *cobra.Command {
	opts := &fpruOptions{Cycles: accel.DefaultFPRUnitCycles}
	cmd := &cobra.Command{
		Use:   "fpru --params 512|1024",
		Short: "HORCRUX fpr-unit: instruction model on a KAT record and the fpr-unit's speedup beside HORCRUX Table IV",
		Long: `fpru regenerates KAT record --kat-record over emu64 with FPR(s, e, m) and
FPR_NORM64 done by the bit-exact model of HORCRUX's fpr-unit instructions
(FPR_LOAD_SE, FPR_EXEC, FPR_RDHI, FPR_NORM64_EXEC/_RDHI/_RDE on 32-bit words) and
compares every rounded result with emu64's, then estimates each phase's cycles
with the fpr-unit alone, from the mean counts of the first --records KAT records
(Table IV's figures are averages over 100 KAT executions):

  optimised = baseline - mean n_FPR (soft_FPR - ext_FPR) - mean n_NORM64 (soft_NORM64 - ext_NORM64)

with HORCRUX's baseline cycles (Table IV) and per-call costs (defaults: 43 and 108
cycles in software, HORCRUX Table II; 3 with the extension, one per instruction).
The estimate is printed beside the published optimised cycles and speedups, with
the count's min and max, the speedup range of single records, and the per-call
cost the published figure implies. 'accel cycles' credits all of HORCRUX's units.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAccelFpru(cmd.Context(), opts, s) },
	}
	opts.bind(cmd)
	fl := cmd.Flags()
	fl.Float64Var(&opts.Cycles.SoftFPR, "soft-fpr", opts.Cycles.SoftFPR, "cycles per FPR call in software")
	fl.Float64Var(&opts.Cycles.SoftNorm64, "soft-norm64", opts.Cycles.SoftNorm64, "cycles per FPR_NORM64 call in software")
	fl.Float64Var(&opts.Cycles.ExtFPR, "ext-fpr", opts.Cycles.ExtFPR, "cycles per FPR call with the fpr-unit")
	fl.Float64Var(&opts.Cycles.ExtNorm64, "ext-norm64", opts.Cycles.ExtNorm64, "cycles per FPR_NORM64 call with the fpr-unit")
	fl.IntVar(&opts.Records, "records", 100, "KAT records whose mean counts the estimate uses, the first 1 to 100")
	fl.StringVar(&opts.Plot, "plot", "", "also write the cycle breakdown per phase as PREFIX.png and PREFIX.svg")
	return cmd
}

func runAccelFpru(ctx context.Context, opts *fpruOptions, s *streams) error {
	if err := checkPlotPrefix(opts.Plot); err != nil {
		return err
	}
	c := opts.Cycles
	for _, v := range []struct {
		name string
		x    float64
	}{{"--soft-fpr", c.SoftFPR}, {"--soft-norm64", c.SoftNorm64}, {"--ext-fpr", c.ExtFPR}, {"--ext-norm64", c.ExtNorm64}} {
		if !(v.x >= 0) || v.x > 1e9 {
			return fmt.Errorf("%s %v: want a number of cycles from 0 to 1e9", v.name, v.x)
		}
	}
	if opts.Records < 1 || opts.Records > 100 {
		return fmt.Errorf("--records %d: want 1 to 100 (the published KAT records)", opts.Records)
	}
	logn, err := opts.degree()
	if err != nil {
		return err
	}
	h := accel.NewHorcruxArith()
	chk, err := (&emu64Digester{logn: logn, record: opts.Record}).checkExact(arith.Backend{Name: "emu64+fpru", Bits: 53, ExpBits: 11, Impl: h})
	if err != nil {
		return err
	}
	tab, err := accel.FPRUnitTable(c)
	if err != nil {
		return err
	}
	recs, counts, err := countKATPhases(ctx, logn, opts.Records)
	if err != nil {
		return err
	}
	rep, err := accel.ModelCycles(tab, 1<<logn, recs, counts)
	if err != nil {
		return err
	}
	res := fpruJSON{Params: 1 << logn, Record: opts.Record, ModelMatchesKAT: chk.KATMatch, Exact: chk,
		Instructions: h.Instructions().Total(), Cycles: c, Model: rep}
	if opts.Plot != "" {
		inputs := fmt.Sprintf("mean counts of KAT records 0-%d; cycles per call: FPR %g in software, %g with the fpr-unit; FPR_NORM64 %g, %g", opts.Records-1, c.SoftFPR, c.ExtFPR, c.SoftNorm64, c.ExtNorm64)
		fig, err := plot.FPRUnit(fpruPhases(rep, c), 1<<logn, inputs)
		if err != nil {
			return err
		}
		if err := s.writeFigure(fig, opts.Plot); err != nil {
			return err
		}
	}
	if opts.JSON {
		if err := printJSON(s.Out, res); err != nil {
			return err
		}
		if !chk.exact() {
			return notExactError("the fpr-unit model")
		}
		return nil
	}
	w := s.Out
	match := "equals the published record"
	if !chk.KATMatch {
		match = "DIFFERS from the published record"
	}
	fmt.Fprintf(w, "Falcon-%d, NIST KAT record %d. Over the fpr-unit instruction model the record %s (%d instructions).\n", res.Params, res.Record, match, res.Instructions)
	fmt.Fprintf(w, "Every result and sampler output against emu64's: %s\n  fpr-unit: %v\n  emu64:    %v\n", chk.verdict(), chk.Digest, chk.Emu64Digest)
	fmt.Fprintf(w, "Cycles per call: software FPR %g, FPR_NORM64 %g; with the fpr-unit %g, %g.\n", c.SoftFPR, c.SoftNorm64, c.ExtFPR, c.ExtNorm64)
	fmt.Fprintf(w, "Estimate of the fpr-unit alone from the mean counts of KAT records 0 to %d (%d records, each checked against\nthe published file), beside HORCRUX Table IV (averages over 100 KAT executions):\n\n", len(recs)-1, len(recs))
	fmt.Fprintf(w, "%-7s %11s %9s %9s %11s %9s %9s %10s %12s %8s %7s %15s %9s\n", "PHASE", "FPR MEAN", "MIN", "MAX", "NORM64 MEAN", "MIN", "MAX",
		"BASE kCC", "PUB OPT kCC", "PUB SU", "EST SU", "RECORD SU RANGE", "IMPLIED")
	for _, p := range rep.Phases {
		f, n := p.Units[0], p.Units[1]
		implied := "-"
		if p.FPRUnitImplied != nil {
			implied = fmt.Sprintf("%.1f", *p.FPRUnitImplied)
		}
		fmt.Fprintf(w, "%-7s %11.1f %9d %9d %11.1f %9d %9d %10.0f %12.0f %7.2fx %6.2fx %7s-%-7s %9s\n", p.Phase, f.Mean, f.Min, f.Max, n.Mean, n.Min, n.Max,
			p.BaselineK, p.PublishedK, p.PublishedSpeedup, p.EstSpeedup, suStr(p.MinSpeedup), suStr(p.MaxSpeedup), implied)
	}
	fmt.Fprintln(w, "\nIMPLIED: the one cycles-per-call cost of both blocks at which the fpr-unit alone gives the published optimised\ncycles. HORCRUX profiles Falcon-512 only; the same costs are assumed at Falcon-1024.")
	for _, p := range rep.Phases {
		switch {
		case p.FPRUnitImplied == nil:
			fmt.Fprintf(w, "* %s has no fpr operation; its published %.2fx comes from HORCRUX's NTT, mq_montymul and Keccak units.\n", p.Phase, p.PublishedSpeedup)
		case *p.FPRUnitImplied < 0:
			fmt.Fprintf(w, "* %s: the published saving exceeds what removing every fpr call would save; the rest comes from the\n  modp_montymul, NTT and Keccak units of the same build.\n", p.Phase)
		case *p.FPRUnitImplied > c.ExtFPR && *p.FPRUnitImplied > c.ExtNorm64:
			fmt.Fprintf(w, "* %s: the published saving is smaller than the model's: it implies %.1f cycles per call with the extension --\n  operands pass through the 32-bit register file and memory around each sequence (the bus bottleneck\n  HORCRUX names for Falcon), before the NTT, Montgomery and Keccak units of the same build save anything.\n", p.Phase, *p.FPRUnitImplied)
		default:
			fmt.Fprintf(w, "* %s: the published saving implies %.1f cycles per call, close to the model's costs; the other units of\n  the extension account for the rest.\n", p.Phase, *p.FPRUnitImplied)
		}
	}
	if !chk.exact() {
		return notExactError("the fpr-unit model")
	}
	return nil
}

// ---- mult ----

// multRowJSON is one design of accel mult --json.
type multRowJSON struct {
	Design string                `json:"design"`
	Width  int                   `json:"width"`
	Cost   accel.MultCost        `json:"cost"`
	Phases []accel.MultPhaseCost `json:"phases"`
	// Resources on each DSP slice (accel.DSPFamilies order).
	Resources []accel.DesignResources `json:"resources"`
	KATMatch  bool                    `json:"kat_match"`
	Exact     exactCheck              `json:"exactness"`
}

type multJSON struct {
	Params  int           `json:"params"`
	Record  int           `json:"record"`
	Designs []multRowJSON `json:"designs"`
}

func newAccelMultCmd(s *streams) *cobra.Command {
	opts := &accelRecordFlags{}
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

func runAccelMult(_ context.Context, opts *accelRecordFlags, s *streams) error {
	logn, k, err := countRecord(opts)
	if err != nil {
		return err
	}
	ms, err := accel.AllMultipliers()
	if err != nil {
		return err
	}
	res := multJSON{Params: 1 << logn, Record: opts.Record}
	ed := &emu64Digester{logn: logn, record: opts.Record}
	exact := true
	for _, m := range ms {
		d := emu64.Datapath{MantProduct: m.Product}
		if m.Width == 64 {
			d.FixedProduct = m.Product
		}
		chk, err := ed.checkExact(arith.Backend{Name: "emu64+" + m.Name, Bits: 53, ExpBits: 11, Impl: emu64.NewStaged(d)})
		if err != nil {
			return err
		}
		exact = exact && chk.exact()
		row := multRowJSON{Design: m.Name, Width: m.Width, Cost: m.Cost, Phases: accel.MultiplierCosts(k, m), KATMatch: chk.KATMatch, Exact: chk}
		for _, f := range accel.DSPFamilies {
			r, err := m.Resources(f)
			if err != nil {
				return err
			}
			row.Resources = append(row.Resources, r)
		}
		res.Designs = append(res.Designs, row)
	}
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
		if !r.Exact.exact() {
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
		fmt.Fprintf(w, "  %-15s %2d bits  %s  sha256 %s\n", r.Design, r.Width, r.Exact.verdict(), r.Exact.Digest.SHA256)
	}
	if !exact {
		return notExactError("a multiplier design")
	}
	return nil
}

// ---- ffsampling ----

type ffsOptions struct {
	accelRecordFlags
	Signatures int
	Seed       string
}

type ffsJSON struct {
	Params     int `json:"params"`
	Record     int `json:"record"`
	Signatures int `json:"signatures"`
	// KATMatch: the record regenerated with crypto_sign's ffSampling run
	// by the state machine equals the published one. BitExact: every
	// further signature equals falcon.Sign's over emu64 with the same
	// random stream.
	KATMatch bool `json:"kat_match"`
	BitExact bool `json:"bit_exact"`
	// SignaturesEqual: the signatures are equal. Digest and
	// RecursiveDigest digest every arithmetic result and sampler output
	// of the state machine's and the recursive version's signatures;
	// BitExact is SignaturesEqual and equal digests.
	SignaturesEqual bool               `json:"signatures_equal"`
	Digest          accel.ResultDigest `json:"digest"`
	RecursiveDigest accel.ResultDigest `json:"recursive_digest"`
	// Per signature (the last one for MaxDepth and the words, which do
	// not vary; means for the others).
	MaxDepth                int     `json:"max_stack_depth"`
	StackWords              int     `json:"stack_words"`
	WorkspaceWords          int     `json:"workspace_words"`
	PeakWords               int     `json:"peak_words"`
	TransitionsPerSignature float64 `json:"transitions_per_signature"`
	AttemptsPerSignature    float64 `json:"attempts_per_signature"`
	LeavesPerSignature      float64 `json:"leaves_per_signature"`
}

func newAccelFFSamplingCmd(s *streams) *cobra.Command {
	opts := &ffsOptions{}
	cmd := &cobra.Command{
		Use:   "ffsampling --params 512|1024",
		Short: "ffSampling as a state machine with an explicit stack: depth, memory, transitions; checked bit for bit",
		Long: `ffsampling regenerates the KAT record with crypto_sign's ffSampling run by the
state machine and checks it against the published file, then signs the record's
message with its key --signatures more times (compressed format, nonce and
sampler seeds from SHAKE256(seed || i) for signature i), once with Falcon's
recursive ffSampling and once with the state machine that hardware
runs (Peregrino: S_FFSAMPLING at three checkpoints, S_RIGHT, S_LEFT, ascend; a
custom stack of frames holding six region addresses, the degree and the
checkpoint), checks that the signatures are equal, and reports the stack depth,
the memory words held at the deepest point (stack plus the workspace of 9n
floating-point values) and the state transitions per signature.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAccelFFSampling(cmd.Context(), opts, s) },
	}
	opts.bind(cmd)
	cmd.Flags().IntVar(&opts.Signatures, "signatures", 4, "signatures to make, 1 to 1000")
	cmd.Flags().StringVar(&opts.Seed, "seed", "fprlab accel ffsampling", "seed string of the random streams")
	return cmd
}

func runAccelFFSampling(ctx context.Context, opts *ffsOptions, s *streams) error {
	if opts.Signatures < 1 || opts.Signatures > 1000 {
		return fmt.Errorf("--signatures %d: want 1 to 1000", opts.Signatures)
	}
	logn, err := opts.degree()
	if err != nil {
		return err
	}
	b, err := arith.Lookup("emu64")
	if err != nil {
		return err
	}
	rec, err := falcon.KATRequest(opts.Record)
	if err != nil {
		return err
	}
	if rec.PK, rec.SK, rec.SM, _, err = ffsfsm.KAT(b, b, logn, rec.Count, rec.Seed, rec.Msg); err != nil {
		return err
	}
	sk, err := falcon.DecodePrivateKey(rec.SK)
	if err != nil {
		return err
	}
	res := ffsJSON{Params: 1 << logn, Record: opts.Record, Signatures: opts.Signatures, SignaturesEqual: true,
		KATMatch: checkPublished(logn, &rec) == nil}
	recursive, fsm := accel.NewDigesting(emu64.Arith{}), accel.NewDigesting(emu64.Arith{})
	var trans, att, leaves int
	for i := range opts.Signatures {
		if ctx != nil && ctx.Err() != nil {
			return interrupted("")
		}
		stream := func() io.Reader {
			h := sha3.NewSHAKE256()
			fmt.Fprintf(h, "%s||%d", opts.Seed, i)
			return h
		}
		want, err := falcon.Sign(recursive.Backend(b), sk, rec.Msg, falcon.Compressed, stream())
		if err != nil {
			return err
		}
		got, st, err := ffsfsm.Sign(fsm, fsm, rec.SK, rec.Msg, stream())
		if err != nil {
			return err
		}
		res.SignaturesEqual = res.SignaturesEqual && bytes.Equal(got, want)
		trans += st.Transitions
		att += st.Attempts
		leaves += st.Leaves
		res.MaxDepth, res.StackWords, res.WorkspaceWords, res.PeakWords = st.MaxDepth, st.StackWords, st.WorkspaceWords, st.PeakWords
	}
	res.Digest, res.RecursiveDigest = fsm.Digest(), recursive.Digest()
	res.BitExact = res.SignaturesEqual && res.Digest == res.RecursiveDigest
	n := float64(opts.Signatures)
	res.TransitionsPerSignature = float64(trans) / n
	res.AttemptsPerSignature = float64(att) / n
	res.LeavesPerSignature = float64(leaves) / n
	if opts.JSON {
		if err := printJSON(s.Out, res); err != nil {
			return err
		}
	} else {
		w := s.Out
		fmt.Fprintf(w, "Falcon-%d, key and message of NIST KAT record %d, %d signatures (emu64)\n\n", res.Params, res.Record, res.Signatures)
		fmt.Fprintf(w, "KAT record with the state machine = published:   %v\n", res.KATMatch)
		fmt.Fprintf(w, "signatures equal to the recursive ffSampling's:  %v\n", res.SignaturesEqual)
		fmt.Fprintf(w, "every result and sampler output equal:           %v\n  state machine: %v\n  recursive:     %v\n", res.BitExact, res.Digest, res.RecursiveDigest)
		fmt.Fprintf(w, "maximum stack depth (frames):                    %d\n", res.MaxDepth)
		fmt.Fprintf(w, "stack at the peak (8 words per frame):           %d words\n", res.StackWords)
		fmt.Fprintf(w, "workspace (t0, t1, Gram matrix, scratch: 9n):    %d floating-point words\n", res.WorkspaceWords)
		fmt.Fprintf(w, "memory held at the deepest point:                %d words\n", res.PeakWords)
		fmt.Fprintf(w, "state transitions per signature:                 %.1f (%.2f attempts, %.0f leaves)\n", res.TransitionsPerSignature, res.AttemptsPerSignature, res.LeavesPerSignature)
	}
	if !res.BitExact || !res.KATMatch {
		return &exitError{code: exitFalse, err: errors.New("the state machine's signatures, results or sampler outputs differ from the recursive ffSampling's (or the KAT record)")}
	}
	return nil
}

// ---- ripst ----

type ripstOptions struct {
	Params     string
	Records    int
	Backend    string
	JSON       bool
	Plot       string
	Acceptance bool
}

// ripstRowJSON is one row of accel ripst --json: a design of the
// published table, or (Simulated) the cycle-level simulation of a design
// driven by the attempts of real signing.
type ripstRowJSON struct {
	Design      string  `json:"design"`
	Model       string  `json:"model"`
	TTFS        float64 `json:"ttfs"`
	TTNS        float64 `json:"ttns"`
	MHz         float64 `json:"mhz"`
	RIPSTCycles float64 `json:"ripst_cycles"`
	RIPSTNs     float64 `json:"ripst_ns"`

	Simulated bool `json:"simulated,omitempty"`
	// Simulation only: the run, cycles per pair, attempts per pair
	// (issued includes the discarded speculative ones), random bits per
	// pair drawn by the issued attempts with the reference's byte-wise
	// BerExp (measured bits per attempt) and with the two-Bernoulli
	// 64-bit design (modelled), and by the needed attempts only.
	Params                    int      `json:"params,omitempty"`
	Backend                   string   `json:"backend,omitempty"`
	Pairs                     int      `json:"pairs,omitempty"`
	Lanes                     int      `json:"lanes,omitempty"`
	CyclesPerPair             float64  `json:"cycles_per_pair,omitempty"`
	IssuedPerPair             float64  `json:"issued_attempts_per_pair,omitempty"`
	UsefulPerPair             float64  `json:"useful_attempts_per_pair,omitempty"`
	BitsPerAttempt            float64  `json:"bytewise_berexp_bits_per_attempt,omitempty"`
	RandomBitsPerPair         float64  `json:"random_bits_per_pair,omitempty"`
	RandomBitsPerPairTwoBern  float64  `json:"random_bits_per_pair_two_bernoulli64,omitempty"`
	RandomBitsPerPairUseful   float64  `json:"random_bits_per_pair_useful,omitempty"`
	MeasuredCyclesPerPair     *float64 `json:"hardware_cycles_per_pair,omitempty"`
	MeasuredRandomBitsPerPair *float64 `json:"hardware_random_bits_per_pair,omitempty"`
}

func newAccelRipstCmd(s *streams) *cobra.Command {
	opts := &ripstOptions{}
	cmd := &cobra.Command{
		Use:   "ripst",
		Short: "Pipelined SamplerZ: the RIPST table and a cycle-level simulation on the accept/reject sequence of real signing",
		Long: `ripst prints the rejection-inclusive pair sampling time of the SamplerZ designs
compared by Vojacek and Novotny (TCHES 2026/4), from the serial, alternating,
parallel_last and parallel_both formulas with p = 0.575752, then simulates each
design cycle by cycle (serial: lanes 1; the pipelined design: alternating, lanes
2) on the attempts per sample of real signing: the first --records NIST KAT
records of --params signed over --backend. Random bits per pair are given for the
reference's byte-wise BerExp (bits per attempt measured in the run) and for the
two-Bernoulli 64-bit acceptance (two full 64-bit words per attempt), over the
attempts a speculative pipeline issues and over the attempts needed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAccelRipst(cmd.Context(), opts, s) },
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Params, "params", "512", "degree of the signing runs: 512 or 1024")
	fl.IntVar(&opts.Records, "records", 10, "KAT records to sign, 1 to 100")
	fl.StringVar(&opts.Backend, "backend", "emu64", "signing backend (see 'fprlab backends')")
	fl.BoolVar(&opts.JSON, "json", false, "print an array of rows: the table, then the simulations (\"simulated\": true)")
	fl.StringVar(&opts.Plot, "plot", "", "also write the RIPST comparison as PREFIX.png and PREFIX.svg")
	fl.BoolVar(&opts.Acceptance, "acceptance", false, "instead, compare the acceptance probability of each attempt under the byte-wise BerExp and the two-Bernoulli design with the exact one (emu64)")
	return cmd
}

func runAccelRipst(_ context.Context, opts *ripstOptions, s *streams) error {
	if err := checkPlotPrefix(opts.Plot); err != nil {
		return err
	}
	logn, err := katDegreeLogn(opts.Params)
	if err != nil {
		return err
	}
	if opts.Records < 1 || opts.Records > 100 {
		return fmt.Errorf("--records %d: want 1 to 100", opts.Records)
	}
	if opts.Acceptance {
		if opts.Plot != "" || opts.Backend != "emu64" {
			return errors.New("--acceptance runs over emu64 and draws no plot: drop --backend and --plot")
		}
		return runAcceptance(logn, opts, s)
	}
	var rows []ripstRowJSON
	for _, d := range accel.SamplerDesigns {
		c, ns, err := d.RIPST()
		if err != nil {
			return err
		}
		// Table rows to two decimals, the precision of the published table.
		round2 := func(x float64) float64 { return math.Round(x*100) / 100 }
		rows = append(rows, ripstRowJSON{Design: d.Name, Model: d.Model, TTFS: d.TTFS, TTNS: d.TTNS, MHz: d.MHz, RIPSTCycles: round2(c), RIPSTNs: round2(ns)})
	}
	rec, err := accel.KATSamplerRecord(opts.Backend, logn, opts.Records)
	if err != nil {
		return err
	}
	bits := rec.RandomBitsPerAttempt()
	for _, d := range accel.SamplerDesigns {
		lanes := 1
		switch d.Model {
		case accel.ModelAlternating:
			lanes = 2
		case accel.ModelSerial:
		default:
			continue // a published figure without a schedule to simulate
		}
		pl := accel.Pipeline{TTFS: int(d.TTFS), TTNS: int(d.TTNS), Lanes: lanes}
		st, err := pl.SimulatePairs(rec.Attempts)
		if err != nil {
			return err
		}
		r := ripstRowJSON{Design: d.Name, Model: d.Model, TTFS: d.TTFS, TTNS: d.TTNS, MHz: d.MHz,
			RIPSTCycles: st.CyclesPerPair, RIPSTNs: st.CyclesPerPair * 1e3 / d.MHz, Simulated: true,
			Params: 1 << logn, Backend: opts.Backend, Pairs: st.Pairs, Lanes: lanes, CyclesPerPair: st.CyclesPerPair,
			IssuedPerPair: st.IssuedPerPair, UsefulPerPair: st.UsefulAttemptsPerPair, BitsPerAttempt: bits,
			RandomBitsPerPair:        st.IssuedPerPair * bits,
			RandomBitsPerPairTwoBern: st.IssuedPerPair * accel.TwoBernoulli64Bits,
			RandomBitsPerPairUseful:  st.UsefulAttemptsPerPair * bits,
		}
		if d.Model == accel.ModelAlternating {
			m := accel.PipelinedMeasured
			r.MeasuredCyclesPerPair, r.MeasuredRandomBitsPerPair = &m.CyclesPerPair, &m.RandomBitsPerPair
		}
		rows = append(rows, r)
	}
	if opts.Plot != "" {
		inputs := fmt.Sprintf("acceptance rate p = %g; simulation: Falcon-%d, %d KAT records, %s", accel.AcceptRate, 1<<logn, opts.Records, opts.Backend)
		fig, err := plot.RIPST(ripstBars(rows), inputs)
		if err != nil {
			return err
		}
		if err := s.writeFigure(fig, opts.Plot); err != nil {
			return err
		}
	}
	if opts.JSON {
		return printJSON(s.Out, rows)
	}
	w := s.Out
	fmt.Fprintf(w, "RIPST (p = %g), Vojacek and Novotny, TCHES 2026/4\n\n", accel.AcceptRate)
	fmt.Fprintf(w, "%-28s %-13s %6s %6s %5s %10s %10s\n", "DESIGN", "MODEL", "TTFS", "TTNS", "MHZ", "CYCLES", "NS")
	for _, r := range rows[:len(accel.SamplerDesigns)] {
		fmt.Fprintf(w, "%-28s %-13s %6g %6g %5g %10.2f %10.2f\n", r.Design, r.Model, r.TTFS, r.TTNS, r.MHz, r.RIPSTCycles, r.RIPSTNs)
	}
	sim := rows[len(accel.SamplerDesigns):]
	fmt.Fprintf(w, "\nSimulated on %d leaf pairs of real signing (Falcon-%d, %d KAT records, %s): %.4f attempts per pair, %.3f random bits per attempt (byte-wise BerExp)\n",
		sim[0].Pairs, 1<<logn, opts.Records, opts.Backend, sim[0].UsefulPerPair, bits)
	pm := accel.AcceptanceRate(rec.Attempts)
	pd := accel.SamplerDesigns[len(accel.SamplerDesigns)-1]
	alt, err := accel.RIPSTCycles(pd.Model, pd.TTFS, pd.TTNS, pm)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Measured acceptance rate %.4f over %d attempts (%d samples), beside the table's p = %g; the %s formula\nat the measured rate gives %.2f cycles for %s (TTFS %g, TTNS %g).\n\n",
		pm, sumInts(rec.Attempts), len(rec.Attempts), accel.AcceptRate, pd.Model, alt, pd.Name, pd.TTFS, pd.TTNS)
	fmt.Fprintf(w, "%-28s %5s %10s %10s %10s %12s %12s %12s\n", "DESIGN", "LANES", "CYC/PAIR", "NS/PAIR", "ISSUED", "BITS BYTEW", "BITS 2xBER64", "BITS NEEDED")
	for _, r := range sim {
		fmt.Fprintf(w, "%-28s %5d %10.3f %10.2f %10.3f %12.1f %12.1f %12.1f\n", r.Design, r.Lanes, r.CyclesPerPair, r.RIPSTNs, r.IssuedPerPair,
			r.RandomBitsPerPair, r.RandomBitsPerPairTwoBern, r.RandomBitsPerPairUseful)
	}
	m := accel.PipelinedMeasured
	_, err = fmt.Fprintf(w, `
Their hardware measured %.2f cycles and %.2f random bits per pair
(%s). The simulation's bits count
every issued attempt with the reference's per-attempt randomness (72-bit base sample, sign byte, BerExp bytes)
or with two full 64-bit Bernoulli words; the pipelined design's own, smaller per-attempt budget is not in the
published abstract, so %.2f is not reproduced (it implies about %.1f bits per issued attempt).
`, m.CyclesPerPair, m.RandomBitsPerPair, m.Source, m.RandomBitsPerPair, m.RandomBitsPerPair/sim[len(sim)-1].IssuedPerPair)
	return err
}

// sumInts is the sum of xs.
func sumInts(xs []int) int {
	var t int
	for _, x := range xs {
		t += x
	}
	return t
}

// runAcceptance prints accel.CompareAcceptance.
func runAcceptance(logn uint, opts *ripstOptions, s *streams) error {
	c, err := accel.CompareAcceptance(logn, opts.Records)
	if err != nil {
		return err
	}
	if opts.JSON {
		return printJSON(s.Out, c)
	}
	w := s.Out
	fmt.Fprintf(w, "SamplerZ acceptance on %d attempts of real signing (Falcon-%d, %d KAT records, emu64), against exact ccs exp(-x)\n\n", c.Attempts, c.Params, c.Records)
	fmt.Fprintf(w, "%-18s %14s %16s %16s\n", "DESIGN", "MAX REL ERR", "MEAN |P - P*|", "MAX |P - P*|")
	for _, d := range c.Designs {
		fmt.Fprintf(w, "%-18s %14s %16s %16s\n", d.Design, log2Str(d.MaxRelErr), log2Str(d.MeanAbsDiff), log2Str(d.MaxAbsDiff))
	}
	_, err = fmt.Fprintln(w, `
bytewise_berexp: the reference's BerExp over emu64's expm_p63 (fixed-point polynomial after range reduction).
two_bernoulli64: exp(-x) in binary64 without range reduction (math.Exp, within one ulp), then two 64-bit
Bernoulli trials. Mean |P - P*| is the rate of decisions an exact sampler would take otherwise (best
coupling). Both see the same x and ccs, computed by emu64: errors upstream of the trial are not included.`)
	return err
}

// log2Str prints a positive value as a power of two.
func log2Str(x float64) string {
	if !(x > 0) {
		return "0"
	}
	return fmt.Sprintf("2^%.2f", math.Log2(x))
}

// fpruPhases are the fpr-unit figure's phases of the fpr-unit model's
// report (mean counts) under cycle costs c.
func fpruPhases(rep *accel.CycleReport, c accel.FPRUnitCycles) []plot.FPRUnitPhase {
	var out []plot.FPRUnitPhase
	for _, p := range rep.Phases {
		f, n := p.Units[0].Mean, p.Units[1].Mean
		out = append(out, plot.FPRUnitPhase{Phase: p.Phase, Baseline: p.BaselineK * 1e3, Published: p.PublishedK * 1e3,
			SoftFPR: f * c.SoftFPR, SoftNorm64: n * c.SoftNorm64, ExtFPR: f * c.ExtFPR, ExtNorm64: n * c.ExtNorm64})
	}
	return out
}

// writeFigure writes fig as PREFIX.png and PREFIX.svg.
func (s *streams) writeFigure(fig *plot.Figure, prefix string) error {
	png, err := fig.Bytes("png")
	if err != nil {
		return err
	}
	svg, err := fig.Bytes("svg")
	if err != nil {
		return err
	}
	return s.writeOutputs(safefile.File{Path: prefix + ".png", Data: png}, safefile.File{Path: prefix + ".svg", Data: svg})
}

// ripstBars pairs each table row with its simulation, for the plot.
func ripstBars(rows []ripstRowJSON) []plot.RIPSTBar {
	var bars []plot.RIPSTBar
	for _, r := range rows {
		if !r.Simulated {
			bars = append(bars, plot.RIPSTBar{Design: r.Design, Ns: r.RIPSTNs})
		}
	}
	for _, r := range rows {
		for i := range bars {
			if r.Simulated && bars[i].Design == r.Design {
				bars[i].SimNs, bars[i].HasSimulation = r.RIPSTNs, true
			}
		}
	}
	return bars
}
