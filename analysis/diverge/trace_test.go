package diverge

import (
	"math"
	"testing"
)

// TestPartAtFloorBeforeTrials: a sampler call's Bernoulli trials come
// before its Sample event, so two runs whose floors of the centre differ
// first differ in a trial. The parting must be named as the floor, with
// the centre's distance to the integer between the floors as margin; a
// call whose floors agree parts at the trial.
func TestPartAtFloorBeforeTrials(t *testing.T) {
	call := func(mu float64, accept bool) []event {
		return []event{
			{kind: evBerExp, threshold: 1 << 62, drawn: 1 << 61, nbytes: 1, accept: accept},
			{kind: evSample, mu: mu, floor: int64(math.Floor(mu)), z: 3},
		}
	}
	same := call(2.5, true)
	a := &trace{events: append(append([]event{}, same...), call(7-0x1p-50, true)...)}
	b := &trace{events: append(append([]event{}, same...), call(7, false)...)}
	p := part(a, b, 1000)
	if p.Kind != KindFloor || p.Call != 1 || p.Margin != 0x1p-50 {
		t.Errorf("floors 6 and 7 part as %+v, want a floor at call 1 with margin 2^-50", p)
	}
	b = &trace{events: append(append([]event{}, same...), call(7-0x1p-50, false)...)}
	if p := part(a, b, 1000); p.Kind != KindBerExp || p.Call != 1 {
		t.Errorf("equal floors part as %+v, want a BerExp at call 1", p)
	}
	// A side whose centre is wider than binary64 (triword) floors below
	// an integer its binary64 rounding reaches: the side's own floor
	// decides, not the floor of the rounded centre.
	b = &trace{events: append(append([]event{}, same...), call(7, false)...)}
	b.events[3].floor = 6
	a = &trace{events: append(append([]event{}, same...), call(7, true)...)}
	if p := part(a, b, 1000); p.Kind != KindFloor || p.Call != 1 {
		t.Errorf("floors 7 and 6 of one rounded centre part as %+v, want a floor at call 1", p)
	}
}
