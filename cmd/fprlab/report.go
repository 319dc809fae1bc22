package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/analysis/report"
	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/safefile"
)

// reportOptions holds the flags of report.
type reportOptions struct {
	In, Out         string
	Baseline        string
	Backends        []string
	Points          int
	AllowNoManifest bool
	AllowMismatch   bool
}

const reportLong = `Build one self-contained HTML page (no network access: styles, figures as
inline SVG and a small status script are in the file) for a campaign
directory: every compare and sweep JSON document in it (their --json output
saved as *.json) and manifest.json, which says what was run:

  {"title": "...", "version": "fprlab ...", "notes": "...",
   "runs": [{"command": "fprlab compare ... --json", "output": "compare-512.json",
             "seed": "1", "signatures": 1000, "kat_records": "", "seconds": 61.2}]}

The page opens with the verdict box -- per compare backend whether it
meets 2^-46 per signature, its worst and median, flips and the Renyi
consequence; per sweep its P*; per tune result the chosen plan's widths,
cost and confirmation; per arith errors document the largest error against
the proven bounds -- then holds the manifest, the tables of every document,
the P* answers, and every figure the documents support (see 'fprlab plot'),
numbered and captioned; the expm figure is measured when the page is built.

--baseline A sets the campaign beside the baseline campaign A, as 'fprlab
diff A DIR' does, and opens with what changed; as diff, it refuses backends
measured under other conditions (scheme, key source, shadow, exact sigma,
acceptance) unless --allow-mismatch, which marks each such row.`

func newReportCmd(s *cli.Streams) *cobra.Command {
	opts := &reportOptions{}
	cmd := &cobra.Command{
		Use:   "report --in DIR --out report.html",
		Short: "Build a self-contained HTML report of a campaign directory (verdict, tables, figures, P*; --baseline: against another)",
		Long:  reportLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReport(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.In, "in", "", "campaign `DIR` (compare/sweep *.json and manifest.json)")
	f.StringVar(&opts.Out, "out", "", "output HTML `FILE` (- for standard output)")
	f.StringVar(&opts.Baseline, "baseline", "", "baseline campaign `DIR`: open the page with the comparison against it (fprlab diff)")
	f.StringSliceVar(&opts.Backends, "backend", nil, "backends of the expm figure (default: those of the compare documents, else native, emu64, triword)")
	f.IntVar(&opts.Points, "points", plot.DefaultExpmPoints, "grid points of the expm figure")
	f.BoolVar(&opts.AllowMismatch, "allow-mismatch", false, "with --baseline: set side by side backends measured under other conditions, each such row marked")
	f.BoolVar(&opts.AllowNoManifest, "allow-no-manifest", false, "build the page without manifest.json (it then says that what was run is unknown)")
	return cmd
}

// runReport reads the campaign and writes its page.
func runReport(_ context.Context, opts *reportOptions, s *cli.Streams) error {
	if opts.In == "" || opts.Out == "" {
		return errors.New("--in DIR and --out FILE are required")
	}
	if st, err := os.Stat(opts.In); err == nil && !st.IsDir() && !opts.AllowNoManifest {
		// One document carries no manifest: say so, rather than that
		// the directory it lies in has none.
		return fmt.Errorf("--in %s is a file, one document without the manifest.json of its campaign: give the campaign directory, or --allow-no-manifest", opts.In)
	}
	c, err := results.Read(opts.In)
	if err != nil {
		return err
	}
	if err := safefile.Distinct(c.InputArgs("in"), []safefile.Arg{{Flag: "out", Path: opts.Out}}); err != nil {
		return err
	}
	noteRenamed(s, c)
	o := report.Options{
		Plot:            plot.Options{ExpmBackends: opts.Backends, ExpmPoints: opts.Points},
		RequireManifest: !opts.AllowNoManifest,
	}
	if opts.Baseline != "" {
		if o.Baseline, err = readCampaignDir("--baseline", opts.Baseline); err != nil {
			return err
		}
		if err := safefile.Distinct(o.Baseline.InputArgs("baseline"), []safefile.Arg{{Flag: "out", Path: opts.Out}}); err != nil {
			return err
		}
		noteRenamed(s, o.Baseline)
		o.CheckDiff = func(d *results.Diff) error { return checkConditions(d, opts.AllowMismatch) }
	}
	page, err := report.Build(c, o)
	if err != nil {
		return err
	}
	return s.WriteOutputs(safefile.File{Path: opts.Out, Data: page})
}
