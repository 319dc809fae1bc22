package accel

import (
	"sync"
	"testing"
)

// record0 caches CountKATRecord(logn, 0) for the tests that only read it.
var record0 sync.Map

func record0Counts(logn uint) (*KATCounts, error) {
	if k, ok := record0.Load(logn); ok {
		return k.(*KATCounts), nil
	}
	k, err := CountKATRecord(logn, 0)
	if err == nil {
		record0.Store(logn, k)
	}
	return k, err
}

// TestIntCountsRecord0 checks the structural integer counts of KAT record
// 0: mq_montymul per phase against the reference's counts file, both
// degrees, and the Keccak-f[1600] total of Falcon-512 against HORCRUX
// Table II (503 calls for keygen, sign and verify).
func TestIntCountsRecord0(t *testing.T) {
	ref := loadRefCounts(t)
	for _, logn := range []uint{9, 10} {
		k, err := record0Counts(logn)
		if err != nil {
			t.Fatal(err)
		}
		want := ref.degree(logn)
		for _, ph := range []struct {
			name string
			got  IntCounts
		}{{"keypair", k.KeypairInt}, {"sign", k.SignInt}, {"open", k.OpenInt}, {"total", k.TotalInt()}} {
			if ph.got.MqMontymul != want[ph.name]["mq_montymul"] {
				t.Errorf("logn %d %s: mq_montymul %d, reference %d", logn, ph.name, ph.got.MqMontymul, want[ph.name]["mq_montymul"])
			}
		}
		if !k.MqExact || k.Candidates != 1 || k.SignAttempts != 1 {
			t.Errorf("logn %d: exact %v, %d candidates, %d attempts", logn, k.MqExact, k.Candidates, k.SignAttempts)
		}
		// Verification hashes what signing hashed; signing also squeezes
		// one 56-byte seed (one permutation).
		if k.SignInt.KeccakF1600 != k.OpenInt.KeccakF1600+1 {
			t.Errorf("logn %d: sign %d, verify %d permutations", logn, k.SignInt.KeccakF1600, k.OpenInt.KeccakF1600)
		}
		if logn == 9 && k.TotalInt().KeccakF1600 != 503 {
			t.Errorf("Falcon-512 record 0: %d Keccak-f[1600] calls, HORCRUX Table II 503", k.TotalInt().KeccakF1600)
		}
	}
}

// TestShakePermutations checks the permutation count on block
// boundaries: 135 absorbed bytes fit the first block, 136 fill it (the
// reference permutes as soon as a block is full); one squeezed byte needs
// one permutation, 137 need two.
func TestShakePermutations(t *testing.T) {
	for _, c := range []struct {
		in, out int64
		want    uint64
	}{{0, 1, 1}, {135, 1, 1}, {136, 1, 2}, {48, 136, 1}, {48, 137, 2}, {272, 272, 4}} {
		if got := shakePermutations(c.in, c.out); got != c.want {
			t.Errorf("shakePermutations(%d, %d) = %d, want %d", c.in, c.out, got, c.want)
		}
	}
}
