package falcon

import (
	"bytes"
	"encoding/hex"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// testFalconVectorsFile holds the data tables of the reference's
// test_falcon.c (NTRU keys, verify vectors, SHAKE256 vectors, the base
// sampler's distribution). Its PRNG vectors are in internal/samplerprng.
const testFalconVectorsFile = "test_falcon_vectors.json.gz"

func vrfyHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex in test vector: %v", err)
	}
	return b
}

func vrfyI8(x []int) []int8 {
	out := make([]int8, len(x))
	for i, v := range x {
		out[i] = int8(v)
	}
	return out
}

func vrfyI16(x []int) []int16 {
	out := make([]int16, len(x))
	for i, v := range x {
		out[i] = int16(v)
	}
	return out
}

// testFalconVectors is testdata/test_falcon_vectors.json: the data tables of
// the reference's test_falcon.c (Falcon-impl-20211101: ntru_{f,g,F,G,h}_N
// and ntru_pkey_N for N = 16, 512, 1024, and KAT_SIG_N), extracted from the
// C source as data (no code). The tests of this file check the package
// against them (ComputePublic, CompleteG, the key encodings, verification).
type testFalconVectors struct {
	NTRUKeys map[string]struct {
		N       int    `json:"n"`
		LogN    uint   `json:"logn"`
		F       []int  `json:"f"`
		G       []int  `json:"g"`
		BigF    []int  `json:"F"`
		BigG    []int  `json:"G"`
		H       []int  `json:"h"`
		PkeyHex string `json:"pkey_hex"`
		PkeyLen int    `json:"pkey_len"`
	} `json:"ntru_keys"`
	KATSig map[string][]struct {
		Nonce     string `json:"nonce"`
		Message   string `json:"message"`
		SigRawHex string `json:"sig_raw_hex"`
		S2        []int  `json:"s2"`
		SqNorm    int64  `json:"sqnorm_s1_s2"`
	} `json:"kat_sig"`
	SHAKE256 []struct {
		InputHex  string `json:"input_hex"`
		OutputHex string `json:"output_hex"`
		InputLen  int    `json:"input_len"`
		OutputLen int    `json:"output_len"`
	} `json:"shake256"`
}

func loadTestFalconVectors(t testing.TB) *testFalconVectors {
	var v testFalconVectors
	readJSON(t, testFalconVectorsFile, &v)
	if len(v.NTRUKeys) != 3 || len(v.KATSig) != 3 || len(v.SHAKE256) != 3 {
		t.Fatalf("test_falcon_vectors.json: %d keys, %d sig sets, %d shake vectors", len(v.NTRUKeys), len(v.KATSig), len(v.SHAKE256))
	}
	return &v
}

// TestNTRUKeyVectors checks the fixed keys of test_falcon.c for n = 16, 512,
// 1024: h = g/f, the public-key encoding byte for byte, G from (f, g, F), and
// the private-key encoding round trip.
func TestNTRUKeyVectors(t *testing.T) {
	v := loadTestFalconVectors(t)
	for _, name := range []string{"16", "512", "1024"} {
		k, ok := v.NTRUKeys[name]
		if !ok {
			t.Fatalf("missing key %s", name)
		}
		f, g, F, G := vrfyI8(k.F), vrfyI8(k.G), vrfyI8(k.BigF), vrfyI8(k.BigG)
		wantH := make([]uint16, len(k.H))
		for i, x := range k.H {
			wantH[i] = uint16(x)
		}
		h, err := ComputePublic(f, g, k.LogN)
		if err != nil || !slices.Equal(h, wantH) {
			t.Fatalf("n=%s: ComputePublic: err %v, match %v", name, err, slices.Equal(h, wantH))
		}
		pk := &PublicKey{LogN: k.LogN, H: h}
		enc := pk.Encode()
		if want := vrfyHex(t, k.PkeyHex); !bytes.Equal(enc, want) || len(enc) != k.PkeyLen {
			t.Fatalf("n=%s: public key encoding differs from pkey_hex (len %d, want %d)", name, len(enc), k.PkeyLen)
		}
		dec, err := DecodePublicKey(enc)
		if err != nil || dec.LogN != k.LogN || !slices.Equal(dec.H, wantH) {
			t.Fatalf("n=%s: DecodePublicKey: %v", name, err)
		}
		gotG, err := CompleteG(f, g, F, k.LogN)
		if err != nil || !slices.Equal(gotG, G) {
			t.Fatalf("n=%s: CompleteG: err %v, match %v", name, err, slices.Equal(gotG, G))
		}
		sk := &PrivateKey{LogN: k.LogN, SmallF: f, SmallG: g, BigF: F}
		skb := sk.Encode()
		if skb == nil || len(skb) != mustParams(k.LogN).PrivateKeySize {
			t.Fatalf("n=%s: private key encoding: %v (len %d)", name, sk.Check(), len(skb))
		}
		sk2, err := DecodePrivateKey(skb)
		if err != nil {
			t.Fatalf("n=%s: DecodePrivateKey: %v", name, err)
		}
		if !slices.Equal(sk2.SmallF, f) || !slices.Equal(sk2.SmallG, g) || !slices.Equal(sk2.BigF, F) || !slices.Equal(sk2.BigG, G) {
			t.Fatalf("n=%s: private key round trip changed the key", name)
		}
		pk2, err := sk2.Public()
		if err != nil || !bytes.Equal(pk2.Encode(), enc) {
			t.Fatalf("n=%s: PrivateKey.Public: %v", name, err)
		}
	}
}

