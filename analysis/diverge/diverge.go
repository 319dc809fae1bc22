// Package diverge signs the same (key, message, nonce, sampler seed) with
// two arithmetics and measures how often they sign differently, where the
// two runs part, and whether the difference of their s2 hands over the
// secret key (Lin, Tibouchi, Yu, Zhang, "Do Not Disturb a Sleeping Falcon",
// Eurocrypt 2025): two devices sharing a seed, a deterministic signer, or
// a signer replaying randomness after a fault all sign such pairs.
package diverge

import (
	"context"
	"crypto/sha3"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// Side is one of the two signers: an arithmetic and a signing procedure.
type Side struct {
	Backend arith.Backend
	Mode    falcon.Mode
}

// Name is the side as ParseSide reads it: the backend's name, with ":tree"
// for tree mode.
func (s Side) Name() string {
	if s.Mode == falcon.Tree {
		return s.Backend.Name + ":tree"
	}
	return s.Backend.Name
}

// ParseSide reads "BACKEND" or "BACKEND:tree" (or ":dyn", the default),
// looking the backend up with lookup.
func ParseSide(name string, lookup func(string) (arith.Backend, error)) (Side, error) {
	mode := falcon.Dyn
	for _, m := range []falcon.Mode{falcon.Dyn, falcon.Tree} {
		if base, ok := strings.CutSuffix(name, ":"+m.String()); ok && base != "" {
			name, mode = base, m
			break
		}
	}
	b, err := lookup(name)
	if err != nil {
		return Side{}, err
	}
	return Side{Backend: b, Mode: mode}, nil
}

// Config is a divergence campaign: Signatures signatures over Keys keys,
// all derived from Seed, each signed by A and by B.
type Config struct {
	LogN       uint
	Signatures int
	Keys       int
	Seed       string
	Workers    int // 0: runtime.NumCPU()
	A, B       Side
	// KeyBackend makes the keys (binary64, native, in the command), so that
	// both sides sign with the same key whatever their arithmetic.
	KeyBackend arith.Backend
	// Shadow, when set, is the exact side that judges each differing pair:
	// which side signed as exact arithmetic would (judge.go).
	Shadow shadow.Kind
	// Scheme is the scheme both sides sign (nil: Falcon round 3, in
	// falcon.h's padded format by each side's procedure). Another scheme
	// signs through its Sign, makes its keys with its own key generation
	// when it has one (KeyBackend's otherwise), and must read its
	// signatures back (scheme.SignatureReader).
	Scheme scheme.Scheme
}

// round3 reports whether the campaign signs Falcon round 3 (falcon.h's
// padded format, each side's procedure).
func (c Config) round3() bool { return scheme.IsDefault(c.Scheme) }

// Pair is a differing pair: everything needed to check it again (and to
// hand it to Recover) and what it shows.
type Pair struct {
	Index     int        `json:"index"`
	Key       int        `json:"key"`
	PublicKey string     `json:"public_key"` // hex
	Message   string     `json:"message"`    // hex
	SigA      string     `json:"sig_a"`      // hex, padded format
	SigB      string     `json:"sig_b"`      // hex
	Parting   Parting    `json:"first_decision"`
	Diff      Difference `json:"difference"`
	// Exact is the shadow's verdict (absent without Config.Shadow).
	Exact *Judgement `json:"exact,omitempty"`
}

// Result is a campaign's outcome.
type Result struct {
	Backend      string     `json:"backend"`
	Against      string     `json:"against"`
	N            int        `json:"n"`
	Seed         string     `json:"seed"`
	Keys         int        `json:"keys"`
	Compared     int        `json:"compared"`
	Differing    int        `json:"differing"`
	Rate         float64    `json:"rate"`
	RateCI95     [2]float64 `json:"rate_ci95"`
	CIMethod     string     `json:"ci_method"`
	KeyRevealing int        `json:"key_revealing"`
	// Right counts the differing pairs by the shadow's verdict (A, B,
	// neither, undecided; absent without Config.Shadow).
	Right map[string]int `json:"right,omitempty"`
	// Ties counts the verdicts reached at a tie (Judgement.Tie).
	Ties  int    `json:"ties,omitempty"`
	Pairs []Pair `json:"pairs"`
	// Scheme is the scheme signed, absent for Falcon round 3 (results
	// written before there was a choice).
	Scheme string `json:"scheme,omitempty"`
	// Shard is "I/N" for one shard of a campaign split over N processes
	// (absent for a whole campaign and a merged one).
	Shard string `json:"shard,omitempty"`
}

// MaxSignatures bounds a campaign's signatures: 2^31 - 1, weeks of a
// large cluster's time, far beyond any campaign yet run.
const MaxSignatures = 1<<31 - 1

// Check reports what is wrong with c.
func (c Config) Check() error {
	if _, err := falcon.ParamsFor(c.LogN); err != nil {
		return err
	}
	if c.Signatures <= 0 || c.Signatures > MaxSignatures {
		return fmt.Errorf("diverge: %d signatures: want 1 to %d", c.Signatures, MaxSignatures)
	}
	if c.A.Name() == c.B.Name() {
		return fmt.Errorf("diverge: both sides are %s, which signs every input the same way: compare two arithmetics (or procedures: %s against %s:tree)", c.A.Name(), c.A.Backend.Name, c.A.Backend.Name)
	}
	if c.Keys <= 0 || c.Keys > c.Signatures {
		return fmt.Errorf("diverge: %d keys for %d signatures: want 1 to the number of signatures", c.Keys, c.Signatures)
	}
	if c.Workers < 0 {
		return errors.New("diverge: negative workers")
	}
	switch c.Shadow {
	case "", shadow.ShadowDD, shadow.ShadowOracle:
	default:
		return fmt.Errorf("diverge: shadow %q: want %s, %s or none", c.Shadow, shadow.ShadowDD, shadow.ShadowOracle)
	}
	if c.round3() {
		return nil
	}
	if err := c.Scheme.CheckLogN(c.LogN); err != nil {
		return fmt.Errorf("diverge: %w", err)
	}
	if _, err := scheme.ReaderOf(c.Scheme); err != nil {
		return fmt.Errorf("diverge: %w", err)
	}
	for _, s := range []Side{c.A, c.B} {
		if s.Mode != falcon.Dyn {
			return fmt.Errorf("diverge: side %s: scheme %s signs by one procedure; :tree is falcon.h's falcon_sign_tree, a round-3 procedure", s.Name(), c.Scheme.Name())
		}
	}
	return nil
}

// stream is SHAKE256(label || 0x00 || BE64(len(seed)) || seed || BE64(i)):
// the keys, messages and signing randomness of a campaign.
func stream(label, seed string, i int) io.Reader {
	h := sha3.NewSHAKE256()
	h.Write([]byte(label))
	h.Write([]byte{0})
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(len(seed)))
	h.Write(b[:])
	h.Write([]byte(seed))
	binary.BigEndian.PutUint64(b[:], uint64(i))
	h.Write(b[:])
	return h
}

