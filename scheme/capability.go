package scheme

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
)

// Optional capabilities. Scheme is what every scheme has; the interfaces
// below are what only some have, found with a type assertion
// (sc.(scheme.ContextSigner)). A scheme that implements none of them still
// signs, verifies, shadows and tunes: the commands that need a capability
// refuse a scheme without it, naming the schemes that have it (With), and
// never fall back to another scheme's behaviour. The operation counts of
// accel counts and accel cycles are accel's capability (accel.Counter),
// declared there because their types are accel's.

// ErrInvalidSignature is matched (errors.Is) by the error of a
// ContextSigner's VerifyContext whose signature was judged and does not
// verify, as opposed to input that could not be verified at all.
var ErrInvalidSignature = errors.New("scheme: invalid signature")

// MarkInvalid returns err, a verifier's verdict that a signature does not
// verify, so that it matches ErrInvalidSignature as well as what it
// matched before; its message is unchanged.
func MarkInvalid(err error) error { return mark(err, ErrInvalidSignature) }

// ContextSigner is the capability of a scheme whose signatures bind a
// domain-separation context and may sign a digest of the message instead
// of the message (a pre-hash, named by its hash: "none", "sha256", ...),
// as FN-DSA's do. sign and verify take --context and --prehash only for
// such a scheme, and then sign and verify through it: keys and signatures
// are the scheme's own encodings (its keygen files), of which it has one
// signature format, named by the scheme's Name.
type ContextSigner interface {
	Scheme
	// MaxContext is the longest context, in bytes.
	MaxContext() int
	// PreHash parses a pre-hash name (case-insensitive): its canonical
	// name and the length of its digest (0 for "none", the raw
	// message), or an error that lists the names it knows.
	PreHash(name string) (canonical string, digestSize int, err error)
	// SignContext signs msg -- the message, or with a pre-hash its
	// digest -- under ctx with the encoded signing key sk over backend
	// b, reading the signature's randomness from rng. logn is the key's.
	SignContext(b arith.Backend, sk, ctx []byte, preHash string, msg []byte, rng io.Reader) (sig []byte, logn uint, err error)
	// VerifyContext checks sig on msg under ctx with the encoded
	// verifying key pk. logn is the key's, 0 when pk does not decode
	// (err says why); an err that is errors.Is(err, ErrInvalidSignature)
	// is the verdict that sig does not verify, any other err means
	// the input could not be verified at all.
	VerifyContext(pk, ctx []byte, preHash string, msg, sig []byte) (logn uint, err error)
}

// SeededSigner is the capability of a scheme whose signature reads a
// fixed number of random bytes (the draft of 2026's hedged 40-byte seed),
// so that a signature is reproduced from exactly the bytes another
// implementation's RNG gave (sign --raw-seed).
type SeededSigner interface {
	Scheme
	// SignSeedSize is the number of random bytes one signature reads.
	SignSeedSize() int
}

// KATReplayer is the capability of a scheme with a known-answer test of
// its own (not the NIST round-3 files of ReplaysNISTKAT): kat replays it
// over a backend, each record's keys and signature compared with the
// published ones.
type KATReplayer interface {
	Scheme
	// KATName names the test in messages, as "go-fn-dsa's KAT".
	KATName() string
	// KATTitle heads kat's table: what is generated and what compared
	// (one or more lines, each ending in a newline).
	KATTitle() string
	// KATDegrees is the range of the test's degrees, 2^min to 2^max.
	KATDegrees() (minLogN, maxLogN uint)
	// KATRecords is the number of the test's records of degree 2^logn
	// (one of KATDegrees), or of all of them when logn is 0.
	KATRecords(logn uint) (int, error)
	// ReplayKAT regenerates the first n of those records over b,
	// writing progress lines to progress. A record b cannot sign stops
	// the run there and is reported in the result (Error), not as err.
	ReplayKAT(ctx context.Context, b arith.Backend, logn uint, n int, progress io.Writer) (KATResult, error)
}

// KATResult is the --json output of fprlab kat for a KATReplayer's test
// over one backend. Scripts depend on it: the field names and meanings are
// stable.
type KATResult struct {
	Scheme  string `json:"scheme"`
	Backend string `json:"backend"`
	Records int    `json:"records"`
	// Degrees are the degrees of the records replayed, in their order.
	Degrees []int `json:"degrees"`
	// MatchKeys counts records whose generated keys are the published
	// ones, MatchPins those whose pin (a digest of keys and signature)
	// is, Verified those whose signature verifies.
	MatchKeys     int          `json:"match_keys"`
	MatchPins     int          `json:"match_pins"`
	Verified      int          `json:"verified"`
	FirstMismatch *KATMismatch `json:"first_mismatch"`
	// Error is present only when the backend could not sign a record;
	// the run of that backend stops there.
	Error string `json:"error,omitempty"`
}

// KATMismatch locates the first record that differs: field "keys" when
// the keys differ, "signature" when only the signature does. J is the
// record's index within its degree.
type KATMismatch struct {
	Record int    `json:"record"`
	LogN   uint   `json:"logn"`
	J      int    `json:"j"`
	Field  string `json:"field"`
}

// With names the registered schemes for which has is true, as the
// commands list the schemes that have a capability ("fn-dsa").
func With(has func(Scheme) bool) []string {
	var names []string
	for _, n := range Names() {
		if sc, err := Lookup(n); err == nil && has(sc) {
			names = append(names, n)
		}
	}
	return names
}

