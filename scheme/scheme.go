// Package scheme is the seam between the signature schemes fprlab measures
// and the code that measures them: signing, shadow campaigns, the
// precision search, KAT replay and the accelerator models take a Scheme
// and ask it, instead of switching on the scheme's name.
//
// Every scheme here signs with falcon's engine over an arithmetic backend
// (package arith): its keys are falcon.PrivateKey values and its signing
// runs the engine, so whatever observes that backend -- the shadow's pair
// arithmetic and its observer, a precision plan, an operation counter --
// observes the scheme's signature. What a scheme chooses is everything
// around the engine: parameter sets, key generation, the hashing and
// randomness of an attempt, encodings, verification, its KAT.
//
// Implementations register themselves by name (Register, as database/sql
// drivers do); the program chooses which to link by importing them
// (scheme/round3 for Falcon round 3, scheme/fndsa2025 for FN-DSA as
// go-fn-dsa implements the FIPS 206 draft). A library that takes a
// Scheme never imports an implementation. Lookup("") is Default, round 3.
//
// Scheme is what every scheme must have. What only some schemes have is an
// optional capability, an interface a command finds with a type assertion
// (capability.go): ContextSigner (sign and verify's --context and
// --prehash, keys in the scheme's own encodings), Formatter (falcon.h's
// signature formats, sign's --format), KATReplayer (a known-answer test of
// the scheme's own, for kat) and accel.Counter (accel counts and accel
// cycles). A new scheme implements Scheme and registers; each capability it
// adds turns on the commands that need it, and a command refuses a scheme
// without one, naming the schemes that have it.
//
// The package is not a signing API for applications: packages falcon and
// fndsa are.
package scheme

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
)

// Default is the name of the scheme a command signs when no --scheme is
// given, and of the scheme of campaign directories that record none
// (they predate --scheme).
const Default = "falcon"

// ErrSignAttempts is matched (errors.Is) by the error of a Sign that
// found no signature within its scheme's bound on attempts: the backend
// lacks the precision to sign, which the precision search treats as a
// verdict on the plan rather than a failure of the search.
var ErrSignAttempts = errors.New("scheme: no signature within the bound on attempts")

// ErrSamplerStuck is matched (errors.Is) by the error of a Sign whose
// sampler rejected every candidate (falcon.ErrSamplerStuck, which the
// engine returns however a scheme drives it): like ErrSignAttempts, a
// verdict on the backend's precision, not a failure of the caller.
var ErrSamplerStuck = errors.New("scheme: the sampler rejected every candidate")

// Scheme is a signature scheme over falcon's engine.
type Scheme interface {
	// Name is the scheme's --scheme value, and the "scheme" recorded in
	// campaign identities and summaries; it never changes meaning.
	Name() string
	// Description names the scheme for people, as "Falcon round 3".
	Description() string
	// Source says which definition of the scheme is implemented, as
	// "Falcon as submitted to NIST's third round"; --scheme's help lists
	// it.
	Source() string
	// Title names the parameter set of degree 2^logn for people, as
	// "Falcon-512" or "FN-DSA-1024".
	Title(logn uint) string
	// CheckLogN says why the scheme does not sign at degree 2^logn in a
	// measurement campaign (nil when it does). Degrees a scheme accepts
	// for research only (a key pair at 16) are not campaign degrees.
	CheckLogN(logn uint) error

	// KeySeedSize is the length of the seed the scheme's own key
	// generation reads (KeyGen), or 0 when its key generation is round 3's
	// floating-point one over a backend (falcon.Keygen, which reads a
	// random stream of no fixed length).
	KeySeedSize() int
	// KeyGen is the scheme's own key generation from a seed of
	// KeySeedSize bytes: integer arithmetic only, the same key on every
	// backend. Schemes with KeySeedSize 0 refuse it.
	KeyGen(logn uint, seed []byte) (*falcon.PrivateKey, error)

	// Sign signs the raw message msg (empty context, where the scheme
	// has one) with sk over backend b, reading the signature's
	// randomness from rng; everything b observes sees the attempts. An
	// error that is errors.Is(err, ErrSignAttempts) means no attempt
	// gave a signature.
	Sign(b arith.Backend, sk *falcon.PrivateKey, msg []byte, rng io.Reader) ([]byte, error)
	// Verify checks sig on the raw message msg under pk.
	Verify(pk *falcon.PublicKey, msg, sig []byte) error
	// EncodeKeys returns the encodings of sk's public and private keys.
	EncodeKeys(sk *falcon.PrivateKey) (pk, skb []byte, err error)
	// MaxEncodedSizes are the longest encodings, over every degree and
	// format, of the scheme's public key, private key and signature:
	// what a reader of key and signature files allows (MaxEncodedSizes).
	MaxEncodedSizes() (pk, sk, sig int)

	// FixedInvSigma reports that the scheme defines 1/sigma as a table
	// of its own (FN-DSA's, correctly rounded to binary64), which the
	// exact side of a shadow takes as is: no other exact sigma applies.
	FixedInvSigma() bool
	// ReplaysNISTKAT reports that the scheme's signatures are those of
	// the NIST round-3 KAT files, whose records a campaign can replay.
	ReplaysNISTKAT() bool

	// IdleStage says why signing does no floating-point arithmetic in
	// precision-plan stage st ("" when it does the stage's usual work).
	IdleStage(st arith.PlanStage) string
	// CostNote says what a plan's floating-point cost leaves out of the
	// scheme's signing ("" when nothing).
	CostNote() string
}

var (
	mu       sync.RWMutex
	registry = map[string]Scheme{}
	// aliases maps another accepted name to a registered one.
	aliases = map[string]string{}
)

