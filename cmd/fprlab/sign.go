package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha3"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/safefile"
	"github.com/fprlab/fprlab/scheme"
)

// seededWarning is printed whenever --seed is used. Signing the same
// (key, nonce, message) on two arithmetics that differ in any
// floating-point detail reveals the secret key, and a fixed seed makes
// exactly that easy to do by accident.
const seededWarning = `WARNING: --seed makes the nonce and the sampler randomness a function of the seed.
Signing the same (key, nonce, message) with two different backends can leak the secret key
(Lin, Tibouchi, Yu, Zhang, "Do Not Disturb a Sleeping Falcon", Eurocrypt 2025).
Seeded signatures are for research and tests only: never use --seed with a real key.`

// signJSON is the stable --json summary of a signing run.
type signJSON struct {
	Out     string `json:"out"`
	Bytes   int    `json:"bytes"`
	Format  string `json:"format"`
	Degree  int    `json:"degree"`
	Backend string `json:"backend"`
	Seeded  bool   `json:"seeded"`
	Scheme  string `json:"scheme"` // falcon (round 3) or fn-dsa
}

// signOptions holds the flags of sign.
type signOptions struct {
	SK, Msg, Out    string
	Format, Backend string
	Seed, Mode      string
	SeedSet         bool // --seed given (an empty value is refused, not ignored)
	// RawSeed is --raw-seed: the exact random bytes of a scheme.SeededSigner.
	RawSeed    string
	RawSeedSet bool
	Hex, JSON  bool
	schemeFlags
	formatSet bool
}

const signLong = `Sign a message with a Falcon private key (falcon.h encoding, header 0x50+logn)
and write the signature in one of the falcon.h formats: compressed (variable
length, the default), padded (fixed length) or ct (constant-time encoding).
With --scheme fn-dsa, sign as FN-DSA (go-fn-dsa's FIPS 206 draft) with an
FN-DSA signing key: the signature has FN-DSA's one format (padded, header
0x30+logn), over the message, or with --prehash over a digest of that
hash's length, under the --context. The floating-point part of signing
runs on --backend (default native).

The nonce and the sampler seeds come from the operating system's random
source. --seed HEX replaces them with SHAKE256(seed), which makes the
signature reproducible; it is for research and tests only (see the warning
it prints). --raw-seed HEX gives a scheme that reads a fixed number of random
bytes per signature (fn-dsa-2026: the 40-byte hedged seed) exactly those
bytes, to reproduce another implementation's signature from its RNG's
output. With the same --seed, the signature is the reference's
(Falcon-impl-20211101 through falcon.h, shake256_init_prng_from_seed) byte
for byte: --mode dyn (the default) is falcon_sign_dyn, --mode tree is
falcon_expand_privkey then falcon_sign_tree; the two differ once in some
tens of thousands of signatures (docs/backends.md).

The key file may hold the bytes or hex text (detected). With --hex the
message file holds hex text and the signature is written as hex text.
--out - writes the signature to standard output; --msg - reads the message
from standard input. With --json the summary is printed as a JSON object
{"out", "bytes", "format", "degree", "backend", "seeded", "scheme"}.`

