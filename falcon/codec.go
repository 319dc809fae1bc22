package falcon

import (
	"errors"
	"fmt"
	"strings"
)

// Encodings of keys and signatures (Falcon spec v1.2 section 3.11, and
// falcon.h of the reference). All bit strings are packed most significant
// bit first; unused bits of a final partial byte are zero.
//
//   - modq: n values in 0..q-1, 14 bits each (public key h).
//   - trim: n signed values in -(2^(b-1)-1)..2^(b-1)-1, b bits two's
//     complement each; -2^(b-1) is excluded so every value has one encoding
//     (f, g, F of the private key; s2 in the constant-time signature format).
//   - compressed: per value, a sign bit, the low 7 bits of |x|, then |x|>>7
//     zero bits and a one bit (s2 in the compressed and padded formats).
//
// Decoders are strict: every byte string has at most one decoding, so
// decoding and re-encoding reproduces the input, and anything else is
// rejected with an error that says which rule was broken.

// ErrMalformed is wrapped by every error reporting a byte string that is not
// a valid encoding (bad header, wrong length, non-canonical or out-of-range
// values).
var ErrMalformed = errors.New("falcon: malformed encoding")

// FormatError describes why an encoding was rejected. It matches
// ErrMalformed with errors.Is.
type FormatError struct {
	What   string // "public key", "private key", "signature", "signed message"
	Reason string
}

func (e *FormatError) Error() string { return "falcon: malformed " + e.What + ": " + e.Reason }
func (e *FormatError) Unwrap() error { return ErrMalformed }

// byteWord is "byte" or "bytes" for a count of n.
func byteWord(n int) string {
	if n == 1 {
		return "byte"
	}
	return "bytes"
}

func malformed(what, format string, args ...any) error {
	return &FormatError{What: what, Reason: fmt.Sprintf(format, args...)}
}

// bitWriter packs bit fields most significant bit first.
type bitWriter struct {
	buf []byte
	acc uint64
	n   uint // pending bits in acc
}

// write appends the low bits bits of v (bits <= 32).
func (w *bitWriter) write(v uint32, bits uint) {
	w.acc = w.acc<<bits | uint64(v)&(1<<bits-1)
	w.n += bits
	for w.n >= 8 {
		w.n -= 8
		w.buf = append(w.buf, byte(w.acc>>w.n))
	}
}

// bytes flushes a partial byte, padded with zero bits, and returns the output.
func (w *bitWriter) bytes() []byte {
	if w.n > 0 {
		w.buf = append(w.buf, byte(w.acc<<(8-w.n)))
		w.n = 0
	}
	return w.buf
}

// bitReader reads bit fields most significant bit first, a byte at a time.
type bitReader struct {
	buf []byte
	pos int // bytes consumed
	acc uint64
	n   uint // unread bits in acc
}

// read returns the next bits bits (bits <= 32), or false if the input ends.
func (r *bitReader) read(bits uint) (uint32, bool) {
	for r.n < bits {
		if r.pos >= len(r.buf) {
			return 0, false
		}
		r.acc = r.acc<<8 | uint64(r.buf[r.pos])
		r.pos++
		r.n += 8
	}
	r.n -= bits
	return uint32(r.acc>>r.n) & (1<<bits - 1), true
}

// restZero reports whether the unread bits of the last byte read are zero.
func (r *bitReader) restZero() bool { return r.acc&(1<<r.n-1) == 0 }

// modqEncode packs h (values in 0..q-1) at 14 bits per value.
func modqEncode(h []uint16) ([]byte, error) {
	w := bitWriter{buf: make([]byte, 0, (len(h)*14+7)/8)}
	for i, v := range h {
		if v >= Q {
			return nil, fmt.Errorf("falcon: coefficient %d of h is %d, not below q = %d", i, v, Q)
		}
		w.write(uint32(v), 14)
	}
	return w.bytes(), nil
}