// Register makes s available to Lookup by its name; it panics if the
// name is taken (two implementations linked under one name is a
// programming error).
func Register(s Scheme) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[s.Name()]; dup {
		panic("scheme: Register called twice for " + s.Name())
	}
	registry[s.Name()] = s
}

// RegisterAlias makes alias a second name of the scheme registered as
// name: Lookup(alias) returns that scheme, whose Name (what campaigns
// record) stays name. "fn-dsa-2025" is how "fn-dsa" is spelled with its
// draft's year, so that every FN-DSA profile can be named by its year
// while campaign directories of the 2025 profile keep the name they
// recorded. It panics if alias is taken.
func RegisterAlias(alias, name string) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[alias]; dup {
		panic("scheme: RegisterAlias of a registered name " + alias)
	}
	if _, dup := aliases[alias]; dup {
		panic("scheme: RegisterAlias called twice for " + alias)
	}
	aliases[alias] = name
}

// Aliases returns the other accepted name of each aliased scheme, as
// alias -> registered name.
func Aliases() map[string]string {
	mu.RLock()
	defer mu.RUnlock()
	m := make(map[string]string, len(aliases))
	for a, n := range aliases {
		m[a] = n
	}
	return m
}

// Lookup returns the registered scheme of that name or alias; "" is
// Default.
func Lookup(name string) (Scheme, error) {
	if name == "" {
		name = Default
	}
	mu.RLock()
	if a, ok := aliases[name]; ok {
		name = a
	}
	s, ok := registry[name]
	mu.RUnlock()
	if !ok {
		names := Names()
		if len(names) == 0 {
			return nil, fmt.Errorf("scheme %q: no scheme is linked into this program (import github.com/fprlab/fprlab/scheme/round3 and the others it needs)", name)
		}
		for a := range Aliases() {
			names = append(names, a)
		}
		slices.Sort(names[1:]) // the default first, then names and aliases by name
		return nil, fmt.Errorf("scheme %q: want %s", name, quoted(names))
	}
	return s, nil
}

// MaxEncodedSizes are the longest encodings of a public key, a private
// key and a signature of any registered scheme: no key or signature file
// of a linked scheme is longer, so a reader can stop there.
func MaxEncodedSizes() (pk, sk, sig int) {
	mu.RLock()
	defer mu.RUnlock()
	for _, s := range registry {
		p, k, g := s.MaxEncodedSizes()
		pk, sk, sig = max(pk, p), max(sk, k), max(sig, g)
	}
	return pk, sk, sig
}

// Names lists the registered schemes, Default first, then by name.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if (names[i] == Default) != (names[j] == Default) {
			return names[i] == Default
		}
		return names[i] < names[j]
	})
	return names
}

// IsDefault reports whether s is the default scheme (nil counts as it):
// identities record the default by leaving the scheme out, as they did
// before there was a choice.
func IsDefault(s Scheme) bool { return s == nil || s.Name() == Default }

// quoted is "a", "a" or "b", "a", "b" or "c".
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// marked keeps an implementation's own error message while matching a
// sentinel of this package.
type marked struct{ err, target error }

func (e marked) Error() string        { return e.err.Error() }
func (e marked) Unwrap() error        { return e.err }
func (e marked) Is(target error) bool { return target == e.target }

// mark returns err marked as target (nil and errors that match target
// already are returned as they are).
func mark(err, target error) error {
	if err == nil || errors.Is(err, target) {
		return err
	}
	return marked{err, target}
}

// MarkEngine returns err, an error of falcon's engine or wrapping one,
// marked with this package's sentinel for it: falcon.ErrSignAttempts, or
// any of attempts (an implementation's own error for attempts run out),
// as ErrSignAttempts; falcon.ErrSamplerStuck as ErrSamplerStuck. Every
// implementation's signer passes its error through it, and so does code
// that runs the engine itself (the shadow's KAT records), so that a
// caller matches the two verdicts on precision without importing the
// engine. Other errors are returned as they are.
func MarkEngine(err error, attempts ...error) error {
	if errors.Is(err, falcon.ErrSignAttempts) {
		return mark(err, ErrSignAttempts)
	}
	for _, a := range attempts {
		if errors.Is(err, a) {
			return mark(err, ErrSignAttempts)
		}
	}
	if errors.Is(err, falcon.ErrSamplerStuck) {
		return mark(err, ErrSamplerStuck)
	}
	return err
}

// TitleOf names the parameter set of degree n of the scheme named name,
// as a document records it ("" or an unknown name is round 3, as
// campaigns made before there was a choice of scheme): "Falcon-512",
// "FN-DSA-1024".
func TitleOf(name string, n int) string {
	sc, err := Lookup(name)
	if err != nil {
		sc, _ = Lookup("")
	}
	return sc.Title(uint(bits.Len(uint(n)) - 1))
}

// DescriptionOf is the description of the scheme named name ("FN-DSA"),
// or name itself when this program does not know it.
func DescriptionOf(name string) string {
	if sc, err := Lookup(name); err == nil {
		return sc.Description()
	}
	return name
}

// KeysTitle is TitleOf with the key source of a campaign of a scheme with
// key generation of its own: "FN-DSA-512 (FN-DSA keys)", or with round 3's
// keys (keySource Default) "FN-DSA-512 (round-3 keys)"; an empty key
// source adds nothing.
func KeysTitle(name string, n int, keySource string) string {
	t := TitleOf(name, n)
	switch {
	case keySource == Default:
		t += " (round-3 keys)"
	case keySource != "":
		t += " (" + DescriptionOf(keySource) + " keys)"
	}
	return t
}
