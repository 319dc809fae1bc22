package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/analysis/diverge"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/safefile"
	"github.com/fprlab/fprlab/internal/version"
	"github.com/fprlab/fprlab/scheme"
)

// divergeOptions holds the flags of diverge.
type divergeOptions struct {
	Backend, Against, Params, Seed, Scheme string
	// Shadow is the exact side that judges differing pairs (dd, oracle,
	// none).
	Shadow                    string
	Signatures, Keys, Workers int
	JSON                      bool
	// Out is the campaign directory (resumable); Shard "I/N" or "slurm".
	Out, Shard string
	// Progress forces progress lines; Interactive shows them (stderr is
	// a terminal).
	Progress, Interactive bool
}

const divergeLong = `diverge signs every (key, message, nonce, sampler seed) of a seeded campaign
with two signers -- --backend A and --against B, each a backend (see 'fprlab
backends'; a plugin as so:PATH) with ":tree" for falcon_sign_tree's
procedure (falcon_expand_privkey + falcon_sign_tree; default dyn) -- from the
same randomness, and compares the signatures. Two almost-equal arithmetics
sign differently once in a while; then the difference of their s2 is, in a
sizeable share of cases, c x^k f or c x^k F for a small integer c: the
secret key (Lin, Tibouchi, Yu, Zhang, "Do Not Disturb a Sleeping Falcon",
Eurocrypt 2025). A deterministic signer, a signer replaying randomness after
a fault, or two devices with different datapaths sharing a seed sign such
pairs.

The output leads with "N of M differing pairs reveal the secret key" ("no
signature differs" when none does), the rate of differing signatures with
its 95 % Wilson score interval, and for each differing pair the first
decision where the two runs part (attempt, leaf, SamplerZ call, kind: floor,
BerExp, rint, acceptance, restart), its margin on side A (how near that
decision came to going B's way, in the decision's own units), and the
structure of s2_A - s2_B (c and k, or its norm).
Each differing pair is then signed again by both sides under the --shadow
exact side (dd by default; oracle, the 256-bit big-float oracle; none to
skip), which says which side was right: the one whose every decision is the
one exact arithmetic takes (A, B; neither when both flipped somewhere;
undecided when a decision lies below the exact side's resolution). A pair
left undecided is signed again beside a 1024-bit oracle; a floor still below
its resolution is a tie -- a centre that is an integer m -- and the side
that floored to m is right.
--json prints {"compared", "differing", "rate", "rate_ci95", "key_revealing",
"right", "pairs", ...}, each pair with its public key, message and both
signatures (hex) for 'fprlab leak' (--from DIR --pair I) and the verdict
("exact").

Keys are made in binary64 (native) from SHAKE256("fprlab diverge key" ||
0x00 || BE64(len(seed)) || seed || BE64(K)), so both signers hold the same
key; message I and its signing randomness (nonce, then a 56-byte sampler
seed per attempt) come from the same stream under the labels "fprlab
diverge message" and "fprlab diverge sign". Signatures are padded.

--scheme signs another scheme (Falcon round 3 by default): its keys come
from its own key generation over the key stream's first bytes (32 for the
FN-DSA profiles), its signatures from its signing over the sign stream, so
both sides share the randomness (fn-dsa-2026: the same 40-byte hedged seed,
as a deterministic signer or two devices sharing an RNG would); ":tree" is
round 3's only. The pairs' keys and signatures are the scheme's encodings:
'fprlab leak --from DIR --pair I' reads the scheme from the result; with
files, give it the same --scheme.

--out DIR keeps the campaign in DIR: its identity (run.json), the result of
the signatures finished so far (checkpoint.json, saved every 2048
signatures) and, when done, result.json (what --json prints). The same
command run again after an interruption continues from the checkpoint;
other flags are refused. --shard I/N signs the I-th of N equal ranges of
the signatures (or slurm: the job array's task); 'fprlab merge' combines
the shard directories into the result of the whole campaign, equal to that
of one process.`

