package shadow

import (
	"context"
	"crypto/sha3"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"sync"
	"time"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// ExactSigma chooses the exact side's 1/sigma.
type ExactSigma string

const (
	// SigmaReference takes the reference's binary64 table fpr_inv_sigma as
	// the scheme's parameter (as the oracle does): a binary64 backend then
	// has no systematic error in 1/sigma.
	SigmaReference ExactSigma = "reference"
	// SigmaFormula computes 1/sigma = 1/(1.17 sqrt(q) sigma_min) and
	// sigma_min from the specification's definitions at the shadow's
	// precision. The reference's table is one ulp
	// above the correctly rounded value for every degree, which shows as a
	// systematic delta_sigma of about 2^-52.56 over binary64.
	SigmaFormula ExactSigma = "formula"
)

// SigmaMinFormula is arith.SigmaMinFormula: the specification's
// sigma_min for degree 2^logn at prec bits (logn in 1..10, else it panics).
func SigmaMinFormula(logn uint, prec uint) *big.Float { return arith.SigmaMinFormula(logn, prec) }

// InvSigmaFormula is arith.InvSigmaFormula: the specification's 1/sigma
// for degree 2^logn at prec bits.
func InvSigmaFormula(logn uint, prec uint) *big.Float { return arith.InvSigmaFormula(logn, prec) }

// Kind names an exact side.
type Kind string

const (
	// ShadowOracle is the big-float oracle at Config.OracleBits bits.
	ShadowOracle Kind = "oracle"
	// ShadowDD is double-double arithmetic (package arith/ddouble): each
	// operation within 2^-102 relative, validated against the oracle on
	// the same runs (see the package tests).
	ShadowDD Kind = "dd"
)

// Config describes a shadowed campaign over one backend.
type Config struct {
	LogN uint
	// Seeded mode: Signatures signatures with Keys keys (signature j uses
	// key j mod Keys), everything derived from Seed.
	Signatures, Keys int
	Seed             string
	// KAT mode, when KATTo > KATFrom: the NIST KAT records [KATFrom,
	// KATTo), each with its own key and signing randomness.
	KATFrom, KATTo int
	OracleBits     uint
	Sigma          ExactSigma
	// Shadow is the exact side: ShadowOracle (big.Float at OracleBits;
	// also the zero value's choice) or ShadowDD (double-double: a 106-bit
	// significand, relative error at most 2^-102 per operation, much
	// faster; fprlab compare's default).
	Shadow Kind
	// Acceptance, when not nil, replaces the sampler's BerExp in the
	// measured signatures (falcon.WithAcceptance); its decisions are
	// compared with its exact decisions (the "acceptance" decision kind).
	Acceptance ExactAcceptance
	Workers    int
	// Shard and Shards split the campaign over Shards processes: this run
	// measures only the units (signatures, KAT records, shadowed key
	// generations) whose index is Shard modulo Shards; every shard
	// regenerates all keys (unshadowed where another shard measures them).
	// Shards 0 or 1 is the whole campaign.
	Shard, Shards int
	// KeygenBackend, when set, generates the keys (unshadowed unless it is
	// the measured backend itself) instead of the default rule of
	// KeygenBackend(b): a sweep signs every format with the same keys.
	KeygenBackend string
	// Scheme is the signature scheme the campaign signs with (nil:
	// scheme.Default, round 3, looked up by name; scheme.go).
	Scheme scheme.Scheme
	// Mode is the reference's signing procedure the signatures follow:
	// falcon.Dyn (falcon_sign_dyn, the zero value) or falcon.Tree
	// (falcon_expand_privkey + falcon_sign_tree, the tree expanded under
	// the shadow for every signature). Tree is round 3's (a scheme that is
	// a scheme.Formatter).
	Mode falcon.Mode
	// KeySource is the key generation of a seeded campaign of a scheme
	// with key generation of its own: KeysOf(Scheme) (Scheme.KeyGen from
	// SchemeKeySeed; KeygenBackend is then unused), or KeysFalcon (round
	// 3's; also the zero value's). Round 3 takes KeysFalcon or "" only.
	KeySource KeySource
	// Have returns the finished record of a unit from an earlier run (a
	// resume), if any -- a nil record when the unit is finished and
	// accounted for elsewhere (a campaign directory holds aggregates, not
	// records); Done receives each new record as it finishes (from
	// several goroutines, serialised by Run). Both may be nil.
	Have     func(kind string, index int) (*Record, bool)
	Done     func(r *Record) error
	Progress func(done, total int)
}

// Owns reports whether unit index i belongs to this shard.
func (c *Config) Owns(i int) bool { return c.Shards <= 1 || i%c.Shards == c.Shard }

// KATMode reports whether the configuration uses KAT records.
func (c *Config) KATMode() bool { return c != nil && c.KATTo > c.KATFrom }

// Check validates the configuration.
func (c *Config) Check() error {
	if c == nil {
		return errors.New("shadow: nil configuration")
	}
	if _, err := falcon.ParamsFor(c.LogN); err != nil {
		return err
	}
	if c.Shadow == ShadowOracle && (c.OracleBits < 64 || c.OracleBits > 4096) {
		return fmt.Errorf("oracle precision %d bits out of range 64..4096", c.OracleBits)
	}
	switch c.Shadow {
	case ShadowOracle, ShadowDD, "":
	default:
		return fmt.Errorf("shadow %q: want %q or %q", c.Shadow, ShadowOracle, ShadowDD)
	}
	switch c.Sigma {
	case SigmaReference, SigmaFormula:
	default:
		return fmt.Errorf("exact sigma %q: want %q or %q", c.Sigma, SigmaReference, SigmaFormula)
	}
	if err := c.checkScheme(); err != nil {
		return err
	}
	if c.Acceptance != nil {
		if w := c.Acceptance.Words(); w < 1 || w > falcon.MaxAcceptanceWords {
			return fmt.Errorf("acceptance %q draws %d words per decision, want 1 to %d", c.Acceptance.Name(), w, falcon.MaxAcceptanceWords)
		}
	}
	if c.Shards < 0 || c.Shards > 1_000_000 || (c.Shards > 1 && (c.Shard < 0 || c.Shard >= c.Shards)) || (c.Shards <= 1 && c.Shard != 0) {
		return fmt.Errorf("shard %d/%d: want 0 <= I < N", c.Shard, c.Shards)
	}
	if c.KATMode() {
		if c.KATFrom < 0 || c.KATTo > 100 {
			return fmt.Errorf("KAT records %d:%d out of range 0:100", c.KATFrom, c.KATTo)
		}
		return nil
	}
	if c.Signatures < 1 || c.Signatures > 100_000_000 {
		return fmt.Errorf("number of signatures %d out of range 1..100000000", c.Signatures)
	}
	if c.Keys < 1 || c.Keys > c.Signatures {
		return fmt.Errorf("number of keys %d out of range 1..%d (the number of signatures)", c.Keys, c.Signatures)
	}
	return nil
}

// runner runs shadowed key generations and signatures over one backend.
type runner interface {
	// keygen generates a key shadowed; the key is the backend's.
	keygen(logn uint, rng *sha3.SHAKE, index int) (*falcon.PrivateKey, *Record, error)
	// sign signs msg shadowed.
	sign(sk *falcon.PrivateKey, msg []byte, rng *sha3.SHAKE, index, key int) (*Record, error)
	// attempt runs one signing attempt of the hashed point hm shadowed,
	// with edge samples at deviation edge unless edge is Drawn.
	attempt(sk *falcon.PrivateKey, hm []uint16, seed []byte, edge, index int) (*Record, error)
	// kat runs one KAT record with shadowed signing (and shadowed key
	// generation when the backend generates keys).
	kat(logn uint, req falcon.KATRecord, shadowKeys bool, kbName string) (kg, sig *Record, err error)
	// setAcceptance installs the acceptance of the signatures it runs.
	setAcceptance(acc ExactAcceptance)
	// setScheme chooses the scheme of the signatures it runs, and the
	// signing procedure.
	setScheme(s scheme.Scheme, m falcon.Mode)
	// divergence runs one KAT record beside the reference side and
	// returns the first decision that differs (see FirstDivergence).
	divergence(kb arith.Backend, logn uint, req falcon.KATRecord) (*Divergence, error)
}

// pairRunner is the runner for backend value type F with arithmetic A,
// shadowed by the exact arithmetic AX with values X.
type pairRunner[F, X any, A arith.Arith[F], AX Exact[X]] struct {
	b      arith.Backend
	a      A
	ex     AX
	consts map[arith.Constant]X
	res    float64         // the exact side's resolution (PairArith.resLog2)
	acc    ExactAcceptance // replaces BerExp in signatures (nil: BerExp)
	scheme scheme.Scheme
	mode   falcon.Mode
	inst   instantiator[F, X, A, AX]
}

// pair returns the pair arithmetic of one run. A backend that keeps
// per-run state (a precision plan's current stage) gets a copy of its own,
// and hears the stage boundaries through the pair.
func (r *pairRunner[F, X, A, AX]) pair() *PairArith[F, X, A, AX] {
	b := falcon.ForRun[F](r.a)
	st, _ := any(b).(arith.Staged)
	p := &PairArith[F, X, A, AX]{b: b, bStaged: st, x: r.ex, d: newDecisions(), bIsFloat64: r.b.Bits > 0 && r.b.Bits <= 53,
		splitX: pairImporter[F, X](b, r.ex), consts: r.consts, resLog2: r.res}
	p.specialise()
	return p
}

// pairImporter returns the exact import of backend values into the dd
// exact side without big.Float, for a backend whose values split into two
// binary64 numbers hi = RN(v), lo = v - hi (vfloat.Arith.Float64Pair, for
// formats wider than binary64): the double word (hi, lo) is exactly what
// ddouble's FromBig makes of such a value. nil when either side lacks it.
func pairImporter[F, X any](b, x any) func(F) (X, bool) {
	split, ok := b.(interface {
		Float64Pair(v F) (hi, lo float64, ok bool)
	})
	if !ok {
		return nil
	}
	if _, ok := x.(ddouble.Arith); !ok {
		return nil
	}
	return func(v F) (X, bool) {
		hi, lo, ok := split.Float64Pair(v)
		if !ok {
			var z X
			return z, false
		}
		d, ok := any(ddouble.DD{Hi: hi, Lo: lo}).(X)
		return d, ok
	}
}

func (r *pairRunner[F, X, A, AX]) instance(kind string, index, key int) (arith.Backend, *observer[F, X, A, AX]) {
	p := r.pair()
	o := newObserver(p, kind, index, key)
	o.acc = r.acc
	pb := r.inst(r.b, p, o)
	if r.acc != nil && kind == "signature" {
		// pb is an Instance and Config.Check bounded the words per
		// decision, the two conditions under which WithAcceptance fails.
		pb, _ = falcon.WithAcceptance(pb, r.acc)
	}
	return pb, o
}

func (r *pairRunner[F, X, A, AX]) setAcceptance(acc ExactAcceptance) { r.acc = acc }

func (r *pairRunner[F, X, A, AX]) keygen(logn uint, rng *sha3.SHAKE, index int) (*falcon.PrivateKey, *Record, error) {
	t0 := time.Now()
	pb, o := r.instance("keygen", index, index)
	sk, _, err := falcon.Keygen(pb, logn, rng)
	if err != nil {
		return nil, nil, err
	}
	rec := o.finish()
	rec.Seconds = time.Since(t0).Seconds()
	return sk, rec, nil
}

func (r *pairRunner[F, X, A, AX]) sign(sk *falcon.PrivateKey, msg []byte, rng *sha3.SHAKE, index, key int) (*Record, error) {
	t0 := time.Now()
	pb, o := r.instance("signature", index, key)
	sig, verify, err := signWith(r.scheme, r.mode, pb, sk, msg, rng)
	if err != nil {
		return nil, err
	}
	if err := verify(); err != nil {
		return nil, fmt.Errorf("signature %d over %s does not verify: %w", index, r.b.Name, err)
	}
	rec := o.finish()
	rec.Signature = sig
	rec.Seconds = time.Since(t0).Seconds()
	return rec, nil
}

func (r *pairRunner[F, X, A, AX]) attempt(sk *falcon.PrivateKey, hm []uint16, seed []byte, edge, index int) (*Record, error) {
	at, ok := r.scheme.(scheme.Attempter)
	if !ok {
		return nil, fmt.Errorf("shadow: scheme %s cannot sign a chosen hashed point", r.scheme.Name())
	}
	if r.mode != falcon.Dyn {
		return nil, fmt.Errorf("shadow: a chosen hashed point is signed on the dynamic path only, not %v", r.mode)
	}
	t0 := time.Now()
	pb, o := r.instance("signature", index, 0)
	if edge != Drawn {
		var err error
		if pb, err = falcon.WithEdgeSamples(pb, edge); err != nil {
			return nil, err
		}
	}
	if err := at.SignAttempt(pb, sk, hm, seed); err != nil {
		return nil, err
	}
	rec := o.finish()
	rec.Seconds = time.Since(t0).Seconds()
	return rec, nil
}

func (r *pairRunner[F, X, A, AX]) kat(logn uint, req falcon.KATRecord, shadowKeys bool, kbName string) (*Record, *Record, error) {
	t0 := time.Now()
	kb, err := arith.Lookup(kbName)
	if err != nil {
		return nil, nil, err
	}
	var ko *observer[F, X, A, AX]
	if shadowKeys {
		kb, ko = r.instance("keygen", req.Count, req.Count)
	}
	sb, so := r.instance("signature", req.Count, req.Count)
	if err := falcon.GenerateKAT(logn, &req, falcon.KATOptions{Keygen: kb, Sign: sb, Mode: r.mode}); err != nil {
		return nil, nil, scheme.MarkEngine(fmt.Errorf("KAT record %d: %w", req.Count, err))
	}
	var kg *Record
	if ko != nil {
		kg = ko.finish()
	}
	sig := so.finish()
	sig.Seconds = time.Since(t0).Seconds()
	return kg, sig, nil
}

// newRunner is the analysis layer's one dispatch from a backend chosen by
// name to the pair arithmetic over its value type, with the exact side
// cfg.Shadow.
func newRunner(b arith.Backend, cfg *Config) (runner, error) {
	r, err := newPairRunner(b, cfg)
	if err != nil {
		return nil, err
	}
	r.setScheme(cfg.SchemeOf(), cfg.Mode)
	return r, nil
}

// newPairRunner is newRunner before the scheme is set.
func newPairRunner(b arith.Backend, cfg *Config) (runner, error) {
	mk, err := runnersOf(b)
	if err != nil {
		return nil, err
	}
	switch cfg.Shadow {
	case ShadowOracle, "":
		ex, err := NewBigExact(cfg.OracleBits)
		if err != nil {
			return nil, err
		}
		// The oracle's own error after Falcon's computation stays some
		// 40 bits below its precision.
		return mk.oracle(b, ex, exactConsts(ex, cfg.Sigma, cfg.OracleBits), -float64(cfg.OracleBits-40)), nil
	case ShadowDD:
		// dd's own delta_c against the 256-bit oracle is at most 2^-93.7
		// (dd_test.go); 2^-90 relative leaves a margin.
		var ex ddouble.Arith
		return mk.dd(b, ex, exactConsts(ex, cfg.Sigma, 160), -90), nil
	}
	return nil, fmt.Errorf("shadow %q: want %q or %q", cfg.Shadow, ShadowOracle, ShadowDD)
}

// exactConsts returns the exact side's constants that differ from its own
// (SigmaFormula: 1/sigma and sigma_min from their definitions).
func exactConsts[X any, AX Exact[X]](ex AX, sigma ExactSigma, prec uint) map[arith.Constant]X {
	consts := map[arith.Constant]X{}
	if sigma == SigmaFormula {
		for logn := uint(1); logn <= arith.MaxLogN; logn++ {
			consts[arith.InvSigma(logn)] = ex.FromBig(InvSigmaFormula(logn, prec))
			consts[arith.SigmaMin(logn)] = ex.FromBig(SigmaMinFormula(logn, prec))
		}
	}
	return consts
}

// runnerMakers are the pair runners of one backend arithmetic, one per
// exact side (emu is the reference side of FirstDivergence).
type runnerMakers struct {
	oracle func(b arith.Backend, ex BigExact, consts map[arith.Constant]*big.Float, res float64) runner
	dd     func(b arith.Backend, ex ddouble.Arith, consts map[arith.Constant]ddouble.DD, res float64) runner
	emu    func(b arith.Backend, ex emuSide, consts map[arith.Constant]emu64.FPR, res float64) runner
	err    error // the backend cannot be shadowed (an FMA the pairs do not carry)
}

// runners holds the pair runners of the registered value types.
var runners arith.Instances[runnerMakers]

// RegisterValueType instantiates the shadow for backends whose Impl is an
// A with values F (A = arith.Arith[F] for every such backend, or a
// concrete arithmetic for a faster runner of exactly that type), under
// both exact sides. It is called by package valuetype, the one place that
// registers a value type with every consumer.
func RegisterValueType[F any, A arith.Arith[F]]() {
	arith.Add(&runners, func(a A) runnerMakers {
		mk := runnerMakers{
			oracle: runnerFor(a, instantiatePair[F, *big.Float, A, BigExact]),
			dd:     runnerFor(a, instantiateDD[F, A]),
			emu:    runnerFor(a, instantiatePair[F, emu64.FPR, A, emuSide]),
		}
		if _, fused := any(a).(arith.Fused[F]); fused && !pairsFused[F, A]() {
			mk.err = fmt.Errorf("the shadow pairs a backend with FMA only when its values are float64, registered as arith.Arith[float64]; this one has value type %T", *new(F))
		}
		return mk
	})
}

// runnersOf returns the pair runners of b's arithmetic.
func runnersOf(b arith.Backend) (runnerMakers, error) {
	mk, ok := runners.For(b.Impl)
	if !ok {
		return mk, fmt.Errorf("backend %q has value type %T, which the shadow is not instantiated for (register it with package valuetype)", b.Name, b.Impl)
	}
	if mk.err != nil {
		return mk, fmt.Errorf("backend %q: %w", b.Name, mk.err)
	}
	return mk, nil
}

// runnerFor returns the pair runner of arithmetic a with exact side AX,
// which instantiates Falcon over its pairs with inst.
func runnerFor[F, X any, A arith.Arith[F], AX Exact[X]](a A, inst instantiator[F, X, A, AX]) func(arith.Backend, AX, map[arith.Constant]X, float64) runner {
	return func(b arith.Backend, ex AX, consts map[arith.Constant]X, res float64) runner {
		return &pairRunner[F, X, A, AX]{b: b, a: a, ex: ex, consts: consts, res: res, inst: inst}
	}
}

// derive returns SHAKE256 of a domain label, the seed and an index: the
// random stream of one unit of a seeded campaign.
func derive(label, seed string, index int) *sha3.SHAKE {
	h := sha3.NewSHAKE256()
	h.Write([]byte("fprlab compare " + label + "\x00"))
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(seed)))
	h.Write(n[:])
	h.Write([]byte(seed))
	binary.BigEndian.PutUint64(n[:], uint64(index))
	h.Write(n[:])
	return h
}