// Formatter is the capability of a scheme whose signatures come in the
// formats of falcon.h (compressed, padded, ct) and are made by one of the
// reference's two signing procedures, as round 3's are: sign's --format and
// --mode, and sign and verify with keys and signatures in falcon.h's
// encodings. A scheme that is neither a Formatter nor a ContextSigner is
// signed and verified only through Scheme (campaigns), not from files.
type Formatter interface {
	Scheme
	// SignFormat is Sign with the signature in format f, made by the
	// reference's signing procedure m (sign's --mode).
	SignFormat(b arith.Backend, sk *falcon.PrivateKey, msg []byte, f falcon.SigFormat, m falcon.Mode, rng io.Reader) ([]byte, error)
}

// KeyHolder is the capability of a scheme whose signing key is decoded
// into a form of its own once per key (the public key, the key digests
// that hedged signing and mu absorb), which Sign, given round 3's
// PrivateKey, derives again at every call. HoldKey does it once and returns
// a signer that signs as Sign does, byte for byte, without it: what an
// application that keeps a decoded key pays per signature, which bench
// times.
type KeyHolder interface {
	Scheme
	HoldKey(sk *falcon.PrivateKey) (Signer, error)
}

// Signer signs the raw message msg over backend b with a held key, as the
// scheme's Sign does.
type Signer func(b arith.Backend, msg []byte, rng io.Reader) ([]byte, error)

// SignHeld is Sign for a KeyHolder: hold sk, sign with it once.
func SignHeld(kh KeyHolder, b arith.Backend, sk *falcon.PrivateKey, msg []byte, rng io.Reader) ([]byte, error) {
	sign, err := kh.HoldKey(sk)
	if err != nil {
		return nil, err
	}
	return sign(b, msg, rng)
}

// SignatureReader is the capability of a scheme whose signatures and keys
// are read back into the lattice's values: the nonce that salts the
// hashed point, s2, h in coefficient form, the private basis. diverge
// classifies a differing pair by s2_A - s2_B against the key, leak
// recovers a key from such a pair, and certify reads a key file, for a
// scheme that has it.
type SignatureReader interface {
	Scheme
	// ReadSignature returns the nonce and s2 of sig, a signature (in
	// the format Sign makes) by a key of degree 2^logn; it checks the
	// encoding only, not the signature.
	ReadSignature(logn uint, sig []byte) (nonce []byte, s2 []int16, err error)
	// DecodePublicKey reads a public key in the scheme's encoding (that
	// of EncodeKeys).
	DecodePublicKey(pk []byte) (*falcon.PublicKey, error)
	// DecodePrivateKey reads a private key in the scheme's encoding
	// (that of EncodeKeys).
	DecodePrivateKey(sk []byte) (*falcon.PrivateKey, error)
}

// ReaderOf returns sc as a SignatureReader, or an error naming the
// schemes that are.
func ReaderOf(sc Scheme) (SignatureReader, error) {
	return capability[SignatureReader](sc, "its signatures and keys cannot be read back into the lattice's values")
}

// AttempterOf returns sc as an Attempter, or an error naming the schemes
// that are.
func AttempterOf(sc Scheme) (Attempter, error) {
	return capability[Attempter](sc, "it runs no single signing attempt")
}

// capability returns sc as the capability C, or an error that says why it
// lacks it and names the schemes that have it.
func capability[C Scheme](sc Scheme, lacks string) (C, error) {
	c, ok := sc.(C)
	if !ok {
		return c, fmt.Errorf("scheme %s: %s (want %s)", sc.Name(), lacks, quoted(With(func(s Scheme) bool { _, ok := s.(C); return ok })))
	}
	return c, nil
}

// ErrOtherDegree is matched (errors.Is) by the error of a
// SignatureReader's ReadSignature for a signature whose header names a
// degree other than the one asked for.
var ErrOtherDegree = errors.New("scheme: signature of another degree")

// ReadFalconSignature is ReadSignature for signatures in falcon.h's
// formats, round 3's and FN-DSA 2025's (padded).
func ReadFalconSignature(logn uint, sig []byte) (nonce []byte, s2 []int16, err error) {
	s, err := falcon.DecodeSignature(sig)
	if err != nil {
		return nil, nil, err
	}
	if s.LogN != logn {
		return nil, nil, fmt.Errorf("%w: degree %d, want %d", ErrOtherDegree, 1<<s.LogN, 1<<logn)
	}
	return s.Nonce, s.S2, nil
}

// Attempter is the capability of a scheme whose floating-point signing
// runs as attempts of falcon's engine that can be run one at a time on a
// chosen hashed point. certify reads a key's values -- basis, ffLDL tree,
// normalised leaves -- from one such attempt over the backend it analyses,
// so that they are the scheme's own (FN-DSA builds its tree with a
// self-adjoint LDL and normalises the leaves with its own 1/sigma).
type Attempter interface {
	Scheme
	// SignAttempt runs one signing attempt of the hashed point hm with sk
	// over b, its sampler seeded with seed: the scheme's seed (of its own
	// size) begins with seed's bytes and is zero after them (nil: all
	// zero). What the attempt signs, and whether its signature would be
	// kept, does not matter here, only what b observes.
	SignAttempt(b arith.Backend, sk *falcon.PrivateKey, hm []uint16, seed []byte) error
}

// AttemptSeed returns the sampler seed of size bytes an Attempter's
// SignAttempt uses for seed: seed's first bytes (at most size of them),
// zero after them.
func AttemptSeed(seed []byte, size int) []byte {
	s := make([]byte, size)
	copy(s, seed)
	return s
}
