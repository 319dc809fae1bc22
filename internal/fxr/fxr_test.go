package fxr

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"testing"
)

// TestRoots pins the fixed-point roots of unity to the SHA-256 of
// go-fn-dsa's table gm_tab (2048 entries, each 8 bytes little-endian),
// computed from go-fn-dsa's source (see fndsa/testdata/gofndsa/README.md).
func TestRoots(t *testing.T) {
	const want = "e0746da83816f05bd5a3bbe0867bba11ee2bab9cd781780ce4d205d6c51b03d9"
	b := make([]byte, 0, 8*len(Roots))
	for _, x := range Roots {
		b = binary.LittleEndian.AppendUint64(b, uint64(x))
	}
	if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != want {
		t.Fatalf("roots digest %x, want %s", h, want)
	}
}

// TestArith checks the fixed-point operations on values worked by hand.
func TestArith(t *testing.T) {
	half := Value(1 << 31)
	for _, c := range []struct {
		name      string
		got, want Value
	}{
		{"1.5*-2", Mul(Of(1)+half, Of(-2)), Of(-3)},
		{"-2^-32 * 0.5 truncates down", Mul(^Value(0), half), ^Value(0)},
		{"2^-32 * 0.5 truncates to 0", Mul(1, half), 0},
		{"half(3*2^-32)", Half(3), 2},
		{"half(-3*2^-32)", Half(^Value(2)), ^Value(0)},
		{"1/3", Div(Of(1), Of(3)), 1431655765},
		{"2/3 rounds up", Div(Of(2), Of(3)), 2863311531},
		{"-2/3", Div(Of(-2), Of(3)), ^Value(2863311531 - 1)},
		{"7/-2", Div(Of(7), Of(-2)), -(Of(3) + half)},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, int64(c.got), int64(c.want))
		}
	}
	for _, c := range []struct {
		x    Value
		want int32
	}{
		{Of(2) + half, 3},       // 2.5 rounds up
		{-(Of(2) + half), -2},   // -2.5 rounds up too
		{Of(-3) + half - 1, -3}, // just below -2.5
		{Of(7), 7},
	} {
		if got := Round(c.x); got != c.want {
			t.Errorf("Round(%d): got %d, want %d", int64(c.x), got, c.want)
		}
	}
	// The FFT and its inverse nearly cancel on a small polynomial.
	f := []int8{3, -1, 4, 1, -5, 9, 2, -6}
	v := make([]Value, len(f))
	for i := range f {
		v[i] = Of(int32(f[i]))
	}
	FFT(3, v)
	IFFT(3, v)
	for i := range f {
		if d := int64(v[i]) - int64(Of(int32(f[i]))); d < -64 || d > 64 {
			t.Errorf("coefficient %d: %d after FFT and inverse", i, int64(v[i]))
		}
	}
}
