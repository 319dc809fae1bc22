package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/safefile"
	"github.com/fprlab/fprlab/scheme"
)

// defaultKeygenBackend is the backend keygen and kat use unless told, as
// for sign: hardware binary64, which gives the reference's keys and KAT
// files bit for bit, like emu64, and is the fastest.
const defaultKeygenBackend = "native"

// keygenJSON is the stable --json output of keygen.
type keygenJSON struct {
	// Scheme is "falcon" or "fn-dsa"; Backend is "none" for fn-dsa,
	// whose key generation uses integer arithmetic only.
	Scheme   string `json:"scheme"`
	Backend  string `json:"backend"`
	Params   int    `json:"params"`
	PK       string `json:"pk"`
	SK       string `json:"sk"`
	PKBytes  int    `json:"pk_bytes"`
	SKBytes  int    `json:"sk_bytes"`
	PKSHA256 string `json:"pk_sha256"`
}

// keygenOptions holds the flags of keygen.
type keygenOptions struct {
	Params, Backend, Seed, RawSeed, PK, SK string
	SeedSet, RawSeedSet                    bool // --seed, --raw-seed given (an empty value is refused, not ignored)
	BackendSet                             bool // --backend given (refused with --scheme fn-dsa)
	Hex, JSON, Progress                    bool
	// Force is --force: replace an existing private key file.
	Force  bool
	Scheme string
}

const keygenLong = `keygen generates a Falcon key pair exactly as the reference Falcon-impl-20211101
does (Zf(keygen): Gaussian f and g, the Gram-Schmidt bound, NTRUSolve with its
Babai reductions), with every floating-point operation done by --backend.
The files hold the falcon.h encodings: pk = 0x00+logn || h, sk = 0x50+logn ||
f || g || F. Both files are written or neither; "-" writes one of them to
standard output. An existing --sk file is a private key that would be lost:
it is not replaced without --force, nor is a --pk file that holds one.

--seed HEX means the same for every scheme: key generation reads its random
bytes from SHAKE256(HEX bytes), a seed of any length, so a seed reproduces its
key. Round 3 reads as much of that stream as it needs; FN-DSA's key generation
reads 32 bytes (go-fn-dsa's KeyGen reads 32 bytes from its random source), so
its key seed is the first 32 bytes of SHAKE256(HEX bytes). --raw-seed HEX gives
the exact bytes a scheme with a fixed-size key seed consumes instead: for
--scheme fn-dsa exactly 32 bytes, go-fn-dsa's KeyGen seed, which reproduces any
go-fn-dsa key from its random bytes. Round 3
reads a stream of no fixed size and takes --seed only. Without either, the seed
comes from crypto/rand (48 bytes for --seed's stream; 32 raw bytes for fn-dsa).

Over a slow backend (oracle, vprec:P) key generation takes seconds to
minutes; the elapsed time is shown on stderr when it is a terminal, or with
--progress.

With --scheme fn-dsa, keygen generates an FN-DSA key pair exactly as
go-fn-dsa (e24833f) does from a 32-byte seed (its KeyGen reads 32 bytes from
its random source; --raw-seed, or --seed's stream, above), --params 4 to
1024 (512 and 1024 are the standard
degrees; the others are for research). FN-DSA key generation uses integer
and fixed-point arithmetic only, so there is no --backend: every backend
signs with the same keys. The files use the same falcon.h encodings.
FIPS 206 is not final.`

