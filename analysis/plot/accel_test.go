package plot

import (
	"path/filepath"
	"strings"
	"testing"
)

// savePNG writes the figure as PNG into -png's directory, to look at.
func savePNG(t *testing.T, f *Figure, name string) {
	t.Helper()
	if *pngDir != "" {
		if err := f.Save(filepath.Join(*pngDir, name+".png")); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAccelFigures draws the hardware models' figures from hand-made
// results and checks what they say and that bad input is refused.
func TestAccelFigures(t *testing.T) {
	f, err := FPRUnit([]FPRUnitPhase{{Phase: "sign", Baseline: 1000, Published: 600, SoftFPR: 300, SoftNorm64: 100, ExtFPR: 20, ExtNorm64: 5}}, 512, "KAT record 0; cycles per call: FPR 43")
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.Bytes("svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Falcon-512 with the HORCRUX fpr-unit", "sign base", "sign est.", "FPR_NORM64", "published optimised", "KAT record 0; cycles per call: FPR 43"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("fpr-unit figure lacks %q", want)
		}
	}
	savePNG(t, f, "fpru")
	r, err := RIPST([]RIPSTBar{{Design: "pipelined", Ns: 100, SimNs: 101, HasSimulation: true}, {Design: "serial", Ns: 2000}}, "acceptance rate p = 0.5")
	if err != nil {
		t.Fatal(err)
	}
	if svg, err = r.Bytes("svg"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"RIPST", "pipelined", "serial", "simulated on real signing", "1,000", "acceptance rate p = 0.5", ">2000<", ">101<"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("RIPST figure lacks %q", want)
		}
	}
	savePNG(t, r, "ripst")
	if _, err := FPRUnit([]FPRUnitPhase{{Phase: "x"}}, 512, ""); err == nil {
		t.Error("a phase without baseline drew")
	}
	if _, err := RIPST([]RIPSTBar{{Design: "x", Ns: 0.5}}, ""); err == nil {
		t.Error("a RIPST below 1 ns drew on the log axis")
	}
	if _, err := RIPST(nil, ""); err == nil {
		t.Error("no designs drew")
	}
}
