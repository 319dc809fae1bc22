package falcon

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestCompressedKnownAnswers checks compEncode/compDecode on bit strings
// written out by hand from the specification (sign, 7 low bits, unary high
// part, zero padding to a byte).
func TestCompressedKnownAnswers(t *testing.T) {
	for _, c := range []struct {
		s2  []int16
		hex string
	}{
		// 0 0000001 1 | 1 0000001 1 | 0 0000000 01 | 1 1111111 0^15 1 | 0000
		{[]int16{1, -1, 128, -2047}, "01c0c01ff00010"},
		{[]int16{0, 0}, "008040"},
		{[]int16{0, 5, -300, 2047, -128, 127, 0, -1}, "0082eb0bf8000c02ff00c0c0"},
	} {
		want, _ := hex.DecodeString(c.hex)
		got, err := compEncode(c.s2)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("compEncode(%v) = %x, %v; want %s", c.s2, got, err, c.hex)
		}
		dec, used, err := compDecode("signature", want, len(c.s2))
		if err != nil || used != len(want) || !slices.Equal(dec, c.s2) {
			t.Errorf("compDecode(%s) = %v (%d bytes), %v", c.hex, dec, used, err)
		}
	}
	for _, bad := range []int16{2048, -2048, 32767, -32768} {
		if _, err := compEncode([]int16{0, bad}); err == nil {
			t.Errorf("compEncode accepted %d", bad)
		}
	}
}

// TestTrimRoundTrip: every value of every width 2..8 (int8) and 2..16
// (int16) survives encoding, the excluded -2^(b-1) and out-of-range values
// are refused, and packing is most significant bit first.
func TestTrimRoundTrip(t *testing.T) {
	for bits := uint(2); bits <= 16; bits++ {
		lim := int(trimBound(bits))
		var x16 []int16
		for v := -lim; v <= lim; v++ {
			x16 = append(x16, int16(v))
		}
		b, err := trimEncode(x16, bits)
		if err != nil || len(b) != (len(x16)*int(bits)+7)/8 {
			t.Fatalf("bits %d: %v, %d bytes", bits, err, len(b))
		}
		y16, used, err := trimDecode[int16]("test", "x", b, len(x16), bits)
		if err != nil || used != len(b) || !slices.Equal(y16, x16) {
			t.Fatalf("bits %d: int16 round trip: %v", bits, err)
		}
		if _, err := trimEncode([]int16{int16(-lim - 1)}, bits); err == nil {
			t.Fatalf("bits %d: -2^(b-1) encoded", bits)
		}
		if bits <= 8 {
			x8 := make([]int8, len(x16))
			for i, v := range x16 {
				x8[i] = int8(v)
			}
			b8, err := trimEncode(x8, bits)
			if err != nil || !bytes.Equal(b8, b) {
				t.Fatalf("bits %d: int8 encoding differs from int16: %v", bits, err)
			}
			y8, _, err := trimDecode[int8]("test", "x", b8, len(x8), bits)
			if err != nil || !slices.Equal(y8, x8) {
				t.Fatalf("bits %d: int8 round trip: %v", bits, err)
			}
		}
	}
	// 6 bits: -1 = 111111, 5 = 000101, -31 = 100001, padding 000000.
	b, _ := trimEncode([]int8{-1, 5, -31}, 6)
	if want := []byte{0xFC, 0x58, 0x40}; !bytes.Equal(b, want) {
		t.Errorf("6-bit packing %x, want %x", b, want)
	}
}

// vrfyRandS2 draws n values: mostly small (|x| <= small), a few up to lim.
func vrfyRandS2(rng *rand.Rand, n, small, lim int) []int16 {
	s := make([]int16, n)
	for i := range s {
		r := small
		if rng.IntN(50) == 0 {
			r = lim
		}
		s[i] = int16(rng.IntN(2*r+1) - r)
	}
	return s
}