// Message returns the message of signature j of a seeded campaign.
func Message(seed string, j int) []byte {
	m := make([]byte, 32)
	derive("message", seed, j).Read(m)
	return m
}

// KeygenBackend returns the backend that generates a campaign's keys:
// b itself when it can run NTRUSolve, else (and for precision plans) emu64 (triword's exponent range
// cannot hold NTRUSolve's values).
func KeygenBackend(b arith.Backend) string {
	if _, planned := b.Impl.(arith.Staged); planned {
		return "emu64" // a precision plan covers signing only
	}
	if falcon.KeygenSupported(b) == nil {
		return b.Name
	}
	return "emu64"
}

// Run runs the campaign cfg over backend b and returns every record (those
// from Have and the new ones), in index order, keygen records first.
// Records do not depend on cfg.Workers.
func Run(ctx context.Context, b arith.Backend, cfg Config) ([]*Record, error) {
	return runCampaign(ctx, b, cfg, true)
}

// Stream runs the campaign cfg over backend b as Run does, but keeps no
// record: each new one goes to cfg.Done only (which folds it into an
// Aggregate and a campaign directory), so memory does not grow with the
// campaign.
func Stream(ctx context.Context, b arith.Backend, cfg Config) error {
	_, err := runCampaign(ctx, b, cfg, false)
	return err
}

