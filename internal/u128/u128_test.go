package u128_test

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/internal/u128"
)

func toBig(a u128.U128) *big.Int {
	x := new(big.Int).SetUint64(a.Hi)
	return x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(a.Lo))
}

// TestAgainstBig checks every operation against math/big modulo 2^128.
func TestAgainstBig(t *testing.T) {
	mod := new(big.Int).Lsh(big.NewInt(1), 128)
	wrap := func(x *big.Int) *big.Int { return x.Mod(x, mod) }
	r := rand.New(rand.NewPCG(1, 2))
	rnd := func() u128.U128 {
		a := u128.U128{Hi: r.Uint64(), Lo: r.Uint64()}
		return a.Shr(r.IntN(128))
	}
	for range 100_000 {
		a, b, n := rnd(), rnd(), r.IntN(128)
		A, B := toBig(a), toBig(b)
		check := func(op string, got u128.U128, want *big.Int) {
			t.Helper()
			if toBig(got).Cmp(wrap(want)) != 0 {
				t.Fatalf("%s of %x, %x (n = %d): %x, want %x", op, A, B, n, toBig(got), want)
			}
		}
		check("Add", a.Add(b), new(big.Int).Add(A, B))
		check("Sub", a.Sub(b), new(big.Int).Sub(A, B))
		check("Neg", a.Neg(), new(big.Int).Neg(A))
		check("Shl", a.Shl(n), new(big.Int).Lsh(A, uint(n)))
		check("Shr", a.Shr(n), new(big.Int).Rsh(A, uint(n)))
		mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(n)), big.NewInt(1))
		check("LowBits", a.LowBits(n), new(big.Int).And(A, mask))
		if got, want := a.Len(), A.BitLen(); got != want {
			t.Fatalf("Len of %x: %d, want %d", A, got, want)
		}
		if got, want := a.Cmp(b), A.Cmp(B); got != want {
			t.Fatalf("Cmp of %x, %x: %d, want %d", A, B, got, want)
		}
		if a.IsZero() != (A.Sign() == 0) {
			t.Fatalf("IsZero of %x", A)
		}
	}
	if !(u128.U128{}).IsZero() || u128.From(7).Cmp(u128.From(7)) != 0 {
		t.Fatal("zero or equal values")
	}
}
