package cli

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/fprlab/fprlab/internal/safefile"
)

// HexMode says how an input file is encoded.
type HexMode int

const (
	RawFile  HexMode = iota // the bytes themselves
	HexFile                 // hex text, whitespace ignored
	AutoFile                // hex text if the file is nothing but hex digits and whitespace, else raw
)

// KeyMode is the mode of every key and signature file: auto-detected,
// with or without --hex (which is about the message only). A raw key or
// signature is never all hex digits (its header byte or random nonce is
// not), so detection cannot misread one.
const KeyMode = AutoFile

// MessageMode is the mode of a message file: raw unless --hex, since a
// message may be any text, hex digits included.
func MessageMode(asHex bool) HexMode {
	if asHex {
		return HexFile
	}
	return RawFile
}

// ReadInput reads the file of --flag, of at most limit bytes once decoded
// ("-": standard input). Errors name the flag, the file and the problem.
func (s *Streams) ReadInput(flag, path string, limit int, mode HexMode) ([]byte, error) {
	if path == "" {
		return nil, fmt.Errorf("missing --%s FILE", flag)
	}
	fileLimit := int64(limit)
	if mode != RawFile {
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
	if mode == RawFile {
		return data, nil
	}
	clean := strings.Join(strings.Fields(string(data)), "")
	if hexPrefix(clean) && isHexDigits(clean[2:]) {
		clean = clean[2:] // a 0x prefix, as some tools print hex
	}
	out, herr := hex.DecodeString(clean)
	switch {
	case mode == AutoFile && isHexDigits(clean) && len(clean)%2 == 1:
		// Nothing but hex digits is text (a raw key or signature never
		// is): an odd count is a damaged hex file, not a binary one.
		return nil, fmt.Errorf("%s file %s holds hex text with an odd number of digits (%d): a digit is missing or extra", flag, path, len(clean))
	case mode == AutoFile && herr != nil && mostlyHex(data):
		// Printable text, nearly all hex digits: a raw key or signature
		// is neither (its bytes are random), so this is a hex file with
		// a damaged character, which read as raw bytes would only fail
		// later as a malformed key.
		off, c := firstNonHex(data)
		return nil, fmt.Errorf("%s file %s holds hex text with a character that is not a hex digit: %q at offset %d (counting from 0)", flag, path, c, off)
	case mode == AutoFile && (herr != nil || clean == ""):
		return data, nil
	case herr != nil:
		return nil, fmt.Errorf("%s file %s is not valid hex: %v", flag, path, herr)
	case len(out) > limit:
		return nil, tooLarge(flag, path, limit)
	}
	return out, nil
}

// mostlyHex reports whether data is printable ASCII text (whitespace
// allowed) of which at least 9 in 10 non-space characters are hex digits.
func mostlyHex(data []byte) bool {
	digits, other := 0, 0
	for _, c := range data {
		switch {
		case isSpace(c):
		case isHexDigit(c):
			digits++
		case c > ' ' && c < 0x7f:
			other++
		default:
			return false
		}
	}
	return digits > 0 && other*10 <= digits+other
}

// firstNonHex returns the offset and value of the first byte of data that
// is neither whitespace nor a hex digit (after an 0x prefix).
func firstNonHex(data []byte) (int, string) {
	start := 0
	for start < len(data) && isSpace(data[start]) {
		start++
	}
	if hexPrefix(string(data[start:])) {
		start += 2
	}
	for i := start; i < len(data); i++ {
		if c := data[i]; !isHexDigit(c) && !isSpace(c) {
			return i, string(c)
		}
	}
	return len(data), ""
}

// hexPrefix reports whether s begins with 0x or 0X, as some tools print
// hex.
func hexPrefix(s string) bool {
	return len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X")
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isHexDigits reports whether s is non-empty and all hex digits.
func isHexDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !isHexDigit(c) {
			return false
		}
	}
	return true
}

// OneStdin refuses more than one input read from standard input ("-").
func OneStdin(inputs ...safefile.Arg) error {
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

// tooLarge is the error for an input above its cap; the key and
// signature flags, whose caps are the longest encodings, say so.
func tooLarge(flag, path string, limit int) error {
	what := map[string]string{"pk": "a public key", "sk": "a private key", "sig": "a signature"}[flag]
	if what == "" {
		return fmt.Errorf("--%s %s: larger than %d bytes (%d MiB), fprlab's limit for this input", flag, path, limit, limit>>20)
	}
	return fmt.Errorf("--%s %s: larger than %d bytes, the longest encoding of %s of any scheme", flag, path, limit, what)
}

// HexOutput encodes data as the --hex files hold it: lowercase hex and a
// newline.
func HexOutput(data []byte) []byte {
	return []byte(hex.EncodeToString(data) + "\n")
}
