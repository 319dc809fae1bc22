package shadow

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
)

// The records file of a backend in a campaign directory,
// DIR/records-BACKEND.seg, is a sequence of segments, each the Aggregate of
// the units (signatures, shadowed key generations) finished since the
// previous one, with the list of those units. A segment is a frame:
//
//	"FPRS"                 4 bytes, the frame's magic
//	length                 uvarint, the payload's length (at most MaxSegment)
//	payload                length bytes
//	SHA-256(payload)       32 bytes
//
// and its payload, in this order (uvarint and varint are encoding/binary's
// unsigned and zig-zag signed varints; f64 is the 8 bytes of a binary64,
// little endian; str is a uvarint length and the bytes; a map is a uvarint
// count and its entries in increasing key order):
//
//	layout                 uvarint, 1
//	run                    32 bytes: SHA-256 of the directory's run.json
//	backend                str
//	keygen units           uvarint count, then the indices in increasing
//	signature units        order as uvarint differences (the first from 0)
//	aggregate              see below
//
//	aggregate  = signatures keys (uvarint) seconds (f64) sampler_calls
//	             attempts failed_attempts (uvarint) failure_reasons
//	             (map str -> uvarint), then 9 histograms: delta_c,
//	             delta_sigma, sum, leaf_sum, expm_p63, acceptance per call,
//	             and the per-signature maxima of delta_c, delta_sigma, sum;
//	             then the flips of signatures and of key generations, and
//	             the stages of signatures and of key generations
//	histogram  = zeros infinite (uvarint), bins (uvarint count of non-empty
//	             bins); when bins > 0: min max (f64, exact log2 extremes),
//	             first bin (varint, in 1/16 bit), its count (uvarint), then
//	             per further bin the empty bins skipped (uvarint) and its
//	             count (uvarint)
//	flips      = by_kind decisions unresolved (map str -> uvarint),
//	             min_margin (map str -> f64, -Inf for a zero margin),
//	             with_flips (uvarint), first (uvarint count <= 16, each:
//	             index pos (uvarint) kind where (str) backend exact
//	             (varint) margin (a byte 1 and f64, or 0 for none))
//	stages     = uvarint count, each: stage (str) level (varint) first
//	             index, first pos (uvarint) histogram
//
// The run field binds a segment to its run: a segment copied from another
// run's directory (another seed, another shard) is refused, as is one
// whose checksum fails (damaged or edited) or whose unit counts disagree
// with its aggregate, and so is one beyond the reader's bounds (histogram
// bins within +-1100 binades and 2^21 dense bins in all, 4096 stage rows,
// 16 flip descriptions, MaxSegment bytes). A frame cut short at the end of the file (a crash
// while appending) is not a segment: its units are computed again.
// ReadSegments is the reader; `fprlab records dump DIR` prints the segments
// as JSON.

// SegmentMagic starts every frame of a records file.
const SegmentMagic = "FPRS"

// segmentLayout is the payload layout this version writes and reads.
const segmentLayout = 1

// MaxSegment bounds a segment's payload (an aggregate is tens of kilobytes).
const MaxSegment = 16 << 20

// RunID identifies a run: the SHA-256 of its run.json.
type RunID [sha256.Size]byte

// String is the hexadecimal form.
func (r RunID) String() string { return hex.EncodeToString(r[:]) }

// MarshalJSON writes the hexadecimal form.
func (r RunID) MarshalJSON() ([]byte, error) { return json.Marshal(r.String()) }

// Segment is one frame of a records file.
type Segment struct {
	Run     RunID  `json:"run_sha256"`
	Backend string `json:"backend"`
	// KeygenUnits and SignatureUnits list the finished units, in
	// increasing order.
	KeygenUnits    []int      `json:"keygen_units"`
	SignatureUnits []int      `json:"signature_units"`
	Aggregate      *Aggregate `json:"aggregate"`
}

// AppendSegment appends the frame of s to dst.
func AppendSegment(dst []byte, s *Segment) []byte {
	var e enc
	e.uvarint(segmentLayout)
	e.b = append(e.b, s.Run[:]...)
	e.str(s.Backend)
	e.units(s.KeygenUnits)
	e.units(s.SignatureUnits)
	e.aggregate(s.Aggregate)
	dst = append(dst, SegmentMagic...)
	dst = binary.AppendUvarint(dst, uint64(len(e.b)))
	dst = append(dst, e.b...)
	sum := sha256.Sum256(e.b)
	return append(dst, sum[:]...)
}

