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

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
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
}

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
	Pairs        []Pair     `json:"pairs"`
}

// Check reports what is wrong with c.
func (c Config) Check() error {
	if _, err := falcon.ParamsFor(c.LogN); err != nil {
		return err
	}
	if c.Signatures <= 0 {
		return errors.New("diverge: want at least one signature")
	}
	if c.Keys <= 0 || c.Keys > c.Signatures {
		return fmt.Errorf("diverge: %d keys for %d signatures: want 1 to the number of signatures", c.Keys, c.Signatures)
	}
	if c.Workers < 0 {
		return errors.New("diverge: negative workers")
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

// Run runs the campaign. progress (may be nil) is called with the number
// of signatures done.
func Run(ctx context.Context, c Config, progress func(done int)) (*Result, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	p, _ := falcon.ParamsFor(c.LogN)
	sks := make([]*falcon.PrivateKey, c.Keys)
	pks := make([][]byte, c.Keys)
	for k := range sks {
		sk, pk, err := falcon.Keygen(c.KeyBackend, c.LogN, stream("fprlab diverge key", c.Seed, k))
		if err != nil {
			return nil, fmt.Errorf("diverge: key %d: %w", k, err)
		}
		sks[k], pks[k] = sk, pk.Encode()
	}
	workers := c.Workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	res := &Result{Backend: c.A.Name(), Against: c.B.Name(), N: p.N, Seed: c.Seed, Keys: c.Keys, Compared: c.Signatures, CIMethod: "wilson"}
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
				pair, err := c.one(i, sks[i%c.Keys], pks[i%c.Keys], p.L2Bound)
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
	for i := range c.Signatures {
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
	sortPairs(res.Pairs)
	res.Differing = len(res.Pairs)
	for _, pr := range res.Pairs {
		if pr.Diff.KeyRevealing() {
			res.KeyRevealing++
		}
	}
	res.Rate = float64(res.Differing) / float64(res.Compared)
	res.RateCI95 = Wilson(res.Differing, res.Compared)
	return res, nil
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
	sig, err := falcon.SignMode(b, sk, message(c.Seed, i), falcon.Padded, stream("fprlab diverge sign", c.Seed, i), s.Mode)
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
	da, err := falcon.DecodeSignature(sa)
	if err != nil {
		return nil, err
	}
	db, err := falcon.DecodeSignature(sb)
	if err != nil {
		return nil, err
	}
	return &Pair{
		Index: i, Key: i % c.Keys, PublicKey: hex.EncodeToString(pk),
		Message: hex.EncodeToString(message(c.Seed, i)),
		SigA:    hex.EncodeToString(sa), SigB: hex.EncodeToString(sb),
		Parting: part(&ta, &tb, l2Bound),
		Diff:    Structure(sk, da.S2, db.S2),
	}, nil
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