// Campaign is a Config with its keys made: the state its ranges of
// signatures share.
type Campaign struct {
	c       Config
	l2Bound uint32
	sks     []*falcon.PrivateKey
	pks     [][]byte
}

// Prepare checks c and makes its keys.
func Prepare(c Config) (*Campaign, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	p, _ := falcon.ParamsFor(c.LogN)
	cp := &Campaign{c: c, l2Bound: p.L2Bound, sks: make([]*falcon.PrivateKey, c.Keys), pks: make([][]byte, c.Keys)}
	for k := range cp.sks {
		sk, pk, err := c.key(k)
		if err != nil {
			return nil, fmt.Errorf("diverge: key %d: %w", k, err)
		}
		cp.sks[k], cp.pks[k] = sk, pk
	}
	return cp, nil
}

// key makes key k of the campaign and encodes its public key: round 3's
// over KeyBackend from the key stream, another scheme's by its own key
// generation from the stream's first KeySeedSize bytes when it has one.
func (c Config) key(k int) (*falcon.PrivateKey, []byte, error) {
	rng := stream("fprlab diverge key", c.Seed, k)
	if c.round3() {
		sk, pk, err := falcon.Keygen(c.KeyBackend, c.LogN, rng)
		if err != nil {
			return nil, nil, err
		}
		return sk, pk.Encode(), nil
	}
	var sk *falcon.PrivateKey
	var err error
	if n := c.Scheme.KeySeedSize(); n > 0 {
		seed := make([]byte, n)
		io.ReadFull(rng, seed)
		sk, err = c.Scheme.KeyGen(c.LogN, seed)
	} else {
		sk, _, err = falcon.Keygen(c.KeyBackend, c.LogN, rng)
	}
	if err != nil {
		return nil, nil, err
	}
	pkb, _, err := c.Scheme.EncodeKeys(sk)
	return sk, pkb, err
}