// TestPaddedVectorKeys checks, on 120 keys of every degree 2..1024, that
// CompleteG(f, g, F) gives the vector's G and that the private key
// round-trips through its encoding with the recomputed G.
func TestPaddedVectorKeys(t *testing.T) {
	for _, x := range loadSignKAT(t) {
		f, g, F, G := x.F, x.G, x.BigF, x.BigG
		got, err := CompleteG(f, g, F, x.LogN)
		if err != nil || !slices.Equal(got, G) {
			t.Fatalf("vector %d (logn %d): CompleteG: err %v", x.Index, x.LogN, err)
		}
		sk := &PrivateKey{LogN: x.LogN, SmallF: f, SmallG: g, BigF: F, BigG: G}
		b := sk.Encode()
		if b == nil {
			t.Fatalf("vector %d: Encode: %v", x.Index, sk.Check())
		}
		sk2, err := DecodePrivateKey(b)
		if err != nil || !slices.Equal(sk2.BigG, G) || !bytes.Equal(sk2.Encode(), b) {
			t.Fatalf("vector %d: DecodePrivateKey: %v", x.Index, err)
		}
	}
}

// TestComputePublicRejectsNonInvertible: f must be invertible modulo
// (q, X^n + 1); the reference refuses other f and so must we.
func TestComputePublicRejectsNonInvertible(t *testing.T) {
	for logn := uint(1); logn <= 10; logn++ {
		n := 1 << logn
		g := make([]int8, n)
		g[0] = 1
		zero := make([]int8, n)
		if _, err := ComputePublic(zero, g, logn); err == nil {
			t.Errorf("logn %d: f = 0 accepted", logn)
		}
		if _, err := CompleteG(zero, g, g, logn); err == nil {
			t.Errorf("logn %d: CompleteG with f = 0 accepted", logn)
		}
		// f = -108 + 25 X^(n/2) vanishes at every root x of X^n + 1 with
		// x^(n/2) = 108/25 mod q, a square root of -1 (108^2 = -25^2 mod
		// q), so it has no inverse.
		f := make([]int8, n)
		f[0], f[n/2] = -108, 25
		if _, err := ComputePublic(f, g, logn); err == nil {
			t.Errorf("logn %d: f = -108 + 25 X^(n/2) accepted", logn)
		}
		f[0] = -107
		if _, err := ComputePublic(f, g, logn); err != nil {
			t.Errorf("logn %d: f = -107 + 25 X^(n/2) rejected: %v", logn, err)
		}
		// f = 1 is invertible: h = g.
		one := make([]int8, n)
		one[0] = 1
		g[n-1] = -3
		h, err := ComputePublic(one, g, logn)
		if err != nil || h[0] != 1 || h[n-1] != Q-3 {
			t.Errorf("logn %d: f = 1: h = %v, err %v", logn, h, err)
		}
	}
	if _, err := ComputePublic(make([]int8, 4), make([]int8, 8), 2); err == nil {
		t.Error("length mismatch accepted")
	}
	if _, err := ComputePublic(nil, nil, 0); err == nil {
		t.Error("logn 0 accepted")
	}
}

