package shadow

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// aggregateRecords is a small shadowed campaign (emu64 generates its keys
// shadowed) with synthetic flip descriptions and an extra stage added, so
// that the first-K flips and the order of first appearance are exercised:
// more than maxFlipDetails descriptions over several records, and a stage
// that first appears in a later record.
func aggregateRecords(t *testing.T) (Config, []*Record) {
	t.Helper()
	cfg := Config{LogN: 5, Signatures: 9, Keys: 3, Seed: "aggregate", OracleBits: 256, Sigma: SigmaReference, Shadow: ShadowDD, Workers: 2}
	recs := run(t, lookup(t, "emu64"), cfg)
	for _, r := range recs {
		for k := range r.Index%3 + 2 {
			r.FlipDetail = append(r.FlipDetail, FlipDetail{Kind: "floor", Where: fmt.Sprintf("synthetic %d.%d", r.Index, k), B: int64(k), X: int64(k + 1)})
		}
		if r.Kind == "signature" && r.Index == 4 {
			r.Stages = append([]*StageStat{{Stage: "synthetic", Level: 7, Rel: NewHist()}}, r.Stages...)
			r.Stages[0].Rel.Add(-50)
		}
	}
	return cfg, recs
}

// sortedFold is the definition the aggregate must meet, written out
// directly: records in index order (keygen records apart), the first
// maxFlipDetails descriptions in that order, stages in order of first
// appearance.
func sortedFold(recs []*Record, kind string) (first []string, stages []string) {
	var rs []*Record
	for _, r := range recs {
		if r.Kind == kind {
			rs = append(rs, r)
		}
	}
	slices.SortFunc(rs, func(a, b *Record) int { return a.Index - b.Index })
	seen := map[string]bool{}
	for _, r := range rs {
		for _, d := range r.FlipDetail {
			first = append(first, recordLabel(r)+": "+d.Where)
		}
		for _, st := range r.Stages {
			k := fmt.Sprint(st.Stage, "/", st.Level)
			if !seen[k] {
				seen[k] = true
				stages = append(stages, k)
			}
		}
	}
	return first[:min(len(first), maxFlipDetails)], stages
}

func summaryJSON(t *testing.T, s *Summary) string {
	t.Helper()
	c := *s
	c.Seconds = 0
	return jsonOf(t, &c)
}

