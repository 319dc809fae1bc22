package falcon

import (
	"bytes"
	"crypto/sha256"
	"slices"
	"testing"

	"github.com/fprlab/fprlab/arith/emu64"
)

// TestSignFSMVectors signs the 120 padded signing vectors (n = 2 to 1024;
// -short: the subset of TestSignKATPadded) with ffSampling run by the
// state machine over emu64: every signature is the published one byte for
// byte, the accumulated SHA-256 matches, and the machine's statistics have
// the values the tree's shape dictates -- a depth of logn frames, and per
// attempt 2^logn leaves, 6 state entries per internal node (FFSAMPLING
// three times, RIGHT, LEFT, ASCEND) and 2 per leaf (FFSAMPLING, ASCEND).
func TestSignFSMVectors(t *testing.T) {
	vs := signKATSubset(loadSignKAT(t))
	got, want := sha256.New(), sha256.New()
	for _, v := range vs {
		sig := mustHex(t, v.Sig)
		rng := bytes.NewReader(v.stream(t))
		s, st, err := SignFSM(emu64.Arith{}, v.key(), []byte(v.Message), Padded, rng)
		if err != nil {
			t.Fatalf("vector %d: %v", v.Index, err)
		}
		got.Write(s)
		want.Write(sig)
		if !bytes.Equal(s, sig) {
			t.Errorf("vector %d (n = %d): signature differs", v.Index, v.N)
		}
		n, att := 1<<v.LogN, len(v.PRNGSeeds)
		wantT := att * (6*(n-1) + 2*n)
		if st.Attempts != att || st.MaxDepth != int(v.LogN) || st.Leaves != att*n || st.Transitions != wantT ||
			st.PeakWords != 8*int(v.LogN)+9*n {
			t.Errorf("vector %d (n = %d, %d attempts): %+v, want %d transitions", v.Index, v.N, att, st, wantT)
		}
	}
	if !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
		t.Errorf("accumulated SHA-256 over %d signatures differs", len(vs))
	}
}

// TestSignHashedDynFSM checks the NIST API path: s2 equals SignHashedDyn's
// on the vectors' keys and streams (seeds only, no nonce in the stream).
func TestSignHashedDynFSM(t *testing.T) {
	vs := signKATSubset(loadSignKAT(t))
	b := mustBackend(t, "emu64")
	for _, v := range vs[:min(len(vs), 40)] {
		hm := HashToPoint(mustHex(t, v.Nonce), []byte(v.Message), v.LogN)
		seeds := v.stream(t)[NonceSize:]
		wantS2, err := SignHashedDyn(b, v.key(), hm, bytes.NewReader(seeds))
		if err != nil {
			t.Fatal(err)
		}
		s2, _, err := SignHashedDynFSM(emu64.Arith{}, v.key(), hm, bytes.NewReader(seeds))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s2, wantS2) {
			t.Errorf("vector %d: s2 differs", v.Index)
		}
	}
	if _, _, err := SignHashedDynFSM(emu64.Arith{}, vs[0].key(), []uint16{1}, bytes.NewReader(nil)); err == nil {
		t.Error("a hashed point of the wrong length was accepted")
	}
}