// TestCompleteGRange: a key whose G falls outside -127..127 is rejected.
func TestCompleteGRange(t *testing.T) {
	const logn = 3
	n := 1 << logn
	f, g, F := make([]int8, n), make([]int8, n), make([]int8, n)
	f[0] = 1
	g[0] = 100
	F[0] = 100 // G = g F / f = 10000 mod q, centred -2289
	if _, err := CompleteG(f, g, F, logn); err == nil || !strings.Contains(err.Error(), "outside -127..127") {
		t.Fatalf("G = 10000 accepted or wrong error: %v", err)
	}
	F[0] = 1 // G = 100
	G, err := CompleteG(f, g, F, logn)
	if err != nil || G[0] != 100 || G[1] != 0 {
		t.Fatalf("G = %v, err %v", G, err)
	}
}

// TestKeyEncodeInvalid: keys that do not fit their encodings give nil.
func TestKeyEncodeInvalid(t *testing.T) {
	if (&PublicKey{LogN: 2, H: []uint16{0, 1, 2, Q}}).Encode() != nil {
		t.Error("h coefficient q encoded")
	}
	if (&PublicKey{LogN: 2, H: []uint16{0, 1, 2}}).Encode() != nil {
		t.Error("short h encoded")
	}
	if (&PublicKey{LogN: 11, H: make([]uint16, 2048)}).Encode() != nil {
		t.Error("logn 11 encoded")
	}
	n := 512
	ok := &PrivateKey{LogN: 9, SmallF: make([]int8, n), SmallG: make([]int8, n), BigF: make([]int8, n)}
	if ok.Encode() == nil {
		t.Fatal("zero key not encodable")
	}
	for _, c := range []struct {
		name string
		mod  func(*PrivateKey)
	}{
		{"f = -32 (6 bits)", func(k *PrivateKey) { k.SmallF[3] = -32 }},
		{"g = 32 (6 bits)", func(k *PrivateKey) { k.SmallG[3] = 32 }},
		{"F = -128", func(k *PrivateKey) { k.BigF[3] = -128 }},
		{"short f", func(k *PrivateKey) { k.SmallF = k.SmallF[:n-1] }},
	} {
		k := &PrivateKey{LogN: 9, SmallF: slices.Clone(ok.SmallF), SmallG: slices.Clone(ok.SmallG), BigF: slices.Clone(ok.BigF)}
		c.mod(k)
		if k.Encode() != nil || k.Check() == nil {
			t.Errorf("%s: encoded", c.name)
		}
	}
}

// TestPublicKeyDecodeStrict covers every rejection class of DecodePublicKey.
func TestPublicKeyDecodeStrict(t *testing.T) {
	// A valid logn = 1 key: h = (1, 2) -> 00000000000001 00000000000010 0000.
	valid := []byte{0x01, 0x00, 0x04, 0x00, 0x20}
	pk, err := DecodePublicKey(valid)
	if err != nil || !slices.Equal(pk.H, []uint16{1, 2}) {
		t.Fatalf("hand-made key: %v %v", pk, err)
	}
	if !bytes.Equal(pk.Encode(), valid) {
		t.Fatalf("re-encoding %x", pk.Encode())
	}
	p512 := mustParams(9)
	for _, c := range []struct {
		name, want string
		b          []byte
	}{
		{"empty", "empty", nil},
		{"header 0x10+logn", "not 0x00+logn", []byte{0x11, 0, 4, 0, 0x20}},
		{"logn 0", "logn 0", []byte{0x00, 0, 4, 0, 0x20}},
		{"logn 11", "logn 11", append([]byte{0x0B}, make([]byte, 3584)...)},
		{"short", "4 bytes", valid[:4]},
		{"long", "6 bytes", append(slices.Clone(valid), 0)},
		{"512 short", "896 bytes", append([]byte{0x09}, make([]byte, p512.PublicKeySize-2)...)},
		{"coefficient q", "not below q", []byte{0x01, 0xC0, 0x04, 0x00, 0x20}},     // 0x3001 = 12289
		{"coefficient 16383", "not below q", []byte{0x01, 0xFF, 0xFC, 0x00, 0x20}}, // all ones
		{"padding bits", "unused bits", []byte{0x01, 0x00, 0x04, 0x00, 0x21}},
	} {
		_, err := DecodePublicKey(c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one mentioning %q", c.name, err, c.want)
		}
		if err != nil && !vrfyIsMalformed(err) {
			t.Errorf("%s: %v does not wrap ErrMalformed", c.name, err)
		}
	}
}

