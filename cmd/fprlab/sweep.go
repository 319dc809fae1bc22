package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/version"
)

// sweepOptions holds the flags of sweep.
type sweepOptions struct {
	Format     string
	Bits       string
	Exp        int
	Rounding   string
	References string
	KAT        int
	compareOptions
	// katSet reports whether --kat was given: an FN-DSA sweep skips the
	// round-3 KAT conformance unless asked for it, and then refuses.
	katSet func() bool
}

const sweepLong = `sweep runs compare's shadowed measurement over a range of floating-point
formats -- vprec:P (P-bit significand, unbounded exponent), vprec:P:eE (an
E-bit exponent, underflow flushed to zero), with rounding :rz (toward zero)
or :sr=SEED (stochastic) -- and reports for each: the per-signature worst and
per-call median delta_c + delta_sigma, decision flips, the Renyi figures,
the fraction of failed signing attempts, NIST KAT conformance of its first
--kat records (key generation and signing over the format; a key generation
that cannot complete is counted, not fatal) and the time. Then P*, the least
precision at which a criterion holds there and at every larger swept
precision: per-signature worst <= 2^-46, per-call median <= 2^-46, no flip.

Formats: --format 'vprec:{24..80}' (one {A..B} range, or a comma-separated
list), or --bits FROM:TO[:STEP] with --exp E and --rounding rn|rz|sr=SEED
(rz and sr need an exponent width; --exp defaults to 11 for them). The
--reference backends (default native,triword) are measured too and marked
in the table and plots.

--out DIR keeps one compare campaign per format (DIR/FORMAT/) and the
finished formats' results; the same command run again continues where it
stopped without losing a finished format or signature.

--scheme fn-dsa sweeps FN-DSA signing (as compare --scheme fn-dsa: keys
from FN-DSA's own key generation, or with --key-source falcon from round 3's
over emu64; exact sigma the scheme's table) and has no KAT column: the NIST
records are round 3's (--kat defaults to 0).`

