package diverge

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"crypto/sha3"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// Which side was right.
//
// Two runs from the same randomness take the same decisions until the
// first one their arithmetics round differently, and then part. Exact
// arithmetic takes one way at that decision, so at most one of the two
// sides decided as it would. The shadow (analysis/shadow) says which:
// each side signs the pair's input again beside an exact side, which
// notes every decision (floor of a centre, Bernoulli trial, final
// rounding) that the side's arithmetic takes otherwise than the exact
// value would -- a flip. A side without flips signed exactly what exact
// arithmetic signs; since both sides' signatures differ, the other side
// must have flipped.
//
// Ties. A decision whose exact margin lies below the exact side's
// resolution is noted as unresolved, not as a flip: the shadow cannot say
// on which side of the boundary the exact value lies. Pairs of arithmetics
// that agree to a few ulps part mostly at such decisions, because a
// sampler centre that is exactly an integer is floored either way by any
// rounding error, half the time each way, while a centre a random
// distance from an integer almost never is. An undecided pair is
// therefore signed again beside the big-float oracle at TieBits bits. If
// the parting decision is still unresolved there -- a floor whose exact
// centre lies within 2^-(TieBits-40) of an integer m -- the centre is
// taken to be m, whose floor is m: the side that floored to m is right and
// the verdict says it was decided at a tie.

// Right values of a Judgement.
const (
	RightA         = "A"         // A signed as exact arithmetic; B flipped
	RightB         = "B"         // B signed as exact arithmetic; A flipped
	RightNeither   = "neither"   // both sides flipped
	RightUndecided = "undecided" // a decision lies below the exact side's resolution
)

// TieBits is the oracle precision that settles ties (see above).
const TieBits = 1024

// Judgement is the shadow's verdict on a differing pair.
type Judgement struct {
	Shadow string `json:"shadow"` // the exact side: dd or oracle
	Right  string `json:"right"`
	// Tie is set when the verdict was reached at a floor whose exact
	// centre is an integer to within 2^-(TieBits-40), by the TieBits-bit
	// oracle (the counts below are then that oracle's).
	Tie bool `json:"tie,omitempty"`
	// FlipsA and FlipsB count each side's decisions that exact arithmetic
	// takes the other way; UnresolvedA and UnresolvedB those the exact
	// side could not decide.
	FlipsA      int64 `json:"flips_a"`
	FlipsB      int64 `json:"flips_b"`
	UnresolvedA int64 `json:"unresolved_a,omitempty"`
	UnresolvedB int64 `json:"unresolved_b,omitempty"`
	// FirstA and FirstB say where each side first flipped, e.g. "floor at
	// sign attempt 1, sampler call 844 (z = 3), floor #0" ("" for none).
	FirstA string `json:"first_flip_a,omitempty"`
	FirstB string `json:"first_flip_b,omitempty"`
	// Note says why a pair is undecided when it is not for want of
	// resolution.
	Note string `json:"note,omitempty"`
}

// sideFlips is one side's shadowed signature, reduced to its flips.
type sideFlips struct {
	flips, unresolved int64
	first             *shadow.FlipDetail
	// replayed is whether the shadowed run signed exactly the side's own
	// signature: its flips say nothing about that signature otherwise.
	replayed bool
}

func (s sideFlips) clean() bool { return s.flips == 0 && s.unresolved == 0 }

func (s sideFlips) where() string {
	if s.first == nil {
		return ""
	}
	return s.first.Kind + " at " + s.first.Where
}

// paddedSide is round-3 Falcon signing as diverge's sides sign: padded
// format, the side's procedure. It hides the Formatter capability, so the
// shadow signs through Sign.
type paddedSide struct {
	scheme.Scheme
	f    scheme.Formatter
	mode falcon.Mode
}

func (p paddedSide) Sign(b arith.Backend, sk *falcon.PrivateKey, msg []byte, rng io.Reader) ([]byte, error) {
	return p.f.SignFormat(b, sk, msg, falcon.Padded, p.mode, rng)
}

