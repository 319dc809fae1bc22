package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/scheme"
)

// kat --scheme X for a scheme with a known-answer test of its own
// (scheme.KATReplayer; FN-DSA's is go-fn-dsa's, 90 records of degrees 4
// to 1024): keys generated here and signatures made over the chosen
// backend, each record compared with the published digests.

// katRoundThreeFlags are kat's flags that belong to the round-3 KAT files
// and are refused with a scheme's own test rather than ignored.
var katRoundThreeFlags = []string{"out", "ref", "checkpoint", "keygen-backend", "mode"}

// runKatReplayer runs the scheme's own test over each backend (--params,
// if given, keeps the records of that degree; --records keeps the first
// ones).
func runKatReplayer(ctx context.Context, sc scheme.KATReplayer, opts *katOptions, changed func(string) bool, s *cli.Streams) error {
	for _, name := range katRoundThreeFlags {
		if changed(name) {
			return fmt.Errorf("--%s applies to the round-3 NIST KAT files, not to --scheme %s", name, sc.Name())
		}
	}
	var logn uint
	if opts.Params != "" {
		var err error
		lo, hi := sc.KATDegrees()
		if logn, err = degreeLogn(opts.Params); errors.Is(err, errParamsPower) {
			// Not the generic range of degrees: this test's.
			return fmt.Errorf("--params %s is not a power of two: %s has the degrees %d to %d", opts.Params, sc.KATName(), 1<<lo, 1<<hi)
		} else if err != nil || logn < lo || logn > hi {
			return fmt.Errorf("--params %s: %s has the degrees %d to %d", opts.Params, sc.KATName(), 1<<lo, 1<<hi)
		}
	}
	n, err := sc.KATRecords(logn)
	if err != nil {
		return err
	}
	if changed("records") {
		if opts.Records < 1 || opts.Records > n {
			return fmt.Errorf("--records %d: want 1..%d (%s has %d records%s)", opts.Records, n, sc.KATName(), n, katDegreeNote(opts.Params))
		}
		n = opts.Records
	}
	backends, err := backendsOrAll(opts.Backend)
	if err != nil {
		return err
	}
	var results []scheme.KATResult
	for _, b := range backends {
		res, err := sc.ReplayKAT(ctx, b, logn, n, s.Err)
		if err != nil {
			return err
		}
		results = append(results, res)
	}
	switch {
	case !opts.JSON:
		err = scheme.WriteKATText(s.Out, sc.KATTitle(), results)
	case opts.Backend == "all":
		err = cli.PrintJSON(s.Out, results)
	default:
		err = cli.PrintJSON(s.Out, results[0])
	}
	if err != nil {
		return err
	}
	// A backend that cannot sign a record (its arithmetic too narrow for
	// the sampler) is a result like a differing signature, on one backend
	// as with --backend all: printed, and exit 1. Its error was printed
	// when it stopped and is in the results: the final message names the
	// backends without repeating it.
	stopped, differ := scheme.KATVerdict(results)
	switch {
	case len(stopped) > 0:
		return &cli.ExitError{Code: cli.ExitFalse, Err: fmt.Errorf("%s could not regenerate every record (where and why: above, and in the results)", backendsNamed(stopped))}
	case differ:
		return &cli.ExitError{Code: cli.ExitFalse, Err: fmt.Errorf("generated records differ from %s", sc.KATName())}
	}
	return nil
}

func katDegreeNote(params string) string {
	if params == "" {
		return ""
	}
	return " of degree " + params
}

// backendsNamed is "backend A" or "backends A, B".
func backendsNamed(names []string) string {
	if len(names) == 1 {
		return "backend " + names[0]
	}
	return "backends " + strings.Join(names, ", ")
}

func isKATReplayer(sc scheme.Scheme) bool {
	_, ok := sc.(scheme.KATReplayer)
	return ok
}
