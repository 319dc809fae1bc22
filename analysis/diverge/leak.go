package diverge

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"crypto/sha3"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// Key recovery from two signatures of one message under one nonce: the
// attack of Lin, Tibouchi, Yu and Zhang ("Do Not Disturb a Sleeping
// Falcon", Eurocrypt 2025). Two signers that draw the same randomness but
// round differently somewhere produce s2 vectors whose difference is, in a
// sizeable share of cases, c x^k f for a small integer c: the secret key up
// to a rotation. Since h = g/f mod q, x^k f is completed by g' = h x^k f =
// x^k g, also short, and (x^k f, x^k g) is an NTRU pair for the same h that
// NTRUSolve completes into a private key signing under the same public key:
// the rotation k does not matter and cannot be seen from the pair, and c is
// the gcd of d's coefficients up to sign.

// Recovery is what Recover learned from a pair of signatures.
type Recovery struct {
	// Key is the recovered private key (nil when none was found). It is
	// x^k (f, g, F', G') for an unknown rotation k: a different private
	// key of the same public key, which signs just as well.
	Key *falcon.PrivateKey
	// C is the multiple d = s2_A - s2_B = C x^k f.
	C int
	// Reveals says, when no key was recovered, what the pair shows.
	Reveals string
}

// ErrNotAPair is wrapped by Recover's errors about inputs that are not two
// signatures of one message under one nonce and one public key.
var ErrNotAPair = errors.New("not two signatures of one message with one nonce")

// Recover tries to recover the private key of pk from two signatures sigA
// and sigB of msg under scheme sc that share their nonce; b runs NTRUSolve
// and the proof signature (native is the reference's binary64). Recover
// returns an error for inputs that are not such a pair; otherwise a
// Recovery, whose Key is nil when the pair does not reveal the key.
func Recover(b arith.Backend, sc scheme.SignatureReader, pk *falcon.PublicKey, msg, sigA, sigB []byte) (*Recovery, error) {
	if err := pk.Check(); err != nil {
		return nil, fmt.Errorf("public key: %w", err)
	}
	nonceA, s2A, err := readSignature(sc, pk.LogN, "first", sigA)
	if err != nil {
		return nil, err
	}
	nonceB, s2B, err := readSignature(sc, pk.LogN, "second", sigB)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(nonceA, nonceB) {
		return nil, fmt.Errorf("%w: the two signatures have different nonces (%x... and %x...), so they sign different points and reveal nothing together", ErrNotAPair, nonceA[:8], nonceB[:8])
	}
	for i, sig := range [][]byte{sigA, sigB} {
		if err := sc.Verify(pk, msg, sig); err != nil {
			return nil, fmt.Errorf("%w: signature %d does not verify for this message under this public key (%v)", ErrNotAPair, i+1, err)
		}
	}
	n := len(s2A)
	d := make([]int, n)
	c := 0
	for i := range d {
		d[i] = int(s2A[i]) - int(s2B[i])
		c = gcd(c, d[i])
	}
	if c == 0 {
		return &Recovery{Reveals: "nothing: the two signatures have the same s2"}, nil
	}
	f := make([]int8, n)
	for i := range d {
		v := d[i] / c
		if v < -127 || v > 127 {
			return &Recovery{C: c, Reveals: fmt.Sprintf("no key: s2_A - s2_B divided by its content %d has a coefficient %d, not a short polynomial (norm of the difference %.1f)", c, v, norm(d))}, nil
		}
		f[i] = int8(v)
	}
	g, ok := mulModQ(pk.H, f)
	if !ok {
		return &Recovery{C: c, Reveals: fmt.Sprintf("no key: s2_A - s2_B = %d u with u short, but h u mod q is not short, so u is not a rotation of f (norm of the difference %.1f)", c, norm(d))}, nil
	}
	sk, err := falcon.SolveNTRU(b, pk.LogN, f, g)
	if err != nil {
		return &Recovery{C: c, Reveals: fmt.Sprintf("a short pair (u, h u) with s2_A - s2_B = %d u, but NTRUSolve does not complete it: %v", c, err)}, nil
	}
	if err := Prove(b, sc, sk, pk); err != nil {
		return &Recovery{C: c, Reveals: fmt.Sprintf("a candidate key from s2_A - s2_B = %d u, which does not sign: %v", c, err)}, nil
	}
	return &Recovery{Key: sk, C: c}, nil
}

// readSignature reads the nonce and s2 of the pair's which signature; one
// of another degree than the key's is not of the pair.
func readSignature(sc scheme.SignatureReader, logn uint, which string, sig []byte) ([]byte, []int16, error) {
	nonce, s2, err := sc.ReadSignature(logn, sig)
	switch {
	case errors.Is(err, scheme.ErrOtherDegree):
		return nil, nil, fmt.Errorf("%w: the %s signature: %v (the public key's)", ErrNotAPair, which, err)
	case err != nil:
		return nil, nil, fmt.Errorf("%s signature: %w", which, err)
	}
	return nonce, s2, nil
}

// Prove checks that sk encodes as a key of scheme sc, signs a fixed
// message with it over b and verifies the signature under pk: the evidence
// that a recovered key is a key of pk.
func Prove(b arith.Backend, sc scheme.Scheme, sk *falcon.PrivateKey, pk *falcon.PublicKey) error {
	if _, _, err := sc.EncodeKeys(sk); err != nil {
		return err
	}
	rng := sha3.NewSHAKE256()
	rng.Write([]byte("fprlab leak proof"))
	msg := []byte("signed with a key recovered from two signatures")
	sig, err := sc.Sign(b, sk, msg, io.LimitReader(rng, 1<<20))
	if err != nil {
		return err
	}
	return sc.Verify(pk, msg, sig)
}

func gcd(a, b int) int {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func norm(d []int) float64 {
	var s float64
	for _, v := range d {
		s += float64(v * v)
	}
	return math.Sqrt(s)
}

// mulModQ returns g = h f mod x^n + 1 mod q, centred, and whether every
// coefficient fits an int8 (a key's g does, by a wide margin).
func mulModQ(h []uint16, f []int8) ([]int8, bool) {
	n := len(h)
	acc := make([]int64, n)
	for i, fi := range f {
		if fi == 0 {
			continue
		}
		for j, hj := range h {
			k := i + j
			if k < n {
				acc[k] += int64(fi) * int64(hj)
			} else {
				acc[k-n] -= int64(fi) * int64(hj)
			}
		}
	}
	g := make([]int8, n)
	for i, v := range acc {
		v %= falcon.Q
		if v < 0 {
			v += falcon.Q
		}
		if v > falcon.Q/2 {
			v -= falcon.Q
		}
		if v < -127 || v > 127 {
			return nil, false
		}
		g[i] = int8(v)
	}
	return g, true
}
