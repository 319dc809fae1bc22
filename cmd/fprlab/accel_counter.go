package main

import (
	"fmt"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/scheme"
)

// accel counts and accel cycles of a scheme other than round 3, through
// its accel.Counter (FN-DSA's 2025 profile, as go-fn-dsa e24833f signs,
// and its July 2026 draft, as rust-fn-dsa 0.4.0 signs): the counts of one
// signature and its verification, of a record of the scheme's own KAT with
// its own keys (the default), or, with --key-source falcon (the 2025
// profile only), made with the keys of a round-3 NIST KAT record beside
// that record's round-3 flow. Package fndsacount says how each counter is
// counted.

// counterInput validates the record flags of accel counts for a scheme
// with a counter and counts the chosen input.
func counterInput(sc schemeCounter, opts *accelCountsOptions) (uint, *accel.FNDSACounts, error) {
	ks, err := parseKeySource(opts.KeySource, sc)
	if err != nil {
		return 0, nil, err
	}
	if ks == shadow.KeysFalcon {
		if opts.changed("fn-dsa-record") {
			return 0, nil, fmt.Errorf("--fn-dsa-record chooses a %s KAT record, whose keys are %s's: not with --key-source falcon, which counts the NIST record --kat-record", sc.KATSource(), sc.Description())
		}
		logn, err := opts.degree()
		if err != nil {
			return 0, nil, err
		}
		r, err := sc.CountRound3Keys(logn, opts.Record)
		return logn, r, err
	}
	if opts.changed("kat-record") || opts.changed("record") {
		return 0, nil, fmt.Errorf("--kat-record chooses a NIST KAT record, whose keys are round 3's: add --key-source falcon, or choose a %s KAT record with --fn-dsa-record", sc.KATSource())
	}
	logn, err := katDegreeLogn(opts.Params)
	if err != nil {
		return 0, nil, err
	}
	if j, n := opts.FNDSARecord, sc.KATRecordsPerDegree(); j < 0 || j >= n {
		return 0, nil, fmt.Errorf("--fn-dsa-record %d: want a record of %s's KAT, 0 to %d", j, sc.KATSource(), n-1)
	}
	r, err := sc.CountKAT(logn, opts.FNDSARecord)
	return logn, r, err
}

// schemeCounter is a scheme with its counts.
type schemeCounter interface {
	scheme.Scheme
	accel.Counter
}

func isCounter(sc scheme.Scheme) bool {
	_, ok := sc.(accel.Counter)
	return ok
}

func runAccelCountsScheme(sc schemeCounter, opts *accelCountsOptions, s *cli.Streams) error {
	logn, r, err := counterInput(sc, opts)
	if err != nil {
		return err
	}
	res := accel.NewSchemeCounts(sc.Name(), logn, opts.Record, r, sc.CountsNotes(r.KAT != nil))
	if opts.JSON {
		return cli.PrintJSON(s.Out, res)
	}
	return res.WriteText(s.Out, r, sc.Title(logn), sc.Description(), sc.KATSource())
}
