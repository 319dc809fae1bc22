package falcon

import (
	"errors"
	"fmt"
	"strings"
)

// PublicKey is h = g/f mod (q, X^n + 1), n = 2^LogN, coefficients in 0..q-1.
type PublicKey struct {
	LogN uint
	H    []uint16
}

// PrivateKey is the NTRU basis: f, g, F, G with f G - g F = q. The encoding
// stores f, g and F; G is recomputed from them on decoding.
type PrivateKey struct {
	LogN                       uint
	SmallF, SmallG, BigF, BigG []int8
}

// Check reports why pk cannot be used or encoded: a logn outside 1..10, a
// wrong number of coefficients, or a coefficient not below q.
func (pk *PublicKey) Check() error {
	if pk == nil {
		return errors.New("falcon: nil public key")
	}
	p, err := ParamsFor(pk.LogN)
	if err != nil {
		return err
	}
	if len(pk.H) != p.N {
		return fmt.Errorf("falcon: public key has %d coefficients, want n = %d", len(pk.H), p.N)
	}
	for i, v := range pk.H {
		if v >= Q {
			return fmt.Errorf("falcon: public key coefficient %d is %d, not below q = %d", i, v, Q)
		}
	}
	return nil
}

// Encode returns the falcon.h public-key encoding: header byte 0x00+logn,
// then h at 14 bits per coefficient (Params.PublicKeySize bytes). It returns
// nil if pk does not pass Check.
func (pk *PublicKey) Encode() []byte {
	if pk.Check() != nil {
		return nil
	}
	body, err := modqEncode(pk.H)
	if err != nil {
		return nil
	}
	return append([]byte{headerPublicKey + byte(pk.LogN)}, body...)
}

// DecodePublicKey decodes a falcon.h public key. It requires header
// 0x00+logn with logn in 1..10, exactly Params.PublicKeySize bytes, every
// coefficient below q and zero padding bits.
func DecodePublicKey(b []byte) (*PublicKey, error) {
	const what = "public key"
	if len(b) == 0 {
		return nil, malformed(what, "empty")
	}
	if b[0]&0xF0 != headerPublicKey {
		return nil, malformed(what, "header byte 0x%02x is not 0x00+logn", b[0])
	}
	logn := uint(b[0])
	p, err := ParamsFor(logn)
	if err != nil {
		return nil, malformed(what, "header byte 0x%02x has logn %d, outside 1..10", b[0], logn)
	}
	if len(b) != p.PublicKeySize {
		return nil, malformed(what, "%d bytes, want %d for n = %d", len(b), p.PublicKeySize, p.N)
	}
	h, err := modqDecode(what, b[1:], p.N)
	if err != nil {
		return nil, err
	}
	return &PublicKey{LogN: logn, H: h}, nil
}

// checkSmall checks that x has n coefficients.
func checkSmall(name string, x []int8, n int) error {
	if len(x) != n {
		return fmt.Errorf("falcon: %s has %d coefficients, want n = %d", name, len(x), n)
	}
	return nil
}

// Check reports why sk cannot be encoded: a logn outside 1..10, wrong
// lengths, or f, g, F outside the ranges of their trim encodings
// (Params.FGBits for f and g, 8 bits for F). G is not examined; it is not
// part of the encoding.
func (sk *PrivateKey) Check() error {
	if sk == nil {
		return errors.New("falcon: nil private key")
	}
	p, err := ParamsFor(sk.LogN)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		name string
		x    []int8
		bits uint
	}{{"f", sk.SmallF, p.FGBits}, {"g", sk.SmallG, p.FGBits}, {"F", sk.BigF, p.BigFGBits}} {
		if err := checkSmall(c.name, c.x, p.N); err != nil {
			return err
		}
		lim := trimBound(c.bits)
		for i, v := range c.x {
			if int32(v) < -lim || int32(v) > lim {
				return fmt.Errorf("falcon: %s coefficient %d is %d, outside -%d..%d (%d-bit encoding for n = %d)", c.name, i, v, lim, lim, c.bits, p.N)
			}
		}
	}
	return nil
}

// Encode returns the falcon.h private-key encoding: header byte 0x50+logn,
// then f and g at Params.FGBits bits and F at 8 bits per coefficient
// (Params.PrivateKeySize bytes). It returns nil if sk does not pass Check.
func (sk *PrivateKey) Encode() []byte {
	if sk.Check() != nil {
		return nil
	}
	p := mustParams(sk.LogN)
	out := make([]byte, 1, p.PrivateKeySize)
	out[0] = headerPrivateKey + byte(sk.LogN)
	for _, c := range []struct {
		x    []int8
		bits uint
	}{{sk.SmallF, p.FGBits}, {sk.SmallG, p.FGBits}, {sk.BigF, p.BigFGBits}} {
		b, err := trimEncode(c.x, c.bits)
		if err != nil {
			return nil
		}
		out = append(out, b...)
	}
	return out
}