func newSignCmd(s *cli.Streams) *cobra.Command {
	opts := &signOptions{}
	cmd := &cobra.Command{
		Use:   "sign --sk FILE --msg FILE --out FILE",
		Short: "Sign a message with a Falcon or FN-DSA private key over a chosen backend",
		Long:  signLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.SeedSet = cmd.Flags().Changed("seed")
			opts.RawSeedSet = cmd.Flags().Changed("raw-seed")
			opts.formatSet = cmd.Flags().Changed("format")
			return runSign(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.SK, "sk", "", "private key `FILE` (falcon.h encoding; bytes or hex)")
	f.StringVar(&opts.Msg, "msg", "", "message `FILE` (- for standard input)")
	f.StringVar(&opts.Out, "out", "", "signature output `FILE` (written atomically; - for standard output)")
	f.StringVar(&opts.Format, "format", "compressed", "signature format: compressed, padded or ct")
	f.StringVar(&opts.Backend, "backend", "native", "arithmetic backend (see 'fprlab backends')")
	addModeFlag(f, &opts.Mode)
	f.StringVar(&opts.Seed, "seed", "", "research only: derive nonce and sampler randomness from SHAKE256(`HEX`)")
	f.StringVar(&opts.RawSeed, "raw-seed", "", "research only: the signature's exact random bytes in `HEX` (fn-dsa-2026: its 40-byte seed), instead of --seed")
	f.BoolVar(&opts.Hex, "hex", false, "the message file is hex text, and the signature is written as hex")
	f.BoolVar(&opts.JSON, "json", false, "print the summary as JSON")
	opts.schemeFlags.add(cmd)
	return cmd
}

// runSign signs the message and writes the signature.
func runSign(_ context.Context, opts *signOptions, s *cli.Streams) error {
	if opts.Out == "" {
		return fmt.Errorf("missing --out FILE")
	}
	if safefile.IsStdout(opts.Out) && opts.JSON {
		return fmt.Errorf("--out - and --json would both write to standard output; give --out a file")
	}
	inputs := []safefile.Arg{{Flag: "sk", Path: opts.SK}, {Flag: "msg", Path: opts.Msg}}
	if err := cli.OneStdin(inputs...); err != nil {
		return err
	}
	if err := safefile.Distinct(inputs, []safefile.Arg{{Flag: "out", Path: opts.Out}}); err != nil {
		return err
	}
	format, err := falcon.ParseSigFormat(opts.Format)
	if err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	cs, fs, err := opts.parse()
	if err != nil {
		return err
	}
	if cs != nil && opts.formatSet {
		return fmt.Errorf("--format applies to --scheme %s only (an %s signature has one format)", strings.Join(scheme.With(isFormatter), " or "), cs.Description())
	}
	mode, err := parseMode(opts.Mode)
	if err != nil {
		return err
	}
	if cs != nil && mode != falcon.Dyn {
		return fmt.Errorf("--mode tree applies to --scheme %s only (%s signs on the dynamic path)", strings.Join(scheme.With(isFormatter), " or "), cs.Description())
	}
	b, err := lookupBackend(opts.Backend)
	if err != nil {
		return fmt.Errorf("--backend: %w", err)
	}
	skBytes, err := s.ReadInput("sk", opts.SK, maxPrivateKey, cli.KeyMode)
	if err != nil {
		return err
	}
	var sk *falcon.PrivateKey
	if cs == nil {
		if sk, err = falcon.DecodePrivateKey(skBytes); err != nil {
			return fmt.Errorf("secret key file %s: %w", opts.SK, err)
		}
	}
	msg, err := s.ReadInput("msg", opts.Msg, maxMessage, cli.MessageMode(opts.Hex))
	if err != nil {
		return err
	}
	if cs != nil {
		if err := cs.CheckDigest(msg, opts.Msg); err != nil {
			return err
		}
	}
	var rng io.Reader = rand.Reader
	if opts.RawSeedSet {
		if rng, err = rawSignSeed(opts, fs, cs); err != nil {
			return err
		}
		fmt.Fprintln(s.Err, seededWarning)
	} else if opts.SeedSet {
		seed, err := hex.DecodeString(strings.TrimSpace(opts.Seed))
		if err != nil || len(seed) == 0 {
			return fmt.Errorf("--seed must be a non-empty hex string, got %q", opts.Seed)
		}
		fmt.Fprintln(s.Err, seededWarning)
		h := sha3.NewSHAKE256()
		h.Write(seed)
		rng = h
	}
	var sig []byte
	var logn uint
	var sc scheme.Scheme = fs
	if cs != nil {
		sig, logn, err = cs.SignContext(b, skBytes, cs.Ctx, cs.PreHash, msg, rng)
		sc = cs
	} else {
		sig, err = fs.SignFormat(b, sk, msg, format, mode, rng)
		logn = sk.LogN
	}
	if err != nil {
		return fmt.Errorf("signing with backend %s: %w", b.Name, err)
	}
	formatName := format.String()
	if cs != nil {
		formatName = cs.Name()
	}
	data := sig
	if opts.Hex {
		data = cli.HexOutput(sig)
	}
	if err := s.WriteOutputs(safefile.File{Path: opts.Out, Data: data}); err != nil {
		return err
	}
	if opts.JSON {
		return cli.PrintJSON(s.Out, signJSON{Out: opts.Out, Bytes: len(sig), Format: formatName,
			Degree: 1 << logn, Backend: b.Name, Seeded: opts.SeedSet || opts.RawSeedSet, Scheme: sc.Name()})
	}
	if safefile.IsStdout(opts.Out) {
		return nil // the signature is the output
	}
	_, err = fmt.Fprintf(s.Out, "wrote %d-byte %s signature (%s, backend %s) to %s\n",
		len(sig), formatName, scheme.TitleOf(opts.Scheme, 1<<logn), b.Name, opts.Out)
	return err
}

// rawSignSeed reads --raw-seed: exactly the random bytes one signature of
// the scheme reads, for a scheme.SeededSigner only.
func rawSignSeed(opts *signOptions, fs scheme.Formatter, cs *scheme.Context) (io.Reader, error) {
	if opts.SeedSet {
		return nil, errors.New("--seed and --raw-seed are two forms of one seed: give one")
	}
	var sc scheme.Scheme = fs
	if cs != nil {
		sc = cs.ContextSigner
	}
	ss, ok := sc.(scheme.SeededSigner)
	if !ok {
		return nil, fmt.Errorf("--raw-seed: %s signing reads a random stream of no fixed size (use --seed); --raw-seed applies to --scheme %s", sc.Description(), strings.Join(scheme.With(func(s scheme.Scheme) bool { _, ok := s.(scheme.SeededSigner); return ok }), " or "))
	}
	seed, err := hex.DecodeString(strings.TrimSpace(opts.RawSeed))
	if err != nil || len(seed) != ss.SignSeedSize() {
		return nil, fmt.Errorf("--raw-seed must be exactly %d bytes (%d hex digits, the seed one %s signature reads), got %q", ss.SignSeedSize(), 2*ss.SignSeedSize(), sc.Name(), opts.RawSeed)
	}
	return bytes.NewReader(seed), nil
}
