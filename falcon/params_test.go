package falcon

import "testing"

// TestParamsSizes checks the falcon.h sizes against the values the reference
// documents (falcon.h comments and sign_kat_padded.json's sig_len column).
func TestParamsSizes(t *testing.T) {
	padded := []int{44, 47, 52, 63, 82, 122, 200, 356, 666, 1280}
	for logn := uint(1); logn <= 10; logn++ {
		p, err := ParamsFor(logn)
		if err != nil {
			t.Fatal(err)
		}
		if p.SigPaddedSize != padded[logn-1] {
			t.Errorf("logn %d: padded size %d, want %d", logn, p.SigPaddedSize, padded[logn-1])
		}
	}
	for _, c := range []struct {
		p                  *Params
		pk, sk, ct, compMx int
	}{
		{Falcon512, 897, 1281, 809, 752},
		{Falcon1024, 1793, 2305, 1577, 1462},
	} {
		if c.p.PublicKeySize != c.pk || c.p.PrivateKeySize != c.sk || c.p.SigCTSize != c.ct || c.p.SigCompressedMaxSize != c.compMx {
			t.Errorf("n=%d: sizes pk %d sk %d ct %d compmax %d", c.p.N, c.p.PublicKeySize, c.p.PrivateKeySize, c.p.SigCTSize, c.p.SigCompressedMaxSize)
		}
	}
	if _, err := ParamsFor(0); err == nil {
		t.Error("logn 0 accepted")
	}
	if _, err := ParamsFor(11); err == nil {
		t.Error("logn 11 accepted")
	}
}

// TestMaxEncodedSizes: the longest encodings over every degree are
// Falcon-1024's (public key 1793, private key 2305, compressed signature
// at most 1462 bytes but the constant-time format 1577).
func TestMaxEncodedSizes(t *testing.T) {
	if pk, sk, sig := MaxEncodedSizes(); pk != 1793 || sk != 2305 || sig != 1577 {
		t.Errorf("MaxEncodedSizes() = %d, %d, %d; want 1793, 2305, 1577", pk, sk, sig)
	}
}
