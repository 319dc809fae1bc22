package falcon

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// vrfySchoolbookS1 computes s1 = hm - s2 h in Z_q[X]/(X^n + 1) by the
// quadratic product and returns ||s1||^2 + ||s2||^2 with s1 centred; an
// independent model of verify_raw for the tests.
func vrfySchoolbookSqNorm(hm []uint16, s2 []int16, h []uint16) int64 {
	n := len(h)
	prod := make([]int64, n)
	for i := range n {
		for j := range n {
			v := int64(s2[i]) * int64(h[j])
			if k := i + j; k < n {
				prod[k] += v
			} else {
				prod[k-n] -= v
			}
		}
	}
	var sq int64
	for i := range n {
		s1 := ((int64(hm[i])-prod[i])%Q + Q) % Q
		if s1 > Q/2 {
			s1 -= Q
		}
		sq += s1*s1 + int64(s2[i])*int64(s2[i])
	}
	return sq
}

// TestKATSigVectors runs the 3 x 10 verification vectors of test_falcon.c
// (n = 16, 512, 1024; 32-byte nonces, raw 16-bit big-endian s2): the raw
// signature decodes to s2, HashToPoint and its constant-time variant agree,
// an independent schoolbook model reproduces the recorded squared norm, and
// VerifyHashed accepts. A wrong message or a perturbed s2 is rejected.
func TestKATSigVectors(t *testing.T) {
	v := loadTestFalconVectors(t)
	count := 0
	for _, name := range []string{"16", "512", "1024"} {
		k := v.NTRUKeys[name]
		pk := &PublicKey{LogN: k.LogN, H: make([]uint16, len(k.H))}
		for i, x := range k.H {
			pk.H[i] = uint16(x)
		}
		p := mustParams(k.LogN)
		if len(v.KATSig[name]) != 10 {
			t.Fatalf("n=%s: %d vectors", name, len(v.KATSig[name]))
		}
		for i, sv := range v.KATSig[name] {
			raw := vrfyHex(t, sv.SigRawHex)
			if raw[0] != byte(k.LogN) {
				t.Fatalf("n=%s #%d: raw header %d", name, i, raw[0])
			}
			s2, used, err := trimDecode[int16]("signature", "s2", raw[1:], p.N, 16)
			if err != nil || used != len(raw)-1 || !slices.Equal(s2, vrfyI16(sv.S2)) {
				t.Fatalf("n=%s #%d: raw s2 decoding: %v", name, i, err)
			}
			if enc, err := trimEncode(s2, 16); err != nil || !bytes.Equal(enc, raw[1:]) {
				t.Fatalf("n=%s #%d: 16-bit re-encoding differs: %v", name, i, err)
			}
			nonce := vrfyHex(t, sv.Nonce)
			hm := HashToPoint(nonce, []byte(sv.Message), k.LogN)
			if ct := hashToPointCT(nonce, []byte(sv.Message), k.LogN); !slices.Equal(ct, hm) {
				t.Fatalf("n=%s #%d: hashToPointCT differs from HashToPoint", name, i)
			}
			if got := vrfySchoolbookSqNorm(hm, s2, pk.H); got != sv.SqNorm {
				t.Fatalf("n=%s #%d: model squared norm %d, vector says %d", name, i, got, sv.SqNorm)
			}
			if !VerifyHashed(pk, hm, s2) {
				t.Fatalf("n=%s #%d: valid signature rejected", name, i)
			}
			other := HashToPoint(nonce, []byte(sv.Message+"!"), k.LogN)
			if VerifyHashed(pk, other, s2) {
				t.Fatalf("n=%s #%d: accepted for another message", name, i)
			}
			bad := slices.Clone(s2)
			bad[i] += 1
			if VerifyHashed(pk, hm, bad) {
				t.Fatalf("n=%s #%d: accepted with s2[%d] changed", name, i, i)
			}
			count++
		}
	}
	t.Logf("%d verify vectors", count)
}

