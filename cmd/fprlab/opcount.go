package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
)

// opcountJSON is the stable --json output of opcount. Each phase maps the
// reference's counter names (FPR, FPR_NORM64, scaled, add, ...) to counts.
type opcountJSON struct {
	Params int              `json:"params"`
	Record int              `json:"record"`
	Phases opcountPhaseJSON `json:"phases"`
}

// opcountPhaseJSON keeps the phases in the order of the NIST API.
type opcountPhaseJSON struct {
	Keypair accel.Counts `json:"keypair"`
	Sign    accel.Counts `json:"sign"`
	Open    accel.Counts `json:"open"`
	Total   accel.Counts `json:"total"`
}

// opcountOptions holds the flags of opcount.
type opcountOptions struct {
	Params string
	Record int
	JSON   bool
}

const opcountLong = `opcount runs one record of the NIST KAT flow (crypto_sign_keypair,
crypto_sign, crypto_sign_open) over the integer-emulated binary64 backend
(emu64, the reference's FALCON_FPEMU arithmetic) and prints, per phase and in
total, how often each fpr operation runs, counted as an instrumented
reference build counts them: add includes sub, mul includes sqr and the two
products inside each expm_p63, div includes inv, trunc includes the two
truncations inside each expm_p63. FPR is the number of executions of the
packing routine (scaled + add + mul + div + sqrt) and FPR_NORM64 of the
normaliser (scaled + add), the two blocks a hardware fpr unit implements.
Opening (verification) is integer arithmetic only and counts zero.

The generated record is checked against the published KAT file first, so
the counts are those of the reference's computation. For Falcon-512 record 0
the totals are FPR 731,119 and FPR_NORM64 388,031 (HORCRUX, Table II).`

func newOpcountCmd(s *streams) *cobra.Command {
	opts := &opcountOptions{}
	cmd := &cobra.Command{
		Use:   "opcount --params 512|1024",
		Short: "Count Falcon's floating-point operations on a NIST KAT record, as the reference's FPEMU build does",
		Long:  opcountLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runOpcount(cmd.Context(), opts, s)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Params, "params", "", "degree: 512 or 1024")
	fl.IntVar(&opts.Record, "record", 0, "KAT record to run, 0 to 99")
	fl.BoolVar(&opts.JSON, "json", false, `print {"params", "record", "phases": {"keypair", "sign", "open", "total"}}, each phase {counter: count}`)
	return cmd
}

// runOpcount counts one record's operations and checks the record.
func runOpcount(_ context.Context, opts *opcountOptions, s *streams) error {
	logn, err := katDegreeLogn(opts.Params)
	if err != nil {
		return err
	}
	f, err := katref.Lookup(logn)
	if err != nil {
		return err
	}
	if opts.Record < 0 || opts.Record >= f.Records {
		return fmt.Errorf("--record %d: want a record of the published KAT, 0 to %d", opts.Record, f.Records-1)
	}
	k, err := accel.CountKATRecord(logn, opts.Record)
	if err != nil {
		return err
	}
	if err := checkPublished(logn, &k.Record); err != nil {
		return err
	}
	res := opcountJSON{Params: 1 << logn, Record: opts.Record, Phases: opcountPhaseJSON{
		Keypair: k.Keypair, Sign: k.Sign, Open: k.Open, Total: k.Total(),
	}}
	if opts.JSON {
		return printJSON(s.Out, res)
	}
	return printOpcount(s.Out, &res)
}

// checkPublished compares a generated record with the published one: a
// difference would mean the counts describe some other computation.
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
		return fmt.Errorf("record %d generated with counting differs from the published KAT in %s at byte %d", m.Record, m.Field, m.Offset)
	}
	return nil
}

// printOpcount prints one row per counter and one column per phase.
func printOpcount(w io.Writer, r *opcountJSON) error {
	fmt.Fprintf(w, "Falcon-%d, NIST KAT record %d: fpr operations as the reference's FPEMU build counts them (matches the published record)\n\n", r.Params, r.Record)
	fmt.Fprintf(w, "%-10s %10s %10s %10s %10s\n", "COUNTER", "KEYPAIR", "SIGN", "OPEN", "TOTAL")
	p := r.Phases
	cols := [][]uint64{p.Keypair.Values(), p.Sign.Values(), p.Open.Values(), p.Total.Values()}
	for i, name := range accel.CounterNames {
		fmt.Fprintf(w, "%-10s %10d %10d %10d %10d\n", name, cols[0][i], cols[1][i], cols[2][i], cols[3][i])
	}
	_, err := fmt.Fprintln(w, "\nFPR = scaled+add+mul+div+sqrt (packing), FPR_NORM64 = scaled+add (normaliser); add includes sub, mul sqr\nand 2 per expm_p63, div inv, trunc 2 per expm_p63. Integer Montgomery products are not counted.")
	return err
}
