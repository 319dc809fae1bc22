package main

import (
	"crypto/rand"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/falcon"
)

func init() { subcommands = append(subcommands, newSignCmd) }

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
}

func newSignCmd() *cobra.Command {
	var (
		skPath, msgPath, outPath string
		formatName, backendName  string
		seedHex                  string
		asHex, asJSON            bool
	)
	cmd := &cobra.Command{
		Use:   "sign --sk FILE --msg FILE --out FILE",
		Short: "Sign a message with a Falcon private key over a chosen backend",
		Long: `Sign a message with a Falcon private key (falcon.h encoding, header 0x50+logn)
and write the signature in one of the falcon.h formats: compressed (variable
length, the default), padded (fixed length) or ct (constant-time encoding).
The floating-point part of signing runs on --backend (default native).

The nonce and the sampler seeds come from the operating system's random
source. --seed HEX replaces them with SHAKE256(seed), which makes the
signature reproducible; it is for research and tests only (see the warning
it prints).

With --hex the key, message and signature files hold hex text instead of
raw bytes. With --json the summary is printed as a JSON object
{"out", "bytes", "format", "degree", "backend", "seeded"}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if outPath == "" {
				return fmt.Errorf("missing --out FILE")
			}
			for _, in := range []struct{ flag, path string }{{"sk", skPath}, {"msg", msgPath}} {
				if in.path != "" && samePath(outPath, in.path) {
					return fmt.Errorf("--out %s is the --%s file: the signature would replace it", outPath, in.flag)
				}
			}
			format, err := falcon.ParseSigFormat(formatName)
			if err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			b, err := lookupBackend(backendName)
			if err != nil {
				return fmt.Errorf("--backend: %w", err)
			}
			skBytes, err := readInput("sk", skPath, asHex)
			if err != nil {
				return err
			}
			sk, err := falcon.DecodePrivateKey(skBytes)
			if err != nil {
				return fmt.Errorf("secret key file %s: %w", skPath, err)
			}
			msg, err := readInput("msg", msgPath, asHex)
			if err != nil {
				return err
			}

			var rng io.Reader = rand.Reader
			seeded := cmd.Flags().Changed("seed")
			if seeded {
				seed, err := hex.DecodeString(strings.TrimSpace(seedHex))
				if err != nil || len(seed) == 0 {
					return fmt.Errorf("--seed must be a non-empty hex string, got %q", seedHex)
				}
				fmt.Fprintln(cmd.ErrOrStderr(), seededWarning)
				h := sha3.NewSHAKE256()
				h.Write(seed)
				rng = h
			}

			sig, err := falcon.Sign(b, sk, msg, format, rng)
			if err != nil {
				return fmt.Errorf("signing with backend %s: %w", b.Name, err)
			}
			if err := writeOutput(outPath, sig, asHex); err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(signJSON{Out: outPath, Bytes: len(sig), Format: format.String(),
					Degree: 1 << sk.LogN, Backend: b.Name, Seeded: seeded})
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %d-byte %s signature (Falcon-%d, backend %s) to %s\n",
				len(sig), format, 1<<sk.LogN, b.Name, outPath)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&skPath, "sk", "", "private key `FILE` (falcon.h encoding)")
	f.StringVar(&msgPath, "msg", "", "message `FILE`")
	f.StringVar(&outPath, "out", "", "signature output `FILE` (written atomically)")
	f.StringVar(&formatName, "format", "compressed", "signature format: compressed, padded or ct")
	f.StringVar(&backendName, "backend", "native", "arithmetic backend (see 'fprlab backends')")
	f.StringVar(&seedHex, "seed", "", "research only: derive nonce and sampler randomness from SHAKE256(`HEX`)")
	f.BoolVar(&asHex, "hex", false, "key, message and signature files are hex text")
	f.BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return cmd
}