// ErrTornSegment is what ReadSegments returns (wrapped) for a frame cut
// short at the end of the input; Offset in the SegmentError is where the
// torn frame starts.
var ErrTornSegment = errors.New("segment cut short (a crash while appending)")

// SegmentError locates a bad frame.
type SegmentError struct {
	Offset int64 // where the frame starts
	Index  int   // the frame's number, from 1
	Err    error
}

func (e *SegmentError) Error() string {
	return fmt.Sprintf("segment %d (byte %d): %v", e.Index, e.Offset, e.Err)
}

func (e *SegmentError) Unwrap() error { return e.Err }

// ReadSegments reads the frames of a records file in order and calls f
// with each. A frame cut short at the end -- or a tail of zero bytes, what
// some file systems leave of an unfinished append -- ends the reading with
// a *SegmentError wrapping ErrTornSegment; any other bad frame with a
// *SegmentError describing it. The payload's content is checked (bounds,
// increasing units, counts matching the aggregate) but not its run or
// backend: that is the caller's.
func ReadSegments(r io.Reader, f func(*Segment) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	var off int64
	for i := 1; ; i++ {
		start := off
		fail := func(err error) error { return &SegmentError{Offset: start, Index: i, Err: err} }
		var magic [4]byte
		n, err := io.ReadFull(br, magic[:])
		off += int64(n)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fail(ErrTornSegment)
		}
		if string(magic[:]) != SegmentMagic {
			if allZero(magic[:n]) && zeroTail(br) {
				return fail(ErrTornSegment)
			}
			return fail(errors.New("not a segment (no FPRS magic): damaged, or not a records file"))
		}
		length, err := binary.ReadUvarint(countingByteReader{br, &off})
		if err != nil {
			return fail(ErrTornSegment)
		}
		if length > MaxSegment {
			return fail(fmt.Errorf("payload of %d bytes, more than %d: damaged", length, MaxSegment))
		}
		buf := make([]byte, int(length)+sha256.Size)
		n, err = io.ReadFull(br, buf)
		off += int64(n)
		if err != nil {
			return fail(ErrTornSegment)
		}
		payload := buf[:length]
		if sum := sha256.Sum256(payload); !bytes.Equal(sum[:], buf[length:]) {
			return fail(errors.New("the segment does not match its checksum (damaged or edited)"))
		}
		s, err := decodeSegment(payload)
		if err != nil {
			return fail(err)
		}
		if err := f(s); err != nil {
			return err
		}
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// zeroTail reports whether the rest of r is zero bytes.
func zeroTail(r io.Reader) bool {
	buf := make([]byte, 1<<16)
	for {
		n, err := r.Read(buf)
		if !allZero(buf[:n]) {
			return false
		}
		if err != nil {
			return err == io.EOF
		}
	}
}

type countingByteReader struct {
	r   *bufio.Reader
	off *int64
}

func (c countingByteReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		*c.off++
	}
	return b, err
}

func decodeSegment(p []byte) (*Segment, error) {
	d := &dec{b: p, binBudget: maxSegmentBins}
	if v := d.uvarint(); d.err == nil && v != segmentLayout {
		return nil, fmt.Errorf("segment layout %d, which this version does not read (it writes %d)", v, segmentLayout)
	}
	s := &Segment{}
	copy(s.Run[:], d.bytes(len(s.Run)))
	s.Backend = d.str()
	s.KeygenUnits = d.units()
	s.SignatureUnits = d.units()
	s.Aggregate = d.aggregate()
	if d.err == nil && len(d.b) != 0 {
		d.err = fmt.Errorf("%d bytes after the aggregate", len(d.b))
	}
	if d.err != nil {
		return nil, fmt.Errorf("bad segment payload: %w", d.err)
	}
	a := s.Aggregate
	if a.Keys != int64(len(s.KeygenUnits)) || a.Signatures != int64(len(s.SignatureUnits)) {
		return nil, fmt.Errorf("bad segment payload: %d keys and %d signatures aggregated, %d and %d units listed", a.Keys, a.Signatures, len(s.KeygenUnits), len(s.SignatureUnits))
	}
	return s, nil
}

// enc appends the payload encoding.
type enc struct{ b []byte }

