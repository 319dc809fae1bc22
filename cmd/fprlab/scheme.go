package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/scheme"
)

// The --scheme flag: a scheme registered in package scheme, looked up by
// name -- Falcon round 3 (scheme/round3, the default) or FN-DSA as
// go-fn-dsa implements the FIPS 206 draft (scheme/fndsa2025; FIPS 206 is
// not final). The binary links both (valuetype, the composition root); the
// commands ask the scheme, and its optional capabilities, never its name.

// schemeUsage is --scheme's help: every linked scheme with its source and
// aliases, from the registry (so a new scheme appears without an edit
// here).
func schemeUsage() string {
	aliases := map[string][]string{}
	for a, n := range scheme.Aliases() {
		aliases[n] = append(aliases[n], a)
	}
	var parts []string
	for _, name := range scheme.Names() {
		sc, err := scheme.Lookup(name)
		if err != nil {
			continue
		}
		names := append([]string{name}, aliases[name]...)
		slices.Sort(names[1:])
		parts = append(parts, fmt.Sprintf("%s (%s)", strings.Join(names, " or "), sc.Source()))
	}
	return "signature scheme: " + strings.Join(parts, ", ")
}

// addSchemeFlag registers --scheme on cmd, into p. An empty value is
// refused when the flag is given (--scheme "" would otherwise be read as
// the default scheme, scheme.Lookup's reading of a record without one).
func addSchemeFlag(cmd *cobra.Command, p *string) {
	*p = scheme.Default
	cmd.Flags().Var((*schemeValue)(p), "scheme", schemeUsage())
}

// schemeValue is --scheme's flag value: any non-empty name (looked up,
// with its error, when the command runs).
type schemeValue string

func (v *schemeValue) String() string { return string(*v) }
func (v *schemeValue) Type() string   { return "string" }
func (v *schemeValue) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("empty: want %s", strings.Join(scheme.Names(), ", "))
	}
	*v = schemeValue(s)
	return nil
}

// parseScheme looks up a --scheme value.
func parseScheme(s string) (scheme.Scheme, error) {
	sc, err := scheme.Lookup(s)
	if err != nil {
		return nil, fmt.Errorf("--scheme: %w", err)
	}
	return sc, nil
}

// schemeFlags are the scheme flags of sign and verify: --scheme, the
// domain-separation --context and the --prehash identifier (which apply to
// a scheme.ContextSigner only).
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

// parse parses the flags: the scheme, and either its context signing
// (cs) or, for a scheme without it, its falcon.h formats (fs; round 3),
// for which --context and --prehash are refused rather than ignored.
func (sf *schemeFlags) parse() (cs *scheme.Context, fs scheme.Formatter, err error) {
	sc, err := parseScheme(sf.Scheme)
	if err != nil {
		return nil, nil, err
	}
	c, ok := sc.(scheme.ContextSigner)
	if !ok {
		for _, name := range []string{"context", "prehash"} {
			if sf.changed != nil && sf.changed(name) {
				return nil, nil, fmt.Errorf("--%s applies to --scheme %s only", name, strings.Join(scheme.With(isContextSigner), " or "))
			}
		}
		if fs, ok = sc.(scheme.Formatter); !ok {
			return nil, nil, fmt.Errorf("--scheme %s: signing and verifying files needs a scheme with falcon.h's formats (%s) or with contexts (%s)",
				sc.Name(), strings.Join(scheme.With(isFormatter), ", "), strings.Join(scheme.With(isContextSigner), ", "))
		}
		return nil, fs, nil
	}
	cs, err = scheme.NewContext(c, sf.Context, sf.PreHash)
	return cs, nil, err
}

func isContextSigner(sc scheme.Scheme) bool {
	_, ok := sc.(scheme.ContextSigner)
	return ok
}

func isFormatter(sc scheme.Scheme) bool {
	_, ok := sc.(scheme.Formatter)
	return ok
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

// ownKeySchemes names the schemes with key generation of their own.
func ownKeySchemes() []string {
	return scheme.With(func(sc scheme.Scheme) bool { return sc.KeySeedSize() > 0 })
}
