package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/safefile"
)

// maxMessage caps message files: Falcon hashes a message in one pass, so a
// cap only stops a mistaken /dev/zero or disk image from exhausting
// memory; 64 MiB is far above any test vector.
const maxMessage = 64 << 20

// The largest encodings of the falcon.h formats over every degree: no key
// or signature file can be longer, so reading stops there.
var maxPublicKey, maxPrivateKey, maxSignature = encodingCaps()

func encodingCaps() (pk, sk, sig int) {
	for logn := uint(1); logn <= 10; logn++ {
		p, err := falcon.ParamsFor(logn)
		if err != nil {
			panic(err) // 1..10 is the valid range
		}
		pk = max(pk, p.PublicKeySize)
		sk = max(sk, p.PrivateKeySize)
		sig = max(sig, p.SigCompressedMaxSize, p.SigPaddedSize, p.SigCTSize)
	}
	return pk, sk, sig
}

// hexMode says how an input file is encoded.
type hexMode int

const (
	rawFile  hexMode = iota // the bytes themselves
	hexFile                 // hex text, whitespace ignored
	autoFile                // hex text if the file is nothing but hex digits and whitespace, else raw
)

// keyMode is the mode of every key and signature file: auto-detected,
// with or without --hex (which is about the message only). A raw key or
// signature is never all hex digits (its header byte or random nonce is
// not), so detection cannot misread one.
const keyMode = autoFile

// messageMode is the mode of a message file: raw unless --hex, since a
// message may be any text, hex digits included.
func messageMode(asHex bool) hexMode {
	if asHex {
		return hexFile
	}
	return rawFile
}

// readInput reads the file of --flag, of at most limit bytes once decoded
// ("-": standard input). Errors name the flag, the file and the problem.
func (s *streams) readInput(flag, path string, limit int, mode hexMode) ([]byte, error) {
	if path == "" {
		return nil, fmt.Errorf("missing --%s FILE", flag)
	}
	fileLimit := int64(limit)
	if mode != rawFile {
		// Two digits a byte, and room for line breaks and indentation.
		fileLimit = 3*int64(limit) + 4096
	}
	data, err := safefile.Read(s.In, path, fileLimit)
	var tl *safefile.TooLargeError
	if errors.As(err, &tl) {
		return nil, tooLarge(flag, path, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", flag, err)
	}
	if mode == rawFile {
		return data, nil
	}
	clean := strings.Join(strings.Fields(string(data)), "")
	out, herr := hex.DecodeString(clean)
	switch {
	case mode == autoFile && (herr != nil || clean == ""):
		return data, nil
	case herr != nil:
		return nil, fmt.Errorf("%s file %s is not valid hex: %v", flag, path, herr)
	case len(out) > limit:
		return nil, tooLarge(flag, path, limit)
	}
	return out, nil
}

// oneStdin refuses more than one input read from standard input ("-").
func oneStdin(inputs ...safefile.Arg) error {
	first := ""
	for _, in := range inputs {
		if in.Path != safefile.Stdio {
			continue
		}
		if first != "" {
			return fmt.Errorf("--%s - and --%s - would both read standard input; give one of them a file", first, in.Flag)
		}
		first = in.Flag
	}
	return nil
}

// tooLarge is the error for an input above its cap.
func tooLarge(flag, path string, limit int) error {
	what := map[string]string{"pk": "a Falcon public key", "sk": "a Falcon private key", "sig": "a Falcon signature"}[flag]
	if what == "" {
		return fmt.Errorf("--%s %s: larger than %d bytes (%d MiB), fprlab's limit for this input", flag, path, limit, limit>>20)
	}
	return fmt.Errorf("--%s %s: larger than %d bytes, the longest encoding of %s", flag, path, limit, what)
}

// lookupBackend resolves a --backend value; the error lists the choices.
func lookupBackend(name string) (arith.Backend, error) {
	b, err := arith.Lookup(name)
	if _, ok := arith.LegacyName(name); err != nil && !ok {
		err = fmt.Errorf("%w\n(%v)", err, arith.LegacyNameError(name))
	}
	return b, err
}

// hexOutput encodes data as the --hex files hold it: lowercase hex and a
// newline.
func hexOutput(data []byte) []byte {
	return []byte(hex.EncodeToString(data) + "\n")
}

// noteRenamed says on stderr which backends of the documents read were
// written under the old triword names and what they are called now.
func noteRenamed(s *streams, c *results.Campaign) {
	for _, r := range c.Renamed {
		fmt.Fprintf(s.Err, "note: %s\n", r)
	}
}
