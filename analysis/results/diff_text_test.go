package results

import (
	"math"
	"strings"
	"testing"
)

// TestDiffWriteText checks the diff table on a hand-made comparison: the
// count of pairs that got worse (a verdict that now fails, flips that
// appeared), a renamed pair's arrow, an exact value (-Inf), a statistic
// one side lacks (NaN: "-"), the signed change, and a sweep's P* row.
func TestDiffWriteText(t *testing.T) {
	yes, no := true, false
	two, five := int64(2), int64(0)
	p47, p49, ch := 47, 49, 2
	d := &Diff{A: "old", B: "new", Pairs: []DiffPair{
		{A: "native", B: "native", Params: 512, SignaturesA: 100, SignaturesB: 200, MeetsA: &yes, MeetsB: &no, Verdict: VerdictNowFails,
			Stats: []DiffStat{{Name: "per_signature.sum.max", ALog2: -47.5, BLog2: -46, ChangeBits: 1.5}}, Flips: "none", FlipsA: &five, FlipsB: &five},
		{A: "triword", B: "tw", Params: 1024, SignaturesA: 10, SignaturesB: 10, MeetsA: &yes, MeetsB: &yes, Verdict: VerdictUnchanged,
			Stats: []DiffStat{{Name: "per_signature.sum.max", ALog2: Log2(math.Inf(-1)), BLog2: Log2(math.NaN()), ChangeBits: Log2(math.NaN())}}, Flips: "appeared", FlipsA: &five, FlipsB: &two},
	}, PStar: []DiffPStar{{Curve: "rn", Criterion: Worst, A: &p47, B: &p49, ChangeBits: &ch}}}
	if got := d.WorseCount(); got != 2 {
		t.Errorf("WorseCount %d, want 2 (a verdict that now fails, flips that appeared)", got)
	}
	var b strings.Builder
	if err := d.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"B (new) against the baseline A (old): 2 of 2 backends worse",
		"native, Falcon-512: NOW FAILS 2^-46; worst +1.50 bits",
		"native         per_signature.sum.max  -47.50    -46.00    +1.50          100, 200",
		"triword -> tw  per_signature.sum.max  exact     -         -              10, 10",
		"rn     per-signature worst δc+δσ ≤ 2^-46  47    49    +2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
