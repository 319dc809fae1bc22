package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fprlab/fprlab/analysis/kat"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/fndsa"
)

// kat --scheme fn-dsa: go-fn-dsa's known-answer test (fndsa.KAT, 90
// records of degrees 4 to 1024, embedded), keys generated here (integer
// arithmetic, the same for every backend) and signatures made over the
// chosen backend, each record compared with go-fn-dsa's digest of its keys
// and its pin SHA3-256(sk || vk || sig).

// katFNDSARoundThreeFlags are kat's flags that belong to the round-3 KAT
// files and are refused with --scheme fn-dsa rather than ignored.
var katFNDSARoundThreeFlags = []string{"out", "ref", "checkpoint", "keygen-backend", "mode"}

// runKatFNDSA runs go-fn-dsa's KAT over each backend (--params, if given,
// keeps the records of that degree; --records keeps the first ones).
func runKatFNDSA(ctx context.Context, opts *katOptions, changed func(string) bool, s *streams) error {
	for _, name := range katFNDSARoundThreeFlags {
		if changed(name) {
			return fmt.Errorf("--%s applies to the round-3 NIST KAT files, not to --scheme fn-dsa", name)
		}
	}
	recs, err := fndsa.KAT()
	if err != nil {
		return err
	}
	if opts.Params != "" {
		logn, err := degreeLogn(opts.Params)
		if err != nil || logn < fndsa.MinLogN {
			return fmt.Errorf("--params %s: go-fn-dsa's KAT has the degrees 4 to 1024", opts.Params)
		}
		var kept []fndsa.KATRecord
		for _, r := range recs {
			if r.LogN == logn {
				kept = append(kept, r)
			}
		}
		recs = kept
	}
	if changed("records") {
		if opts.Records < 1 || opts.Records > len(recs) {
			return fmt.Errorf("--records %d: want 1..%d (go-fn-dsa's KAT has %d records%s)", opts.Records, len(recs), len(recs), katFNDSADegreeNote(opts.Params))
		}
		recs = recs[:opts.Records]
	}
	var backends []arith.Backend
	if opts.Backend == "all" {
		backends = arith.List()
	} else {
		b, err := lookupBackend(opts.Backend)
		if err != nil {
			return err
		}
		backends = []arith.Backend{b}
	}
	var results []kat.FNDSAResult
	for _, b := range backends {
		res, err := kat.RegenerateFNDSA(ctx, b, recs, s.Err)
		if err != nil {
			return err
		}
		results = append(results, res)
	}
	switch {
	case !opts.JSON:
		err = printKatFNDSA(s.Out, results)
	case opts.Backend == "all":
		err = printJSON(s.Out, results)
	default:
		err = printJSON(s.Out, results[0])
	}
	if err != nil {
		return err
	}
	// A backend that cannot sign a record (its arithmetic too narrow for
	// the sampler) is a result like a differing signature, on one backend
	// as with --backend all: printed, and exit 1. Its error was printed
	// when it stopped and is in the results: the final message names the
	// backends without repeating it.
	var stopped []string
	differ := false
	for _, r := range results {
		if r.Error != "" {
			stopped = append(stopped, r.Backend)
		} else if r.FirstMismatch != nil {
			differ = true
		}
	}
	switch {
	case len(stopped) > 0:
		return &exitError{code: exitFalse, err: fmt.Errorf("%s could not regenerate every record (where and why: above, and in the results)", backendsNamed(stopped))}
	case differ:
		return &exitError{code: exitFalse, err: errors.New("generated records differ from go-fn-dsa's")}
	}
	return nil
}

func katFNDSADegreeNote(params string) string {
	if params == "" {
		return ""
	}
	return " of degree " + params
}

// printKatFNDSA prints the results as a table.
func printKatFNDSA(w io.Writer, results []kat.FNDSAResult) error {
	fmt.Fprintln(w, "FN-DSA KAT of go-fn-dsa e24833f (FIPS 206 draft, not final): keys generated here, the same on every")
	fmt.Fprintln(w, "backend; signatures over the backend; SHA3-256(sk||vk||sig) compared with go-fn-dsa's pins")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BACKEND\tRECORDS\tKEYS\tPINS\tVERIFIED\tFIRST MISMATCH")
	for _, r := range results {
		mm := "-"
		if m := r.FirstMismatch; m != nil {
			mm = fmt.Sprintf("record %d (degree %d, j %d), %s", m.Record, 1<<m.LogN, m.J, m.Field)
		}
		if r.Error != "" {
			mm = "error: " + r.Error
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\n", r.Backend, r.Records, r.MatchKeys, r.MatchPins, r.Verified, mm)
	}
	return tw.Flush()
}

// backendsNamed is "backend A" or "backends A, B".
func backendsNamed(names []string) string {
	if len(names) == 1 {
		return "backend " + names[0]
	}
	return "backends " + strings.Join(names, ", ")
}
