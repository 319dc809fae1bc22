package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/internal/cli"
)

// TestAccelCountsJSON checks the JSON contract of accel counts on
// Falcon-512 record 0 against published figures: HORCRUX Table II (FPR
// 731,119, FPR_NORM64 388,031, Keccak-f[1600] 503) and the reference's
// modp_montymul and mq_montymul per phase (opcounts_record0.json).
func TestAccelCountsJSON(t *testing.T) {
	code, out, errs := runCLI(t, "accel", "counts", "--params", "512", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var r struct {
		Params  int                           `json:"params"`
		Record  int                           `json:"record"`
		Backend string                        `json:"backend"`
		Phases  map[string]map[string]*uint64 `json:"phases"`
		Total   map[string]*uint64            `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("decoding: %v\n%s", err, out)
	}
	if r.Params != 512 || r.Record != 0 || r.Backend != "emu64" || len(r.Phases) != 3 {
		t.Fatalf("params %d record %d backend %q, %d phases", r.Params, r.Record, r.Backend, len(r.Phases))
	}
	val := func(m map[string]*uint64, k string) uint64 {
		if m[k] == nil {
			t.Fatalf("%s missing or null", k)
		}
		return *m[k]
	}
	for k, want := range map[string]uint64{"FPR": 731119, "FPR_NORM64": 388031, "modp_montymul": 975905, "keccak_f1600": 503, "mq_montymul": 47104, "add": 327573} {
		if got := val(r.Total, k); got != want {
			t.Errorf("total %s = %d, want %d", k, got, want)
		}
	}
	for ph, want := range map[string]uint64{"keygen": 17664, "sign": 20992, "verify": 8448} {
		if got := val(r.Phases[ph], "mq_montymul"); got != want {
			t.Errorf("%s mq_montymul = %d, want %d", ph, got, want)
		}
	}
	for ph, want := range map[string]uint64{"keygen": 975905, "sign": 0, "verify": 0} {
		if got := val(r.Phases[ph], "modp_montymul"); got != want {
			t.Errorf("%s modp_montymul = %d, want %d", ph, got, want)
		}
	}
}

// TestAccelRipstJSON checks the row order and the pipelined design's
// figures (22.21 cycles, 100.05 ns in the table; simulation within 0.3
// cycles of the formula on real signing).
func TestAccelRipstJSON(t *testing.T) {
	dir := t.TempDir()
	plot := filepath.Join(dir, "ripst")
	code, out, errs := runCLI(t, "accel", "ripst", "--records", "2", "--json", "--plot", plot)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rows []accel.RIPSTRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6+5 || rows[5].Simulated || !rows[6].Simulated {
		t.Fatalf("%d rows: %s", len(rows), out)
	}
	p := rows[5]
	if p.Model != "alternating" || p.TTFS != 19 || p.TTNS != 1 || p.MHz != 222 ||
		p.RIPSTCycles != 22.21 || p.RIPSTNs != 100.05 {
		t.Errorf("pipelined row %+v", p)
	}
	s := rows[len(rows)-1]
	if !s.Simulated || s.Lanes != 2 || s.CyclesPerPair < 21.9 || s.CyclesPerPair > 22.5 || s.Pairs != 1024 || s.RandomBitsPerPair <= 0 {
		t.Errorf("simulated pipelined row %+v", s)
	}
	for _, ext := range []string{".png", ".svg"} {
		if fi, err := os.Stat(plot + ext); err != nil || fi.Size() < 1000 {
			t.Errorf("plot %s: %v", ext, err)
		}
	}
}

// TestAccelModelsText runs fpru, mult and ffsampling on Falcon-512 record
// 0 and checks that each model reproduced the record (and fpru's figure
// was written).
func TestAccelModelsText(t *testing.T) {
	fpruPlot := filepath.Join(t.TempDir(), "fpru")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"accel", "fpru", "--params", "512", "--records", "1", "--plot", fpruPlot}, []string{"equals the published record (3357450 instructions)", "records 0 to 0 (1 records", "433929.0", "1.38x", "1.34x", "24.9"}},
		// 2 signatures of 512 leaves sample 2048 values; 2048 / 3562 = 0.57496.
		{[]string{"accel", "ripst", "--records", "2"}, []string{"Measured acceptance rate 0.5750 over 3562 attempts (2048 samples), beside the table's p = 0.575752", "22.15 cycles and 185.25 random bits"}},
		{[]string{"accel", "latency", "--params", "512", "--records", "1"}, []string{"4090.0 transitions", "20442", "512.0 leaf pairs", "1024.0 32-bit words"}},
		{[]string{"accel", "ffsampling", "--params", "512", "--signatures", "1"}, []string{"state machine = published:   true", "recursive ffSampling's:  true", "4090.0"}},
	} {
		code, out, errs := runCLI(t, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", c.args, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, out)
			}
		}
	}
	for _, ext := range []string{".png", ".svg"} {
		if fi, err := os.Stat(fpruPlot + ext); err != nil || fi.Size() < 1000 {
			t.Errorf("fpru plot %s: %v", ext, err)
		}
	}
	if testing.Short() {
		return
	}
	code, out, errs := runCLI(t, "accel", "mult", "--params", "512", "--json")
	if code != 0 {
		t.Fatalf("mult: exit %d, stderr %q", code, errs)
	}
	var m accel.MultReport
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Designs) != 10 {
		t.Fatalf("%d designs", len(m.Designs))
	}
	for _, d := range m.Designs {
		if !d.KATMatch {
			t.Errorf("%s/%d: KAT record differs", d.Design, d.Width)
		}
	}
}

// TestAccelBadInput checks that wrong values give exit 2 and a message
// naming the flag.
func TestAccelBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"accel", "counts", "--params", "256"}, "512 or 1024"},
		{[]string{"accel", "counts", "--params", "512", "--record", "100"}, "--kat-record 100"},
		{[]string{"accel", "counts", "--params", "512", "--kat-record", "-1"}, "--kat-record -1"},
		{[]string{"accel", "fpru", "--params", "512", "--ext-fpr", "-1"}, "--ext-fpr"},
		{[]string{"accel", "fpru", "--params", "512", "--records", "101"}, "--records 101"},
		{[]string{"accel", "ffsampling", "--params", "512", "--signatures", "0"}, "--signatures 0"},
		{[]string{"accel", "ripst", "--records", "0"}, "--records 0"},
		{[]string{"accel", "latency", "--params", "512", "--records", "0"}, "--records 0"},
		{[]string{"accel", "latency", "--params", "512", "--fpr-ops", "-1"}, "fpr operations per cycle -1"},
		{[]string{"accel", "latency", "--params", "512", "--sampler", "nosuch"}, "nosuch"},
		{[]string{"accel", "ripst", "--backend", "nosuch", "--records", "1"}, "nosuch"},
	} {
		code, _, errs := runCLI(t, c.args...)
		if code != cli.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, errs, c.want)
		}
	}
}

// TestAccelAcceptanceJSON checks the shape of accel ripst --acceptance
// --json on one record.
func TestAccelAcceptanceJSON(t *testing.T) {
	code, out, errs := runCLI(t, "accel", "ripst", "--acceptance", "--records", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var c struct {
		Params, Records, Attempts int
		Designs                   []struct {
			Design      string  `json:"design"`
			MaxRelErr   float64 `json:"max_rel_err"`
			MeanAbsDiff float64 `json:"mean_abs_diff"`
		}
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	if c.Params != 512 || c.Records != 1 || c.Attempts < 1000 || len(c.Designs) != 2 || c.Designs[1].Design != "two_bernoulli64" {
		t.Errorf("%+v", c)
	}
	if code, _, errs := runCLI(t, "accel", "ripst", "--acceptance", "--backend", "native"); code != cli.ExitUsage || !strings.Contains(errs, "--acceptance") {
		t.Errorf("--acceptance --backend native: exit %d, %q", code, errs)
	}
}
