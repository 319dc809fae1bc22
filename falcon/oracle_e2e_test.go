package falcon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"testing"
	"time"

	"github.com/fprlab/fprlab/arith"
)

// Falcon end to end over the big-float backends: the oracle (256 bits) and
// vprec:53, the virtual precision that rounds as binary64 does.

// TestBigFloatSignVerifyRoundTrip generates Falcon-512 and Falcon-1024 keys
// with the oracle and vprec:53, signs with both signing paths and two
// formats, and verifies.
//
// vprec:53's keys must equal native's for the same keygen stream (it
// computes the same binary64 values). The oracle's need not: key generation
// rejects candidates on floating-point results, and for this Falcon-1024
// stream the reference's NTRUSolve fails over binary64 on a candidate
// (f, g) that it solves at 256 bits, so the oracle keeps an earlier
// candidate and the whole key differs (a valid key all the same). The test
// logs whether the oracle's key equals native's.
//
// -short mode runs Falcon-512 only, with one format.
func TestBigFloatSignVerifyRoundTrip(t *testing.T) {
	native := mustBackend(t, "native")
	for _, name := range []string{"oracle", "vprec:53"} {
		b := mustBackend(t, name)
		for _, logn := range []uint{9, 10} {
			t.Run(name+"/"+itoa(1<<logn), func(t *testing.T) {
				if testing.Short() && logn == 10 {
					t.Skip("Falcon-1024 in -short mode")
				}
				start := time.Now()
				sk, pk, err := Keygen(b, logn, seededRand(uint64(40+logn)))
				if err != nil {
					t.Fatal(err)
				}
				skN, pkN, err := Keygen(native, logn, seededRand(uint64(40+logn)))
				if err != nil {
					t.Fatal(err)
				}
				same := bytes.Equal(sk.Encode(), skN.Encode()) && bytes.Equal(pk.Encode(), pkN.Encode())
				if name == "vprec:53" && !same {
					t.Errorf("%s keygen differs from native for the same stream", name)
				}
				t.Logf("key equals native's: %v", same)
				keygenTime := time.Since(start)
				start = time.Now()
				ek, err := ExpandPrivateKey(b, sk)
				if err != nil {
					t.Fatal(err)
				}
				rng := seededRand(uint64(50 + logn))
				sigs := 0
				formats := []SigFormat{Compressed, Padded}
				if testing.Short() {
					formats = formats[:1]
				}
				for _, format := range formats {
					for _, path := range []string{"dyn", "tree"} {
						msg := []byte("big-float round trip " + format.String() + " " + path)
						var sig []byte
						if path == "dyn" {
							sig, err = Sign(b, sk, msg, format, rng)
						} else {
							sig, err = ek.Sign(msg, format, rng)
						}
						if err != nil {
							t.Fatalf("%v %s: %v", format, path, err)
						}
						sigs++
						if err := Verify(pk, msg, sig); err != nil {
							t.Fatalf("%v %s: Verify: %v", format, path, err)
						}
						if err := Verify(pk, append(msg, '!'), sig); err == nil {
							t.Fatalf("%v %s: signature verifies for another message", format, path)
						}
					}
				}
				t.Logf("keygen (and native's) %v, %d signatures %v", keygenTime.Round(time.Millisecond), sigs, time.Since(start).Round(time.Millisecond))
			})
		}
	}
}