func runCampaign(ctx context.Context, b arith.Backend, cfg Config, keepRecords bool) ([]*Record, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	r, err := newRunner(b, &cfg)
	if err != nil {
		return nil, err
	}
	r.setAcceptance(cfg.Acceptance)
	kbName := cfg.KeygenBackendOf(b)
	shadowKeys := kbName == b.Name
	var mu sync.Mutex
	var out []*Record
	// keep collects a record for Run (under mu); a unit finished earlier
	// may have none (Have's nil record).
	keep := func(rec *Record) {
		if keepRecords && rec != nil {
			out = append(out, rec)
		}
	}
	done, total := 0, 0
	have := func(kind string, i int) (*Record, bool) {
		if cfg.Have == nil {
			return nil, false
		}
		return cfg.Have(kind, i)
	}
	finish := func(recs ...*Record) error {
		mu.Lock()
		defer mu.Unlock()
		for _, rec := range recs {
			if rec == nil {
				continue
			}
			keep(rec)
			if cfg.Done != nil {
				if err := cfg.Done(rec); err != nil {
					return err
				}
			}
		}
		done++
		if cfg.Progress != nil {
			cfg.Progress(done, total)
		}
		return nil
	}

	if cfg.KATMode() {
		reqs := falcon.KATRequests(cfg.KATTo)[cfg.KATFrom:]
		total = len(reqs)
		for i := range reqs {
			if !cfg.Owns(reqs[i].Count) {
				total--
			}
		}
		err := parallel(ctx, cfg.Workers, len(reqs), func(i int) error {
			req := reqs[i]
			if !cfg.Owns(req.Count) {
				return nil
			}
			if rec, ok := have("signature", req.Count); ok {
				kg, _ := have("keygen", req.Count)
				mu.Lock()
				keep(rec)
				keep(kg)
				done++
				mu.Unlock()
				return nil
			}
			end := arith.StartUnit(fmt.Sprintf("KAT signature %d", req.Count))
			kg, sig, err := r.kat(cfg.LogN, req, shadowKeys, kbName)
			end()
			if err != nil {
				return err
			}
			return finish(kg, sig)
		})
		return sortRecords(out), err
	}

	// Keys first: a key already measured is regenerated without the
	// shadow (the backend alone computes the same key). FN-DSA's keys
	// involve no floating point: nothing to shadow, no keygen record.
	keys := make([]*falcon.PrivateKey, cfg.Keys)
	kb := b
	if !shadowKeys && !cfg.ownKeys() {
		if kb, err = arith.Lookup(kbName); err != nil {
			return nil, err
		}
	}
	total = cfg.Keys
	for j := range cfg.Signatures {
		if cfg.Owns(j) {
			total++
		}
	}
	err = parallel(ctx, cfg.Workers, cfg.Keys, func(i int) error {
		defer arith.StartUnit(fmt.Sprintf("key %d", i))()
		rng := derive("key", cfg.Seed, i)
		if rec, ok := have("keygen", i); ok || !shadowKeys || !cfg.Owns(i) {
			var sk *falcon.PrivateKey
			var err error
			if cfg.ownKeys() {
				sk, err = cfg.ownKey(i)
			} else {
				sk, _, err = falcon.Keygen(kb, cfg.LogN, rng)
			}
			if err != nil {
				return fmt.Errorf("key %d: %w", i, err)
			}
			keys[i] = sk
			mu.Lock()
			if ok {
				keep(rec)
			}
			done++
			mu.Unlock()
			return nil
		}
		sk, rec, err := r.keygen(cfg.LogN, rng, i)
		if err != nil {
			return fmt.Errorf("key %d: %w", i, err)
		}
		keys[i] = sk
		return finish(rec)
	})
	if err != nil {
		return nil, err
	}
	err = parallel(ctx, cfg.Workers, cfg.Signatures, func(j int) error {
		if !cfg.Owns(j) {
			return nil
		}
		if rec, ok := have("signature", j); ok {
			mu.Lock()
			keep(rec)
			done++
			mu.Unlock()
			return nil
		}
		end := arith.StartUnit(fmt.Sprintf("signature %d", j))
		rec, err := r.sign(keys[j%cfg.Keys], Message(cfg.Seed, j), derive("signature", cfg.Seed, j), j, j%cfg.Keys)
		end()
		if err != nil {
			return err
		}
		return finish(rec)
	})
	return sortRecords(out), err
}

