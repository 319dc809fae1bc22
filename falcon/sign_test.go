package falcon

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io"
	mrand "math/rand/v2"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
)

// katKeys returns one private key per degree 2..1024 (the first key of
// each degree in the signing vectors), indexed by logn.
func katKeys(t testing.TB) map[uint]*PrivateKey {
	keys := map[uint]*PrivateKey{}
	for _, v := range loadSignKAT(t) {
		if keys[v.LogN] == nil {
			keys[v.LogN] = v.key()
		}
	}
	return keys
}

func seededRand(seed uint64) io.Reader {
	var s [32]byte
	s[0] = byte(seed)
	s[1] = byte(seed >> 8)
	return mrand.NewChaCha8(s)
}

// TestSignVerifyRoundTrip signs with every degree 2..1024, every format,
// both paths and every binary64 backend, and checks each signature with
// Verify, its format and its length.
func TestSignVerifyRoundTrip(t *testing.T) {
	keys := katKeys(t)
	formats := []SigFormat{Compressed, Padded, CT}
	runOnBackends(t, fpBackends, func(t *testing.T, b arith.Backend) {
		rng := seededRand(1)
		count := 0
		for logn := uint(1); logn <= 10; logn++ {
			sk := keys[logn]
			pk, err := sk.Public()
			if err != nil {
				t.Fatal(err)
			}
			ek, err := ExpandPrivateKey(b, sk)
			if err != nil {
				t.Fatal(err)
			}
			p := mustParams(logn)
			for _, format := range formats {
				for _, path := range []string{"dyn", "tree"} {
					msg := []byte("round trip " + format.String() + " " + path)
					var sig []byte
					if path == "dyn" {
						sig, err = Sign(b, sk, msg, format, rng)
					} else {
						sig, err = ek.Sign(msg, format, rng)
					}
					if err != nil {
						t.Fatalf("logn %d %v %s: %v", logn, format, path, err)
					}
					if err := Verify(pk, msg, sig); err != nil {
						t.Fatalf("logn %d %v %s: Verify: %v", logn, format, path, err)
					}
					if err := Verify(pk, append(msg, '!'), sig); err == nil {
						t.Fatalf("logn %d %v %s: signature verifies for another message", logn, format, path)
					}
					// A compressed signature that happens to have
					// the padded length decodes as padded: the
					// falcon.h encodings are told apart by length.
					ds, err := DecodeSignature(sig)
					wantFormat := format
					if format == Compressed && len(sig) == p.SigPaddedSize {
						wantFormat = Padded
					}
					if err != nil || ds.Format != wantFormat || ds.LogN != logn {
						t.Fatalf("logn %d %v %s: decodes as %+v, %v", logn, format, path, ds, err)
					}
					switch {
					case format == Padded && len(sig) != p.SigPaddedSize,
						format == CT && len(sig) != p.SigCTSize,
						format == Compressed && len(sig) > p.SigCompressedMaxSize:
						t.Fatalf("logn %d %v %s: %d bytes", logn, format, path, len(sig))
					}
					count++
				}
			}
		}
		t.Logf("%d signatures verified", count)
	})
}