// DecodePrivateKey decodes a falcon.h private key and recomputes G with
// CompleteG. It requires header 0x50+logn with logn in 1..10, exactly
// Params.PrivateKeySize bytes, canonical trim encodings (no -2^(b-1), zero
// padding bits), f invertible modulo q and G within -127..127.
func DecodePrivateKey(b []byte) (*PrivateKey, error) {
	const what = "private key"
	if len(b) == 0 {
		return nil, malformed(what, "empty")
	}
	if b[0]&0xF0 != headerPrivateKey {
		if b[0]&0xF0 == 0 && b[0] != 0 {
			return nil, malformed(what, "header byte 0x%02x is not 0x50+logn: 0x00+logn begins a public key", b[0])
		}
		return nil, malformed(what, "header byte 0x%02x is not 0x50+logn", b[0])
	}
	logn := uint(b[0] & 0x0F)
	p, err := ParamsFor(logn)
	if err != nil {
		return nil, malformed(what, "header byte 0x%02x has logn %d, outside 1..10", b[0], logn)
	}
	if len(b) != p.PrivateKeySize {
		return nil, malformed(what, "%d bytes, want %d for n = %d", len(b), p.PrivateKeySize, p.N)
	}
	sk := &PrivateKey{LogN: logn}
	rest := b[1:]
	for _, c := range []struct {
		name string
		dst  *[]int8
		bits uint
	}{{"f", &sk.SmallF, p.FGBits}, {"g", &sk.SmallG, p.FGBits}, {"F", &sk.BigF, p.BigFGBits}} {
		x, used, err := trimDecode[int8](what, c.name, rest, p.N, c.bits)
		if err != nil {
			return nil, err
		}
		*c.dst = x
		rest = rest[used:]
	}
	if len(rest) != 0 {
		// Unreachable with the falcon.h sizes; kept so a size mismatch
		// cannot pass silently.
		return nil, malformed(what, "%d trailing %s", len(rest), byteWord(len(rest)))
	}
	sk.BigG, err = CompleteG(sk.SmallF, sk.SmallG, sk.BigF, logn)
	if err != nil {
		return nil, &FormatError{What: what, Reason: strings.TrimPrefix(err.Error(), "falcon: ")}
	}
	return sk, nil
}

// ComputePublic returns h = g/f mod (q, X^n + 1). It fails if f is not
// invertible modulo q (some NTT coefficient of f is zero), as the
// reference's compute_public does.
func ComputePublic(f, g []int8, logn uint) ([]uint16, error) {
	p, err := ParamsFor(logn)
	if err != nil {
		return nil, err
	}
	if err := checkSmall("f", f, p.N); err != nil {
		return nil, err
	}
	if err := checkSmall("g", g, p.N); err != nil {
		return nil, err
	}
	h, _ := computePublic(f, g, logn, false)
	if h == nil {
		return nil, errors.New("falcon: f is not invertible modulo q")
	}
	return h, nil
}

// computePublic returns h = g/f mod q, or nil if f is not invertible
// modulo q. With slots it also returns the number of NTT slots of f before
// the first zero one (n if none), which is where the reference's
// compute_public, dividing slot by slot, stops (see KeygenCounter).
func computePublic(f, g []int8, logn uint, slots bool) (h []uint16, divided int) {
	h = mqPolyFromSmall(g)
	tf := mqPolyFromSmall(f)
	mqNTT(h, logn)
	mqNTT(tf, logn)
	if slots {
		divided = len(tf)
		for i, v := range tf {
			if v == 0 {
				divided = i
				break
			}
		}
	}
	if !mqPolyDivNTT(h, tf) {
		return nil, divided
	}
	mqINTT(h, logn)
	return h, divided
}

// CompleteG recomputes G from f, g, F. The NTRU equation f G - g F = q
// gives G = (q + g F)/f, so modulo q, G = g F / f; G's coefficients are
// small, so the centred representative of g F / f mod q is G itself. Like
// the reference's complete_private it fails if f is not invertible modulo q
// or a coefficient falls outside -127..127 (then (f, g, F) was not a valid
// key). It does not check the NTRU equation over the integers.
func CompleteG(f, g, F []int8, logn uint) ([]int8, error) {
	p, err := ParamsFor(logn)
	if err != nil {
		return nil, err
	}
	for _, c := range []struct {
		name string
		x    []int8
	}{{"f", f}, {"g", g}, {"F", F}} {
		if err := checkSmall(c.name, c.x, p.N); err != nil {
			return nil, err
		}
	}
	G, _, err := completeNTT(f, g, F, logn)
	return G, err
}

// completeNTT is CompleteG on checked inputs, returning also the public
// key h = g/f mod q in NTT form, which the signer needs: both come from
// the same transforms and one division by f (G = h F).
func completeNTT(f, g, F []int8, logn uint) ([]int8, []uint16, error) {
	hNTT := mqPolyFromSmall(g)
	tf := mqPolyFromSmall(f)
	mqNTT(hNTT, logn)
	mqNTT(tf, logn)
	if !mqPolyDivNTT(hNTT, tf) {
		return nil, nil, errors.New("falcon: f is not invertible modulo q")
	}
	t := mqPolyFromSmall(F)
	mqNTT(t, logn)
	mqPolyMulNTT(t, hNTT)
	mqINTT(t, logn)
	G := make([]int8, len(t))
	for i, v := range t {
		c := mqCentre(v)
		if c < -127 || c > 127 {
			return nil, nil, fmt.Errorf("falcon: recomputed G coefficient %d is %d, outside -127..127 (f, g, F is not an NTRU basis)", i, c)
		}
		G[i] = int8(c)
	}
	return G, hNTT, nil
}

// Public computes the public key of sk from f and g.
func (sk *PrivateKey) Public() (*PublicKey, error) {
	if sk == nil {
		return nil, errors.New("falcon: nil private key")
	}
	h, err := ComputePublic(sk.SmallF, sk.SmallG, sk.LogN)
	if err != nil {
		return nil, err
	}
	return &PublicKey{LogN: sk.LogN, H: h}, nil
}