// TestAggregateIndependentOfOrder: the summary of records folded in any
// order, or of aggregates of a split merged, is the summary of the sorted
// fold -- first flips and stage order included.
func TestAggregateIndependentOfOrder(t *testing.T) {
	cfg, recs := aggregateRecords(t)
	want := Summarize("emu64", cfg, recs)
	first, stages := sortedFold(recs, "signature")
	var got []string
	for _, d := range want.Flips.First {
		got = append(got, d.Where)
	}
	if !slices.Equal(got, first) {
		t.Errorf("first flips:\n%q\nwant\n%q", got, first)
	}
	got = nil
	for _, st := range want.Stages {
		got = append(got, fmt.Sprint(st.Stage, "/", st.Level))
	}
	if !slices.Equal(got, stages) || !slices.Contains(stages, "synthetic/7") || stages[0] == "synthetic/7" {
		t.Errorf("stage order:\n%q\nwant\n%q", got, stages)
	}
	kFirst, kStages := sortedFold(recs, "keygen")
	if want.Keygen == nil || len(want.Keygen.Flips.First) != len(kFirst) || len(want.Keygen.Stages) != len(kStages) {
		t.Errorf("keygen summary %+v", want.Keygen)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 5 {
		sh := slices.Clone(recs)
		rng.Shuffle(len(sh), func(i, j int) { sh[i], sh[j] = sh[j], sh[i] })
		cut := rng.IntN(len(sh) + 1)
		a, b := NewAggregate(), NewAggregate()
		for _, r := range sh[:cut] {
			a.Add(r)
		}
		for _, r := range sh[cut:] {
			b.Add(r)
		}
		b.Merge(a)
		if g, w := summaryJSON(t, b.Summary("emu64", cfg)), summaryJSON(t, want); g != w {
			t.Fatalf("trial %d: merged aggregate's summary differs", trial)
		}
	}
}

// segmentOf builds the segment of records.
func segmentOf(recs []*Record, backend string) *Segment {
	s := &Segment{Backend: backend, Aggregate: NewAggregate()}
	s.Run[0] = 7
	for _, r := range recs {
		s.Aggregate.Add(r)
		if r.Kind == "keygen" {
			s.KeygenUnits = append(s.KeygenUnits, r.Index)
		} else {
			s.SignatureUnits = append(s.SignatureUnits, r.Index)
		}
	}
	slices.Sort(s.KeygenUnits)
	slices.Sort(s.SignatureUnits)
	return s
}

func readAll(data []byte) ([]*Segment, error) {
	var segs []*Segment
	err := ReadSegments(bytes.NewReader(data), func(s *Segment) error { segs = append(segs, s); return nil })
	return segs, err
}

// TestSegmentRoundTrip: a segment read back gives the same summary and
// encodes to the same bytes, seconds included.
func TestSegmentRoundTrip(t *testing.T) {
	cfg, recs := aggregateRecords(t)
	seg := segmentOf(recs, "emu64")
	data := AppendSegment(AppendSegment(nil, segmentOf(recs[:4], "emu64")), seg)
	segs, err := readAll(data)
	if err != nil || len(segs) != 2 {
		t.Fatalf("%d segments, %v", len(segs), err)
	}
	got := segs[1]
	if jsonOf(t, got.Aggregate.Summary("emu64", cfg)) != jsonOf(t, seg.Aggregate.Summary("emu64", cfg)) {
		t.Error("summary of the decoded segment differs")
	}
	if !bytes.Equal(AppendSegment(nil, got), AppendSegment(nil, seg)) {
		t.Error("decoded segment encodes to other bytes")
	}
	if !slices.Equal(got.SignatureUnits, seg.SignatureUnits) || !slices.Equal(got.KeygenUnits, []int{0, 1, 2}) || got.Run != seg.Run {
		t.Errorf("units %v %v run %v", got.KeygenUnits, got.SignatureUnits, got.Run)
	}
	if _, err := json.Marshal(got); err != nil {
		t.Errorf("JSON form: %v", err)
	}
}

// TestSegmentDamage: every flipped bit of a frame is refused (checksum,
// magic or length), every cut is a torn frame, a zero tail is torn, and a
// checksummed payload whose unit lists disagree with its aggregate is
// refused.
func TestSegmentDamage(t *testing.T) {
	_, recs := aggregateRecords(t)
	first := AppendSegment(nil, segmentOf(recs[:2], "emu64"))
	frame := AppendSegment(nil, segmentOf(recs[2:], "emu64"))
	for i := 0; i < len(frame); i += max(1, len(frame)/97) {
		bad := slices.Clone(frame)
		bad[i] ^= 0x10
		segs, err := readAll(append(slices.Clone(first), bad...))
		if err == nil {
			t.Fatalf("byte %d flipped: accepted", i)
		}
		if len(segs) != 1 {
			// A flipped length can make the frame look longer than the
			// file (torn: dropped), never accepted.
			t.Errorf("byte %d flipped: %d segments read", i, len(segs))
		}
	}
	for cut := 1; cut < len(frame); cut += max(1, len(frame)/53) {
		segs, err := readAll(append(slices.Clone(first), frame[:cut]...))
		var se *SegmentError
		if !errors.Is(err, ErrTornSegment) || !errors.As(err, &se) || se.Offset != int64(len(first)) || len(segs) != 1 {
			t.Fatalf("cut at %d: %v, %d segments", cut, err, len(segs))
		}
	}
	if _, err := readAll(append(slices.Clone(first), make([]byte, 100)...)); !errors.Is(err, ErrTornSegment) {
		t.Errorf("zero tail: %v", err)
	}
	if _, err := readAll(append(slices.Clone(first), "FPRX"...)); err == nil || errors.Is(err, ErrTornSegment) {
		t.Errorf("foreign bytes: %v", err)
	}
	s := segmentOf(recs, "emu64")
	s.SignatureUnits = s.SignatureUnits[1:]
	if _, err := readAll(AppendSegment(nil, s)); err == nil || !strings.Contains(err.Error(), "units listed") {
		t.Errorf("unit list shorter than the aggregate: %v", err)
	}
}

// TestCampaignKillResume: a campaign killed with segments pending (its
// last units never written) resumes from what it wrote: every unit is
// computed exactly once more or not at all, and the summary equals an
// uninterrupted run's.
func TestCampaignKillResume(t *testing.T) {
	cfg, _ := aggregateRecords(t)
	b := lookup(t, "emu64")
	want := Summarize(b.Name, cfg, run(t, b, cfg))
	dir := filepath.Join(t.TempDir(), "c")
	id := map[string]string{"seed": cfg.Seed}
	c, err := OpenCampaign(dir, id)
	if err != nil {
		t.Fatal(err)
	}
	c.SegmentUnits = 4
	cfg1 := cfg
	cfg1.Done = func(r *Record) error { return c.Append(b.Name, r) }
	if err := Stream(t.Context(), b, cfg1); err != nil {
		t.Fatal(err)
	}
	// kill -9 while the last segment is being appended: 12 units made 3
	// segments of 4; the process dies without Close, its last frame
	// half written.
	for _, f := range c.files {
		f.Close()
	}
	c.lock.Unlock()
	path := c.RecordsFile(b.Name)
	data, _ := os.ReadFile(path)
	segs, err := readAll(data)
	if err != nil || len(segs) != 3 {
		t.Fatalf("%d segments, %v", len(segs), err)
	}
	last := len(AppendSegment(nil, segs[2]))
	os.WriteFile(path, data[:len(data)-last/2], 0o644)

	c2, err := OpenCampaign(dir, id)
	if err != nil {
		t.Fatal(err)
	}
	fin, err := c2.Load(b.Name)
	if err != nil {
		t.Fatal(err)
	}
	if n := fin.Keygens.Len() + fin.Signatures.Len(); n != 8 {
		t.Errorf("%d units kept, want 8", n)
	}
	redone := map[string]bool{}
	cfg2 := cfg
	cfg2.Have = fin.Have
	cfg2.Done = func(r *Record) error {
		k := fmt.Sprint(r.Kind, r.Index)
		if redone[k] || (r.Kind == "keygen" && fin.Keygens.Has(r.Index)) || (r.Kind == "signature" && fin.Signatures.Has(r.Index)) {
			t.Errorf("%s computed twice", k)
		}
		redone[k] = true
		fin.Aggregate.Add(r)
		return c2.Append(b.Name, r)
	}
	if err := Stream(t.Context(), b, cfg2); err != nil {
		t.Fatal(err)
	}
	if len(redone) != 4 {
		t.Errorf("%d units computed again, want 4", len(redone))
	}
	if err := c2.Close(); err != nil {
		t.Fatal(err)
	}
	if summaryJSON(t, fin.Aggregate.Summary(b.Name, cfg)) != summaryJSON(t, want) {
		t.Error("resumed summary differs from the uninterrupted run's")
	}
	c3, _, err := ReadCampaign(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c3.Close()
	again, err := c3.Load(b.Name)
	if err != nil || summaryJSON(t, again.Aggregate.Summary(b.Name, cfg)) != summaryJSON(t, want) {
		t.Errorf("directory read back: %v", err)
	}
}

// TestSegmentsBoundToRun: a records file copied from a directory of another
// run (another seed) is refused; so is a non-empty directory without
// run.json, and a second writer.
func TestSegmentsBoundToRun(t *testing.T) {
	_, recs := aggregateRecords(t)
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	for _, d := range []struct{ dir, seed string }{{a, "A"}, {b, "B"}} {
		c, err := OpenCampaign(d.dir, map[string]string{"seed": d.seed})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			c.Append("emu64", r)
		}
		if _, err := OpenCampaign(d.dir, map[string]string{"seed": d.seed}); err == nil || !strings.Contains(err.Error(), "in use") {
			t.Errorf("second writer: %v", err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	cb, err := OpenCampaign(b, map[string]string{"seed": "B"})
	if err != nil {
		t.Fatal(err)
	}
	foreign, _ := os.ReadFile(filepath.Join(a, "records-emu64.seg"))
	f, _ := os.OpenFile(cb.RecordsFile("emu64"), os.O_APPEND|os.O_WRONLY, 0)
	f.Write(foreign)
	f.Close()
	if _, err := cb.Load("emu64"); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Errorf("another run's segment: %v", err)
	}
	cb.Close()
	os.Remove(filepath.Join(b, RunFile))
	if _, err := OpenCampaign(b, map[string]string{"seed": "C"}); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("directory without run.json: %v", err)
	}
}

// FuzzReadSegments: any input is read without a panic or a hang, and what
// is accepted encodes back to the bytes it was read from.
func FuzzReadSegments(f *testing.F) {
	h := NewHist()
	for _, v := range []float64{-50.2, -49, -60.7} {
		h.Add(v)
	}
	a := NewAggregate()
	a.Add(&Record{Kind: "signature", Index: 3, DeltaC: h, Stages: []*StageStat{{Stage: "fft", Level: 2, Rel: h}},
		FlipDetail: []FlipDetail{{Kind: "floor", Where: "x"}}, Flips: map[string]int64{"floor": 1}, MinMargin: map[string]*float64{"floor": nil}})
	f.Add(AppendSegment(nil, &Segment{Backend: "native", SignatureUnits: []int{3}, Aggregate: a}))
	f.Add([]byte("FPRS\x05hello"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out []byte
		err := ReadSegments(bytes.NewReader(data), func(s *Segment) error {
			out = AppendSegment(out, s)
			return nil
		})
		if err == nil && !bytes.Equal(out, data) {
			t.Errorf("accepted %d bytes that encode to %d others", len(data), len(out))
		}
	})
}

// FuzzDecodeSegment fuzzes the payload decoder behind the checksum: no
// panic, no hang, bounded allocation; what it accepts encodes to a payload
// that decodes to the same encoding.
func FuzzDecodeSegment(f *testing.F) {
	h := NewHist()
	h.Add(-50.2)
	h.Add(-47)
	a := NewAggregate()
	a.Add(&Record{Kind: "keygen", Index: 1, Stages: []*StageStat{{Stage: "keygen_gs_norm", Level: 9, Rel: h}}})
	a.Add(&Record{Kind: "signature", Index: 3, DeltaC: h, Sum: h, FlipDetail: []FlipDetail{{Kind: "floor", Where: "x"}},
		Flips: map[string]int64{"floor": 1}, MinMargin: map[string]*float64{"floor": nil}, AttemptFailures: []string{"norm"}})
	frame := AppendSegment(nil, &Segment{Backend: "native", KeygenUnits: []int{1}, SignatureUnits: []int{3}, Aggregate: a})
	_, k := binary.Uvarint(frame[4:])
	f.Add(frame[4+k : len(frame)-32])
	f.Fuzz(func(t *testing.T, p []byte) {
		s, err := decodeSegment(p)
		if err != nil {
			return
		}
		enc := AppendSegment(nil, s)
		segs, err := readAll(enc)
		if err != nil || len(segs) != 1 || !bytes.Equal(AppendSegment(nil, segs[0]), enc) {
			t.Errorf("accepted payload does not round-trip: %v", err)
		}
	})
}