func (e *enc) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) varint(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *enc) f64(v float64)    { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v)) }
func (e *enc) str(s string)     { e.uvarint(uint64(len(s))); e.b = append(e.b, s...) }

func (e *enc) units(us []int) {
	e.uvarint(uint64(len(us)))
	prev := 0
	for _, u := range us {
		e.uvarint(uint64(u - prev))
		prev = u
	}
}

func (e *enc) counts(m map[string]int64) {
	keys := slices.Sorted(maps.Keys(m))
	e.uvarint(uint64(len(keys)))
	for _, k := range keys {
		e.str(k)
		e.uvarint(uint64(m[k]))
	}
}

func (e *enc) hist(h *Hist) {
	if h == nil {
		h = NewHist()
	}
	e.uvarint(uint64(h.Zeros))
	e.uvarint(uint64(h.Infinite))
	var bins [][2]int64
	h.eachBin(func(b int32, c int64) { bins = append(bins, [2]int64{int64(b), c}) })
	e.uvarint(uint64(len(bins)))
	if len(bins) == 0 {
		return
	}
	e.f64(h.Min)
	e.f64(h.Max)
	e.varint(bins[0][0])
	e.uvarint(uint64(bins[0][1]))
	for i := 1; i < len(bins); i++ {
		e.uvarint(uint64(bins[i][0] - bins[i-1][0] - 1))
		e.uvarint(uint64(bins[i][1]))
	}
}

func (e *enc) flips(f *FlipAggregate) {
	e.counts(f.ByKind)
	e.counts(f.Decisions)
	e.counts(f.Unresolved)
	keys := slices.Sorted(maps.Keys(f.MinMargin))
	e.uvarint(uint64(len(keys)))
	for _, k := range keys {
		e.str(k)
		e.f64(f.MinMargin[k])
	}
	e.uvarint(uint64(f.WithFlips))
	e.uvarint(uint64(len(f.First)))
	for _, p := range f.First {
		e.uvarint(uint64(p.At.Index))
		e.uvarint(uint64(p.At.Pos))
		e.str(p.Detail.Kind)
		e.str(p.Detail.Where)
		e.varint(p.Detail.B)
		e.varint(p.Detail.X)
		if p.Detail.Gap == nil {
			e.b = append(e.b, 0)
		} else {
			e.b = append(e.b, 1)
			e.f64(*p.Detail.Gap)
		}
	}
}

func (e *enc) stages(s *StageAggregate) {
	keys := slices.SortedFunc(maps.Keys(s.Rows), func(a, b StageLevel) int { return s.Rows[a].First.compare(s.Rows[b].First) })
	e.uvarint(uint64(len(keys)))
	for _, k := range keys {
		row := s.Rows[k]
		e.str(k.Stage)
		e.varint(int64(k.Level))
		e.uvarint(uint64(row.First.Index))
		e.uvarint(uint64(row.First.Pos))
		e.hist(row.Rel)
	}
}

func (e *enc) aggregate(a *Aggregate) {
	e.uvarint(uint64(a.Signatures))
	e.uvarint(uint64(a.Keys))
	e.f64(a.Seconds)
	e.uvarint(uint64(a.SamplerCalls))
	e.uvarint(uint64(a.AttemptsTotal))
	e.uvarint(uint64(a.AttemptsFailed))
	e.counts(a.FailureReasons)
	for _, h := range a.hists() {
		e.hist(*h)
	}
	e.flips(a.SigFlips)
	e.flips(a.KeyFlips)
	e.stages(a.SigStages)
	e.stages(a.KeyStages)
}

// hists lists the aggregate's histograms in their encoding order.
func (a *Aggregate) hists() []**Hist {
	return []**Hist{&a.DeltaC, &a.DeltaSigma, &a.Sum, &a.LeafSum, &a.Expm, &a.Accept, &a.SigDeltaC, &a.SigDeltaSigma, &a.SigSum}
}

// dec reads the payload encoding; the first error sticks and later reads
// return zero values.
type dec struct {
	b   []byte
	err error
	// binBudget bounds the dense bins the histograms of one payload
	// span (a crafted payload of a few bytes per histogram could
	// otherwise ask for 35,201 bins each); real segments span some tens
	// of thousands.
	binBudget int64
}

// maxSegmentBins is the budget of dense bins of one segment's histograms.
const maxSegmentBins = 1 << 21