func newKeygenCmd(s *cli.Streams) *cobra.Command {
	opts := &keygenOptions{}
	cmd := &cobra.Command{
		Use:   "keygen --params 512|1024 --pk FILE --sk FILE",
		Short: "Generate a Falcon key pair over a chosen arithmetic backend, or an FN-DSA key pair",
		Long:  keygenLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.SeedSet = cmd.Flags().Changed("seed")
			opts.RawSeedSet = cmd.Flags().Changed("raw-seed")
			opts.BackendSet = cmd.Flags().Changed("backend")
			opts.Progress = opts.Progress || s.ErrIsTerminal
			return runKeygen(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	addSchemeFlag(cmd, &opts.Scheme)
	f.StringVar(&opts.Params, "params", "", "degree: 512 or 1024 (any power of two from 2 to 1024 is accepted)")
	f.StringVar(&opts.Backend, "backend", defaultKeygenBackend, "arithmetic backend (see 'fprlab backends')")
	f.StringVar(&opts.Seed, "seed", "", "reproducible key: key generation reads SHAKE256 of these `HEX` bytes, any length, every scheme (default: from crypto/rand)")
	f.StringVar(&opts.RawSeed, "raw-seed", "", "fn-dsa: the exact 32-byte key seed in `HEX` (go-fn-dsa's KeyGen seed), instead of --seed")
	f.StringVar(&opts.PK, "pk", "", "write the public key to `FILE`")
	f.StringVar(&opts.SK, "sk", "", "write the private key to `FILE` (mode 0600)")
	f.BoolVar(&opts.Hex, "hex", false, "write the keys as hex text instead of binary")
	f.BoolVar(&opts.Force, "force", false, "replace an existing --sk file, or a --pk file holding a private key (a private key is otherwise never replaced)")
	f.BoolVar(&opts.JSON, "json", false, "print {backend, params, pk, sk, pk_bytes, sk_bytes, pk_sha256}")
	f.BoolVar(&opts.Progress, "progress", false, "show the elapsed time on stderr (default: when stderr is a terminal)")
	return cmd
}

// holdsPrivateKey reports whether the file at path holds a private key
// (Falcon's encoding, which FN-DSA's keys share; bytes or hex).
func holdsPrivateKey(s *cli.Streams, path string) bool {
	data, err := s.ReadInput("pk", path, maxPrivateKey, cli.KeyMode)
	if err != nil {
		return false
	}
	_, err = falcon.DecodePrivateKey(data)
	return err == nil
}

// runKeygen generates a key pair and writes both files.
func runKeygen(ctx context.Context, opts *keygenOptions, s *cli.Streams) error {
	sc, err := parseScheme(opts.Scheme)
	if err != nil {
		return err
	}
	fn := sc.KeySeedSize() > 0 // the scheme's own key generation from a fixed-size seed
	logn, err := degreeLogn(opts.Params)
	if fn && (err != nil || logn < fndsa.MinLogN) {
		return fmt.Errorf("--params %q: FN-DSA degrees are powers of two from 4 to 1024 (512 and 1024 standard)", opts.Params)
	}
	if err != nil {
		return err
	}
	if fn && opts.BackendSet {
		return errors.New("--backend does not apply to --scheme fn-dsa: FN-DSA key generation uses integer arithmetic only, so every backend gets the same keys")
	}
	if opts.PK == "" || opts.SK == "" {
		return fmt.Errorf("both --pk FILE and --sk FILE are required")
	}
	// The second rename would replace the first file: the private key
	// would be lost without a word.
	if err := safefile.Distinct(nil, []safefile.Arg{{Flag: "pk", Path: opts.PK}, {Flag: "sk", Path: opts.SK}}); err != nil {
		return err
	}
	if !opts.Force && safefile.WouldReplace(opts.SK) {
		return fmt.Errorf("--sk %s exists: keygen does not replace a private key (remove it, name a new file, or give --force)", opts.SK)
	}
	if !opts.Force && safefile.WouldReplace(opts.PK) && holdsPrivateKey(s, opts.PK) {
		return fmt.Errorf("--pk %s holds a private key: keygen does not replace one (name another file for the public key, or give --force)", opts.PK)
	}
	if opts.JSON && (safefile.IsStdout(opts.PK) || safefile.IsStdout(opts.SK)) {
		return fmt.Errorf("--json and a key written to - would both use standard output")
	}
	var pkb, skb []byte
	backendName := "none"
	if fn {
		pkb, skb, err = keygenOwn(opts, sc, logn)
	} else {
		var b arith.Backend
		if b, err = lookupBackend(opts.Backend); err != nil {
			return err
		}
		backendName = b.Name
		pkb, skb, err = keygenFalcon(ctx, opts, s, b, logn)
	}
	if err != nil {
		return err
	}
	pkOut, skOut := pkb, skb
	if opts.Hex {
		pkOut, skOut = cli.HexOutput(pkb), cli.HexOutput(skb)
	}
	if err := s.WriteOutputs(safefile.File{Path: opts.SK, Data: skOut, Secret: true}, safefile.File{Path: opts.PK, Data: pkOut}); err != nil {
		return err
	}
	sum := sha256.Sum256(pkb)
	if opts.JSON {
		return cli.PrintJSON(s.Out, keygenJSON{
			Scheme: sc.Name(), Backend: backendName, Params: 1 << logn, PK: opts.PK, SK: opts.SK,
			PKBytes: len(pkb), SKBytes: len(skb), PKSHA256: hex.EncodeToString(sum[:]),
		})
	}
	if safefile.IsStdout(opts.PK) || safefile.IsStdout(opts.SK) {
		return nil // the key is the output
	}
	how := "backend " + backendName
	if fn {
		how = "integer key generation"
	}
	_, err = fmt.Fprintf(s.Out, "%s key pair (%s): public key %s (%d bytes, SHA-256 %x), private key %s (%d bytes)\n",
		scheme.TitleOf(opts.Scheme, 1<<logn), how, opts.PK, len(pkb), sum[:8], opts.SK, len(skb))
	return err
}

// keygenFalcon generates a round-3 key pair over b from the --seed stream
// and returns its encodings.
func keygenFalcon(ctx context.Context, opts *keygenOptions, s *cli.Streams, b arith.Backend, logn uint) (pkb, skb []byte, err error) {
	if opts.RawSeedSet {
		return nil, nil, errors.New("--raw-seed: round 3's key generation reads a random stream of no fixed size, not a fixed seed: use --seed, the stream's SHAKE256 seed")
	}
	rng, err := keygenStream(opts)
	if err != nil {
		return nil, nil, err
	}
	if opts.Progress {
		defer cli.ShowElapsed(ctx, s.Err, fmt.Sprintf("keygen: Falcon-%d over %s", 1<<logn, b.Name))()
	}
	sk, pk, err := falcon.Keygen(b, logn, rng)
	if err != nil {
		return nil, nil, err
	}
	pkb, skb = pk.Encode(), sk.Encode()
	if pkb == nil || skb == nil {
		return nil, nil, fmt.Errorf("generated key does not encode")
	}
	return pkb, skb, nil
}

// keygenOwn generates a key pair with the scheme's own key generation
// (FN-DSA's) from its fixed-size seed -- --raw-seed, the first bytes of
// --seed's stream, or crypto/rand -- and returns its encodings.
func keygenOwn(opts *keygenOptions, sc scheme.Scheme, logn uint) (pkb, skb []byte, err error) {
	if opts.SeedSet && opts.RawSeedSet {
		return nil, nil, errors.New("--seed and --raw-seed are two forms of one seed: give one")
	}
	seed := make([]byte, sc.KeySeedSize())
	switch {
	case opts.RawSeedSet:
		if seed, err = hexSeed("--raw-seed", opts.RawSeed); err != nil {
			return nil, nil, err
		}
		if len(seed) != sc.KeySeedSize() {
			return nil, nil, fmt.Errorf("--raw-seed must be exactly %d bytes (%d hex digits, the key seed --scheme %s reads); got %d (--seed takes a seed of any length)", sc.KeySeedSize(), 2*sc.KeySeedSize(), sc.Name(), len(seed))
		}
	case opts.SeedSet:
		rng, err := keygenStream(opts)
		if err != nil {
			return nil, nil, err
		}
		rng.Read(seed)
	default:
		if _, err := rand.Read(seed); err != nil {
			return nil, nil, fmt.Errorf("reading crypto/rand: %w", err)
		}
	}
	sk, err := sc.KeyGen(logn, seed)
	if err != nil {
		return nil, nil, err
	}
	return sc.EncodeKeys(sk)
}

// keygenStream is the random stream of --seed, SHAKE256 of its bytes, or
// of 48 bytes from crypto/rand without it; --seed and --raw-seed exclude
// each other.
func keygenStream(opts *keygenOptions) (*sha3.SHAKE, error) {
	if opts.SeedSet && opts.RawSeedSet {
		return nil, errors.New("--seed and --raw-seed are two forms of one seed: give one")
	}
	seed := make([]byte, 48)
	if opts.SeedSet {
		var err error
		if seed, err = hexSeed("--seed", opts.Seed); err != nil {
			return nil, err
		}
	} else if _, err := rand.Read(seed); err != nil {
		return nil, fmt.Errorf("reading crypto/rand: %w", err)
	}
	rng := sha3.NewSHAKE256()
	rng.Write(seed)
	return rng, nil
}

// hexSeed decodes the hex value of a seed flag, refusing an empty one.
func hexSeed(flag, v string) ([]byte, error) {
	seed, err := hex.DecodeString(strings.TrimSpace(v))
	if err != nil {
		return nil, fmt.Errorf("%s is not valid hex: %v", flag, err)
	}
	if len(seed) == 0 {
		// An empty value (an unset shell variable) would give one
		// fixed, publicly computable key.
		return nil, fmt.Errorf("%s is empty; give at least one byte of hex, or omit %s for a random key", flag, flag)
	}
	return seed, nil
}
