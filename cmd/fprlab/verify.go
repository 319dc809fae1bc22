package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/safefile"
	"github.com/fprlab/fprlab/scheme"
)

// verifyJSON is the stable --json form of a verdict. Every key is always
// present: reason is "" for a valid signature; on malformed input (exit 2)
// the object has valid false, malformed true and the error as reason, and
// degree 0 and format "" when the key or signature could not be read.
type verifyJSON struct {
	Valid     bool   `json:"valid"`
	Degree    int    `json:"degree"`    // n of the public key
	Format    string `json:"format"`    // compressed, padded or ct
	Reason    string `json:"reason"`    // why the signature fails, or the input error
	Malformed bool   `json:"malformed"` // the input could not be verified at all (exit 2)
}

// verifyOptions holds the flags of verify.
type verifyOptions struct {
	PK, Msg, Sig string
	Hex, JSON    bool
	schemeFlags
}

const verifyLong = `Verify a falcon.h signature (compressed, padded or ct; the format is read
from the signature's header) of a message under a public key (falcon.h
encoding, header 0x00+logn).

Prints "valid" and exits 0 when the signature verifies. Exits 1 with the
reason on stderr when the signature is well formed but does not verify.
Exits 2 when a file cannot be read, the key or the signature is not a valid
encoding, or the command line is wrong. With --scheme fn-dsa or fn-dsa-2026 a
signature of the wrong size, header or s2 encoding is an invalid signature
(exit 1, described in FN-DSA's terms), as FN-DSA's verification defines it:
it rejects such a signature, it has no "malformed" outcome.

Key and signature files may hold the bytes or hex text (detected). With
--hex the message file holds hex text too. "-" reads a file from standard
input. With --json the verdict is printed as a JSON object
{"valid", "degree", "format", "reason", "malformed"} (exit codes unchanged);
it is printed for malformed input too.`

func newVerifyCmd(s *cli.Streams) *cobra.Command {
	opts := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify --pk FILE --msg FILE --sig FILE",
		Short: "Verify a Falcon signature (integer arithmetic only; no backend involved)",
		Long:  verifyLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVerify(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.PK, "pk", "", "public key `FILE` (falcon.h encoding; bytes or hex)")
	f.StringVar(&opts.Msg, "msg", "", "message `FILE`")
	f.StringVar(&opts.Sig, "sig", "", "signature `FILE` (compressed, padded or ct; bytes or hex)")
	f.BoolVar(&opts.Hex, "hex", false, "the message file is hex text (keys and signatures: detected)")
	f.BoolVar(&opts.JSON, "json", false, "print the verdict as JSON")
	opts.schemeFlags.add(cmd)
	return cmd
}

// runVerify verifies and reports the verdict.
func runVerify(_ context.Context, opts *verifyOptions, s *cli.Streams) error {
	v, verr, err := verifyInputs(opts, s)
	if err != nil {
		if opts.JSON {
			if jerr := cli.PrintJSON(s.Out, verifyJSON{Degree: v.Degree, Format: v.Format, Reason: err.Error(), Malformed: true}); jerr != nil {
				return errors.Join(err, jerr)
			}
		}
		return err
	}
	if opts.JSON {
		if err := cli.PrintJSON(s.Out, v); err != nil {
			return err
		}
	} else if verr == nil {
		if _, err := fmt.Fprintln(s.Out, "valid"); err != nil {
			return err
		}
	}
	if verr != nil {
		return &cli.ExitError{Code: cli.ExitFalse, Err: fmt.Errorf("signature %s does not verify for message %s under key %s: %w", opts.Sig, opts.Msg, opts.PK, verr)}
	}
	return nil
}

// verifyInputs reads the inputs and verifies: err is malformed input, verr
// the reason a well-formed signature is invalid.
func verifyInputs(opts *verifyOptions, s *cli.Streams) (v verifyJSON, verr, err error) {
	if err := cli.OneStdin(safefile.Arg{Flag: "pk", Path: opts.PK}, safefile.Arg{Flag: "msg", Path: opts.Msg}, safefile.Arg{Flag: "sig", Path: opts.Sig}); err != nil {
		return v, nil, err
	}
	cs, fs, err := opts.parse()
	if err != nil {
		return v, nil, err
	}
	pkBytes, err := s.ReadInput("pk", opts.PK, maxPublicKey, cli.KeyMode)
	if err != nil {
		return v, nil, err
	}
	msg, err := s.ReadInput("msg", opts.Msg, maxMessage, cli.MessageMode(opts.Hex))
	if err != nil {
		return v, nil, err
	}
	sigBytes, err := s.ReadInput("sig", opts.Sig, maxSignature, cli.KeyMode)
	if err != nil {
		return v, nil, err
	}
	var logn uint
	format := ""
	if cs != nil {
		if err := cs.CheckDigest(msg, opts.Msg); err != nil {
			return v, nil, err
		}
		logn, verr, err = cs.VerifyInput(pkBytes, msg, sigBytes, opts.PK, opts.Sig)
		format = cs.Name()
	} else {
		logn, format, verr, err = scheme.VerifyFormatted(fs, pkBytes, msg, sigBytes, opts.PK, opts.Sig)
	}
	if logn != 0 {
		v.Degree, v.Format = 1<<logn, format
	}
	if err != nil {
		return v, nil, err
	}
	v.Valid = verr == nil
	if verr != nil {
		v.Reason = verr.Error()
	}
	return v, verr, nil
}