// modqDecode unpacks n 14-bit values from b, which must be exactly
// ceil(14n/8) bytes long.
func modqDecode(what string, b []byte, n int) ([]uint16, error) {
	if want := (n*14 + 7) / 8; len(b) != want {
		return nil, malformed(what, "%d bytes of 14-bit values, want %d for n = %d", len(b), want, n)
	}
	r := bitReader{buf: b}
	h := make([]uint16, n)
	for i := range h {
		v, _ := r.read(14)
		if v >= Q {
			return nil, malformed(what, "coefficient %d is %d, not below q = %d", i, v, Q)
		}
		h[i] = uint16(v)
	}
	if !r.restZero() {
		return nil, malformed(what, "unused bits of the last byte are not zero")
	}
	return h, nil
}

// trimBound is the largest magnitude a bits-wide trim encoding holds.
func trimBound(bits uint) int32 { return 1<<(bits-1) - 1 }

// trimEncode packs x at bits bits per value, two's complement. Values must
// lie in -(2^(bits-1)-1)..2^(bits-1)-1.
func trimEncode[T int8 | int16](x []T, bits uint) ([]byte, error) {
	lim := trimBound(bits)
	w := bitWriter{buf: make([]byte, 0, (len(x)*int(bits)+7)/8)}
	for i, v := range x {
		if int32(v) < -lim || int32(v) > lim {
			return nil, fmt.Errorf("falcon: coefficient %d is %d, outside -%d..%d (%d-bit encoding)", i, v, lim, lim, bits)
		}
		w.write(uint32(int32(v)), bits)
	}
	return w.bytes(), nil
}

// trimDecode unpacks n values of bits bits from the start of b and returns
// them with the number of bytes used, ceil(n*bits/8).
func trimDecode[T int8 | int16](what, name string, b []byte, n int, bits uint) ([]T, int, error) {
	x := make([]T, n)
	used, err := trimDecodeInto(what, name, b, x, bits)
	if err != nil {
		return nil, 0, err
	}
	return x, used, nil
}

// trimDecodeInto is trimDecode into x (len(x) values).
func trimDecodeInto[T int8 | int16](what, name string, b []byte, x []T, bits uint) (int, error) {
	n := len(x)
	need := (n*int(bits) + 7) / 8
	if len(b) < need {
		return 0, malformed(what, "%s needs %d bytes (%d values of %d bits), only %d left", name, need, n, bits, len(b))
	}
	r := bitReader{buf: b[:need]}
	sign := uint32(1) << (bits - 1)
	for i := range x {
		u, _ := r.read(bits)
		v := int32(u)
		if u&sign != 0 {
			v -= int32(sign << 1)
		}
		if v == -int32(sign) {
			return 0, malformed(what, "%s coefficient %d is -%d, which the %d-bit encoding excludes", name, i, sign, bits)
		}
		x[i] = T(v)
	}
	if !r.restZero() {
		return 0, malformed(what, "unused bits after %s are not zero", name)
	}
	return need, nil
}

// compMax is the largest magnitude the compressed encoding represents.
const compMax = 2047

// compEncode writes s2 in the compressed format. Values must lie in
// -2047..2047.
func compEncode(s []int16) ([]byte, error) {
	w := bitWriter{buf: make([]byte, 0, len(s)*2)}
	for i, v := range s {
		if v < -compMax || v > compMax {
			return nil, fmt.Errorf("falcon: coefficient %d of s2 is %d, outside -%d..%d (compressed encoding)", i, v, compMax, compMax)
		}
		m := uint32(v)
		sign := uint32(0)
		if v < 0 {
			m, sign = uint32(-int32(v)), 1
		}
		// Sign and low seven bits, then the high part in unary:
		// m>>7 zeros closed by a one.
		w.write(sign<<7|m&127, 8)
		w.write(1, uint(m>>7)+1)
	}
	return w.bytes(), nil
}

// compDecode reads n compressed values from the start of b and returns them
// with the number of bytes used. It rejects what the encoder never
// produces: a magnitude above 2047 (unary part too long), "-0", input that
// ends early, and nonzero unused bits in the last byte.
func compDecode(what string, b []byte, n int) ([]int16, int, error) {
	s := make([]int16, n)
	used, err := compDecodeInto(what, b, s)
	if err != nil {
		return nil, 0, err
	}
	return s, used, nil
}

