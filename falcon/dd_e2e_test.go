package falcon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"testing"
	"time"

	"github.com/fprlab/fprlab/falcon/katref"
)

// Falcon end to end over "dd", the double-word binary64 backend (106-bit
// significands): the exact-shadow candidate that is much faster than the
// 256-bit oracle.

// TestDoubleWordSignKATPadded signs the 120 padded signing vectors
// (n = 2 to 1024) over dd with the random stream the reference read, on
// the expanded-key path (and, with -short, the dynamic path on the degrees
// up to 64 and the first vector of 512), verifies every signature, and
// counts those equal to the reference's binary64 signature.
//
// dd's centres and standard deviations differ from binary64's by the
// accumulated binary64 error (about 2^-40 relative), and its ExpmP63 is
// the true function where the reference evaluates a polynomial (2^-51 of
// full scale apart), so a sampler decision or the rounding of a
// coordinate changes only when a value lies that close to a boundary: the
// signatures are expected to equal the reference's. The test pins the
// observed outcome, all 120 equal (the same digest as the reference's),
// as it does for the oracle.
func TestDoubleWordSignKATPadded(t *testing.T) {
	b := mustBackend(t, "dd")
	all := loadSignKAT(t)
	vs, path := all, "tree"
	if testing.Short() {
		vs, path = nil, "dyn"
		for i, v := range all {
			if v.N <= 64 || (v.N == 512 && all[i-1].N != 512) {
				vs = append(vs, v)
			}
		}
	}
	start := time.Now()
	gotDigest, wantDigest := sha256.New(), sha256.New()
	equal, equal512, n512 := 0, 0, 0
	for _, v := range vs {
		want := mustHex(t, v.Sig)
		got := signPaddedVector(t, b, path, &v)
		pk, err := v.key().Public()
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(pk, []byte(v.Message), got); err != nil {
			t.Errorf("vector %d (n = %d): dd signature does not verify: %v", v.Index, v.N, err)
		}
		gotDigest.Write(got)
		wantDigest.Write(want)
		same := bytes.Equal(got, want)
		if same {
			equal++
		} else {
			t.Errorf("vector %d (n = %d): signature differs from the reference", v.Index, v.N)
		}
		if v.N == 512 {
			n512++
			if same {
				equal512++
			}
		}
	}
	if !bytes.Equal(gotDigest.Sum(nil), wantDigest.Sum(nil)) {
		t.Errorf("accumulated SHA-256 over %d signatures differs", len(vs))
	}
	if len(vs) == len(all) && hex.EncodeToString(gotDigest.Sum(nil)) != signKATDigest {
		t.Errorf("digest of all signatures %x, want %s", gotDigest.Sum(nil), signKATDigest)
	}
	t.Logf("%s path: %d of %d signatures equal the reference's (%d of %d at n = 512), %v",
		path, equal, len(vs), equal512, n512, time.Since(start).Round(time.Millisecond))
}

// TestDoubleWordKeygenSignVerify generates a Falcon-512 key over dd
// (binary64's exponent range is enough for NTRUSolve), signs on both paths
// and verifies. The key is compared with native's for the same keygen
// stream and the outcome logged: key generation rejects candidates on
// floating-point results, so a more precise arithmetic may keep another
// candidate (a valid key all the same).
func TestDoubleWordKeygenSignVerify(t *testing.T) {
	b := mustBackend(t, "dd")
	if err := KeygenSupported(b); err != nil {
		t.Fatal(err)
	}
	sk, pk, err := Keygen(b, 9, seededRand(49))
	if err != nil {
		t.Fatal(err)
	}
	skN, pkN, err := Keygen(mustBackend(t, "native"), 9, seededRand(49))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("key equals native's: %v", bytes.Equal(sk.Encode(), skN.Encode()) && bytes.Equal(pk.Encode(), pkN.Encode()))
	ek, err := ExpandPrivateKey(b, sk)
	if err != nil {
		t.Fatal(err)
	}
	for i, format := range []SigFormat{Compressed, Padded, CT} {
		msg := []byte("double-word message " + format.String())
		var sig []byte
		if i%2 == 0 {
			sig, err = Sign(b, sk, msg, format, seededRand(uint64(60+i)))
		} else {
			sig, err = ek.Sign(msg, format, seededRand(uint64(60+i)))
		}
		if err != nil {
			t.Fatalf("%v: %v", format, err)
		}
		if err := Verify(pk, msg, sig); err != nil {
			t.Fatalf("%v: Verify: %v", format, err)
		}
		if Verify(pk, append(msg, '!'), sig) == nil {
			t.Fatalf("%v: signature verifies for another message", format)
		}
	}
}

// BenchmarkSign512DoubleWordVsOracle measures a complete Falcon-512
// signature on the dynamic path over dd and over the 256-bit oracle, the
// two candidates for the exact shadow of a signature.
func BenchmarkSign512DoubleWordVsOracle(b *testing.B) {
	sk := katKeys(b)[9]
	msg := []byte("benchmark message")
	for _, name := range []string{"dd", "oracle"} {
		be := mustBackend(b, name)
		b.Run(name, func(b *testing.B) {
			rng := seededRand(9)
			for b.Loop() {
				if _, err := Sign(be, sk, msg, Compressed, rng); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDoubleWordKAT512 regenerates the Falcon-512 NIST KAT over dd (keys
// and signatures) and compares every record with the published file;
// where a record differs, it must equal the record the 256-bit oracle
// generates from the same seed. Observed and pinned: all records but
// record 50 equal the published ones, and record 50 equals the oracle's
// (NTRUSolve over binary64 rejects a candidate that 106 and 256 bits
// accept, so the seed gives another key). -short checks records 0, 1
// and 50.
func TestDoubleWordKAT512(t *testing.T) {
	ddb, orb := mustBackend(t, "dd"), mustBackend(t, "oracle")
	data, err := katref.Response(9)
	if err != nil {
		t.Fatal(err)
	}
	_, published, err := ParseKAT(data)
	if err != nil {
		t.Fatal(err)
	}
	reqs := KATRequests(len(published))
	todo := []int{0, 1, 50}
	if !testing.Short() {
		todo = nil
		for i := range reqs {
			todo = append(todo, i)
		}
	}
	var differ []int
	for _, i := range todo {
		got := reqs[i]
		if err := GenerateKAT(9, &got, KATOptions{Keygen: ddb}); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if CompareKATRecord(&got, &published[i]) == nil {
			continue
		}
		differ = append(differ, i)
		want := reqs[i]
		if err := GenerateKAT(9, &want, KATOptions{Keygen: orb}); err != nil {
			t.Fatalf("record %d over the oracle: %v", i, err)
		}
		if m := CompareKATRecord(&got, &want); m != nil {
			t.Errorf("record %d differs from the published one and from the oracle's (%s byte %d)", i, m.Field, m.Offset)
		}
	}
	if !slices.Equal(differ, []int{50}) {
		t.Errorf("records differing from the published file: %v, want [50]", differ)
	}
	t.Logf("%d records: %d equal the published file, records %v equal the oracle's instead", len(todo), len(todo)-len(differ), differ)
}