// TestSignatureRoundTrip encodes random (nonce, s2) for every logn 1..10 in
// every format, decodes, and checks fields, sizes and byte-exact
// re-encoding.
func TestSignatureRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	trials := 40
	if testing.Short() {
		trials = 8
	}
	for logn := uint(1); logn <= 10; logn++ {
		p := mustParams(logn)
		for trial := range trials {
			nonce := make([]byte, NonceSize)
			for i := range nonce {
				nonce[i] = byte(rng.Uint32())
			}
			for _, f := range []SigFormat{Compressed, Padded, CT} {
				var s2 []int16
				switch f {
				case Compressed:
					s2 = vrfyRandS2(rng, p.N, 300, compMax)
				case Padded:
					s2 = vrfyRandS2(rng, p.N, 150, 400)
				case CT:
					s2 = vrfyRandS2(rng, p.N, 300, int(trimBound(p.SigBits)))
				}
				if trial == 0 {
					// Extremes of the format's range.
					lim := int16(compMax)
					if f == CT {
						lim = int16(trimBound(p.SigBits))
					}
					s2[0], s2[p.N-1] = lim, -lim
				}
				b, err := EncodeSignature(f, logn, nonce, s2)
				if f == Padded && err != nil {
					comp, _ := compEncode(s2)
					if 1+NonceSize+len(comp) <= p.SigPaddedSize {
						t.Fatalf("logn %d: padded encoding failed although it fits: %v", logn, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("logn %d %v: %v", logn, f, err)
				}
				wantFormat := f
				switch f {
				case Padded:
					if len(b) != p.SigPaddedSize {
						t.Fatalf("logn %d padded: %d bytes", logn, len(b))
					}
				case CT:
					if len(b) != p.SigCTSize {
						t.Fatalf("logn %d ct: %d bytes, want %d", logn, len(b), p.SigCTSize)
					}
				case Compressed:
					// A compressed signature that happens to have the
					// padded length is indistinguishable from a padded one.
					if len(b) == p.SigPaddedSize {
						wantFormat = Padded
					}
				}
				s, err := DecodeSignature(b)
				if err != nil {
					t.Fatalf("logn %d %v: decoding: %v", logn, f, err)
				}
				if s.LogN != logn || s.Format != wantFormat || !bytes.Equal(s.Nonce, nonce) || !slices.Equal(s.S2, s2) {
					t.Fatalf("logn %d %v: decoded %v logn %d", logn, f, s.Format, s.LogN)
				}
				if re, err := s.Encode(); err != nil || !bytes.Equal(re, b) {
					t.Fatalf("logn %d %v: re-encoding differs: %v", logn, f, err)
				}
			}
		}
	}
}

// TestPublicKeyRoundTrip encodes random h for every degree.
func TestPublicKeyRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for logn := uint(1); logn <= 10; logn++ {
		p := mustParams(logn)
		for trial := range 10 {
			h := make([]uint16, p.N)
			for i := range h {
				h[i] = uint16(rng.IntN(Q))
			}
			if trial == 0 {
				h[0], h[p.N-1] = Q-1, 0
			}
			b := (&PublicKey{LogN: logn, H: h}).Encode()
			if len(b) != p.PublicKeySize || b[0] != byte(logn) {
				t.Fatalf("logn %d: %d bytes, header %x", logn, len(b), b[0])
			}
			pk, err := DecodePublicKey(b)
			if err != nil || pk.LogN != logn || !slices.Equal(pk.H, h) {
				t.Fatalf("logn %d: %v", logn, err)
			}
		}
	}
}

// TestEncodeSignatureErrors: arguments EncodeSignature must refuse.
func TestEncodeSignatureErrors(t *testing.T) {
	nonce := make([]byte, NonceSize)
	big := make([]int16, 512)
	for i := range big {
		big[i] = 1000 // compresses to 2 bytes+ each: far beyond 666
	}
	for _, c := range []struct {
		name string
		f    SigFormat
		logn uint
		n    []byte
		s2   []int16
		want string
	}{
		{"logn 0", Compressed, 0, nonce, nil, "out of range"},
		{"short nonce", Compressed, 2, nonce[:32], make([]int16, 4), "nonce is 32 bytes"},
		{"wrong n", Compressed, 2, nonce, make([]int16, 5), "5 coefficients"},
		{"compressed 2048", Compressed, 2, nonce, []int16{0, 2048, 0, 0}, "outside -2047..2047"},
		{"ct 1024 at 11 bits", CT, 2, nonce, []int16{0, 1024, 0, 0}, "outside -1023..1023"},
		{"padded overflow", Padded, 9, nonce, big, "more than the padded size 666"},
		{"unknown format", SigFormat(3), 2, nonce, make([]int16, 4), "unknown signature format"},
	} {
		_, err := EncodeSignature(c.f, c.logn, c.n, c.s2)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.want)
		}
	}
}

