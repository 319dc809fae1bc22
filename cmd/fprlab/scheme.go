package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/scheme"
	"github.com/fprlab/fprlab/scheme/fndsa2025"
	_ "github.com/fprlab/fprlab/scheme/round3"
)

// The --scheme flag: a scheme registered in package scheme, looked up by
// name -- Falcon round 3 (scheme/round3, the default) or FN-DSA as
// go-fn-dsa implements the FIPS 206 draft (scheme/fndsa2025; FIPS 206 is
// not final). The binary links both; the commands ask the scheme, and only
// sign and verify's --context and --prehash, which only FN-DSA's hashing
// has, name it.

const schemeUsage = "signature scheme: falcon (round 3) or fn-dsa (FIPS 206 draft as go-fn-dsa e24833f implements it; not final)"

// addSchemeFlag registers --scheme on cmd, into p.
func addSchemeFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "scheme", scheme.Default, schemeUsage)
}

// parseScheme looks up a --scheme value.
func parseScheme(s string) (scheme.Scheme, error) {
	sc, err := scheme.Lookup(s)
	if err != nil {
		return nil, fmt.Errorf("--scheme: %w", err)
	}
	return sc, nil
}

// schemeName is the name of the scheme named s (a document's "scheme":
// absent or unknown is round 3) at degree n for messages, as in
// "Falcon-512" or "FN-DSA-512".
func schemeName(s string, n int) string {
	sc, err := scheme.Lookup(s)
	if err != nil {
		sc, _ = scheme.Lookup("")
	}
	return sc.Title(uint(bits.Len(uint(n)) - 1))
}

// schemeFlags are the FN-DSA flags of sign and verify: --scheme, the
// domain-separation --context and the --prehash identifier (which apply to
// fn-dsa only).
type schemeFlags struct {
	Scheme, Context, PreHash string
	changed                  func(name string) bool
}

func (sf *schemeFlags) add(cmd *cobra.Command) {
	addSchemeFlag(cmd, &sf.Scheme)
	f := cmd.Flags()
	f.StringVar(&sf.Context, "context", "", "fn-dsa: domain-separation context, `HEX` (0 to 255 bytes; default empty)")
	f.StringVar(&sf.PreHash, "prehash", "none", "fn-dsa: the message file holds the digest of this hash (none, sha256, sha384, sha512, sha512-256, sha3-256, sha3-384, sha3-512)")
	sf.changed = cmd.Flags().Changed
}

// fnDSA parses the flags: whether the scheme is FN-DSA, and its context
// and pre-hash identifier. --context and --prehash with --scheme falcon
// are refused rather than ignored.
func (sf *schemeFlags) fnDSA() (bool, []byte, fndsa.PreHash, error) {
	sc, err := parseScheme(sf.Scheme)
	if err != nil {
		return false, nil, 0, err
	}
	if sc != fndsa2025.Scheme {
		for _, name := range []string{"context", "prehash"} {
			if sf.changed != nil && sf.changed(name) {
				return false, nil, 0, fmt.Errorf("--%s applies to --scheme fn-dsa only", name)
			}
		}
		return false, nil, 0, nil
	}
	ctx, err := hex.DecodeString(strings.TrimSpace(sf.Context))
	if err != nil {
		return false, nil, 0, fmt.Errorf("--context must be hex, got %q", sf.Context)
	}
	if len(ctx) > fndsa.MaxContext {
		return false, nil, 0, fmt.Errorf("--context is %d bytes, more than %d", len(ctx), fndsa.MaxContext)
	}
	ph, err := fndsa.ParsePreHash(sf.PreHash)
	if err != nil {
		return false, nil, 0, fmt.Errorf("--prehash: %w", err)
	}
	return true, ctx, ph, nil
}

// signFNDSA signs msg with the encoded signing key skBytes over b (any
// degree the key has; the weak degrees 4 to 256 are research only).
func signFNDSA(b arith.Backend, skBytes, ctx []byte, ph fndsa.PreHash, msg []byte, rng io.Reader) (sig []byte, logn uint, err error) {
	k, err := decodeFNDSAKey(skBytes)
	if err != nil {
		return nil, 0, err
	}
	sig, err = k.Sign(b, ctx, ph, msg, rng)
	return sig, k.LogN(), err
}

func decodeFNDSAKey(b []byte) (*fndsa.SigningKey, error) {
	weak := len(b) > 0 && uint(b[0]&0x0F) < fndsa.MinStdLogN
	return fndsa.DecodeSigningKey(b, weak)
}