// TestPaddedVectorsVerify verifies the 120 falcon.py PADDED signatures
// (n = 2..1024) under pk = g/f: the decoding gives the recorded s2 and
// re-encodes byte for byte; the same (nonce, s2) re-encoded as compressed
// and (when it fits) ct also verifies; another message does not.
func TestPaddedVectorsVerify(t *testing.T) {
	for _, x := range loadSignKAT(t) {
		h, err := ComputePublic(x.F, x.G, x.LogN)
		if err != nil {
			t.Fatalf("vector %d: %v", x.Index, err)
		}
		pk := &PublicKey{LogN: x.LogN, H: h}
		msg := []byte(x.Message)
		sig := vrfyHex(t, x.Sig)
		s, err := DecodeSignature(sig)
		if err != nil {
			t.Fatalf("vector %d: %v", x.Index, err)
		}
		if s.Format != Padded || s.LogN != x.LogN || !slices.Equal(s.S2, x.S2) {
			t.Fatalf("vector %d: decoded %v logn %d, s2 match %v", x.Index, s.Format, s.LogN, slices.Equal(s.S2, x.S2))
		}
		if re, err := s.Encode(); err != nil || !bytes.Equal(re, sig) {
			t.Fatalf("vector %d: re-encoding differs: %v", x.Index, err)
		}
		if err := Verify(pk, msg, sig); err != nil {
			t.Fatalf("vector %d: %v", x.Index, err)
		}
		if err := Verify(pk, append(msg, 0), sig); !errors.Is(err, ErrInvalidSignature) {
			t.Fatalf("vector %d: other message: %v", x.Index, err)
		}
		for _, f := range []SigFormat{Compressed, CT} {
			b, err := EncodeSignature(f, x.LogN, s.Nonce, s.S2)
			fits := true
			if f == CT {
				lim := int16(trimBound(mustParams(x.LogN).SigBits))
				fits = slices.Max(s.S2) <= lim && slices.Min(s.S2) >= -lim
			}
			if !fits {
				// The ct format holds s2 only when it is short enough.
				if err == nil {
					t.Fatalf("vector %d: ct encoding of an out-of-range s2 succeeded", x.Index)
				}
				continue
			}
			if err != nil {
				t.Fatalf("vector %d %v: %v", x.Index, f, err)
			}
			if err := Verify(pk, msg, b); err != nil {
				t.Fatalf("vector %d %v: %v", x.Index, f, err)
			}
		}
	}
}

// vrfyFalcon512 returns a valid Falcon-512 public key encoding, message and
// PADDED signature from the falcon.py vectors.
func vrfyFalcon512(t testing.TB) (pkb, msg, sig []byte) {
	for _, x := range loadSignKAT(t) {
		if x.LogN != 9 {
			continue
		}
		h, err := ComputePublic(x.F, x.G, 9)
		if err != nil {
			t.Fatal(err)
		}
		return (&PublicKey{LogN: 9, H: h}).Encode(), []byte(x.Message), vrfyHex(t, x.Sig)
	}
	t.Fatal("no Falcon-512 vector")
	return
}

// TestVerifyBitFlips flips every single bit of a valid Falcon-512 signature
// (padded, and the same signature compressed and ct) and of its public key:
// each flip must be rejected, either as malformed or as invalid.
func TestVerifyBitFlips(t *testing.T) {
	pkb, msg, padded := vrfyFalcon512(t)
	pk, err := DecodePublicKey(pkb)
	if err != nil {
		t.Fatal(err)
	}
	s, err := DecodeSignature(padded)
	if err != nil {
		t.Fatal(err)
	}
	sigs := map[SigFormat][]byte{Padded: padded}
	for _, f := range []SigFormat{Compressed, CT} {
		if sigs[f], err = EncodeSignature(f, 9, s.Nonce, s.S2); err != nil {
			t.Fatal(err)
		}
	}
	// The four sweeps (about 24,000 verifications) run in parallel; -short
	// sweeps the padded signature and the key only. Each sweep flips bits in
	// its own copy: the key sweep verifies against padded while the padded
	// sweep is flipping bits, and sharing one slice made both racy.
	for _, f := range []SigFormat{Padded, Compressed, CT} {
		if testing.Short() && f != Padded {
			continue
		}
		sig := slices.Clone(sigs[f])
		t.Run(f.String(), func(t *testing.T) {
			t.Parallel()
			if err := Verify(pk, msg, sig); err != nil {
				t.Fatalf("unmodified signature: %v", err)
			}
			var malformed, invalid int
			for bit := range 8 * len(sig) {
				sig[bit/8] ^= 1 << (bit % 8)
				err := Verify(pk, msg, sig)
				sig[bit/8] ^= 1 << (bit % 8)
				switch {
				case err == nil:
					t.Fatalf("signature with bit %d flipped verifies", bit)
				case errors.Is(err, ErrInvalidSignature):
					invalid++
				default:
					malformed++
				}
			}
			t.Logf("%d bits: %d malformed, %d invalid", 8*len(sig), malformed, invalid)
		})
	}
	t.Run("public key", func(t *testing.T) {
		t.Parallel()
		pkb := slices.Clone(pkb)
		padded := slices.Clone(padded)
		var malformed, invalid int
		for bit := range 8 * len(pkb) {
			pkb[bit/8] ^= 1 << (bit % 8)
			pk2, err := DecodePublicKey(pkb)
			if err == nil {
				err = Verify(pk2, msg, padded)
				if err == nil {
					t.Fatalf("public key with bit %d flipped accepts the signature", bit)
				}
				invalid++
			} else {
				malformed++
			}
			pkb[bit/8] ^= 1 << (bit % 8)
		}
		t.Logf("%d bits: %d malformed, %d invalid", 8*len(pkb), malformed, invalid)
	})
}