// Run runs the whole campaign. progress (may be nil) is called with the
// number of signatures done.
func Run(ctx context.Context, c Config, progress func(done int)) (*Result, error) {
	cp, err := Prepare(c)
	if err != nil {
		return nil, err
	}
	return cp.Range(ctx, 0, c.Signatures, progress)
}

// ShardRange returns the signatures [from, to) of shard i of n: the
// campaign's total cut into n contiguous ranges in order, the shards
// MergeDirs unites (n <= 1: the whole campaign).
func ShardRange(total, i, n int) (from, to int) {
	if n <= 1 {
		return 0, total
	}
	return total * i / n, total * (i + 1) / n
}

// Range signs the campaign's signatures from (included) to to (excluded):
// the result counts those alone. A campaign run as ranges, their results
// combined by Merge, gives the result of the campaign run whole (signature
// i depends on the seed and i only).
func (cp *Campaign) Range(ctx context.Context, from, to int, progress func(done int)) (*Result, error) {
	c := cp.c
	if from < 0 || to > c.Signatures || from > to {
		return nil, fmt.Errorf("diverge: range %d to %d outside the campaign's %d signatures", from, to, c.Signatures)
	}
	workers := c.Workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	res := cp.empty()
	res.Compared = to - from
	var (
		mu    sync.Mutex
		first error
		done  int
		wg    sync.WaitGroup
	)
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				pair, err := c.one(i, cp.sks[i%c.Keys], cp.pks[i%c.Keys], cp.l2Bound)
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				if pair != nil {
					res.Pairs = append(res.Pairs, *pair)
				}
				done++
				if progress != nil {
					progress(done)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := from; i < to; i++ {
		mu.Lock()
		stop := first != nil
		mu.Unlock()
		if stop {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first != nil {
		return nil, first
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.total()
	return res, nil
}

// empty is a result of no signature yet, naming the campaign.
func (cp *Campaign) empty() *Result {
	r := &Result{Backend: cp.c.A.Name(), Against: cp.c.B.Name(), N: 1 << cp.c.LogN, Seed: cp.c.Seed, Keys: cp.c.Keys, CIMethod: "wilson", Pairs: []Pair{}}
	if !cp.c.round3() {
		r.Scheme = cp.c.Scheme.Name()
	}
	return r
}

// total sorts the pairs and computes the counts and the rate from them and
// Compared.
func (r *Result) total() {
	sortPairs(r.Pairs)
	r.Differing = len(r.Pairs)
	r.KeyRevealing = 0
	r.Right, r.Ties = nil, 0
	for _, pr := range r.Pairs {
		if pr.Diff.KeyRevealing() {
			r.KeyRevealing++
		}
		if pr.Exact != nil {
			if r.Right == nil {
				r.Right = map[string]int{}
			}
			r.Right[pr.Exact.Right]++
			if pr.Exact.Tie {
				r.Ties++
			}
		}
	}
	r.Rate = 0
	if r.Compared > 0 {
		r.Rate = float64(r.Differing) / float64(r.Compared)
	}
	r.RateCI95 = Wilson(r.Differing, r.Compared)
}

// Merge combines the results of disjoint ranges of one campaign (the
// chunks of a resumed run, the shards of a split one) into one. The
// results must name the same signers, degree, seed and keys; a signature
// index found in two of them is an error (a range counted twice).
func Merge(rs ...*Result) (*Result, error) {
	if len(rs) == 0 {
		return nil, errors.New("diverge: nothing to merge")
	}
	out := *rs[0]
	out.Pairs = slices.Clone(rs[0].Pairs)
	out.Shard = ""
	for _, r := range rs[1:] {
		if r.Backend != out.Backend || r.Against != out.Against || r.N != out.N || r.Seed != out.Seed || r.Keys != out.Keys || r.Scheme != out.Scheme {
			return nil, fmt.Errorf("diverge: cannot merge %s vs %s (%s, n = %d, seed %q, %d keys) with %s vs %s (%s, n = %d, seed %q, %d keys)",
				out.Backend, out.Against, schemeName(out.Scheme), out.N, out.Seed, out.Keys, r.Backend, r.Against, schemeName(r.Scheme), r.N, r.Seed, r.Keys)
		}
		out.Compared += r.Compared
		out.Pairs = append(out.Pairs, r.Pairs...)
	}
	sortPairs(out.Pairs)
	for i := 1; i < len(out.Pairs); i++ {
		if out.Pairs[i].Index == out.Pairs[i-1].Index {
			return nil, fmt.Errorf("diverge: signature %d is in two of the results merged", out.Pairs[i].Index)
		}
	}
	out.total()
	return &out, nil
}

// schemeName is a result's scheme as Lookup names it ("" is round 3's).
func schemeName(name string) string {
	if name == "" {
		return scheme.Default
	}
	return name
}

// message is the campaign's message i.
func message(seed string, i int) []byte {
	m := make([]byte, 32)
	io.ReadFull(stream("fprlab diverge message", seed, i), m)
	return m
}

// sign signs message i with side s, traced into t when t is not nil.
func (c Config) sign(s Side, sk *falcon.PrivateKey, i int, t *trace) ([]byte, error) {
	b := s.Backend
	if t != nil {
		var err error
		if b, err = traced(b, t); err != nil {
			return nil, err
		}
	}
	var sig []byte
	var err error
	if c.round3() {
		sig, err = falcon.SignMode(b, sk, message(c.Seed, i), falcon.Padded, stream("fprlab diverge sign", c.Seed, i), s.Mode)
	} else {
		sig, err = c.Scheme.Sign(b, sk, message(c.Seed, i), stream("fprlab diverge sign", c.Seed, i))
	}
	if err != nil {
		return nil, fmt.Errorf("diverge: signature %d on %s: %w", i, s.Name(), err)
	}
	return sig, nil
}

// one signs message i with both sides; when they differ it signs again
// under the recorders (the same computation, observed) to find where they
// part.
func (c Config) one(i int, sk *falcon.PrivateKey, pk []byte, l2Bound uint32) (*Pair, error) {
	sa, err := c.sign(c.A, sk, i, nil)
	if err != nil {
		return nil, err
	}
	sb, err := c.sign(c.B, sk, i, nil)
	if err != nil {
		return nil, err
	}
	if string(sa) == string(sb) {
		return nil, nil
	}
	var ta, tb trace
	ra, err := c.sign(c.A, sk, i, &ta)
	if err != nil {
		return nil, err
	}
	rb, err := c.sign(c.B, sk, i, &tb)
	if err != nil {
		return nil, err
	}
	if string(ra) != string(sa) || string(rb) != string(sb) {
		return nil, fmt.Errorf("diverge: signature %d: the observed run signed differently from the plain one (the backend's instantiated code differs from its fast copy)", i)
	}
	s2a, err := c.s2(sa)
	if err != nil {
		return nil, fmt.Errorf("diverge: signature %d on %s: %w", i, c.A.Name(), err)
	}
	s2b, err := c.s2(sb)
	if err != nil {
		return nil, fmt.Errorf("diverge: signature %d on %s: %w", i, c.B.Name(), err)
	}
	pair := &Pair{
		Index: i, Key: i % c.Keys, PublicKey: hex.EncodeToString(pk),
		Message: hex.EncodeToString(message(c.Seed, i)),
		SigA:    hex.EncodeToString(sa), SigB: hex.EncodeToString(sb),
		Parting: part(&ta, &tb, l2Bound),
		Diff:    Structure(sk, s2a, s2b),
	}
	if c.Shadow != "" {
		if pair.Exact, err = c.judge(sk, i, sa, sb); err != nil {
			return nil, err
		}
	}
	return pair, nil
}

// s2 reads s2 from a signature of the campaign.
func (c Config) s2(sig []byte) ([]int16, error) {
	if c.round3() {
		_, s2, err := scheme.ReadFalconSignature(c.LogN, sig)
		return s2, err
	}
	_, s2, err := c.Scheme.(scheme.SignatureReader).ReadSignature(c.LogN, sig)
	return s2, err
}

func sortPairs(ps []Pair) {
	slices.SortFunc(ps, func(a, b Pair) int { return a.Index - b.Index })
}

// Wilson is the Wilson score interval at 95 % for k successes in n trials:
// unlike the normal approximation it stays inside [0, 1] and is not empty
// at k = 0, where a campaign of identical arithmetics lands.
func Wilson(k, n int) [2]float64 {
	if n == 0 {
		return [2]float64{0, 1}
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nn := float64(n)
	den := 1 + z*z/nn
	centre := (p + z*z/(2*nn)) / den
	half := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / den
	return [2]float64{math.Max(0, centre-half), math.Min(1, centre+half)}
}