// shadowed signs message i with side s beside the exact side kind
// (the oracle at bits bits) and returns its flips.
func (c Config) shadowed(s Side, kind shadow.Kind, bits uint, sk *falcon.PrivateKey, i int, own []byte) (sideFlips, error) {
	var out sideFlips
	signer := c.Scheme
	if c.round3() {
		round3, err := scheme.Lookup(scheme.Default)
		if err != nil {
			return out, err
		}
		f, ok := round3.(scheme.Formatter)
		if !ok {
			return out, errors.New("diverge: round-3 Falcon has no signature formats")
		}
		signer = paddedSide{Scheme: round3, f: f, mode: s.Mode}
	}
	cfg := shadow.Config{
		LogN: c.LogN, Signatures: 1, Keys: 1, Seed: c.Seed,
		Shadow: kind, OracleBits: bits,
		// The reference's binary64 1/sigma taken as exact: the verdict is
		// about the arithmetic, not the parameter's representation.
		Sigma:  shadow.SigmaReference,
		Scheme: signer,
	}
	sg, err := shadow.NewSigner(s.Backend, cfg)
	if err != nil {
		return out, err
	}
	rng, _ := stream("fprlab diverge sign", c.Seed, i).(*sha3.SHAKE)
	rec, err := sg.SignMessage(sk, message(c.Seed, i), rng)
	if err != nil {
		return out, fmt.Errorf("diverge: signature %d on %s beside the %s shadow: %w", i, s.Name(), kind, err)
	}
	for _, n := range rec.Flips {
		out.flips += n
	}
	for _, n := range rec.Unresolved {
		out.unresolved += n
	}
	if len(rec.FlipDetail) > 0 {
		out.first = &rec.FlipDetail[0]
	}
	out.replayed = bytes.Equal(rec.Signature, own)
	return out, nil
}

// judgeWith is the verdict of the exact side kind (at bits bits).
func (c Config) judgeWith(kind shadow.Kind, bits uint, sk *falcon.PrivateKey, i int, sa, sb []byte) (*Judgement, sideFlips, sideFlips, error) {
	a, err := c.shadowed(c.A, kind, bits, sk, i, sa)
	if err != nil {
		return nil, a, a, err
	}
	b, err := c.shadowed(c.B, kind, bits, sk, i, sb)
	if err != nil {
		return nil, a, b, err
	}
	j := &Judgement{Shadow: string(c.Shadow), FlipsA: a.flips, FlipsB: b.flips, UnresolvedA: a.unresolved, UnresolvedB: b.unresolved,
		FirstA: a.where(), FirstB: b.where()}
	switch {
	case !a.replayed || !b.replayed:
		j.Right = RightUndecided
		j.Note = "beside the exact side, side " + map[bool]string{true: "B", false: "A"}[a.replayed] +
			" signs otherwise than on its own: its arithmetic computes differently when shadowed, so its flips say nothing about its signature"
	case a.clean() && b.flips > 0:
		j.Right = RightA
	case b.clean() && a.flips > 0:
		j.Right = RightB
	case a.flips > 0 && b.flips > 0:
		j.Right = RightNeither
	default:
		j.Right = RightUndecided
	}
	return j, a, b, nil
}

// judge is the shadow's verdict on differing pair i.
func (c Config) judge(sk *falcon.PrivateKey, i int, sa, sb []byte) (*Judgement, error) {
	j, a, b, err := c.judgeWith(c.Shadow, 256, sk, i, sa, sb)
	if err != nil || j.Right != RightUndecided || j.Note != "" || a.unresolved+b.unresolved == 0 {
		return j, err
	}
	jt, a, b, err := c.judgeWith(shadow.ShadowOracle, TieBits, sk, i, sa, sb)
	if err != nil {
		return nil, err
	}
	if jt.Right != RightUndecided || jt.Note != "" {
		return jt, nil
	}
	if right, ok := tie(a, b); ok {
		jt.Right, jt.Tie = right, true
	}
	return jt, nil
}

// tie decides a pair whose one side s has a single unresolved floor and
// no flip while the other side t is clean: t took the oracle's floor x at
// that decision, s took another, and the exact centre is the integer m =
// max of the two (within the oracle's resolution of m, the floors are m
// and m-1). The side that floored to m is right.
func tie(a, b sideFlips) (string, bool) {
	one := func(s, t sideFlips) bool {
		return s.flips == 0 && s.unresolved == 1 && s.first != nil && strings.HasPrefix(s.first.Kind, "floor ") &&
			(s.first.B-s.first.X == 1 || s.first.X-s.first.B == 1) && t.clean()
	}
	switch {
	case one(a, b):
		if a.first.B > a.first.X {
			return RightA, true
		}
		return RightB, true
	case one(b, a):
		if b.first.B > b.first.X {
			return RightB, true
		}
		return RightA, true
	}
	return RightUndecided, false
}
