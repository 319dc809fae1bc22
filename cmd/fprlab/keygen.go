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
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/internal/safefile"
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
	Params, Backend, Seed, PK, SK string
	SeedSet                       bool // --seed given (an empty value is refused, not ignored)
	BackendSet                    bool // --backend given (refused with --scheme fn-dsa)
	Hex, JSON, Progress           bool
	Scheme                        string
}

const keygenLong = `keygen generates a Falcon key pair exactly as the reference Falcon-impl-20211101
does (Zf(keygen): Gaussian f and g, the Gram-Schmidt bound, NTRUSolve with its
Babai reductions), with every floating-point operation done by --backend.
The random stream is SHAKE256 of a 48-byte seed from crypto/rand, or of the
bytes given with --seed (hex), so a seed reproduces its key. The files hold
the falcon.h encodings: pk = 0x00+logn || h, sk = 0x50+logn || f || g || F.
Both files are written or neither; "-" writes one of them to standard output.

Over a slow backend (oracle, vprec:P) key generation takes seconds to
minutes; the elapsed time is shown on stderr when it is a terminal, or with
--progress.

With --scheme fn-dsa, keygen generates an FN-DSA key pair exactly as
go-fn-dsa (e24833f) does from a 32-byte seed (its KeyGen reads 32 bytes from
its random source): --seed takes exactly 32 bytes of hex (default: 32 bytes
from crypto/rand), --params 4 to 1024 (512 and 1024 are the standard
degrees; the others are for research). FN-DSA key generation uses integer
and fixed-point arithmetic only, so there is no --backend: every backend
signs with the same keys. The files use the same falcon.h encodings.
FIPS 206 is not final.`

