package accel

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// cycleCountsFile caches the unit counts of every phase of the 100 NIST KAT
// records at both degrees (counting them all takes half a minute). It is
// written by FPRLAB_WRITE_CYCLE_COUNTS=1 go test -run TestCycleCountsCache,
// and checked against fresh counts by that test.
const cycleCountsFile = "testdata/cycle_counts.json.gz"

type cycleCountsCache map[string][][3]UnitCounts // "512", "1024" -> per record

func readCycleCounts(t *testing.T) cycleCountsCache {
	t.Helper()
	f, err := os.Open(cycleCountsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var c cycleCountsCache
	if err := json.NewDecoder(z).Decode(&c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCycleCountsCache(t *testing.T) {
	if os.Getenv("FPRLAB_WRITE_CYCLE_COUNTS") == "1" {
		c := cycleCountsCache{}
		for _, logn := range []uint{9, 10} {
			for r := range 100 {
				k, err := CountKATRecord(logn, r)
				if err != nil {
					t.Fatal(err)
				}
				key := map[uint]string{9: "512", 10: "1024"}[logn]
				c[key] = append(c[key], PhaseUnitCounts(k))
			}
		}
		var buf bytes.Buffer
		z := gzip.NewWriter(&buf)
		if err := json.NewEncoder(z).Encode(c); err != nil {
			t.Fatal(err)
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cycleCountsFile, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := readCycleCounts(t)
	records := []int{0, 17, 63, 99}
	if testing.Short() {
		records = []int{0}
	}
	for _, logn := range []uint{9, 10} {
		key := map[uint]string{9: "512", 10: "1024"}[logn]
		if len(c[key]) != 100 {
			t.Fatalf("%s: %d cached records, want 100", key, len(c[key]))
		}
		for _, r := range records {
			k, err := CountKATRecord(logn, r)
			if err != nil {
				t.Fatal(err)
			}
			if got := PhaseUnitCounts(k); got != c[key][r] {
				t.Errorf("Falcon-%s record %d: fresh counts %v, cached %v", key, r, got, c[key][r])
			}
		}
	}
	// Record 0 of Falcon-512 in total: HORCRUX Table II's calls.
	var tot UnitCounts
	for _, p := range c["512"][0] {
		for i := range tot {
			tot[i] += p[i]
		}
	}
	if tot[0] != 731119 || tot[1] != 388031 || tot[2] != 975905 || tot[4] != 503 {
		t.Errorf("Falcon-512 record 0 totals %v, want FPR 731,119, FPR_NORM 388,031, modp_montymul 975,905, Keccak-f 503 (HORCRUX Table II)", tot)
	}
}

// TestHorcruxCostTable checks the built-in table against the figures of
// the paper, typed in here from HORCRUX Tables II, IV and VII.
func TestHorcruxCostTable(t *testing.T) {
	tab, err := PlatformCosts("horcrux")
	if err != nil {
		t.Fatal(err)
	}
	near := func(name string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	u := tab.Units
	// Table II: cycles / calls.
	near("fpr software", u["fpr"].Software.Cycles, 31438117.0/731119, 1e-9)
	near("fpr_norm64 software", u["fpr_norm64"].Software.Cycles, 41907348.0/388031, 1e-9)
	near("modp_montymul software", u["modp_montymul"].Software.Cycles, 3426675.0/975905, 1e-4)
	near("keccak software", u["keccak_f1600"].Software.Cycles, 11369309.0/503, 0.5)
	// Table VII ratios and section VI-B.
	near("fpr accelerated", u["fpr"].Accelerated.Cycles, 43*1913.0/10142, 1e-4)
	near("fpr_norm64 accelerated", u["fpr_norm64"].Accelerated.Cycles, 108*1913.0/10142, 1e-4)
	near("modp_montymul accelerated", u["modp_montymul"].Accelerated.Cycles, 3426675.0/975905*113/359, 1e-4)
	near("keccak accelerated", u["keccak_f1600"].Accelerated.Cycles, 385, 0)
	for name, uc := range u {
		for _, e := range []CostEntry{uc.Software, uc.Accelerated} {
			if !strings.Contains(e.Source, "HORCRUX Table") && !strings.Contains(e.Source, "HORCRUX section") {
				t.Errorf("%s: source %q cites no table or section of HORCRUX", name, e.Source)
			}
		}
	}
	// Table IV.
	want := map[string]map[string][3]float64{
		"512":  {"keygen": {162348, 117786, 1.38}, "sign": {67331, 48610, 1.39}, "verify": {585, 258, 2.27}},
		"1024": {"keygen": {576874, 437859, 1.32}, "sign": {147135, 116874, 1.26}, "verify": {1207, 530, 2.28}},
	}
	for deg, ph := range want {
		for name, w := range ph {
			f := tab.Phases[deg][name]
			if f.BaselineK != w[0] || f.PublishedK != w[1] || f.PublishedSpeedup != w[2] || !strings.Contains(f.Source, "Table IV") {
				t.Errorf("%s %s: %+v, want %v from Table IV", deg, name, f, w)
			}
		}
	}
}

// TestModelCyclesHand checks the model on a small table and two records
// whose results are worked out by hand.
func TestModelCyclesHand(t *testing.T) {
	tab := &CostTable{Platform: "toy", Units: map[string]UnitCost{}, Phases: map[string]map[string]PhaseFigures{"512": {
		"keygen": {BaselineK: 10, PublishedK: 5, PublishedSpeedup: 2},
		"sign":   {BaselineK: 10, PublishedSpeedup: 1.3},
		"verify": {BaselineK: 1},
	}}}
	for _, n := range CycleUnits {
		tab.Units[n] = UnitCost{Software: CostEntry{Cycles: 1}, Accelerated: CostEntry{Cycles: 1}}
	}
	tab.Units["fpr"] = UnitCost{Software: CostEntry{Cycles: 10}, Accelerated: CostEntry{Cycles: 2}}
	tab.Units["keccak_f1600"] = UnitCost{Software: CostEntry{Cycles: 1000}, Accelerated: CostEntry{Cycles: 100}}
	counts := [][3]UnitCounts{
		{{500, 7, 0, 0, 0}, {100, 0, 0, 0, 5}, {0, 0, 0, 0, 2}},
		{{700, 9, 0, 0, 0}, {300, 0, 0, 0, 5}, {0, 0, 0, 0, 0}},
	}
	rep, err := ModelCycles(tab, 512, []int{0, 1}, counts)
	if err != nil {
		t.Fatal(err)
	}
	kg, sg, vf := rep.Phases[0], rep.Phases[1], rep.Phases[2]
	// keygen: mean fpr 600, saved 600*8 = 4800 cycles = 4.8 k; est 5.2 k;
	// speedup 10/5.2; records: 4000 -> 10/6, 5600 -> 10/4.4.
	if math.Abs(kg.SavedK-4.8) > 1e-12 || math.Abs(kg.EstK-5.2) > 1e-12 || math.Abs(kg.EstSpeedup-10/5.2) > 1e-12 {
		t.Errorf("keygen: saved %v est %v speedup %v, want 4.8, 5.2, %v", kg.SavedK, kg.EstK, kg.EstSpeedup, 10/5.2)
	}
	if math.Abs(kg.MinSpeedup-10.0/6) > 1e-12 || math.Abs(kg.MaxSpeedup-10/4.4) > 1e-12 {
		t.Errorf("keygen record range %v-%v, want %v-%v", kg.MinSpeedup, kg.MaxSpeedup, 10.0/6, 10/4.4)
	}
	// counted software: 600*10 + 8*1 = 6008 cycles.
	if math.Abs(kg.CountedSoftK-6.008) > 1e-12 || kg.Units[1].Min != 7 || kg.Units[1].Max != 9 || kg.Units[1].Mean != 8 {
		t.Errorf("keygen counted %v, norm64 %+v", kg.CountedSoftK, kg.Units[1])
	}
	// 10/5.2 = 1.923 against 2: -3.8 %, reproduced.
	if kg.Reproduced == nil || !*kg.Reproduced || !strings.HasPrefix(kg.Explanation, "reproduced") {
		t.Errorf("keygen: %v %q, want reproduced", kg.Reproduced, kg.Explanation)
	}
	// sign: saved 200*8 + 5*900 = 6100 cycles; est 3.9 k, 2.564x against
	// 1.3: a miss naming the published figure.
	if math.Abs(sg.EstK-3.9) > 1e-12 || sg.Reproduced == nil || *sg.Reproduced || !strings.Contains(sg.Explanation, "MISS: the published speedup 1.30x") {
		t.Errorf("sign: est %v, %q", sg.EstK, sg.Explanation)
	}
	// verify: mean keccak 1, saved 900 cycles of a 1000-cycle baseline:
	// 10x; record 0 saves 1800 > 1000, no finite speedup.
	if math.Abs(vf.EstSpeedup-10) > 1e-9 || !math.IsInf(vf.MaxSpeedup, 1) || vf.RecordSpeedupMax != nil || vf.Reproduced != nil {
		t.Errorf("verify: %v, max %v, reproduced %v", vf.EstSpeedup, vf.MaxSpeedup, vf.Reproduced)
	}
}

// TestCyclesTableIV runs the HORCRUX table on the 100 records' counts: each
// of Table IV's six speedups is either reproduced within 10 % or reported
// as a miss naming the published figure and the model's.
func TestCyclesTableIV(t *testing.T) {
	tab, err := PlatformCosts("horcrux")
	if err != nil {
		t.Fatal(err)
	}
	c := readCycleCounts(t)
	recs := make([]int, 100)
	for i := range recs {
		recs[i] = i
	}
	for _, deg := range []int{512, 1024} {
		rep, err := ModelCycles(tab, deg, recs, c[map[int]string{512: "512", 1024: "1024"}[deg]])
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range rep.Phases {
			if !p.Valid || p.Reproduced == nil {
				t.Errorf("Falcon-%d %s: no estimate: %s", deg, p.Phase, p.Explanation)
				continue
			}
			d := p.EstSpeedup/p.PublishedSpeedup - 1
			if *p.Reproduced != (math.Abs(d) <= 0.10) {
				t.Errorf("Falcon-%d %s: reproduced %v at a difference of %.3f", deg, p.Phase, *p.Reproduced, d)
			}
			if !*p.Reproduced && !strings.Contains(p.Explanation, "MISS") {
				t.Errorf("Falcon-%d %s: a miss of %.1f %% not reported: %q", deg, p.Phase, 100*d, p.Explanation)
			}
			t.Logf("Falcon-%d %s: %.2fx against %.2fx (%+.1f %%)", deg, p.Phase, p.EstSpeedup, p.PublishedSpeedup, 100*d)
		}
	}
}

func TestParseCostTableErrors(t *testing.T) {
	good, err := costFiles.ReadFile("costs/horcrux.json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseCostTable(good); err != nil {
		t.Fatal(err)
	}
	edit := func(from, to string) []byte {
		if !bytes.Contains(good, []byte(from)) {
			t.Fatalf("%q not in the table", from)
		}
		return bytes.Replace(good, []byte(from), []byte(to), 1)
	}
	for _, c := range []struct {
		doc  []byte
		want string
	}{
		{[]byte("{"), "not a valid cost table JSON"},
		{[]byte(`{"platform": "x"} {}`), "trailing data"},
		{edit(`"platform": "horcrux"`, `"platform": ""`), `missing "platform"`},
		{edit(`"keccak_f1600": {`, `"keccak": {`), `unknown unit "keccak"`},
		{edit(`"cycles": 43,`, `"cycles": -1,`), "units.fpr.software.cycles -1"},
		{edit(`"cycles": 385,`, `"cycles": 1e10,`), "units.keccak_f1600.accelerated.cycles"},
		{edit(`"baseline_kcycles": 585,`, `"baseline_kcycles": 0,`), "phases.512.verify.baseline_kcycles 0: want a positive number"},
		{edit(`"verify": {"baseline_kcycles": 1207`, `"check": {"baseline_kcycles": 1207`), "phases.1024.check: unknown phase"},
		{edit(`"1024": {`, `"2048": {`), "phases.2048"},
		{edit(`"published_speedup": 1.38,`, `"published_speedup": -1.38,`), "published_speedup -1.38"},
		{edit(`"source": "HORCRUX Table IV (section VI-A), Falcon-512 Ver"}`, `"source": "", "extra": 1}`), `unknown field "extra"`},
		{[]byte(`{"platform": "x", "units": {}}`), "units.fpr is missing"},
		// The verify path.
		{edit(`"cycles": 385, "energy_nj": 0.56066,`, `"cycles": 385,`), "energy_nj on both sides"},
		{edit(`"cycles": 210.87, "energy_nj": 0.24118, "source": "fitted`, `"cycles": -2, "energy_nj": 0.24118, "source": "fitted`), "verify_path.units.per_coefficient.software.cycles -2"},
		{edit(`"ntt_butterfly": {`, `"ntt": {`), "verify_path.units.ntt: unknown operation"},
		{edit(`"energy_nj": 25.8522,`, `"energy_nj": -1,`), "verify_path.units.keccak_f1600.software.energy_nj -1"},
	} {
		_, err := ParseCostTable(c.doc)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// TestCyclesImpliedCosts checks the per-row explanation of the HORCRUX
// misses against figures worked out here from the cached counts and the
// paper's numbers typed in (Table II per-call software costs, Table IV
// baselines and optimised cycles, Table VII f-mq-montymul 359 -> 113, the
// 385-cycle permutation of section VI-B), not from the model's code.
func TestCyclesImpliedCosts(t *testing.T) {
	tab, err := PlatformCosts("horcrux")
	if err != nil {
		t.Fatal(err)
	}
	c := readCycleCounts(t)["512"]
	recs := make([]int, len(c))
	for i := range recs {
		recs[i] = i
	}
	rep, err := ModelCycles(tab, 512, recs, c)
	if err != nil {
		t.Fatal(err)
	}
	mean := func(phase, unit int) float64 {
		var s float64
		for _, r := range c {
			s += float64(r[phase][unit])
		}
		return s / float64(len(c))
	}
	sMont := 3426675.0 / 975905
	aMont := sMont * 113 / 359
	sKec := 11369309.0 / 503
	// Verify: mq_montymul and Keccak save; the published saving is
	// (585 - 258) kcycles; Keccak alone closes the gap at
	// 385 + (model saving - published saving) / mean permutations (the
	// table rounds the per-call costs: within 0.1 cycle).
	nMq, nK := mean(2, 3), mean(2, 4)
	saved := nMq*(sMont-aMont) + nK*(sKec-385)
	wantK := 385 + (saved-327e3)/nK
	vf := rep.Phases[2]
	var got *ImpliedCost
	for i := range vf.Implied {
		if vf.Implied[i].Unit == "keccak_f1600" {
			got = &vf.Implied[i]
		}
	}
	if got == nil || math.Abs(got.Implied-wantK) > 0.1 || !got.Feasible {
		t.Errorf("verify: implied Keccak %+v, want %.3f cycles per permutation, feasible", got, wantK)
	}
	if !strings.Contains(vf.Explanation, "keccak_f1600 7665") {
		t.Errorf("verify explanation %q does not name Keccak's implied 7665 cycles", vf.Explanation)
	}
	// Keygen with record 0's counts (HORCRUX Table II's calls: FPR
	// 433,929, FPR_NORM 227,531, modp_montymul 975,905 in keygen; the
	// Keccak and mq counts of the cache) lies within 10 % of 1.38x.
	r0 := c[0][0]
	if r0[0] != 433929 || r0[1] != 227531 || r0[2] != 975905 {
		t.Fatalf("record 0 keygen counts %v", r0)
	}
	s0 := float64(r0[0])*(43-43*1913.0/10142) + float64(r0[1])*(108-108*1913.0/10142) +
		float64(r0[2]+r0[3])*(sMont-aMont) + float64(r0[4])*(sKec-385)
	want0 := 162348e3 / (162348e3 - s0)
	kg := rep.Phases[0]
	if kg.Record0Speedup == nil || math.Abs(*kg.Record0Speedup-want0) > 2e-3 || math.Abs(want0/1.38-1) > 0.10 {
		t.Errorf("keygen record 0 speedup %v, want %.4f (within 10 %% of Table IV's 1.38x)", kg.Record0Speedup, want0)
	}
	// Sign: one cost per fpr-unit call x with n_F (43 - x) + n_N (108 - x)
	// + the other units' savings = (67,331 - 48,610) kcycles.
	nF, nN := mean(1, 0), mean(1, 1)
	other := mean(1, 3)*(sMont-aMont) + mean(1, 4)*(sKec-385)
	wantX := (nF*43 + nN*108 - (18721e3 - other)) / (nF + nN)
	sg := rep.Phases[1]
	if sg.FPRUnitImplied == nil || math.Abs(*sg.FPRUnitImplied-wantX) > 0.05 {
		t.Errorf("sign: fpr-unit implied %v, want %.2f cycles per call", sg.FPRUnitImplied, wantX)
	}
	t.Logf("verify Keccak implied %.0f, keygen record 0 %.3fx, sign fpr-unit %.1f cycles per call", wantK, want0, wantX)
}

// TestLoadCostTable: a built-in platform without reading anything; a
// .json name read with the limit and parsed; another name refused before
// any read; a read error and an invalid table named.
func TestLoadCostTable(t *testing.T) {
	noRead := func(string, int) ([]byte, error) { t.Error("read called"); return nil, nil }
	if tab, err := LoadCostTable("horcrux", noRead); err != nil || tab == nil {
		t.Errorf("horcrux: %v", err)
	}
	if _, err := LoadCostTable("horcrux.txt", noRead); err == nil || !strings.Contains(err.Error(), "not a built-in platform (horcrux) nor a .json cost table file") {
		t.Errorf("horcrux.txt: %v", err)
	}
	builtin, err := costFiles.ReadFile("costs/horcrux.json")
	if err != nil {
		t.Fatal(err)
	}
	var limit int
	read := func(path string, n int) ([]byte, error) { limit = n; return builtin, nil }
	if tab, err := LoadCostTable("My.JSON", read); err != nil || tab == nil || limit != CostTableLimit {
		t.Errorf("My.JSON: %v, limit %d", err, limit)
	}
	bad := func(string, int) ([]byte, error) { return []byte(`{"units": 1}`), nil }
	if _, err := LoadCostTable("-", bad); err == nil || !strings.HasPrefix(err.Error(), "--platform -: ") {
		t.Errorf("an invalid table: %v", err)
	}
	failed := func(string, int) ([]byte, error) { return nil, errors.New("reading platform: no such file") }
	if _, err := LoadCostTable("x.json", failed); err == nil || err.Error() != "reading platform: no such file" {
		t.Errorf("a failed read: %v", err)
	}
}