func newDivergeCmd(s *cli.Streams) *cobra.Command {
	opts := &divergeOptions{}
	cmd := &cobra.Command{
		Use:   "diverge --backend A --against B --params 512|1024 --signatures K",
		Short: "Sign the same inputs with two arithmetics: how often they differ, where, and whether the difference reveals the key",
		Long:  divergeLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Interactive = s.ErrIsTerminal
			return runDiverge(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Backend, "backend", "", "signer A: a backend, BACKEND:tree for tree mode")
	f.StringVar(&opts.Against, "against", "", "signer B: a backend, BACKEND:tree for tree mode")
	f.StringVar(&opts.Params, "params", "", "degree: 512 or 1024")
	f.IntVar(&opts.Signatures, "signatures", 0, "number of signatures")
	f.IntVar(&opts.Keys, "keys", 1, "number of keys the signatures use in turn")
	f.StringVar(&opts.Seed, "seed", "fprlab", "seed of keys, messages and signing randomness")
	f.IntVar(&opts.Workers, "workers", 0, campaign.WorkersHelp)
	f.StringVar(&opts.Shadow, "shadow", "dd", "exact side that judges each differing pair: dd, oracle or none")
	f.BoolVar(&opts.JSON, "json", false, "print the result as JSON")
	addSchemeFlag(cmd, &opts.Scheme)
	f.StringVar(&opts.Out, "out", "", "campaign `DIR`: checkpoints and result, resumable")
	f.StringVar(&opts.Shard, "shard", "", "sign shard `I/N` of the signatures, I counted from 0 (or slurm: the job array's task); combine with fprlab merge")
	f.BoolVar(&opts.Progress, "progress", false, "show progress on stderr (default: when stderr is a terminal)")
	return cmd
}

// divergeConfig validates the flags into a campaign.
func divergeConfig(opts *divergeOptions) (diverge.Config, error) {
	var c diverge.Config
	if opts.Backend == "" || opts.Against == "" {
		return c, errors.New("missing --backend A or --against B (for instance --backend native --against native:tree)")
	}
	logn, err := paramSetLogn(opts.Params)
	if err != nil {
		return c, err
	}
	if err := campaign.CheckWorkers(opts.Workers); err != nil {
		return c, err
	}
	if c.A, err = diverge.ParseSide(opts.Backend, lookupBackend); err != nil {
		return c, fmt.Errorf("--backend: %w", err)
	}
	if c.B, err = diverge.ParseSide(opts.Against, lookupBackend); err != nil {
		return c, fmt.Errorf("--against: %w", err)
	}
	if c.KeyBackend, err = lookupBackend("native"); err != nil {
		return c, err
	}
	sc, err := parseScheme(opts.Scheme)
	if err != nil {
		return c, err
	}
	if !scheme.IsDefault(sc) {
		c.Scheme = sc
	}
	c.LogN, c.Signatures, c.Keys, c.Seed, c.Workers = logn, opts.Signatures, opts.Keys, opts.Seed, opts.Workers
	switch opts.Shadow {
	case "none":
	case string(shadow.ShadowDD), string(shadow.ShadowOracle):
		c.Shadow = shadow.Kind(opts.Shadow)
	default:
		return c, fmt.Errorf("--shadow %q: want dd, oracle or none", opts.Shadow)
	}
	return c, c.Check()
}

// runDiverge runs the campaign and prints the result.
func runDiverge(ctx context.Context, opts *divergeOptions, s *cli.Streams) error {
	c, err := divergeConfig(opts)
	if err != nil || s.ValidateOnly {
		return err
	}
	si, sn, err := campaign.ParseShard(opts.Shard, os.Getenv)
	if err != nil {
		return err
	}
	if sn > c.Signatures {
		return fmt.Errorf("--shard %d/%d: %d signatures cannot fill %d shards; want at most %d", si, sn, c.Signatures, sn, c.Signatures)
	}
	shard := campaign.ShardName(si, sn)
	from, to := diverge.ShardRange(c.Signatures, si, sn)
	cp, err := diverge.Prepare(c)
	if err != nil {
		return err
	}
	var progress func(done, total int)
	if opts.Progress || opts.Interactive {
		progress = cli.ProgressLines(s.Err, "diverge: "+c.A.Name()+" vs "+c.B.Name(), "signatures")
	}
	var res *diverge.Result
	if opts.Out == "" {
		var report func(int)
		if progress != nil {
			report = func(d int) { progress(d, to-from) }
		}
		res, err = cp.Range(ctx, from, to, report)
		if err == nil {
			res.Shard = shard
		}
	} else {
		s.StopOnInterrupt()
		flags := map[string]string{"backend": opts.Backend, "against": opts.Against, "params": opts.Params,
			"signatures": strconv.Itoa(opts.Signatures), "keys": strconv.Itoa(opts.Keys), "seed": opts.Seed}
		if shard != "" {
			flags["shard"] = shard
		}
		if c.Scheme != nil {
			// Round 3's directories record no scheme, as they did
			// before there was a choice.
			flags["scheme"] = c.Scheme.Name()
		}
		if opts.Shadow != "none" {
			// A directory of a campaign run before pairs were judged is
			// one with --shadow none.
			flags["shadow"] = opts.Shadow
		}
		res, err = cp.RunDir(ctx, opts.Out, flags, version.Release(), shard, from, to, progress)
	}
	if err != nil && ctx.Err() != nil {
		return cli.Interrupted(opts.Out)
	}
	if err != nil {
		return err
	}
	return printDivergeResult(s, res, opts.JSON)
}

// printDivergeResult prints a result as --json or as text.
func printDivergeResult(s *cli.Streams, res *diverge.Result, asJSON bool) error {
	if asJSON {
		return cli.PrintJSON(s.Out, res)
	}
	return res.WriteText(s.Out)
}

// mergeDiverge combines diverge shard directories into out.
func mergeDiverge(opts *mergeOptions, s *cli.Streams) error {
	res, err := diverge.MergeDirs(opts.Dirs, opts.Out)
	if err != nil {
		return err
	}
	return printDivergeResult(s, res, opts.JSON)
}

// leakOptions holds the flags of leak.
type leakOptions struct {
	PK, Msg, Out, Scheme string
	Sigs                 []string
	Hex                  bool
	// From and Pair are --from DIR --pair I: the pair of signature I of
	// a diverge result, instead of --pk, --msg and --sig.
	From    string
	Pair    int
	PairSet bool
	// SchemeSet says --scheme was given (with --from it must agree with
	// the result's).
	SchemeSet bool
}

const leakLong = `leak is the evaluator's check of the attack of Lin, Tibouchi, Yu and Zhang
("Do Not Disturb a Sleeping Falcon", Eurocrypt 2025): given a public key and
two signatures of the same message with the same nonce -- two signers that
drew the same randomness but rounded differently, as 'fprlab diverge' finds
them -- it tries to recover the private key from the pair alone. With d =
s2_A - s2_B (s2 is in the signature) and c the gcd of d's coefficients, a
key-revealing pair has d = c x^k f: then u = d / c is short, g' = h u mod q
is short, and NTRUSolve completes (u, g') into a private key of the same
public key (x^k times the signer's: the rotation k cannot be told and does
not matter). leak proves the key by signing a message with it and
verifying under the public key.

--from DIR --pair I reads the pair of signature I (the index diverge
prints) from a diverge result (DIR, or DIR/result.json) -- its public key,
message, both signatures and scheme -- instead of --pk, --msg and --sig.

Exit 0 when the key is recovered (written to --out, never over an existing
file), 1 with what the pair does reveal otherwise, 2 on bad input (files
that do not decode, other degrees, different nonces, a signature that does
not verify). Use it on your own implementation's signatures only.`

func newLeakCmd(s *cli.Streams) *cobra.Command {
	opts := &leakOptions{}
	cmd := &cobra.Command{
		Use:   "leak (--pk FILE --msg FILE --sig A --sig B | --from DIR --pair I) [--out SK]",
		Short: "Recover a Falcon private key from two signatures of one message with one nonce (the published attack, for evaluating implementations)",
		Long:  leakLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.PairSet, opts.SchemeSet = cmd.Flags().Changed("pair"), cmd.Flags().Changed("scheme")
			return runLeak(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.From, "from", "", "a diverge result: campaign `DIR` or its result.json (with --pair)")
	f.IntVar(&opts.Pair, "pair", 0, "with --from: the differing pair of signature `I`, as diverge prints it")
	f.StringVar(&opts.PK, "pk", "", "public key `FILE` (the scheme's encoding, falcon.h's for round 3; bytes or hex)")
	f.StringVar(&opts.Msg, "msg", "", "message `FILE`")
	f.StringArrayVar(&opts.Sigs, "sig", nil, "signature `FILE` (bytes or hex), given twice")
	f.StringVar(&opts.Out, "out", "", "write the recovered private key to `SK` (the scheme's encoding; an existing file is never replaced; - is standard output)")
	addSchemeFlag(cmd, &opts.Scheme)
	f.BoolVar(&opts.Hex, "hex", false, "the message file is hex text (keys and signatures: detected)")
	return cmd
}

// runLeak reads the pair, tries the recovery and reports.
func runLeak(_ context.Context, opts *leakOptions, s *cli.Streams) error {
	in, err := leakInputs(opts, s)
	if err != nil {
		return err
	}
	reader, err := scheme.ReaderOf(in.sc)
	if err != nil {
		return fmt.Errorf("--scheme: %w", err)
	}
	if s.ValidateOnly {
		return nil
	}
	// "-" and devices are written into; a file is never replaced.
	if opts.Out != "" && safefile.WouldReplace(opts.Out) {
		return fmt.Errorf("--out %s exists: leak never replaces a file", opts.Out)
	}
	stream := opts.Out != "" && safefile.IsStream(opts.Out)
	pk, err := reader.DecodePublicKey(in.pk)
	if err != nil {
		return fmt.Errorf("%s: %w", in.pkFrom, err)
	}
	b, err := lookupBackend("native")
	if err != nil {
		return err
	}
	rec, err := diverge.Recover(b, reader, pk, in.msg, in.sigs[0], in.sigs[1])
	if err != nil {
		return err
	}
	if rec.Key == nil {
		fmt.Fprintf(s.Out, "key not recovered: the pair reveals %s\n", rec.Reveals)
		return &cli.ExitError{Code: cli.ExitFalse, Err: errors.New("the pair does not reveal the private key")}
	}
	// With the key on standard output the report goes to standard error.
	report := s.Out
	if stream && safefile.IsStdout(opts.Out) {
		report = s.Err
	}
	fmt.Fprintf(report, "private key recovered: s2_A - s2_B = %d x^k f for a rotation k in [0, 2n) that the public key does not tell (x^n = -1: diverge's -c x^k f is c x^(k+n) f here); a signature made with it verifies under the public key\n", rec.C)
	if opts.Out == "" {
		return nil
	}
	_, skb, err := in.sc.EncodeKeys(rec.Key)
	if err != nil {
		return err
	}
	if stream {
		return s.WriteOutputs(safefile.File{Path: opts.Out, Data: skb, Secret: true})
	}
	if err := safefile.WriteNew(opts.Out, skb, true); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "wrote %s\n", opts.Out)
	return nil
}

// leakPair is what leak reads: a pair of signatures of one message.
type leakPair struct {
	sc      scheme.Scheme
	pk, msg []byte
	sigs    [2][]byte
	// pkFrom names where the public key came from, for its errors.
	pkFrom string
}

// leakInputs reads the pair from the files (--pk, --msg, --sig twice) or
// from a diverge result (--from, --pair), one source or the other.
func leakInputs(opts *leakOptions, s *cli.Streams) (leakPair, error) {
	var in leakPair
	files := opts.PK != "" || opts.Msg != "" || len(opts.Sigs) > 0 || opts.Hex
	if opts.From != "" || opts.PairSet {
		switch {
		case files:
			return in, errors.New("--from and --pair read the pair from a diverge result: they exclude --pk, --msg, --sig and --hex")
		case opts.From == "" || !opts.PairSet:
			return in, errors.New("--from DIR and --pair I go together: the result and the pair's signature index")
		}
		p, res, err := diverge.ReadPair(opts.From, opts.Pair)
		if err != nil {
			return in, err
		}
		name := res.Scheme
		if name == "" {
			name = scheme.Default
		}
		if in.sc, err = parseScheme(name); err != nil {
			return in, err
		}
		if opts.SchemeSet {
			given, err := parseScheme(opts.Scheme)
			if err != nil {
				return in, err
			}
			if given.Name() != in.sc.Name() {
				return in, fmt.Errorf("--scheme %s: the pair in %s was signed with --scheme %s", opts.Scheme, opts.From, in.sc.Name())
			}
		}
		for _, f := range []struct {
			what, hex string
			dst       *[]byte
		}{{"public_key", p.PublicKey, &in.pk}, {"message", p.Message, &in.msg}, {"sig_a", p.SigA, &in.sigs[0]}, {"sig_b", p.SigB, &in.sigs[1]}} {
			if *f.dst, err = hex.DecodeString(f.hex); err != nil {
				return in, fmt.Errorf("%s: pair %d: its %s is not hex: %v", opts.From, opts.Pair, f.what, err)
			}
		}
		in.pkFrom = fmt.Sprintf("%s: pair %d's public key", opts.From, opts.Pair)
		return in, nil
	}
	in.pkFrom = "--pk " + opts.PK
	if len(opts.Sigs) != 2 {
		return in, fmt.Errorf("want --sig twice (two signatures of the message), have %d (or --from DIR --pair I, a pair diverge found)", len(opts.Sigs))
	}
	var err error
	if in.sc, err = parseScheme(opts.Scheme); err != nil {
		return in, err
	}
	if in.pk, err = s.ReadInput("pk", opts.PK, maxPublicKey, cli.KeyMode); err != nil {
		return in, err
	}
	if in.msg, err = s.ReadInput("msg", opts.Msg, maxMessage, cli.MessageMode(opts.Hex)); err != nil {
		return in, err
	}
	for i, p := range opts.Sigs {
		if in.sigs[i], err = s.ReadInput("sig", p, maxSignature, cli.KeyMode); err != nil {
			return in, err
		}
	}
	return in, nil
}