func newSweepCmd(s *cli.Streams) *cobra.Command {
	opts := &sweepOptions{}
	cmd := &cobra.Command{
		Use:   "sweep (--format 'vprec:{24..80}' | --bits FROM:TO[:STEP]) --params 512|1024 (--signatures K | --kat-records A:B)",
		Short: "Precision sweep: compare's measurement per format, KAT conformance, P*",
		Long:  sweepLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Interactive = s.ErrIsTerminal
			opts.noteMeasureFlags(cmd.Flags().Changed)
			return runSweep(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Format, "format", "", "formats: a comma-separated list, with at most one {A..B} range each")
	f.StringVar(&opts.Bits, "bits", "", "significand widths `FROM:TO[:STEP]` of vprec formats")
	f.IntVar(&opts.Exp, "exp", 0, "exponent width E of the --bits formats (default: unbounded; 11 with --rounding rz or sr)")
	f.StringVar(&opts.Rounding, "rounding", "rn", "rounding of the --bits formats: rn, rz or sr=SEED")
	f.StringVar(&opts.References, "reference", "native,triword", "backends measured beside the formats (empty for none)")
	f.IntVar(&opts.KAT, "kat", 1, "NIST KAT records regenerated per format for conformance (0 to skip)")
	f.IntVar(&opts.Signatures, "signatures", 0, "number of signatures per format (seeded mode)")
	f.IntVar(&opts.Keys, "keys", 1, "number of keys (seeded mode; every format signs with the same keys: emu64-generated, or FN-DSA's with --scheme fn-dsa)")
	bindMeasureFlags(cmd, &opts.compareOptions)
	f.StringVar(&opts.Out, "out", "", "campaign `DIR`, resumable")
	f.BoolVar(&opts.JSON, "json", false, `print {"formats": [per-format objects: compare's summary plus format, bits, exp_bits, rounding, kat], "pstar": [P* per curve and criterion]}`)
	f.StringVar(&opts.Shard, "shard", "", "measure shard `I/N` of the formats, I counted from 0 (those whose 0-based index is I modulo N); combine with fprlab merge")
	addSchemeFlag(cmd, &opts.Scheme)
	opts.katSet = func() bool { return cmd.Flags().Changed("kat") }
	return cmd
}

// sweepPlan is a sweep's validated flags: the backends measured (the
// --reference ones first), the campaign configuration of every format,
// the shard of the formats this process measures, and the SHA-256 of the
// sweep directory's run.json once it is open.
type sweepPlan struct {
	bs             []arith.Backend
	refs           int
	cfg            shadow.Config
	shardI, shardN int
	run            string
}

// runSweep measures every format and reference backend: plan, open the
// directory, measure, save, print.
func runSweep(ctx context.Context, opts *sweepOptions, s *cli.Streams) error {
	p, err := planSweep(opts)
	if err != nil || s.ValidateOnly {
		return err
	}
	s.StopOnInterrupt()
	closeDir, err := p.openDir(opts)
	if err != nil {
		return err
	}
	defer closeDir()
	points, err := p.measure(ctx, opts, s)
	if err != nil {
		return err
	}
	doc, err := p.save(opts, points, s)
	if err != nil {
		return err
	}
	if opts.JSON {
		_, err := s.Out.Write(doc)
		return err
	}
	return p.print(points, s)
}

// planSweep validates the flags into a plan.
func planSweep(opts *sweepOptions) (*sweepPlan, error) {
	names, err := campaign.SweepFormats(opts.Format, opts.Bits, opts.Exp, opts.Rounding)
	if err != nil {
		return nil, err
	}
	if opts.KAT < 0 || opts.KAT > 100 {
		return nil, fmt.Errorf("--kat %d: want 0..100", opts.KAT)
	}
	p := &sweepPlan{}
	var refs []string
	if opts.References != "" {
		refs = campaign.SplitBackends(opts.References) // a plan's entries may be separated by commas too
	}
	if p.bs, err = campaign.LookupBackends(append(refs, names...), lookupBackend, "format %s is listed twice"); err != nil {
		return nil, err
	}
	p.refs = len(refs)
	opts.Backends = p.bs[0].Name
	_, p.cfg, err = compareConfig(&opts.compareOptions)
	if err == nil && !p.cfg.Scheme.ReplaysNISTKAT() {
		// The KAT conformance column regenerates round 3's NIST records
		// (key generation and signing); FN-DSA has no such records.
		if opts.KAT != 0 && opts.katSet != nil && opts.katSet() {
			err = errors.New("--kat: the NIST KAT records are round 3's, FN-DSA has none: use --kat 0 (the default with --scheme fn-dsa)")
		}
		opts.KAT = 0
	}
	if err == nil {
		err = campaign.CheckShadowWidth(p.bs, p.cfg, opts.AllowWeakShadow)
	}
	if err != nil {
		return nil, err
	}
	// Every format signs with the same keys, the reference's binary64
	// ones (or FN-DSA's, which involve no floating point); key generation
	// over the formats is what --kat measures.
	p.cfg.KeygenBackend = "emu64"
	// A sweep is sharded by format: each shard measures whole formats.
	p.shardI, p.shardN = p.cfg.Shard, p.cfg.Shards
	p.cfg.Shard, p.cfg.Shards = 0, 0
	return p, nil
}

// openDir opens the sweep directory (--out), locked for the whole sweep
// (each format's compare directory has its own lock), under its identity:
// a rerun with other flags is refused instead of reusing finished formats
// measured differently. Without --out it does nothing.
func (p *sweepPlan) openDir(opts *sweepOptions) (closeDir func(), err error) {
	if opts.Out == "" {
		return func() {}, nil
	}
	var formats []string
	for _, b := range p.bs {
		formats = append(formats, b.Name)
	}
	id, err := campaign.NewSweepIdentity(p.cfg, formats, p.refs, opts.KAT, p.shardI, p.shardN, opts.KATRecords, version.Release())
	if err != nil {
		return nil, err
	}
	if err := campaign.CheckResumable(opts.Out, p.cfg); err != nil {
		return nil, err
	}
	camp, err := shadow.OpenCampaign(opts.Out, id)
	if err != nil {
		return nil, err
	}
	p.run = camp.Run().String()
	return func() { camp.Close() }, nil
}

// measure measures the formats of this shard in turn, each a compare
// campaign as compare runs it (in the format's directory, with its
// manifest).
func (p *sweepPlan) measure(ctx context.Context, opts *sweepOptions, s *cli.Streams) ([]shadow.Point, error) {
	sw := &campaign.Sweep{Config: p.cfg, Backends: p.bs, References: p.refs, KAT: opts.KAT, Dir: opts.Out, Run: p.run,
		Version: version.Release(), ShardI: p.shardI, ShardN: p.shardN,
		Measure: func(ctx context.Context, cfg shadow.Config, b arith.Backend, dir string) (*shadow.Summary, error) {
			co := opts.compareOptions
			co.Backends, co.Out, co.JSON = b.Name, dir, true
			sums, err := compareRun(ctx, &co, cfg, []arith.Backend{b}, s)
			if err != nil {
				return nil, err
			}
			return sums[0], nil
		}}
	if !opts.JSON {
		sw.Measured = func(i int, pt *shadow.Point) {
			fmt.Fprintf(s.Err, "sweep: %s (%d/%d): %d signatures, worst %s, %.1f s\n", pt.Format, i+1, len(p.bs), pt.Signatures, campaign.Log2Text(pt.PerSignature.Sum.Max), pt.Seconds)
		}
	}
	points, err := sw.Points(ctx)
	if err != nil && ctx.Err() != nil {
		return nil, cli.Interrupted(opts.Out)
	}
	return points, err
}

// save returns the sweep document of the points and, with --out, writes
// it and the manifest into the directory.
func (p *sweepPlan) save(opts *sweepOptions, points []shadow.Point, s *cli.Streams) ([]byte, error) {
	doc, err := campaign.SweepDocument(points, campaign.ShardName(p.shardI, p.shardN))
	if err != nil || opts.Out == "" {
		return doc, err
	}
	if err := campaign.WriteFile(filepath.Join(opts.Out, "sweep.json"), doc); err != nil {
		return nil, err
	}
	var sums []*shadow.Summary
	for i := range points {
		sums = append(sums, points[i].Summary)
	}
	return doc, campaign.WriteManifest(opts.Out, "sweep", s.CommandArgv("sweep"), "sweep.json", version.Release(), p.cfg, sums)
}

// print prints the table and P*; a shard has no P* (it needs every
// format) and its references are those it measured.
func (p *sweepPlan) print(points []shadow.Point, s *cli.Streams) error {
	refs := p.refs
	if p.shardN > 1 && len(points) == 0 {
		_, err := fmt.Fprintf(s.Out, "sweep: shard %d/%d holds no format of this sweep: its %d formats go to the shards of their index modulo %d, none to shard %d (nothing to measure; merge accepts the empty shard)\n",
			p.shardI, p.shardN, len(p.bs), p.shardN, p.shardI)
		return err
	}
	if p.shardN > 1 {
		fmt.Fprintf(s.Err, "sweep: shard %d/%d of the formats; P* needs them all (fprlab merge)\n", p.shardI, p.shardN)
		refs = 0
		for i := range points {
			if points[i].Rounding == "reference" {
				refs++
			}
		}
	}
	return campaign.WriteSweepText(s.Out, points, refs)
}