// TestBigFloatSignKATPadded signs the padded signing vectors (n = 2 to
// 1024) with vprec:53 and with the oracle, fed with the nonce and seeds the
// reference read, through the dynamic and the expanded-key paths.
//
// vprec:53 rounds every operation as binary64 does and its twiddles and
// constants are the reference's, so every floating-point value of signing
// is native's bit for bit, except the result of ExpmP63: vprec:53 rounds
// the true exp(-x) where the reference evaluates a polynomial, and the two
// differ in the last bits (about 2^-51 of full scale). The sampler compares
// that value with random bytes, most significant first, and nearly always
// decides on the first byte or two; a differing decision needs the random
// bytes to match the value down to the differing bits, a chance of about
// 2^-40 per comparison. All 120 signatures are therefore expected to equal
// the reference's, and they do.
//
// The oracle carries 256 bits, so its centres and standard deviations
// differ from binary64's by about 2^-40 relative (the accumulated binary64
// error): again a sampler decision, or the final rounding of a coordinate,
// changes only if a value lies that close to a boundary. The test pins the
// observed outcome: all 120 signatures equal the reference's.
//
// The oracle runs on the expanded-key path only (the dynamic path costs
// half as much again; -short covers it). -short signs the degrees up to 64
// and the first vector of 512 on the dynamic path only.
func TestBigFloatSignKATPadded(t *testing.T) {
	all := loadSignKAT(t)
	vs := all
	cases := [][2]string{{"vprec:53", "dyn"}, {"vprec:53", "tree"}, {"oracle", "tree"}}
	if testing.Short() {
		cases = [][2]string{{"vprec:53", "dyn"}, {"oracle", "dyn"}}
		vs = nil
		for i, v := range all {
			if v.N <= 64 || (v.N == 512 && all[i-1].N != 512) {
				vs = append(vs, v)
			}
		}
	}
	for _, c := range cases {
		name, path := c[0], c[1]
		b := mustBackend(t, name)
		t.Run(name+"/"+path, func(t *testing.T) {
			start := time.Now()
			gotDigest, wantDigest := sha256.New(), sha256.New()
			differ := 0
			for _, v := range vs {
				want := mustHex(t, v.Sig)
				got := signPaddedVector(t, b, path, &v)
				gotDigest.Write(got)
				wantDigest.Write(want)
				if !bytes.Equal(got, want) {
					differ++
					t.Errorf("vector %d (n = %d): signature differs from the reference", v.Index, v.N)
				}
			}
			if !bytes.Equal(gotDigest.Sum(nil), wantDigest.Sum(nil)) {
				t.Errorf("accumulated SHA-256 over %d signatures differs (%d differ)", len(vs), differ)
			}
			if len(vs) == len(all) && hex.EncodeToString(gotDigest.Sum(nil)) != signKATDigest {
				t.Errorf("digest of all signatures %x, want %s", gotDigest.Sum(nil), signKATDigest)
			}
			t.Logf("%d vectors in %v", len(vs), time.Since(start).Round(time.Millisecond))
		})
	}
}

// signPaddedVector signs vector v in the padded format on one path, with
// the random stream the reference read.
func signPaddedVector(t *testing.T, b arith.Backend, path string, v *signKATVector) []byte {
	t.Helper()
	sk := v.key()
	rng := bytes.NewReader(v.stream(t))
	var sig []byte
	var err error
	if path == "dyn" {
		sig, err = Sign(b, sk, []byte(v.Message), Padded, rng)
	} else {
		ek, err2 := ExpandPrivateKey(b, sk)
		if err2 != nil {
			t.Fatalf("vector %d: %v", v.Index, err2)
		}
		sig, err = ek.Sign([]byte(v.Message), Padded, rng)
	}
	if err != nil {
		t.Fatalf("vector %d (n = %d): %v", v.Index, v.N, err)
	}
	if rng.Len() != 0 {
		t.Errorf("vector %d: %d stream bytes left unread: %s made fewer attempts than the reference", v.Index, rng.Len(), b.Name)
	}
	return sig
}

// Low-precision signing is tested attempt by attempt in lowprec_test.go
// (TestLowPrecisionSignaturesVerify): whole signatures at vprec:16 exhaust
// the attempt budget over big floats, which takes minutes.

func itoa(n int) string {
	d := []byte{}
	for ; n > 0; n /= 10 {
		d = append(d, byte('0'+n%10))
	}
	slices.Reverse(d)
	return string(d)
}