// TestVerifyErrors: what Verify and VerifyHashed report for unusable input.
func TestVerifyErrors(t *testing.T) {
	pkb, msg, sig := vrfyFalcon512(t)
	pk, _ := DecodePublicKey(pkb)
	if err := Verify(nil, msg, sig); err == nil || errors.Is(err, ErrInvalidSignature) {
		t.Errorf("nil key: %v", err)
	}
	if err := Verify(&PublicKey{LogN: 9, H: pk.H[:100]}, msg, sig); err == nil || errors.Is(err, ErrInvalidSignature) {
		t.Errorf("short key: %v", err)
	}
	if err := Verify(pk, msg, sig[:100]); !errors.Is(err, ErrMalformed) {
		t.Errorf("truncated signature: %v", err)
	}
	// A well-formed signature for another degree is an invalid signature.
	other := slices.Clone(sig)
	other[0] = 0x30 + 10
	if err := Verify(pk, msg, other); err == nil {
		t.Errorf("degree mismatch accepted")
	}
	s, _ := DecodeSignature(sig)
	hm := HashToPoint(s.Nonce, msg, 9)
	if !VerifyHashed(pk, hm, s.S2) {
		t.Fatal("VerifyHashed rejects a valid signature")
	}
	bad := slices.Clone(hm)
	bad[0] = Q
	for name, ok := range map[string]bool{
		"hm coefficient q": VerifyHashed(pk, bad, s.S2),
		"short hm":         VerifyHashed(pk, hm[:511], s.S2),
		"short s2":         VerifyHashed(pk, hm, s.S2[:511]),
		"nil key":          VerifyHashed(nil, hm, s.S2),
	} {
		if ok {
			t.Errorf("%s accepted", name)
		}
	}
}