// parallel runs f(0..n-1) on workers goroutines, stopping at the first
// error or when ctx is done (work under way finishes first).
func parallel(ctx context.Context, workers, n int, f func(i int) error) error {
	var (
		mu   sync.Mutex
		next int
		ferr error
		wg   sync.WaitGroup
	)
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if ferr != nil || next >= n {
					mu.Unlock()
					return
				}
				if err := ctx.Err(); err != nil {
					ferr = err
					mu.Unlock()
					return
				}
				i := next
				next++
				mu.Unlock()
				if err := f(i); err != nil {
					mu.Lock()
					if ferr == nil {
						ferr = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	if ferr != nil && errors.Is(ferr, context.Canceled) {
		return fmt.Errorf("interrupted: %w", ferr)
	}
	return ferr
}

// Signer shadows single signatures as a campaign of its configuration
// signs them (message and randomness of signature j derived from the
// seed), with a key the caller brings: for programs that time or drive
// signatures without the campaign's key generation (the plugin
// benchmark of package cabi).
type Signer struct {
	r   runner
	cfg Config
}

// NewSigner returns a Signer over b with cfg's shadow, sigma and scheme.
func NewSigner(b arith.Backend, cfg Config) (*Signer, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	r, err := newRunner(b, &cfg)
	if err != nil {
		return nil, err
	}
	r.setAcceptance(cfg.Acceptance)
	return &Signer{r: r, cfg: cfg}, nil
}

// Sign shadows signature j of the campaign with sk, checks that it
// verifies and returns its record.
func (s *Signer) Sign(sk *falcon.PrivateKey, j int) (*Record, error) {
	return s.r.sign(sk, Message(s.cfg.Seed, j), derive("signature", s.cfg.Seed, j), j, 0)
}

// Drawn, as Signer.Attempt's edge, lets the sampler draw its outputs as
// signing does.
const Drawn = -1

// Attempt shadows one signing attempt of the hashed point hm (n values
// in [0, q)) with sk, its sampler seeded with seed (the scheme's
// scheme.Attempter), and returns its record. The attempt's signature is
// not kept or verified: the record is what the attempt's floating-point
// signing computed against the exact side, whether or not the scheme
// would have kept it. hm need not come from the scheme's hash: this is
// how the analysis signs hashed points of its own choosing. With edge
// other than Drawn, every sampler output is fixed at deviation edge from
// its centre, the base sampler's value z0 = edge in 0 to
// falcon.MaxBaseSample (falcon.WithEdgeSamples): the largest distances
// between centres and samples the sampler's support allows, which no
// drawn attempt meets.
func (s *Signer) Attempt(sk *falcon.PrivateKey, hm []uint16, seed []byte, edge int) (*Record, error) {
	if len(hm) != 1<<sk.LogN {
		return nil, fmt.Errorf("shadow: hashed point of %d values for a key of degree %d", len(hm), 1<<sk.LogN)
	}
	for i, v := range hm {
		if v >= falcon.Q {
			return nil, fmt.Errorf("shadow: hashed point value %d at %d is not below q = %d", v, i, falcon.Q)
		}
	}
	return s.r.attempt(sk, hm, seed, edge, 0)
}

// SignMessage shadows the signature of msg with sk from the randomness rng
// (a caller's own derivation), checks that it verifies and returns its
// record, which holds the signature (Record.Signature).
func (s *Signer) SignMessage(sk *falcon.PrivateKey, msg []byte, rng *sha3.SHAKE) (*Record, error) {
	return s.r.sign(sk, msg, rng, 0, 0)
}