// compDecodeInto is compDecode into s (len(s) values).
func compDecodeInto(what string, b []byte, s []int16) (int, error) {
	n := len(s)
	r := bitReader{buf: b}
	for i := range s {
		low, ok := r.read(8)
		if !ok {
			return 0, malformed(what, "compressed s2 ends before coefficient %d of %d", i, n)
		}
		m := low & 127
		for {
			bit, ok := r.read(1)
			if !ok {
				return 0, malformed(what, "compressed s2 ends inside coefficient %d of %d", i, n)
			}
			if bit == 1 {
				break
			}
			m += 128
			if m > compMax {
				return 0, malformed(what, "compressed coefficient %d exceeds %d (unary part too long)", i, compMax)
			}
		}
		if low&128 != 0 {
			if m == 0 {
				return 0, malformed(what, "compressed coefficient %d is -0, which is not canonical", i)
			}
			s[i] = -int16(m)
		} else {
			s[i] = int16(m)
		}
	}
	if !r.restZero() {
		return 0, malformed(what, "unused bits after the compressed s2 are not zero")
	}
	return r.pos, nil
}

// SigFormat is one of the three signature encodings of falcon.h.
type SigFormat int

const (
	// Compressed is header 0x30+logn, the nonce, and s2 in the compressed
	// encoding; its length varies.
	Compressed SigFormat = iota
	// Padded is Compressed followed by zero bytes up to the fixed size
	// Params.SigPaddedSize; a signer retries when s2 does not fit.
	Padded
	// CT is header 0x50+logn, the nonce, and s2 in the trim encoding at
	// Params.SigBits bits per value (fixed size Params.SigCTSize).
	CT
)

var sigFormatNames = [...]string{Compressed: "compressed", Padded: "padded", CT: "ct"}

func (f SigFormat) String() string {
	if f >= 0 && int(f) < len(sigFormatNames) {
		return sigFormatNames[f]
	}
	return fmt.Sprintf("SigFormat(%d)", int(f))
}

// ParseSigFormat parses "compressed", "padded" or "ct" (any case).
func ParseSigFormat(s string) (SigFormat, error) {
	for i, name := range sigFormatNames {
		if strings.EqualFold(s, name) {
			return SigFormat(i), nil
		}
	}
	return 0, fmt.Errorf("falcon: unknown signature format %q (want compressed, padded or ct)", s)
}

// NonceSize is the length of the signature nonce (salt r) in bytes.
const NonceSize = 40

// Signature headers (high nibble of the first byte; the low nibble is logn).
const (
	headerPublicKey  = 0x00
	headerCompressed = 0x30 // compressed and padded signatures (falcon.h)
	headerPrivateKey = 0x50
	headerCT         = 0x50 // constant-time signatures (falcon.h)
	headerNISTSig    = 0x20 // the signature inside a round-3 NIST signed message
)

// Signature is a decoded falcon.h signature.
type Signature struct {
	LogN   uint
	Format SigFormat
	Nonce  []byte  // NonceSize bytes
	S2     []int16 // n coefficients
}

// Encode returns the signature's encoding in its format; a nil s is an
// error.
func (s *Signature) Encode() ([]byte, error) {
	if s == nil {
		return nil, errors.New("falcon: nil signature")
	}
	return EncodeSignature(s.Format, s.LogN, s.Nonce, s.S2)
}

// checkNonceS2 returns the parameters of degree 2^logn after checking
// that nonce and s2 have the sizes a signature of that degree holds.
func checkNonceS2(logn uint, nonce []byte, s2 []int16) (*Params, error) {
	p, err := ParamsFor(logn)
	if err != nil {
		return nil, err
	}
	if len(nonce) != NonceSize {
		return nil, fmt.Errorf("falcon: nonce is %d bytes, want %d", len(nonce), NonceSize)
	}
	if len(s2) != p.N {
		return nil, fmt.Errorf("falcon: s2 has %d coefficients, want n = %d", len(s2), p.N)
	}
	return p, nil
}

