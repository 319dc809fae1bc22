package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/falcon"
)

func init() { subcommands = append(subcommands, newVerifyCmd) }

// verifyJSON is the stable --json form of a verdict. Malformed input is not
// a verdict: it is reported on stderr with exit code 2, without JSON.
type verifyJSON struct {
	Valid  bool   `json:"valid"`
	Degree int    `json:"degree"`           // n of the public key
	Format string `json:"format"`           // compressed, padded or ct
	Reason string `json:"reason,omitempty"` // why an invalid signature fails
}

func newVerifyCmd() *cobra.Command {
	var (
		pkPath, msgPath, sigPath string
		asHex, asJSON            bool
	)
	cmd := &cobra.Command{
		Use:   "verify --pk FILE --msg FILE --sig FILE",
		Short: "Verify a Falcon signature (integer arithmetic only; no backend involved)",
		Long: `Verify a falcon.h signature (compressed, padded or ct; the format is read
from the signature's header) of a message under a public key (falcon.h
encoding, header 0x00+logn).

Prints "valid" and exits 0 when the signature verifies. Exits 1 with the
reason on stderr when the signature is well formed but does not verify.
Exits 2 when a file cannot be read, the key or the signature is not a valid
encoding, or the command line is wrong.

With --hex the key, message and signature files hold hex text instead of
raw bytes. With --json the verdict is printed as a JSON object
{"valid", "degree", "format", "reason"} (exit codes unchanged).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			pkBytes, err := readInput("pk", pkPath, asHex)
			if err != nil {
				return err
			}
			msg, err := readInput("msg", msgPath, asHex)
			if err != nil {
				return err
			}
			sigBytes, err := readInput("sig", sigPath, asHex)
			if err != nil {
				return err
			}
			pk, err := falcon.DecodePublicKey(pkBytes)
			if err != nil {
				return fmt.Errorf("public key file %s: %w", pkPath, err)
			}
			sig, err := falcon.DecodeSignature(sigBytes)
			if err != nil {
				return fmt.Errorf("signature file %s: %w", sigPath, err)
			}
			verr := falcon.Verify(pk, msg, sigBytes)
			if verr != nil && !errors.Is(verr, falcon.ErrInvalidSignature) {
				// Decoding succeeded above, so this is unexpected; report
				// it as malformed input rather than as a verdict.
				return fmt.Errorf("verifying %s: %w", sigPath, verr)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				v := verifyJSON{Valid: verr == nil, Degree: 1 << pk.LogN, Format: sig.Format.String()}
				if verr != nil {
					v.Reason = verr.Error()
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(v); err != nil {
					return err
				}
			} else if verr == nil {
				fmt.Fprintln(out, "valid")
			}
			if verr != nil {
				return &exitError{code: exitFalse, err: fmt.Errorf("signature %s does not verify for message %s under key %s: %w", sigPath, msgPath, pkPath, verr)}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&pkPath, "pk", "", "public key `FILE` (falcon.h encoding)")
	f.StringVar(&msgPath, "msg", "", "message `FILE`")
	f.StringVar(&sigPath, "sig", "", "signature `FILE` (compressed, padded or ct)")
	f.BoolVar(&asHex, "hex", false, "key, message and signature files are hex text")
	f.BoolVar(&asJSON, "json", false, "print the verdict as JSON")
	return cmd
}
