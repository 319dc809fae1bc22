package nativefma

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith/native"
)

// TestExpmP63Reference checks ExpmP63 against the reference's AVX2+FMA
// build on 64 inputs (testdata/expm_avx2fma.txt, printed by that build),
// and that the inputs tell it from native's Horner evaluation.
func TestExpmP63Reference(t *testing.T) {
	f, err := os.Open("testdata/expm_avx2fma.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, differ := 0, 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		var v [3]uint64
		for i, s := range strings.Fields(line) {
			if v[i], err = strconv.ParseUint(s, 16, 64); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
		}
		x, ccs := math.Float64frombits(v[0]), math.Float64frombits(v[1])
		if got := ExpmP63(x, ccs); got != v[2] {
			t.Errorf("ExpmP63(%v, %v) = %#x, the reference's AVX2+FMA build gives %#x", x, ccs, got, v[2])
		}
		if native.ExpmP63(x, ccs) != v[2] {
			differ++
		}
		n++
	}
	if n != 64 {
		t.Fatalf("read %d vectors, want 64", n)
	}
	if differ == 0 {
		t.Error("no vector tells the AVX2 evaluation from native's")
	}
}

// TestFMA checks that FMA rounds once: (1+2^-30)^2 - 1 keeps the 2^-60 term
// that Mul then Add loses.
func TestFMA(t *testing.T) {
	x := 1 + math.Ldexp(1, -30)
	if got, want := (Arith{}).FMA(x, x, -1), math.Ldexp(1, -29)+math.Ldexp(1, -60); got != want {
		t.Errorf("FMA = %v, want %v", got, want)
	}
	if got := (Arith{}).Add((Arith{}).Mul(x, x), -1); got != math.Ldexp(1, -29) {
		t.Errorf("Mul then Add = %v, want 2^-29", got)
	}
}
