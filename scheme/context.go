package scheme

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/fprlab/fprlab/falcon"
)

// Context is what signing or verifying with a ContextSigner takes besides
// the key, message and signature: the domain-separation context and the
// pre-hash, parsed from their command-line forms (--context HEX,
// --prehash NAME), with the length of the pre-hash's digest.
type Context struct {
	ContextSigner
	Ctx        []byte
	PreHash    string // canonical name ("none": the raw message)
	DigestSize int    // 0 for the raw message
}

// NewContext parses a context given as hex (at most c.MaxContext bytes)
// and a pre-hash name for c.
func NewContext(c ContextSigner, ctxHex, preHash string) (*Context, error) {
	ctx, err := hex.DecodeString(strings.TrimSpace(ctxHex))
	if err != nil {
		return nil, fmt.Errorf("--context must be hex, got %q", ctxHex)
	}
	if len(ctx) > c.MaxContext() {
		return nil, fmt.Errorf("--context is %d bytes, more than %d", len(ctx), c.MaxContext())
	}
	ph, size, err := c.PreHash(preHash)
	if err != nil {
		return nil, fmt.Errorf("--prehash: %w", err)
	}
	return &Context{ContextSigner: c, Ctx: ctx, PreHash: ph, DigestSize: size}, nil
}

// CheckDigest refuses a message file (path) that should hold a pre-hash
// digest but has another length: a signature of such bytes claims a hash
// that never produced them.
func (c *Context) CheckDigest(msg []byte, path string) error {
	if n := c.DigestSize; n != 0 && len(msg) != n {
		return fmt.Errorf("message file %s holds %d bytes, but a --prehash %s digest is %d bytes", path, len(msg), c.PreHash, n)
	}
	return nil
}

// VerifyInput judges sig on msg under the encoded key pk. A key that does not
// decode (logn 0), or a signature that cannot be judged, is malformed
// input (err, naming pkPath or sigPath); a judged signature that does not
// verify gives verr, an ErrInvalidSignature.
func (c *Context) VerifyInput(pk, msg, sig []byte, pkPath, sigPath string) (logn uint, verr, err error) {
	logn, verr = c.VerifyContext(pk, c.Ctx, c.PreHash, msg, sig)
	if logn == 0 {
		return 0, nil, fmt.Errorf("public key file %s: %w", pkPath, verr)
	}
	if verr != nil && !errors.Is(verr, ErrInvalidSignature) {
		return logn, nil, fmt.Errorf("verifying %s: %w", sigPath, verr)
	}
	return logn, verr, nil
}

// VerifyFormatted is VerifyInput for a scheme with falcon.h's formats
// (round 3), whose signature says its format (returned once it decodes).
func VerifyFormatted(fs Formatter, pk, msg, sig []byte, pkPath, sigPath string) (logn uint, format string, verr, err error) {
	key, err := falcon.DecodePublicKey(pk)
	if err != nil {
		return 0, "", nil, fmt.Errorf("public key file %s: %w", pkPath, err)
	}
	s, err := falcon.DecodeSignature(sig)
	if err != nil {
		return key.LogN, "", nil, fmt.Errorf("signature file %s: %w", sigPath, err)
	}
	verr = fs.Verify(key, msg, sig)
	if verr != nil && !errors.Is(verr, falcon.ErrInvalidSignature) {
		// Decoding succeeded above, so this is unexpected; report it
		// as malformed input rather than as a verdict.
		return key.LogN, s.Format.String(), nil, fmt.Errorf("verifying %s: %w", sigPath, verr)
	}
	return key.LogN, s.Format.String(), verr, nil
}