// TestSignCryptoRand signs with the system random source, the way real
// keys must be used, on the dynamic and the expanded-key paths.
func TestSignCryptoRand(t *testing.T) {
	sk := katKeys(t)[9]
	pk, err := sk.Public()
	if err != nil {
		t.Fatal(err)
	}
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("fresh nonce")
	sig1, err := Sign(b, sk, msg, Compressed, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ek, err := ExpandPrivateKey(b, sk)
	if err != nil {
		t.Fatal(err)
	}
	sig2, err := ek.Sign(msg, Compressed, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, sig := range [][]byte{sig1, sig2} {
		if err := Verify(pk, msg, sig); err != nil {
			t.Fatal(err)
		}
	}
	if bytes.Equal(sig1[1:41], sig2[1:41]) {
		t.Fatal("two signatures with the same nonce from crypto/rand")
	}
}

// TestSignAllBackends signs one Falcon-512 message with every registered
// backend (the higher-precision ones too) and verifies it. The signatures
// need not agree across backends; they must all be valid.
func TestSignAllBackends(t *testing.T) {
	sk := katKeys(t)[9]
	pk, err := sk.Public()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range arith.List() {
		t.Run(b.Name, func(t *testing.T) {
			if testing.Short() && b.Bits > 64 {
				t.Skip("slow high-precision backend in -short mode")
			}
			msg := []byte("backend " + b.Name)
			sig, err := Sign(b, sk, msg, Compressed, seededRand(2))
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify(pk, msg, sig); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestSignDeterministic checks that the signature is a function of the
// random bytes: the same stream gives the same signature on both paths.
func TestSignDeterministic(t *testing.T) {
	sk := katKeys(t)[8]
	runOnBackends(t, fpBackends, func(t *testing.T, b arith.Backend) {
		s1, err := Sign(b, sk, []byte("m"), Padded, seededRand(3))
		if err != nil {
			t.Fatal(err)
		}
		ek, err := ExpandPrivateKey(b, sk)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := ek.Sign([]byte("m"), Padded, seededRand(3))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(s1, s2) {
			t.Fatal("dynamic and expanded-key paths differ on the same random bytes")
		}
	})
}

// TestSignHashedNIST checks SignHashedDyn, the entry point of the round-3
// NIST flow, against the dynamic path of Sign: with the nonce read first,
// both must produce the same s2 from the same seeds.
func TestSignHashedNIST(t *testing.T) {
	v := loadSignKAT(t)[100]
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	stream := v.stream(t)
	hm := HashToPoint(stream[:NonceSize], []byte(v.Message), v.LogN)
	s2, err := SignHashedDyn(b, v.key(), hm, bytes.NewReader(stream[NonceSize:]))
	if err != nil {
		t.Fatal(err)
	}
	ek, err := ExpandPrivateKey(b, v.key())
	if err != nil {
		t.Fatal(err)
	}
	s2t, err := ek.SignHashed(hm, bytes.NewReader(stream[NonceSize:]))
	if err != nil {
		t.Fatal(err)
	}
	for i := range v.S2 {
		if s2[i] != v.S2[i] || s2t[i] != v.S2[i] {
			t.Fatalf("s2[%d] = %d (dyn), %d (tree), want %d", i, s2[i], s2t[i], v.S2[i])
		}
	}
}

// sigBrokenExp is native arithmetic whose ExpmP63 always returns 1 (an
// acceptance probability of 2^-63): the sampler then practically never
// accepts, as with a backend whose arithmetic has collapsed.
type sigBrokenExp struct{ native.Arith }

func (sigBrokenExp) ExpmP63(x, ccs float64) uint64 { return 1 }

// sigBrokenRint is native arithmetic whose Rint is far off, so that no
// attempt is ever short.
type sigBrokenRint struct{ native.Arith }

func (sigBrokenRint) Rint(x float64) int64 { return 1 << 12 }

// TestSignErrors checks that bad inputs and unusable backends give errors
// naming the problem, never a panic or an endless loop.
func TestSignErrors(t *testing.T) {
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	sk := katKeys(t)[4]
	hm := make([]uint16, 16)
	seed := make([]byte, SeedSize)

	badG := *sk
	badG.BigG = append([]int8(nil), sk.BigG...)
	badG.BigG[0]++
	badLogn := *sk
	badLogn.LogN = 11
	shortF := *sk
	shortF.SmallF = sk.SmallF[:8]
	noG := *sk
	noG.BigG = nil

	check := func(name string, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one mentioning %q", name, err, want)
		}
	}
	_, err = Sign(b, nil, nil, Compressed, rand.Reader)
	check("nil key", err, "nil private key")
	_, err = Sign(b, &badG, nil, Compressed, rand.Reader)
	check("wrong G", err, "G does not satisfy")
	_, err = Sign(b, &badLogn, nil, Compressed, rand.Reader)
	check("logn 11", err, "logn")
	_, err = Sign(b, &shortF, nil, Compressed, rand.Reader)
	check("short f", err, "f has 8 coefficients")
	_, err = Sign(b, sk, nil, SigFormat(7), rand.Reader)
	check("format", err, "unknown signature format")
	_, err = Sign(b, sk, nil, Compressed, nil)
	check("nil rng", err, "nil random source")
	_, err = Sign(b, sk, nil, Compressed, bytes.NewReader(make([]byte, 20)))
	check("short nonce", err, "reading the nonce")
	_, err = Sign(b, sk, nil, Compressed, bytes.NewReader(make([]byte, 60)))
	check("short seed", err, "reading a sampler seed")
	_, err = Sign(arith.Backend{Name: "int", Impl: 42}, sk, nil, Compressed, rand.Reader)
	check("backend", err, "not instantiated")
	_, err = ExpandPrivateKey(b, &badG)
	check("expand wrong G", err, "G does not satisfy")
	_, err = SignAttemptDyn(b, sk, hm, seed[:55])
	check("seed size", err, "seed is 55 bytes")
	_, err = SignAttemptDyn(b, sk, hm[:15], seed)
	check("hm size", err, "15 coefficients")
	_, err = SignHashedDyn(b, sk, append(hm[:15:15], Q), rand.Reader)
	check("hm value", err, "not below q")
	var zero ExpandedKey
	_, err = zero.Sign(nil, Compressed, rand.Reader)
	check("zero expanded key", err, "ExpandPrivateKey")
	_, err = (*ExpandedKey)(nil).SignHashed(hm, rand.Reader)
	check("nil expanded key", err, "ExpandPrivateKey")
	_, err = (*ExpandedKey)(nil).SignAttempt(hm, seed)
	check("nil expanded key attempt", err, "ExpandPrivateKey")
	for name, ek := range map[string]*ExpandedKey{"nil": nil, "zero": &zero} {
		if n := ek.LogN(); n != 0 {
			t.Errorf("%s expanded key: LogN %d, want 0", name, n)
		}
		if kb := ek.Backend(); kb.Name != "" || kb.Impl != nil {
			t.Errorf("%s expanded key: Backend %q, want the zero Backend", name, kb.Name)
		}
	}
	_, err = (*Signature)(nil).Encode()
	check("nil signature", err, "nil signature")
	if _, err := Sign(b, &noG, []byte("m"), Compressed, rand.Reader); err != nil {
		t.Errorf("key without G: %v", err)
	}

	broken := arith.Backend{Name: "broken-exp", Bits: 53, Impl: arith.Arith[float64](sigBrokenExp{})}
	_, err = Sign(broken, sk, []byte("m"), Compressed, rand.Reader)
	if !errors.Is(err, ErrSamplerStuck) {
		t.Errorf("broken ExpmP63: error %v, want %v", err, ErrSamplerStuck)
	}
	long := arith.Backend{Name: "broken-rint", Bits: 53, Impl: arith.Arith[float64](sigBrokenRint{})}
	for _, format := range []SigFormat{Compressed, Padded} {
		_, err = Sign(long, sk, []byte("m"), format, seededRand(4))
		if !errors.Is(err, ErrSignAttempts) {
			t.Errorf("broken Rint, %v: error %v, want %v", format, err, ErrSignAttempts)
		}
	}
}
