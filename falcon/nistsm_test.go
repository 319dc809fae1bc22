package falcon

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/falcon/katref"
)

// publishedKAT returns the records of the published round-3 KAT file for
// degree 2^logn (embedded in package katref).
func publishedKAT(t testing.TB, logn uint) []KATRecord {
	t.Helper()
	data, err := katref.Response(logn)
	if err != nil {
		t.Fatal(err)
	}
	_, recs, err := ParseKAT(data)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestKATSignedMessages checks the NIST layout on the published KAT records
// (all 200; the first 5 of each file under -short): OpenSM
// recovers the message; the (nonce, s2) inside sm re-encode to sm with
// EncodeSM; the KAT private key decodes (G recomputed), re-encodes byte for
// byte, and gives the KAT public key.
func TestKATSignedMessages(t *testing.T) {
	count := 0
	for _, logn := range []uint{9, 10} {
		recs := publishedKAT(t, logn)
		if testing.Short() {
			recs = recs[:5]
		}
		name := fmt.Sprint(logn)
		for _, r := range recs {
			pkb, skb, sm, msg := r.PK, r.SK, r.SM, r.Msg
			pk, err := DecodePublicKey(pkb)
			if err != nil {
				t.Fatalf("logn %s count %d: %v", name, r.Count, err)
			}
			got, err := OpenSM(pk, sm)
			if err != nil || !bytes.Equal(got, msg) {
				t.Fatalf("logn %s count %d: OpenSM: %v", name, r.Count, err)
			}
			// Take sm apart by the documented layout and rebuild it.
			sigLen := int(sm[0])<<8 | int(sm[1])
			if sigLen+2+NonceSize+len(msg) != len(sm) || sm[len(sm)-sigLen] != 0x20+byte(pk.LogN) {
				t.Fatalf("logn %s count %d: layout: siglen %d, smlen %d", name, r.Count, sigLen, len(sm))
			}
			s2, _, err := compDecode("test", sm[len(sm)-sigLen+1:], 1<<pk.LogN)
			if err != nil {
				t.Fatal(err)
			}
			re, err := EncodeSM(pk.LogN, sm[2:2+NonceSize], msg, s2)
			if err != nil || !bytes.Equal(re, sm) {
				t.Fatalf("logn %s count %d: EncodeSM differs: %v", name, r.Count, err)
			}
			sk, err := DecodePrivateKey(skb)
			if err != nil {
				t.Fatalf("logn %s count %d: %v", name, r.Count, err)
			}
			if !bytes.Equal(sk.Encode(), skb) {
				t.Fatalf("logn %s count %d: private key re-encoding differs", name, r.Count)
			}
			pub, err := sk.Public()
			if err != nil || !bytes.Equal(pub.Encode(), pkb) {
				t.Fatalf("logn %s count %d: public key from sk differs: %v", name, r.Count, err)
			}
			count++
		}
	}
	t.Logf("%d KAT records", count)
}

// TestOpenSMRejects covers OpenSM's error classes on a KAT record.
func TestOpenSMRejects(t *testing.T) {
	r := publishedKAT(t, 9)[0]
	pk, err := DecodePublicKey(r.PK)
	if err != nil {
		t.Fatal(err)
	}
	sm := r.SM
	sigLen := int(sm[0])<<8 | int(sm[1])
	mod := func(f func(b []byte) []byte) []byte { return f(slices.Clone(sm)) }
	for _, c := range []struct {
		name, want string
		invalid    bool
		b          []byte
	}{
		{"too short", "shorter than", false, sm[:41]},
		{"siglen too large", "exceeds", false, mod(func(b []byte) []byte { b[0], b[1] = 0xFF, 0xFF; return b })},
		{"siglen zero", "length field is 0", false, mod(func(b []byte) []byte { b[0], b[1] = 0, 0; return b })},
		{"siglen one less", "header byte", false, mod(func(b []byte) []byte { b[1]--; return b })},
		{"header 0x30+logn", "header byte 0x39", false, mod(func(b []byte) []byte { b[len(b)-sigLen] = 0x39; return b })},
		{"trailing byte", "", false, append(slices.Clone(sm), 0)},
		{"unused bits", "unused bits", false, mod(func(b []byte) []byte { b[len(b)-1] |= 1; return b })},
		{"message changed", "", true, mod(func(b []byte) []byte { b[2+NonceSize] ^= 1; return b })},
		{"nonce changed", "", true, mod(func(b []byte) []byte { b[2] ^= 0x80; return b })},
	} {
		_, err := OpenSM(pk, c.b)
		switch {
		case err == nil:
			t.Errorf("%s: accepted", c.name)
		case c.invalid && !errors.Is(err, ErrInvalidSignature):
			t.Errorf("%s: %v, want ErrInvalidSignature", c.name, err)
		case !c.invalid && !errors.Is(err, ErrMalformed):
			t.Errorf("%s: %v, want ErrMalformed", c.name, err)
		case !strings.Contains(err.Error(), c.want):
			t.Errorf("%s: %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	if _, err := OpenSM(nil, sm); err == nil {
		t.Error("nil key accepted")
	}
}

// TestEncodeSMErrors: EncodeSM refuses what crypto_sign cannot produce.
func TestEncodeSMErrors(t *testing.T) {
	nonce := make([]byte, NonceSize)
	big := make([]int16, 512)
	for i := range big {
		big[i] = 2000 // 3 bytes each compressed: far above 647
	}
	for _, c := range []struct {
		name  string
		logn  uint
		nonce []byte
		s2    []int16
		want  string
	}{
		{"logn 11", 11, nonce, nil, "out of range"},
		{"nonce", 9, nonce[:39], make([]int16, 512), "nonce is 39 bytes"},
		{"n", 9, nonce, make([]int16, 511), "511 coefficients"},
		{"range", 9, nonce, append(make([]int16, 511), -2048), "outside"},
		{"too long", 9, nonce, big, "more than the 647"},
	} {
		_, err := EncodeSM(c.logn, c.nonce, []byte("m"), c.s2)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// The smallest degree works too (with the falcon.h compressed bound).
	sm, err := EncodeSM(1, nonce, nil, []int16{3, -3})
	if err != nil || len(sm) != 2+NonceSize+1+3 || sm[2+NonceSize] != 0x21 {
		t.Errorf("logn 1: %x, %v", sm, err)
	}
}