// TestPrivateKeyDecodeStrict covers every rejection class of
// DecodePrivateKey, starting from the n = 16 key of test_falcon.c.
func TestPrivateKeyDecodeStrict(t *testing.T) {
	v := loadTestFalconVectors(t)
	k := v.NTRUKeys["16"]
	sk := &PrivateKey{LogN: 4, SmallF: vrfyI8(k.F), SmallG: vrfyI8(k.G), BigF: vrfyI8(k.BigF)}
	valid := sk.Encode()
	if _, err := DecodePrivateKey(valid); err != nil {
		t.Fatal(err)
	}
	// logn 4: f and g take 8 bits, so byte 1+i is f[i], 17+i is g[i],
	// 33+i is F[i].
	mod := func(off int, val byte) []byte {
		b := slices.Clone(valid)
		b[off] = val
		return b
	}
	for _, c := range []struct {
		name, want string
		b          []byte
	}{
		{"empty", "empty", nil},
		{"header 0x30+logn", "not 0x50+logn", mod(0, 0x34)},
		{"a public key's header", "not 0x50+logn: 0x00+logn begins a public key", mod(0, 0x04)},
		{"logn 0", "logn 0", mod(0, 0x50)},
		{"logn 15", "logn 15", mod(0, 0x5F)},
		{"short", "48 bytes", valid[:48]},
		{"long", "50 bytes", append(slices.Clone(valid), 0)},
		{"f = -128", "f coefficient 2 is -128", mod(1+2, 0x80)},
		{"g = -128", "g coefficient 0 is -128", mod(17, 0x80)},
		{"F = -128", "F coefficient 5 is -128", mod(33+5, 0x80)},
		{"f = 0", "not invertible", append(append([]byte{0x54}, make([]byte, 16)...), valid[17:]...)},
		{"G out of range", "outside -127..127", mod(33, 0x9C)}, // F[0] = -100
	} {
		_, err := DecodePrivateKey(c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one mentioning %q", c.name, err, c.want)
		}
		if err != nil && !vrfyIsMalformed(err) {
			t.Errorf("%s: %v does not wrap ErrMalformed", c.name, err)
		}
	}
	// Falcon-512 packs f at 6 bits: -32 is the excluded pattern 100000.
	k512 := v.NTRUKeys["512"]
	sk512 := &PrivateKey{LogN: 9, SmallF: vrfyI8(k512.F), SmallG: vrfyI8(k512.G), BigF: vrfyI8(k512.BigF)}
	b := sk512.Encode()
	if _, err := DecodePrivateKey(b); err != nil {
		t.Fatal(err)
	}
	b[1] = b[1]&0x03 | 0x80 // f[0] = 100000b
	if _, err := DecodePrivateKey(b); err == nil || !strings.Contains(err.Error(), "f coefficient 0 is -32") {
		t.Errorf("6-bit -32: %v", err)
	}
}

func vrfyIsMalformed(err error) bool { return errors.Is(err, ErrMalformed) }

// TestParseSigFormat checks names and round trips of SigFormat.
func TestParseSigFormat(t *testing.T) {
	for _, f := range []SigFormat{Compressed, Padded, CT} {
		g, err := ParseSigFormat(strings.ToUpper(f.String()))
		if err != nil || g != f {
			t.Errorf("%v: parsed %v, %v", f, g, err)
		}
	}
	if _, err := ParseSigFormat("raw"); err == nil {
		t.Error("raw accepted")
	}
	if s := SigFormat(7).String(); s != "SigFormat("+strconv.Itoa(7)+")" {
		t.Error(s)
	}
}