// TestIsShortBoundary checks the inclusive bound and the overflow
// saturation of IsShort and IsShortHalf against exact 64-bit sums.
func TestIsShortBoundary(t *testing.T) {
	for logn := uint(1); logn <= 10; logn++ {
		p := mustParams(logn)
		n := p.N
		// One coefficient carries the whole norm: s1[0]^2 + s2[0]^2 with
		// a small remainder spread over s2[1].
		exact := func(s1, s2 []int16) int64 {
			var s int64
			for i := range s1 {
				s += int64(s1[i])*int64(s1[i]) + int64(s2[i])*int64(s2[i])
			}
			return s
		}
		rng := rand.New(rand.NewPCG(uint64(logn), 1))
		for trial := range 2000 {
			s1, s2 := make([]int16, n), make([]int16, n)
			scale := []int{30, 300, 3000, 32767}[trial%4]
			for i := range n {
				s1[i] = int16(rng.IntN(2*scale+1) - scale)
				s2[i] = int16(rng.IntN(2*scale+1) - scale)
			}
			want := exact(s1, s2) <= int64(p.L2Bound)
			if got := IsShort(s1, s2, logn); got != want {
				t.Fatalf("logn %d trial %d: IsShort %v, exact sum %d vs bound %d", logn, trial, got, exact(s1, s2), p.L2Bound)
			}
			var sq1 int64
			for _, v := range s1 {
				sq1 += int64(v) * int64(v)
			}
			// The signer saturates ||s1||^2 to 2^32-1 when it overflows.
			sqn := uint32(math.MaxUint32)
			if sq1 < 1<<31 {
				sqn = uint32(sq1)
			}
			if got := IsShortHalf(sqn, s2, logn); got != want {
				t.Fatalf("logn %d trial %d: IsShortHalf %v, want %v", logn, trial, got, want)
			}
		}
		// Exactly at the bound and one above.
		b := int64(p.L2Bound)
		s1, s2 := make([]int16, n), make([]int16, n)
		rem := b
		for i := 0; rem > 0 && i < n; i++ {
			c := int64(math.Sqrt(float64(rem)))
			if c > 2047 {
				c = 2047
			}
			s1[i] = int16(c)
			rem -= c * c
			if rem > 0 {
				c = int64(math.Sqrt(float64(rem)))
				if c > 2047 {
					c = 2047
				}
				s2[i] = int16(c)
				rem -= c * c
			}
		}
		if rem != 0 || exact(s1, s2) != b {
			t.Fatalf("logn %d: could not build a vector of norm %d", logn, b)
		}
		if !IsShort(s1, s2, logn) {
			t.Errorf("logn %d: norm exactly at the bound rejected", logn)
		}
		// Add 1 to the squared norm: a zero coefficient becomes 1 if any.
		if i := slices.Index(s2, 0); i >= 0 {
			s2[i] = 1
			if IsShort(s1, s2, logn) {
				t.Errorf("logn %d: norm bound+1 accepted", logn)
			}
		}
	}
	// Wrap-around: n = 1024 coefficients of 32767 sum to about 2^40, which
	// wraps a 32-bit sum many times; saturation must still reject.
	big := make([]int16, 1024)
	for i := range big {
		big[i] = math.MaxInt16
	}
	if IsShort(big, big, 10) || IsShortHalf(0, big, 10) {
		t.Error("overflowing norm accepted")
	}
	// A sum of exactly 2^32 would wrap to 0 without saturation.
	wrap := make([]int16, 1024)
	for i := range 1024 {
		wrap[i] = 2048 // 1024 * 2048^2 = 2^32
	}
	if IsShort(wrap, make([]int16, 1024), 10) || IsShortHalf(0, wrap, 10) {
		t.Error("norm 2^32 accepted")
	}
	if IsShortHalf(1<<31, make([]int16, 512), 9) {
		t.Error("saturated sqn accepted")
	}
	if IsShort(nil, nil, 9) || IsShort(make([]int16, 2), make([]int16, 2), 0) {
		t.Error("bad lengths or logn accepted")
	}
}

// BenchmarkVerify512 times Verify of a Falcon-512 padded signature, and
// VerifyingKey.Verify with the key prepared once.
func BenchmarkVerify512(b *testing.B) {
	pkb, msg, sig := vrfyFalcon512(b)
	pk, _ := DecodePublicKey(pkb)
	for b.Loop() {
		if err := Verify(pk, msg, sig); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyPrepared512(b *testing.B) {
	pkb, msg, sig := vrfyFalcon512(b)
	pk, _ := DecodePublicKey(pkb)
	vk, err := NewVerifyingKey(pk)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := vk.Verify(msg, sig); err != nil {
			b.Fatal(err)
		}
	}
}

// TestVerifyAllocs checks that a prepared key verifies without allocating,
// in every signature format (hashing, decoding and the NTT product all run
// in fixed-size stack buffers).
func TestVerifyAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("allocation counts differ under coverage")
	}
	sk := katKeys(t)[9]
	pk, err := sk.Public()
	if err != nil {
		t.Fatal(err)
	}
	vk, err := NewVerifyingKey(pk)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("allocation budget")
	for _, format := range []SigFormat{Compressed, Padded, CT} {
		sig, err := Sign(mustBackend(t, "native"), sk, msg, format, seededRand(3))
		if err != nil {
			t.Fatal(err)
		}
		if got := testing.AllocsPerRun(50, func() {
			if err := vk.Verify(msg, sig); err != nil {
				t.Fatal(err)
			}
		}); got != 0 {
			t.Errorf("%v: %.1f allocations per verification, want 0", format, got)
		}
	}
}