// Bounds of what a valid payload holds: counts fit comfortably in int64,
// a unit index below 2^31, strings are names and locations.
const (
	maxCount  = 1 << 62
	maxIndex  = 1 << 31
	maxString = 1 << 12
	maxList   = 1 << 24
	// maxStages bounds the stage rows of a segment (a campaign has some
	// 60: the stages of signing and of key generation, by level).
	maxStages = 1 << 12
)

func (d *dec) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
}

func (d *dec) uvarint() uint64 { return readVarint(d, binary.Uvarint) }
func (d *dec) varint() int64   { return readVarint(d, binary.Varint) }

// readVarint reads one varint with read (binary.Uvarint or binary.Varint).
func readVarint[T uint64 | int64](d *dec, read func([]byte) (T, int)) T {
	if d.err != nil {
		return 0
	}
	v, n := read(d.b)
	if n <= 0 {
		d.fail("truncated or overlong varint")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a uvarint that must be at most limit.
func (d *dec) count(limit uint64, what string) int64 {
	v := d.uvarint()
	if v > limit {
		d.fail("%s %d out of range (at most %d)", what, v, limit)
		return 0
	}
	return int64(v)
}

func (d *dec) bytes(n int) []byte {
	if d.err != nil {
		return make([]byte, n)
	}
	if len(d.b) < n {
		d.fail("truncated payload")
		return make([]byte, n)
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *dec) f64() float64 {
	return math.Float64frombits(binary.LittleEndian.Uint64(d.bytes(8)))
}

func (d *dec) str() string {
	n := d.count(maxString, "string length")
	return string(d.bytes(int(n)))
}

func (d *dec) units() []int {
	n := d.count(maxList, "unit count")
	us := make([]int, 0, min(n, int64(len(d.b))))
	prev := int64(0)
	for i := int64(0); i < n && d.err == nil; i++ {
		delta := d.count(maxIndex, "unit index step")
		if i > 0 && delta == 0 {
			d.fail("unit %d listed twice", prev)
		}
		prev += delta
		if prev >= maxIndex {
			d.fail("unit index %d out of range", prev)
		}
		us = append(us, int(prev))
	}
	return us
}

func (d *dec) counts() map[string]int64 {
	n := d.count(maxList, "map size")
	m := map[string]int64{}
	prev := ""
	for i := int64(0); i < n && d.err == nil; i++ {
		k := d.str()
		if i > 0 && k <= prev {
			d.fail("map keys not increasing at %q", k)
		}
		prev = k
		m[k] = d.count(maxCount, "count")
	}
	return m
}

// histBinLimit bounds the bins of finite log2 values of binary64 numbers
// (within +-1100 binades), as the record's JSON form does.
const histBinLimit = 1100 * binsPerBit

func (d *dec) hist() *Hist {
	h := NewHist()
	h.Zeros = d.count(maxCount, "zero count")
	h.Infinite = d.count(maxCount, "infinite count")
	n := d.count(2*histBinLimit+1, "number of bins")
	if n == 0 || d.err != nil {
		return h
	}
	lo, hi := d.f64(), d.f64()
	if math.IsNaN(lo) || math.IsInf(lo, 0) || math.IsNaN(hi) || math.IsInf(hi, 0) || lo > hi {
		d.fail("histogram extremes %v, %v", lo, hi)
		return h
	}
	b := d.varint()
	for i := int64(0); i < n && d.err == nil; i++ {
		step := int64(1)
		if i > 0 {
			step += d.count(2*histBinLimit, "bin gap")
			b += step
		}
		if d.binBudget -= step; d.binBudget < 0 {
			d.fail("histograms spanning more than %d bins", maxSegmentBins)
			return h
		}
		c := d.count(maxCount, "bin count")
		if b < -histBinLimit || b > histBinLimit || c == 0 {
			d.fail("histogram bin %d with count %d (bins lie within +-%d and count at least 1)", b, c, histBinLimit)
			return h
		}
		h.inc(int32(b), c)
	}
	h.Min, h.Max = lo, hi
	h.minLin, h.maxLin = math.Exp2(lo), math.Exp2(hi)
	return h
}

func (d *dec) flips() *FlipAggregate {
	f := newFlipAggregate()
	f.ByKind, f.Decisions, f.Unresolved = d.counts(), d.counts(), d.counts()
	n := d.count(maxList, "map size")
	for i := int64(0); i < n && d.err == nil; i++ {
		k := d.str()
		if _, dup := f.MinMargin[k]; dup {
			d.fail("margin of %q twice", k)
		}
		f.MinMargin[k] = d.f64()
	}
	f.WithFlips = d.count(maxCount, "count")
	n = d.count(maxFlipDetails, "number of flip details")
	for i := int64(0); i < n && d.err == nil; i++ {
		var p PositionedFlip
		p.At.Index = int(d.count(maxIndex, "unit index"))
		p.At.Pos = int(d.count(maxFlipDetails, "flip position"))
		p.Detail.Kind, p.Detail.Where = d.str(), d.str()
		p.Detail.B, p.Detail.X = d.varint(), d.varint()
		switch d.bytes(1)[0] {
		case 0:
		case 1:
			g := d.f64()
			p.Detail.Gap = &g
		default:
			d.fail("bad margin flag")
		}
		if i > 0 && p.At.compare(f.First[i-1].At) <= 0 {
			d.fail("flip details out of order")
		}
		f.First = append(f.First, p)
	}
	return f
}

func (d *dec) stages() *StageAggregate {
	s := newStageAggregate()
	n := d.count(maxStages, "number of stages")
	for i := int64(0); i < n && d.err == nil; i++ {
		k := StageLevel{Stage: d.str(), Level: int(d.varint())}
		first := UnitPos{int(d.count(maxIndex, "unit index")), int(d.count(maxList, "stage position"))}
		if _, dup := s.Rows[k]; dup {
			d.fail("stage %s level %d twice", k.Stage, k.Level)
		}
		s.Rows[k] = &StageRowAggregate{First: first, Rel: d.hist()}
	}
	return s
}

func (d *dec) aggregate() *Aggregate {
	a := NewAggregate()
	a.Signatures = d.count(maxIndex, "signature count")
	a.Keys = d.count(maxIndex, "key count")
	a.Seconds = d.f64()
	if math.IsNaN(a.Seconds) || a.Seconds < 0 {
		d.fail("seconds %v", a.Seconds)
	}
	a.SamplerCalls = d.count(maxCount, "count")
	a.AttemptsTotal = d.count(maxCount, "count")
	a.AttemptsFailed = d.count(maxCount, "count")
	a.FailureReasons = d.counts()
	for _, h := range a.hists() {
		*h = d.hist()
	}
	a.SigFlips, a.KeyFlips = d.flips(), d.flips()
	a.SigStages, a.KeyStages = d.stages(), d.stages()
	return a
}

// MarshalJSON writes the JSON form `fprlab records dump` prints: margins
// as log2 values, null for a zero margin.
func (f *FlipAggregate) MarshalJSON() ([]byte, error) {
	type first struct {
		Index  int        `json:"index"`
		Pos    int        `json:"pos"`
		Detail FlipDetail `json:"detail"`
	}
	v := struct {
		ByKind     map[string]int64    `json:"by_kind"`
		Decisions  map[string]int64    `json:"decisions"`
		Unresolved map[string]int64    `json:"unresolved"`
		MinMargin  map[string]*float64 `json:"min_margin_log2"`
		WithFlips  int64               `json:"units_with_flips"`
		First      []first             `json:"first"`
	}{f.ByKind, f.Decisions, f.Unresolved, map[string]*float64{}, f.WithFlips, []first{}}
	for k, m := range f.MinMargin {
		v.MinMargin[k] = finite(m)
	}
	for _, p := range f.First {
		v.First = append(v.First, first{p.At.Index, p.At.Pos, p.Detail})
	}
	return json.Marshal(v)
}

// MarshalJSON writes the rows in order of first appearance.
func (s *StageAggregate) MarshalJSON() ([]byte, error) {
	type row struct {
		Stage      string `json:"stage"`
		Level      int    `json:"level"`
		FirstIndex int    `json:"first_index"`
		FirstPos   int    `json:"first_pos"`
		Rel        *Hist  `json:"rel"`
	}
	rows := []row{}
	keys := slices.SortedFunc(maps.Keys(s.Rows), func(a, b StageLevel) int { return s.Rows[a].First.compare(s.Rows[b].First) })
	for _, k := range keys {
		r := s.Rows[k]
		rows = append(rows, row{k.Stage, k.Level, r.First.Index, r.First.Pos, r.Rel})
	}
	return json.Marshal(rows)
}