// TestDecodeSignatureStrict covers each rejection class of DecodeSignature
// with hand-made logn = 2 signatures (n = 4, padded size 47, ct size 47).
func TestDecodeSignatureStrict(t *testing.T) {
	nonce := bytes.Repeat([]byte{0xA5}, NonceSize)
	mk := func(header byte, bodyHex string) []byte {
		body, err := hex.DecodeString(bodyHex)
		if err != nil {
			t.Fatal(err)
		}
		return append(append([]byte{header}, nonce...), body...)
	}
	valid := mk(0x32, "01c0c01ff00010") // s2 = 1, -1, 128, -2047 (48 bytes)
	if s, err := DecodeSignature(valid); err != nil || s.Format != Compressed || !slices.Equal(s.S2, []int16{1, -1, 128, -2047}) {
		t.Fatalf("valid compressed: %v %v", s, err)
	}
	padded := mk(0x32, "0080402010"+"00") // s2 = 0 (46 bytes) + 1 zero byte
	if s, err := DecodeSignature(padded); err != nil || s.Format != Padded || len(padded) != 47 {
		t.Fatalf("valid padded: %v %v", s, err)
	}
	ct := mk(0x52, "000000000000") // s2 = 0 at 11 bits: 44 bits + 4 padding
	if s, err := DecodeSignature(ct); err != nil || s.Format != CT {
		t.Fatalf("valid ct: %v %v", s, err)
	}
	flip := func(b []byte, i int, x byte) []byte {
		b = slices.Clone(b)
		b[i] ^= x
		return b
	}
	for _, c := range []struct {
		name, want string
		b          []byte
	}{
		{"empty", "empty", nil},
		{"header 0x40+logn", "neither 0x30+logn", flip(valid, 0, 0x70)},
		{"header 0x20+logn (NIST sm)", "neither", flip(valid, 0, 0x10)},
		{"logn 0", "logn 0", mk(0x30, "00")},
		{"logn 11", "logn 11", mk(0x3B, "00")},
		{"ct logn 15", "logn 15", mk(0x5F, "00")},
		{"shorter than nonce", "too short", valid[:30]},
		{"header only", "too short", valid[:1]},
		{"-0", "-0", mk(0x32, "8080402010")},
		{"unary too long", "exceeds 2047", mk(0x32, "00000080402010")},
		{"ends early", "ends inside coefficient 3", valid[:len(valid)-1]},
		{"ends inside unary", "ends inside coefficient 0", mk(0x32, "0000")},
		{"ends after coefficient 1", "ends before coefficient 2", mk(0x32, "008040")},
		{"no s2 at all", "ends before coefficient 0", valid[:41]},
		{"nonzero unused bits", "unused bits", flip(valid, len(valid)-1, 0x01)},
		{"trailing byte", "1 trailing byte after", append(slices.Clone(valid), 0)},
		{"trailing zero after short s2", "trailing", mk(0x32, "008040201000000000")},
		{"nonzero padding", "padding byte 0", flip(padded, 46, 0x80)},
		{"padded unused bits", "unused bits", flip(padded, 45, 0x08)},
		{"ct too long", "ct signature is 48 bytes", append(slices.Clone(ct), 0)},
		{"ct too short", "ct signature is 46 bytes", ct[:46]},
		{"ct -1024 at 11 bits", "excludes", mk(0x52, "800000000000")},
		{"ct unused bits", "unused bits", flip(ct, 46, 0x01)},
	} {
		_, err := DecodeSignature(c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one mentioning %q", c.name, err, c.want)
		}
		if err != nil && !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v does not wrap ErrMalformed", c.name, err)
		}
	}
}
