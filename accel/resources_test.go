package accel

import "testing"

// TestDSPTiles checks the tilings worked out by hand: on a DSP48E1 an
// unsigned product uses 24 x 17 bits, on a DSP48E2 26 x 17.
func TestDSPTiles(t *testing.T) {
	for _, c := range []struct {
		f      DSPFamily
		a, b   int
		tiles  int
		reason string
	}{
		{DSP48E1, 32, 32, 4, "2 x 2: Peregrino's 'up to four DSPs' for a large product"},
		{DSP48E2, 32, 32, 4, "ceil(32/26) x ceil(32/17) = 2 x 2"},
		{DSP48E1, 53, 53, 12, "ceil(53/24) x ceil(53/17) = 3 x 4"},
		{DSP48E2, 53, 53, 12, "ceil(53/26) x ceil(53/17) = 3 x 4"},
		{DSP48E1, 64, 64, 12, "3 x 4"},
		{DSP48E2, 52, 51, 6, "2 x 3: 52 on port A, 51 on B"},
		{DSP48E1, 52, 51, 9, "3 x 3 (51 on A: 3 x ceil(52/17)=4 is 12, 52 on A: 3 x 3 = 9)"},
		{DSP48E1, 17, 17, 1, "one DSP"},
		{DSP48E1, 18, 18, 2, "18 unsigned bits exceed the 17 of port B"},
		{DSP48E2, 26, 17, 1, "one DSP48E2"},
		{DSP48E1, 26, 17, 2, "two DSP48E1"},
	} {
		if got := c.f.Tiles(c.a, c.b); got != c.tiles {
			t.Errorf("%s %dx%d: %d DSPs, want %d (%s)", c.f.Name, c.a, c.b, got, c.tiles, c.reason)
		}
	}
}

// TestMultiplierResources checks the Karatsuba designs against the counts
// by hand: 64-bit Karatsuba has leaves 32, 32 and 33 (a 32x32 block plus
// cross terms), 3 x 4 = 12 DSPs with 4-DSP cascades (class C); on 64 and 32
// bits the leaves are 16, 16, 17, 16, 16, 17, 17, 16, 18: eight one-DSP
// leaves and one 18x18 of two DSPs, 10 DSPs, class B. Peregrino's clocks
// order the same way (75 MHz against 80 MHz).
func TestMultiplierResources(t *testing.T) {
	for _, c := range []struct {
		design       string
		dsps, casc   int
		class        string
		mhz          float64
		pipelineDeep int
	}{
		{"karatsuba64", 12, 4, "C", 75, 5},
		{"karatsuba64+32", 10, 2, "B", 80, 9},
	} {
		m, err := NewMultiplier(c.design, 64)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range DSPFamilies {
			r, err := m.Resources(f)
			if err != nil {
				t.Fatal(err)
			}
			if r.DSPs != c.dsps || r.MaxCascade != c.casc || r.FmaxClass != c.class || r.Pipeline != c.pipelineDeep {
				t.Errorf("%s on %s: %+v, want %d DSPs, cascade %d, class %s, depth %d", c.design, f.Name, r, c.dsps, c.casc, c.class, c.pipelineDeep)
			}
		}
		if PeregrinoClock(c.design) != c.mhz {
			t.Errorf("%s: clock %v, want %v MHz", c.design, PeregrinoClock(c.design), c.mhz)
		}
	}
	// The 53-bit DSP tiling: limbs 24, 24, 5 by 17, 17, 17, 2: 12 blocks of
	// one DSP48E1 each; Comba one DSP issuing 16 products (4 x 4 limbs).
	m, _ := NewMultiplier("dsp25x18", 53)
	r, _ := m.Resources(DSP48E1)
	if r.DSPs != 12 || r.MaxCascade != 1 || r.FmaxClass != "A" {
		t.Errorf("dsp25x18/53 on DSP48E1: %+v", r)
	}
	m, _ = NewMultiplier("comba", 53)
	r, _ = m.Resources(DSP48E2)
	if r.DSPs != 1 || r.DSPCyclesPerProduct != 16 {
		t.Errorf("comba/53: %+v", r)
	}
}
