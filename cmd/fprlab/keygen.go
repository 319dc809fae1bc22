package main

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/falcon"
)

func init() { subcommands = append(subcommands, newKeygenCmd) }

// defaultKeygenBackend is the backend keygen and kat use unless told, as
// for sign: hardware binary64, which gives the reference's keys and KAT
// files bit for bit, like emu64, and is the fastest.
const defaultKeygenBackend = "native"

// keygenJSON is the stable --json output of keygen.
type keygenJSON struct {
	Backend  string `json:"backend"`
	Params   int    `json:"params"`
	PK       string `json:"pk"`
	SK       string `json:"sk"`
	PKBytes  int    `json:"pk_bytes"`
	SKBytes  int    `json:"sk_bytes"`
	PKSHA256 string `json:"pk_sha256"`
}

// degreeLogn parses a --params value: the degree n, a power of two from 2
// to 1024 (512 and 1024 are the standard parameter sets).
func degreeLogn(s string) (uint, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err == nil {
		for logn := uint(1); logn <= 10; logn++ {
			if n == 1<<logn {
				return logn, nil
			}
		}
	}
	return 0, fmt.Errorf("--params %q: want the degree, 512 or 1024 (or a power of two from 2 to 1024)", s)
}

func newKeygenCmd() *cobra.Command {
	var (
		params, backend, seedHex, pkPath, skPath string
		asHex, asJSON                            bool
	)
	cmd := &cobra.Command{
		Use:   "keygen --params 512|1024 --pk FILE --sk FILE",
		Short: "Generate a Falcon key pair over a chosen arithmetic backend",
		Long: `keygen generates a Falcon key pair exactly as the reference Falcon-impl-20211101
does (Zf(keygen): Gaussian f and g, the Gram-Schmidt bound, NTRUSolve with its
Babai reductions), with every floating-point operation done by --backend.
The random stream is SHAKE256 of a 48-byte seed from crypto/rand, or of the
bytes given with --seed (hex), so a seed reproduces its key. The files hold
the falcon.h encodings: pk = 0x00+logn || h, sk = 0x50+logn || f || g || F.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			logn, err := degreeLogn(params)
			if err != nil {
				return err
			}
			if pkPath == "" || skPath == "" {
				return fmt.Errorf("both --pk FILE and --sk FILE are required")
			}
			if samePath(pkPath, skPath) {
				// The second rename would replace the first file: the
				// private key would be lost without a word.
				return fmt.Errorf("--pk %s and --sk %s name the same file", pkPath, skPath)
			}
			b, err := lookupBackend(backend)
			if err != nil {
				return err
			}
			var seed []byte
			if cmd.Flags().Changed("seed") {
				seed, err = hex.DecodeString(strings.TrimSpace(seedHex))
				if err != nil {
					return fmt.Errorf("--seed is not valid hex: %v", err)
				}
				if len(seed) == 0 {
					// An empty value (an unset shell variable) would
					// give one fixed, publicly computable key.
					return fmt.Errorf("--seed is empty; give at least one byte of hex, or omit --seed for a random key")
				}
			} else {
				seed = make([]byte, 48)
				if _, err := rand.Read(seed); err != nil {
					return fmt.Errorf("reading crypto/rand: %w", err)
				}
			}
			rng := sha3.NewSHAKE256()
			rng.Write(seed)
			sk, pk, err := falcon.Keygen(b, logn, rng)
			if err != nil {
				return err
			}
			pkb, skb := pk.Encode(), sk.Encode()
			if pkb == nil || skb == nil {
				return fmt.Errorf("generated key does not encode")
			}
			if err := writeOutputs(asHex, outputFile{path: skPath, data: skb, secret: true}, outputFile{path: pkPath, data: pkb}); err != nil {
				return err
			}
			sum := sha256.Sum256(pkb)
			out := cmd.OutOrStdout()
			if asJSON {
				return json.NewEncoder(out).Encode(keygenJSON{
					Backend: b.Name, Params: 1 << logn, PK: pkPath, SK: skPath,
					PKBytes: len(pkb), SKBytes: len(skb), PKSHA256: hex.EncodeToString(sum[:]),
				})
			}
			fmt.Fprintf(out, "Falcon-%d key pair (backend %s): public key %s (%d bytes, SHA-256 %x), private key %s (%d bytes)\n",
				1<<logn, b.Name, pkPath, len(pkb), sum[:8], skPath, len(skb))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&params, "params", "", "degree: 512 or 1024 (any power of two from 2 to 1024 is accepted)")
	f.StringVar(&backend, "backend", defaultKeygenBackend, "arithmetic backend (see 'fprlab backends')")
	f.StringVar(&seedHex, "seed", "", "seed bytes in hex for a reproducible key (default: 48 bytes from crypto/rand)")
	f.StringVar(&pkPath, "pk", "", "write the public key to FILE")
	f.StringVar(&skPath, "sk", "", "write the private key to FILE")
	f.BoolVar(&asHex, "hex", false, "write the keys as hex text instead of binary")
	f.BoolVar(&asJSON, "json", false, "print {backend, params, pk, sk, pk_bytes, sk_bytes, pk_sha256}")
	return cmd
}