// verifyFNDSA is verifyInputs' FN-DSA verdict: a key or signature that
// cannot be decoded at all is malformed input (err); a decodable one that
// is not a valid FN-DSA signature is verr.
func verifyFNDSA(v verifyJSON, pkBytes, sigBytes, ctx []byte, ph fndsa.PreHash, msg []byte, opts *verifyOptions) (verifyJSON, error, error) {
	weak := len(pkBytes) > 0 && uint(pkBytes[0]&0x0F) < fndsa.MinStdLogN
	vk, err := fndsa.DecodeVerifyingKey(pkBytes, weak)
	if err != nil {
		return v, nil, fmt.Errorf("public key file %s: %w", opts.PK, err)
	}
	v.Degree = 1 << vk.LogN()
	// fndsa's Verify checks the length and header of the one FN-DSA
	// format before decoding: every malformed signature is an invalid
	// one, in FN-DSA's terms.
	v.Format = "fn-dsa"
	verr := vk.Verify(ctx, ph, msg, sigBytes)
	if verr != nil && !errors.Is(verr, fndsa.ErrInvalidSignature) {
		return v, nil, fmt.Errorf("verifying %s: %w", opts.Sig, verr)
	}
	v.Valid = verr == nil
	if verr != nil {
		v.Reason = verr.Error()
	}
	return v, verr, nil
}

// The --key-source flag of compare, sweep and tune: the keys an FN-DSA campaign
// signs with.
const keySourceUsage = "fn-dsa: keys from `SOURCE`: fn-dsa (FN-DSA's own integer key generation, go-fn-dsa's keys; the default) or falcon (round 3's key generation over emu64 or the backend, as FN-DSA campaigns made before FN-DSA key generation existed)"

// parseKeySource validates --key-source for scheme sc: "" is the scheme's
// own keys for a scheme with key generation of its own (fn-dsa); round 3
// signs with round 3's keys, so any --key-source with --scheme falcon is
// refused rather than ignored.
func parseKeySource(v string, sc scheme.Scheme) (shadow.KeySource, error) {
	if sc.KeySeedSize() == 0 {
		if v != "" {
			return "", fmt.Errorf("--key-source %s applies to --scheme %s only (round 3 signs with round 3's keys)", v, strings.Join(ownKeySchemes(), " or "))
		}
		return "", nil
	}
	if v == "" {
		return shadow.KeysOf(sc), nil
	}
	ks, err := shadow.ParseKeySource(v, sc)
	if err != nil {
		return "", fmt.Errorf("--key-source: %w", err)
	}
	return ks, nil
}

// keysFNDSA is the key source of FN-DSA's own keys ("fn-dsa"), which
// the FN-DSA accelerator models count.
var keysFNDSA = shadow.KeysOf(fndsa2025.Scheme)

// ownKeySchemes names the schemes with key generation of their own.
func ownKeySchemes() []string {
	var names []string
	for _, n := range scheme.Names() {
		if sc, err := scheme.Lookup(n); err == nil && sc.KeySeedSize() > 0 {
			names = append(names, n)
		}
	}
	return names
}

// schemeKeysName is schemeName with the key source of a campaign of a
// scheme with key generation of its own, as in "FN-DSA-512 (FN-DSA keys)"
// or "FN-DSA-512 (round-3 keys)".
func schemeKeysName(schemeID string, n int, keySource string) string {
	name := schemeName(schemeID, n)
	switch {
	case keySource == string(shadow.KeysFalcon):
		name += " (round-3 keys)"
	case keySource != "":
		name += " (" + schemeDescription(keySource) + " keys)"
	}
	return name
}

// schemeDescription is the description of the scheme named s ("FN-DSA"),
// or s itself when this binary does not know it.
func schemeDescription(s string) string {
	if sc, err := scheme.Lookup(s); err == nil {
		return sc.Description()
	}
	return s
}

// keysFrom is where a summary's keys come from, for compare's text
// output: the backend of round 3's key generation, or the scheme's own.
func keysFrom(s *shadow.Summary) string {
	switch s.KeySource {
	case "":
		return s.KeygenBackend
	case string(shadow.KeysFalcon):
		return "round-3 key generation over " + s.KeygenBackend
	}
	return schemeDescription(s.KeySource) + " key generation (integer, the scheme's own; seeds derived from the seed)"
}