// EncodeSignature encodes (nonce, s2) for degree 2^logn in format f, as
// falcon_sign_dyn_finish lays it out. It fails if the nonce is not
// NonceSize bytes, s2 does not have n coefficients, a coefficient is out of
// the format's range, or (Padded) the compressed s2 does not fit the padded
// size; a signer then draws a new signature.
func EncodeSignature(f SigFormat, logn uint, nonce []byte, s2 []int16) ([]byte, error) {
	p, err := checkNonceS2(logn, nonce, s2)
	if err != nil {
		return nil, err
	}
	var header byte
	var body []byte
	switch f {
	case Compressed, Padded:
		header = headerCompressed + byte(logn)
		body, err = compEncode(s2)
	case CT:
		header = headerCT + byte(logn)
		body, err = trimEncode(s2, p.SigBits)
	default:
		return nil, fmt.Errorf("falcon: unknown signature format %d", int(f))
	}
	if err != nil {
		return nil, err
	}
	size := 1 + NonceSize + len(body)
	if f == Padded {
		if size > p.SigPaddedSize {
			return nil, fmt.Errorf("falcon: compressed signature is %d bytes, more than the padded size %d", size, p.SigPaddedSize)
		}
		size = p.SigPaddedSize
	}
	out := make([]byte, size)
	out[0] = header
	copy(out[1:], nonce)
	copy(out[1+NonceSize:], body)
	return out, nil
}

// DecodeSignature decodes a falcon.h signature; the format follows from the
// header and length. Header 0x30+logn is Padded when the length is exactly
// Params.SigPaddedSize (then the bytes after the compressed s2 must be zero)
// and Compressed otherwise (then nothing may follow s2). Header 0x50+logn is
// CT and must have length Params.SigCTSize. Any other header, a logn outside
// 1..10, a non-canonical or out-of-range s2, wrong lengths and trailing bytes
// are errors wrapping ErrMalformed.
func DecodeSignature(b []byte) (*Signature, error) {
	sig, err := parseSignature(b, nil)
	if err != nil {
		return nil, err
	}
	sig.Nonce = append([]byte(nil), sig.Nonce...)
	return &sig, nil
}

// parseSignature is DecodeSignature with s2 decoded into s2buf (nil: a
// new slice) and the nonce a subslice of b: the verifier's decoding, which
// does not allocate.
func parseSignature(b []byte, s2buf *[1024]int16) (Signature, error) {
	const what = "signature"
	if len(b) == 0 {
		return Signature{}, malformed(what, "empty")
	}
	logn := uint(b[0] & 0x0F)
	kind := b[0] & 0xF0
	if kind != headerCompressed && kind != headerCT {
		return Signature{}, malformed(what, "header byte 0x%02x is neither 0x30+logn (compressed/padded) nor 0x50+logn (ct)", b[0])
	}
	p, err := params(logn)
	if err != nil {
		return Signature{}, malformed(what, "header byte 0x%02x has logn %d, outside 1..10", b[0], logn)
	}
	if len(b) < 1+NonceSize {
		return Signature{}, malformed(what, "%d bytes, too short for the header and %d-byte nonce", len(b), NonceSize)
	}
	sig := Signature{LogN: logn, Nonce: b[1 : 1+NonceSize]}
	if s2buf != nil {
		sig.S2 = s2buf[:p.N]
	} else {
		sig.S2 = make([]int16, p.N)
	}
	body := b[1+NonceSize:]
	if kind == headerCT {
		sig.Format = CT
		if len(b) != p.SigCTSize {
			return Signature{}, malformed(what, "ct signature is %d bytes, want %d for n = %d", len(b), p.SigCTSize, p.N)
		}
		if _, err := trimDecodeInto(what, "s2", body, sig.S2, p.SigBits); err != nil {
			return Signature{}, err
		}
		return sig, nil
	}
	used, err := compDecodeInto(what, body, sig.S2)
	if err != nil {
		return Signature{}, err
	}
	if len(b) == p.SigPaddedSize {
		sig.Format = Padded
		for i, c := range body[used:] {
			if c != 0 {
				return Signature{}, malformed(what, "padding byte %d (offset %d) is 0x%02x, not zero", i, 1+NonceSize+used+i, c)
			}
		}
		return sig, nil
	}
	sig.Format = Compressed
	if used != len(body) {
		return Signature{}, malformed(what, "%d trailing %s after the compressed s2", len(body)-used, byteWord(len(body)-used))
	}
	return sig, nil
}
