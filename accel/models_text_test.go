package accel

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// writeText returns what write writes, failing t on an error.
func writeText(t *testing.T, write func(*strings.Builder) error) string {
	t.Helper()
	var b strings.Builder
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// wantText reports every string of want that text does not contain.
func wantText(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, s := range want {
		if !strings.Contains(text, s) {
			t.Errorf("the text lacks %q:\n%s", s, text)
		}
	}
}

// linesStarting counts the lines of text that start with prefix.
func linesStarting(text, prefix string) int {
	n := 0
	for l := range strings.Lines(text) {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// TestFPRUnitReportText prints accel fpru on Falcon-512 record 0: the
// default costs (HORCRUX Table II's 43 and 108 cycles in software, one
// per instruction with the extension), one row per phase with HORCRUX
// Table IV's baseline, optimised cycles and speedup, and one note per
// phase.
func TestFPRUnitReportText(t *testing.T) {
	res, err := CheckFPRUnit(context.Background(), 9, 0, 1, DefaultFPRUnitCycles)
	if err != nil {
		t.Fatal(err)
	}
	text := writeText(t, func(b *strings.Builder) error { return res.WriteText(b) })
	wantText(t, text, "Falcon-512, NIST KAT record 0. Over the fpr-unit instruction model the record equals the published record",
		fmt.Sprintf("(%d instructions)", res.Instructions),
		"against emu64's: exact",
		"Cycles per call: software FPR 43, FPR_NORM64 108; with the fpr-unit 3, 3.",
		"KAT records 0 to 0 (1 records")
	// HORCRUX Table IV, Falcon-512: baseline and optimised kilocycles,
	// speedup.
	table := map[string][3]string{"keygen": {"162348", "117786", "1.38x"}, "sign": {"67331", "48610", "1.39x"}, "verify": {"585", "258", "2.27x"}}
	if len(res.Model.Phases) != len(table) {
		t.Fatalf("%d phases", len(res.Model.Phases))
	}
	for _, p := range res.Model.Phases {
		if n := linesStarting(text, fmt.Sprintf("%-7s ", p.Phase)); n != 1 {
			t.Errorf("%d rows of %s", n, p.Phase)
		}
		implied := "-"
		if p.FPRUnitImplied != nil {
			implied = fmt.Sprintf("%.1f", *p.FPRUnitImplied)
		}
		for l := range strings.Lines(text) {
			if strings.HasPrefix(l, p.Phase+" ") {
				f := strings.Fields(l)
				pub := table[p.Phase]
				if f[7] != pub[0] || f[8] != pub[1] || f[9] != pub[2] || f[len(f)-1] != implied {
					t.Errorf("%s: %q, want Table IV's %v and implied %s", p.Phase, l, pub, implied)
				}
			}
		}
	}
	if n := linesStarting(text, "* "); n != len(table) {
		t.Errorf("%d notes, want one per phase", n)
	}
	wantText(t, text, "* verify has no fpr operation; its published 2.27x comes from HORCRUX's NTT")
}

// TestFPRUnitReportTextNotes prints a report made by hand that reaches
// every kind of note (no fpr operation, a saving beyond the fpr calls', a
// cost above the model's, one close to it), a record that differs and a
// speedup with nothing left to run.
func TestFPRUnitReportTextNotes(t *testing.T) {
	implied := func(x float64) *float64 { return &x }
	phase := func(name string, x *float64) PhaseCycles {
		return PhaseCycles{Phase: name, PhaseFigures: PhaseFigures{BaselineK: 100, PublishedK: 50, PublishedSpeedup: 2},
			Units: []UnitStat{{Mean: 10, Min: 9, Max: 11}, {Mean: 5, Min: 4, Max: 6}}, EstSpeedup: 3, MinSpeedup: 2.5, MaxSpeedup: 2e6, FPRUnitImplied: x}
	}
	res := &FPRUnitReport{Params: 1024, Record: 7, Exact: ExactCheck{}, Instructions: 12, Cycles: FPRUnitCycles{SoftFPR: 40, SoftNorm64: 100, ExtFPR: 4, ExtNorm64: 5},
		Model: &CycleReport{Records: []int{0, 1, 2}, Phases: []PhaseCycles{
			phase("none", nil), phase("beyond", implied(-1)), phase("above", implied(30)), phase("close", implied(4.5)),
		}}}
	text := writeText(t, func(b *strings.Builder) error { return res.WriteText(b) })
	wantText(t, text, "Falcon-1024, NIST KAT record 7. Over the fpr-unit instruction model the record DIFFERS from the published record (12 instructions)",
		"against emu64's: DIFFERS",
		"Cycles per call: software FPR 40, FPR_NORM64 100; with the fpr-unit 4, 5.",
		"KAT records 0 to 2 (3 records",
		"2.50x-inf",
		"* none has no fpr operation; its published 2.00x comes from",
		"* beyond: the published saving exceeds what removing every fpr call would save",
		"* above: the published saving is smaller than the model's: it implies 30.0 cycles per call",
		"* close: the published saving implies 4.5 cycles per call, close to the model's costs")
	if n := linesStarting(text, "* "); n != 4 {
		t.Errorf("%d notes, want 4", n)
	}
}

// TestMultReportText prints accel mult on Falcon-512 record 0: a row per
// design and width in each table (five designs at 53 and 64 bits), every
// design exact, and Peregrino's clocks (75 MHz for Karatsuba on 64 bits,
// 80 MHz on 64 and 32) on its 64-bit versions only.
func TestMultReportText(t *testing.T) {
	k, err := CountPublishedRecord(9, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := CheckMultipliers(9, 0, k)
	if err != nil {
		t.Fatal(err)
	}
	text := writeText(t, func(b *strings.Builder) error { return res.WriteText(b) })
	wantText(t, text, "Falcon-512, NIST KAT record 0: mantissa multipliers inside emu64", "DSP48E1", "DSP48E2",
		"(emu64: "+res.Designs[0].Exact.Emu64Digest.String()+")")
	designs := 2 * len(MultiplierDesigns)
	if len(res.Designs) != designs {
		t.Fatalf("%d designs, want %d", len(res.Designs), designs)
	}
	for _, name := range MultiplierDesigns {
		// Two widths in the cost table and in the resources table, the
		// 64-bit half's notes, two KAT lines.
		if n := linesStarting(text, fmt.Sprintf("%-15s ", name)); n != 4 {
			t.Errorf("%d table rows of %s, want 4", n, name)
		}
		if n := linesStarting(text, fmt.Sprintf("  %-15s ", name)); n != 2 {
			t.Errorf("%d KAT lines of %s, want 2", n, name)
		}
	}
	if n := strings.Count(text, " ok\n"); n != designs {
		t.Errorf("%d designs ok, want %d", n, designs)
	}
	if n := strings.Count(text, " bits  exact  sha256 "); n != designs {
		t.Errorf("%d exact designs, want %d", n, designs)
	}
	for l := range strings.Lines(text) {
		f := strings.Fields(l)
		if len(f) != 11 || (f[0] != "karatsuba64" && f[0] != "karatsuba64+32") {
			continue
		}
		want := map[string]string{"karatsuba64": "75", "karatsuba64+32": "80"}[f[0]]
		if f[1] == "53" {
			want = "-"
		}
		if f[9] != want {
			t.Errorf("%s: PUB MHZ %s, want %s", strings.TrimSpace(l), f[9], want)
		}
	}
	// A design that differs is marked in both places.
	res.Designs[1].Exact.DigestMatch = false
	text = writeText(t, func(b *strings.Builder) error { return res.WriteText(b) })
	if n := strings.Count(text, " DIFF\n"); n != 1 {
		t.Errorf("%d designs DIFF, want 1", n)
	}
	wantText(t, text, fmt.Sprintf("  %-15s 53 bits  DIGEST DIFFERS (KAT ok)", res.Designs[1].Design))
}

// TestRIPSTReportText prints accel ripst on one Falcon-512 record: the
// published table (Bi-SamplerZ's reported 106.1 cycles, the pipelined
// design's 22.21 cycles and 100.05 ns at p = 0.575752), the 512 leaf pairs
// and 1024 samples of the record's one signing attempt, a simulated row
// for every design with a schedule (all but Bi-SamplerZ; the pipelined one
// on 2 lanes), and the pipelined design's measured 22.15 cycles and 185.25
// random bits per pair.
func TestRIPSTReportText(t *testing.T) {
	rep, err := CompareRIPST(9, 1, "emu64")
	if err != nil {
		t.Fatal(err)
	}
	rows := rep.Rows()
	if !slices.Equal(rows[:len(rep.Table)], rep.Table) || !slices.Equal(rows[len(rep.Table):], rep.Simulations) {
		t.Errorf("rows are not the table's then the simulations'")
	}
	text := writeText(t, func(b *strings.Builder) error { return rep.WriteText(b) })
	wantText(t, text, "RIPST (p = 0.575752), Vojacek and Novotny, TCHES 2026/4",
		"106.10", "22.21     100.05",
		"Simulated on 512 leaf pairs of real signing (Falcon-512, 1 KAT records, emu64)",
		"(1024 samples), beside the table's p = 0.575752",
		"Their hardware measured 22.15 cycles and 185.25 random bits per pair")
	for _, d := range SamplerDesigns {
		want := 2
		if d.Name == "Bi-SamplerZ" {
			want = 1
		}
		if n := linesStarting(text, fmt.Sprintf("%-28s ", d.Name)); n != want {
			t.Errorf("%d rows of %s, want %d", n, d.Name, want)
		}
	}
	if n := linesStarting(text, fmt.Sprintf("%-28s %5d ", "pipelined (Vojacek-Novotny)", 2)); n != 1 {
		t.Errorf("the pipelined design is not simulated on 2 lanes:\n%s", text)
	}
}

// TestFPRUnitPhaseCycles: the figure's cycles are the mean calls per
// record times the per-call costs, and Table IV's kilocycles in cycles.
func TestFPRUnitPhaseCycles(t *testing.T) {
	units := make([]UnitStat, len(CycleUnits))
	for i := range units {
		units[i] = UnitStat{Unit: CycleUnits[i], Mean: 1000}
	}
	units[slices.Index(CycleUnits, "fpr")].Mean = 10
	units[slices.Index(CycleUnits, "fpr_norm64")].Mean = 2.5
	res := &FPRUnitReport{Cycles: FPRUnitCycles{SoftFPR: 40, SoftNorm64: 100, ExtFPR: 4, ExtNorm64: 5},
		Model: &CycleReport{Phases: []PhaseCycles{{Phase: "sign", PhaseFigures: PhaseFigures{BaselineK: 67.5, PublishedK: 48.25}, Units: units}}}}
	got := res.PhaseCycles()
	want := []FPRUnitPhase{{Phase: "sign", Baseline: 67500, Published: 48250, SoftFPR: 400, SoftNorm64: 250, ExtFPR: 40, ExtNorm64: 12.5}}
	if !slices.Equal(got, want) {
		t.Errorf("PhaseCycles = %+v, want %+v", got, want)
	}
}

// TestRIPSTPairs: every design of the table once, in its order, beside
// its own simulation; a design without one has none.
func TestRIPSTPairs(t *testing.T) {
	rep := &RIPSTReport{
		Table:       []RIPSTRow{{Design: "a", RIPSTNs: 10}, {Design: "b", RIPSTNs: 20}, {Design: "c", RIPSTNs: 30}},
		Simulations: []RIPSTRow{{Design: "c", RIPSTNs: 33, Simulated: true}, {Design: "a", RIPSTNs: 11, Simulated: true}},
	}
	want := []RIPSTPair{{"a", 10, 11, true}, {"b", 20, 0, false}, {"c", 30, 33, true}}
	if got := rep.Pairs(); !slices.Equal(got, want) {
		t.Errorf("Pairs = %+v, want %+v", got, want)
	}
}
