package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/internal/cli"
)

// diffOptions holds the flags of diff.
type diffOptions struct {
	A, B          string
	JSON          bool
	AllowMismatch bool
	FailOnWorse   bool
}

const diffLong = `diff sets two campaign directories side by side -- two versions of a
datapath, two backends, two commits -- and answers "did my change make it
worse?": per backend (or swept format) the change of each error statistic
in bits (B's log2 less A's: positive is a larger error), whether the
per-signature 2^-46 verdict changed, whether decision flips appeared or
vanished, and per sweep curve the change of P*.

A is the baseline. Backends pair by name and Falcon degree; two campaigns
of one backend each pair whatever their names. A backend or degree on one
side only, or a directory without compare or sweep documents, is an error
(exit 2). 'fprlab report --baseline A --in B' gives the same as a page.

A pair measured under other conditions -- another scheme, key source,
shadow, --exact-sigma or acceptance test -- answers another question, not
whether the arithmetic changed: diff refuses it (exit 2) naming what
differs, or with --allow-mismatch marks every such pair ("mismatch" in
--json). With --fail-on-worse diff exits 1 when a backend got worse (its
verdict now fails, or flips appeared), after printing the comparison.

--json prints {"a", "b", "pairs": [{"a", "b", "params", "signatures_a",
"signatures_b", "stats": [{"name", "a_log2", "b_log2", "change_bits"}],
"meets_2^-46_a", "meets_2^-46_b", "verdict", "flips_a", "flips_b", "flips",
"mismatch"}],
"pstar": [{"curve", "criterion", "a_bits", "b_bits", "change_bits"}]};
verdict is "unchanged", "now fails", "now meets" or "not measured", flips
"none", "appeared", "vanished", "both" or "not counted"; a log2 value is a
number, "-Inf" (exact) or null (not measured), change_bits null when either
side has no finite value.`

func newDiffCmd(s *cli.Streams) *cobra.Command {
	opts := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff A B [--json]",
		Short: "Two campaign directories side by side: change in bits per statistic, verdicts, flips, P*",
		Long:  diffLong,
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.A, opts.B = args[0], args[1]
			return runDiff(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.JSON, "json", false, "print the comparison as JSON")
	f.BoolVar(&opts.AllowMismatch, "allow-mismatch", false, "set side by side backends measured under other conditions (scheme, key source, shadow, exact sigma, acceptance), each such pair marked")
	f.BoolVar(&opts.FailOnWorse, "fail-on-worse", false, "exit 1 when a backend got worse (verdict now fails, or flips appeared)")
	return cmd
}

// readCampaignDir reads a campaign directory given as the argument what
// (a file is refused: a diff compares campaigns).
func readCampaignDir(what, dir string) (*results.Campaign, error) {
	c, err := results.Read(dir)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, dir, err)
	}
	if c.Dir != dir {
		return nil, fmt.Errorf("%s %s is a file: give the campaign directory that holds it", what, dir)
	}
	return c, nil
}

// runDiff reads both campaigns and prints their comparison.
func runDiff(_ context.Context, opts *diffOptions, s *cli.Streams) error {
	a, err := readCampaignDir("A", opts.A)
	if err != nil {
		return err
	}
	b, err := readCampaignDir("B", opts.B)
	if err != nil {
		return err
	}
	noteRenamed(s, a)
	noteRenamed(s, b)
	d, err := results.CompareCampaigns(a, b)
	if err != nil {
		return err
	}
	if err := checkConditions(d, opts.AllowMismatch); err != nil {
		return err
	}
	if opts.JSON {
		err = cli.PrintJSON(s.Out, d)
	} else {
		err = d.WriteText(s.Out)
	}
	if err != nil {
		return err
	}
	if worse := d.WorseCount(); opts.FailOnWorse && worse > 0 {
		return &cli.ExitError{Code: cli.ExitFalse, Err: fmt.Errorf("%d of %d backends of %s got worse than the baseline %s", worse, len(d.Pairs), d.B, d.A)}
	}
	return nil
}

// checkConditions refuses a diff whose pairs were measured under other
// conditions, naming them in the words merge uses for identities that
// differ, or with allow marks each such pair.
func checkConditions(d *results.Diff, allow bool) error {
	var bad []string
	for _, p := range d.Mismatched() {
		p.Mismatch = strings.NewReplacer("it ", "B ", "its ", "B's ", "the first", "A").Replace(campaign.IdentityDiff(p.ConditionsB, p.ConditionsA))
		bad = append(bad, fmt.Sprintf("%s, Falcon-%d: %s", p.B, p.Params, p.Mismatch))
	}
	if len(bad) == 0 || allow {
		return nil
	}
	return fmt.Errorf("%w: B (%s) was measured under other conditions than the baseline A (%s): %s; --allow-mismatch sets them side by side, every such pair marked",
		results.ErrNotComparable, d.B, d.A, strings.Join(bad, "; "))
}