func newKeygenCmd(s *streams) *cobra.Command {
	opts := &keygenOptions{}
	cmd := &cobra.Command{
		Use:   "keygen --params 512|1024 --pk FILE --sk FILE",
		Short: "Generate a Falcon key pair over a chosen arithmetic backend, or an FN-DSA key pair",
		Long:  keygenLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.SeedSet = cmd.Flags().Changed("seed")
			opts.BackendSet = cmd.Flags().Changed("backend")
			opts.Progress = opts.Progress || s.ErrIsTerminal
			return runKeygen(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	addSchemeFlag(cmd, &opts.Scheme)
	f.StringVar(&opts.Params, "params", "", "degree: 512 or 1024 (any power of two from 2 to 1024 is accepted)")
	f.StringVar(&opts.Backend, "backend", defaultKeygenBackend, "arithmetic backend (see 'fprlab backends')")
	f.StringVar(&opts.Seed, "seed", "", "seed bytes in hex for a reproducible key (default: 48 bytes from crypto/rand; fn-dsa: exactly 32 bytes)")
	f.StringVar(&opts.PK, "pk", "", "write the public key to `FILE`")
	f.StringVar(&opts.SK, "sk", "", "write the private key to `FILE` (mode 0600)")
	f.BoolVar(&opts.Hex, "hex", false, "write the keys as hex text instead of binary")
	f.BoolVar(&opts.JSON, "json", false, "print {backend, params, pk, sk, pk_bytes, sk_bytes, pk_sha256}")
	f.BoolVar(&opts.Progress, "progress", false, "show the elapsed time on stderr (default: when stderr is a terminal)")
	return cmd
}

// runKeygen generates a key pair and writes both files.
func runKeygen(ctx context.Context, opts *keygenOptions, s *streams) error {
	sc, err := parseScheme(opts.Scheme)
	if err != nil {
		return err
	}
	fn := sc == shadow.SchemeFNDSA
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
	if opts.JSON && (safefile.IsStdout(opts.PK) || safefile.IsStdout(opts.SK)) {
		return fmt.Errorf("--json and a key written to - would both use standard output")
	}
	var pkb, skb []byte
	backendName := "none"
	if fn {
		pkb, skb, err = keygenFNDSA(opts, logn)
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
		pkOut, skOut = hexOutput(pkb), hexOutput(skb)
	}
	if err := s.writeOutputs(safefile.File{Path: opts.SK, Data: skOut, Secret: true}, safefile.File{Path: opts.PK, Data: pkOut}); err != nil {
		return err
	}
	sum := sha256.Sum256(pkb)
	if opts.JSON {
		return printJSON(s.Out, keygenJSON{
			Scheme: string(sc), Backend: backendName, Params: 1 << logn, PK: opts.PK, SK: opts.SK,
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
		schemeName(opts.Scheme, 1<<logn), how, opts.PK, len(pkb), sum[:8], opts.SK, len(skb))
	return err
}

// keygenFalcon generates a round-3 key pair over b from the --seed stream
// and returns its encodings.
func keygenFalcon(ctx context.Context, opts *keygenOptions, s *streams, b arith.Backend, logn uint) (pkb, skb []byte, err error) {
	seed, err := keygenSeed(opts, 48, false)
	if err != nil {
		return nil, nil, err
	}
	rng := sha3.NewSHAKE256()
	rng.Write(seed)
	if opts.Progress {
		defer showElapsed(ctx, s, fmt.Sprintf("keygen: Falcon-%d over %s", 1<<logn, b.Name))()
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

// keygenFNDSA generates an FN-DSA key pair from the 32-byte --seed (or
// crypto/rand) and returns its encodings.
func keygenFNDSA(opts *keygenOptions, logn uint) (pkb, skb []byte, err error) {
	seed, err := keygenSeed(opts, fndsa.KeygenSeedSize, true)
	if err != nil {
		return nil, nil, err
	}
	kp, err := fndsa.KeyGen(logn, seed)
	if err != nil {
		return nil, nil, err
	}
	return kp.VerifyingKey, kp.SigningKey, nil
}

// keygenSeed returns the --seed bytes, or size bytes from crypto/rand;
// with exact, --seed must be size bytes long.
func keygenSeed(opts *keygenOptions, size int, exact bool) ([]byte, error) {
	if !opts.SeedSet {
		seed := make([]byte, size)
		if _, err := rand.Read(seed); err != nil {
			return nil, fmt.Errorf("reading crypto/rand: %w", err)
		}
		return seed, nil
	}
	seed, err := hex.DecodeString(strings.TrimSpace(opts.Seed))
	if err != nil {
		return nil, fmt.Errorf("--seed is not valid hex: %v", err)
	}
	if len(seed) == 0 {
		// An empty value (an unset shell variable) would give one
		// fixed, publicly computable key.
		return nil, fmt.Errorf("--seed is empty; give at least one byte of hex, or omit --seed for a random key")
	}
	if exact && len(seed) != size {
		return nil, fmt.Errorf("--seed must be exactly %d bytes (%d hex digits, go-fn-dsa's seed length) with --scheme fn-dsa; got %d", size, 2*size, len(seed))
	}
	return seed, nil
}

// elapsedEvery is how often showElapsed reports.
var elapsedEvery = 5 * time.Second

// showElapsed prints "what: N s elapsed" on stderr every elapsedEvery
// until the returned function is called (a step without progress hooks,
// such as key generation, still shows that it is alive).
func showElapsed(ctx context.Context, s *streams, what string) (stop func()) {
	start := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(elapsedEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				fmt.Fprintf(s.Err, "%s: %.0f s elapsed\n", what, time.Since(start).Seconds())
			}
		}
	}()
	return func() { close(done); <-finished }
}

// untilFirstUnit wraps the progress function of a compare run so that,
// until the first unit finishes, the elapsed time is shown every
// elapsedEvery: the first units are the keys, and key generation has no
// progress of its own while it takes minutes over a slow backend
// (vprec:11: 34-100 s of silence). stop ends that display; call it once
// the run has returned.
func untilFirstUnit(ctx context.Context, s *streams, what string, progress func(done, total int)) (wrapped func(done, total int), stop func()) {
	stopElapsed := showElapsed(ctx, s, what)
	var once sync.Once
	stop = func() { once.Do(stopElapsed) }
	return func(done, total int) {
		stop()
		progress(done, total)
	}, stop
}
