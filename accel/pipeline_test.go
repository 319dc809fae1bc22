package accel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// TestSimulatePairClosedForm checks the cycle-level simulation against the
// schedule's closed forms, written out independently, for small attempt
// counts and several latencies.
func TestSimulatePairClosedForm(t *testing.T) {
	for _, pl := range []Pipeline{{19, 1, 2}, {19, 1, 1}, {67, 40, 1}, {22, 22, 1}, {5, 2, 2}, {7, 3, 1}} {
		for a1 := 1; a1 <= 6; a1++ {
			for a0 := 1; a0 <= 6; a0++ {
				got, err := pl.SimulatePair(a1, a0)
				if err != nil {
					t.Fatal(err)
				}
				var want int
				if pl.Lanes == 1 {
					want = 2*pl.TTFS + (a1-1+a0-1)*pl.TTNS
				} else {
					want = pl.TTFS + (2*(a1-1)+1+a0-1)*pl.TTNS
				}
				if got.Cycles != want {
					t.Errorf("%+v a1=%d a0=%d: %d cycles, want %d", pl, a1, a0, got.Cycles, want)
				}
				// Slots issue every TTNS cycles until the pair is done
				// (serially, z0's slots start over at z1's decision).
				var wantIssued int
				if pl.Lanes == 1 {
					z1 := pl.TTFS + (a1-1)*pl.TTNS
					wantIssued = ceilDiv(z1, pl.TTNS) + ceilDiv(want-z1, pl.TTNS)
				} else {
					wantIssued = ceilDiv(want, pl.TTNS)
				}
				if got.Issued != wantIssued || got.Useful != a1+a0 {
					t.Errorf("%+v a1=%d a0=%d: issued %d useful %d, want %d %d", pl, a1, a0, got.Issued, got.Useful, wantIssued, a1+a0)
				}
			}
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// TestSimulatePairsRIPST drives the simulation with geometric attempt
// counts of parameter AcceptRate: the mean cycles per pair must approach
// the RIPST formula of the same schedule (22.21 cycles for the pipelined
// design).
func TestSimulatePairsRIPST(t *testing.T) {
	n := 200000
	if testing.Short() {
		n = 20000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	att := make([]int, 2*n)
	for i := range att {
		k := 1
		for rng.Float64() >= AcceptRate {
			k++
		}
		att[i] = k
	}
	for _, c := range []struct {
		pl    Pipeline
		model string
	}{{Pipeline{19, 1, 2}, ModelAlternating}, {Pipeline{67, 40, 1}, ModelSerial}} {
		st, err := c.pl.SimulatePairs(att)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := RIPSTCycles(c.model, float64(c.pl.TTFS), float64(c.pl.TTNS), AcceptRate)
		// The per-pair cost is linear in the attempt counts, whose
		// standard deviation is sqrt(1-p)/p ~ 1.13 per sample.
		tol := 6 * 3 * float64(c.pl.TTNS) * 1.13 / math.Sqrt(float64(n))
		if math.Abs(st.CyclesPerPair-want) > tol {
			t.Errorf("%s: %.4f cycles per pair over %d pairs, formula %.4f (tolerance %.4f)", c.model, st.CyclesPerPair, n, want, tol)
		}
	}
}

func TestPipelineErrors(t *testing.T) {
	for _, pl := range []Pipeline{{0, 1, 2}, {19, 0, 2}, {19, 1, 3}, {1, 2, 1}} {
		if _, err := pl.SimulatePair(1, 1); err == nil {
			t.Errorf("%+v accepted", pl)
		}
	}
	pl := Pipeline{19, 1, 2}
	if _, err := pl.SimulatePair(0, 1); err == nil {
		t.Error("zero attempts accepted")
	}
	if _, err := pl.SimulatePairs([]int{1, 2, 3}); err == nil {
		t.Error("odd sample count accepted")
	}
	if _, err := pl.SimulatePairs(nil); err == nil {
		t.Error("no samples accepted")
	}
}

// TestByteWiseBerExpBits runs the reference's lazy byte comparison
// (sign.c, BerExp) against random thresholds and counts the bytes drawn.
func TestByteWiseBerExpBits(t *testing.T) {
	n := 2000000
	if testing.Short() {
		n = 200000
	}
	rng := rand.New(rand.NewPCG(3, 4))
	drawn := 0
	for range n {
		z := rng.Uint64()
		for i := 56; ; i -= 8 {
			drawn++
			if w := uint32(rng.Uint32()&0xFF) - uint32(z>>uint(i))&0xFF; w != 0 || i == 0 {
				break
			}
		}
	}
	got := baseAndSignBits + 8*float64(drawn)/float64(n)
	// The byte count has standard deviation about 1/16 per attempt.
	if tol := 8 * 6 * 0.0625 / math.Sqrt(float64(n)); math.Abs(got-ByteWiseBerExpBits) > tol {
		t.Errorf("simulated %.5f bits per attempt, ByteWiseBerExpBits %.5f (tolerance %.5f)", got, ByteWiseBerExpBits, tol)
	}
}

// TestKATSamplerRecord checks the record of real signing against the
// reference's instrumented counters for KAT record 0: one sample per floor
// (2n per signing attempt), one attempt per expm_p63 call, one BerExp
// trial per attempt.
// unregisteredValue is a value type registered with no consumer.
type unregisteredValue struct{}

func TestKATSamplerRecord(t *testing.T) {
	ref := loadRefCounts(t)
	for _, logn := range []uint{9, 10} {
		rec, err := KATSamplerRecord("emu64", logn, 1)
		if err != nil {
			t.Fatal(err)
		}
		sign := ref.degree(logn)["sign"]
		sum := 0
		for _, k := range rec.Attempts {
			sum += k
		}
		if uint64(len(rec.Attempts)) != sign["floor"] || uint64(sum) != sign["expm_p63"] || rec.Trials != sign["expm_p63"] {
			t.Errorf("logn %d: %d samples, %d attempts, %d trials; reference floor %d, expm_p63 %d",
				logn, len(rec.Attempts), sum, rec.Trials, sign["floor"], sign["expm_p63"])
		}
		// At least one byte per trial, and rarely more (1/256 each).
		if rec.BerExpBytes < rec.Trials || rec.BerExpBytes > rec.Trials+rec.Trials/32 {
			t.Errorf("logn %d: %d BerExp bytes for %d trials", logn, rec.BerExpBytes, rec.Trials)
		}
		st, err := Pipeline{19, 1, 2}.SimulatePairs(rec.Attempts)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("Falcon-%d record 0: %d pairs, %.3f cycles per pair, %.3f attempts per pair, %.3f bits per attempt",
			1<<logn, st.Pairs, st.CyclesPerPair, st.UsefulAttemptsPerPair, rec.RandomBitsPerAttempt())
	}
	// Every registered value type is recorded (the oracle's too); a
	// backend whose value type no one registered is refused.
	if _, err := arith.Lookup("accel-test-unregistered"); err != nil {
		arith.Register(arith.Backend{Name: "accel-test-unregistered", Bits: 53, Impl: arith.Forward[unregisteredValue]{}})
	}
	if _, err := KATSamplerRecord("accel-test-unregistered", 9, 1); err == nil {
		t.Error("backend of an unregistered value type accepted")
	}
	if _, err := KATSamplerRecord("emu64", 8, 1); err == nil {
		t.Error("logn 8 accepted")
	}
}
