package shadow

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fprlab/fprlab/internal/dirlock"
	"github.com/fprlab/fprlab/internal/safefile"
	"github.com/fprlab/fprlab/scheme"
)

// A campaign directory holds a shadowed run's results as they are made, so
// that an interrupted run (Ctrl-C, kill -9, a lost machine) continues
// without recomputing what it recorded:
//
//	DIR/run.json               the run's identity (what determines the results)
//	DIR/records-BACKEND.seg    segments: aggregates of finished units (segment.go)
//	DIR/summary.json           the summary, rewritten at the end of a run
//	DIR/lock                   the lock file (package dirlock)
//
// Guarantees:
//
//   - One writer: OpenCampaign holds an exclusive flock on DIR/lock until
//     Close; a second process opening the directory fails at once, naming
//     the holder's pid. ReadCampaign (merge, records dump) holds a shared
//     lock, so a shard still being written is not read.
//   - Identity: run.json is written once; a directory whose run.json
//     differs is refused with the flags that differ, one whose run.json
//     is not a run identity (truncated, edited) is damaged, and a
//     non-empty directory without run.json is damaged, not new.
//   - Records bound to their run: every segment carries the SHA-256 of
//     run.json and its backend, and is checksummed; a segment of another
//     run, another backend, or one that fails its checksum is an error
//     naming the file and segment, and a unit recorded twice is an error.
//   - Nothing counted twice, nothing recorded lost: segments are appended
//     and synced whole; a frame cut short by a crash is dropped (its
//     units are computed again). Units finished after the last segment
//     (at most SegmentUnits units or SegmentInterval of work) are computed
//     again after kill -9; Ctrl-C and errors write them first (Close).

// Campaign is an open campaign directory.
type Campaign struct {
	dir      string
	run      RunID
	lock     *dirlock.Lock
	readOnly bool
	// Notice, when not nil, hears what a read repaired: a records file's
	// torn last segment (an append a crash cut short) cut off, whose
	// units are then run again.
	Notice func(msg string)
	// SegmentUnits and SegmentInterval bound a segment: it is written once
	// it holds SegmentUnits units, or when a unit finishes SegmentInterval
	// after the segment's first.
	SegmentUnits    int
	SegmentInterval time.Duration

	mu      sync.Mutex
	files   map[string]*os.File
	pending map[string]*pendingSegment
}

type pendingSegment struct {
	seg   *Segment
	since time.Time
}

// Default segment bounds: a segment of 256 Falcon-1024 signatures is some
// 40 KB (150 bytes a signature); 30 s bounds what kill -9 costs.
const (
	DefaultSegmentUnits    = 256
	DefaultSegmentInterval = 30 * time.Second
)

// RunFile is the identity file of a campaign directory; MaxRunFile the
// most of it that is read (identities are a few kilobytes: a larger file
// is not one, and a device that never ends is not read forever).
const (
	RunFile    = "run.json"
	MaxRunFile = 1 << 20
)

// ReadRunFile returns the content of dir's run.json, at most MaxRunFile
// bytes (a longer one is an error). Content that is not JSON is returned
// for the callers' own message (the run.json is damaged): the small cap
// already bounds what a device costs.
func ReadRunFile(dir string) ([]byte, error) {
	return safefile.Read(nil, filepath.Join(dir, RunFile), MaxRunFile)
}

// SummaryFile is the summaries document of a campaign directory (compare
// writes it when the campaign is finished, WriteSummary); MaxSummaryFile
// the most of it that is read (a few kilobytes per backend).
const (
	SummaryFile    = "summary.json"
	MaxSummaryFile = 16 << 20
)

// ReadSummaryFile reads dir's summary.json: the summaries compare wrote.
// A directory without one gives an error satisfying errors.Is(err,
// fs.ErrNotExist).
func ReadSummaryFile(dir string) ([]*Summary, error) {
	path := filepath.Join(dir, SummaryFile)
	data, err := safefile.ReadJSON(nil, path, MaxSummaryFile)
	if err != nil {
		return nil, err
	}
	var sums []*Summary
	if err := json.Unmarshal(data, &sums); err != nil {
		return nil, fmt.Errorf("%s: not compare's summaries: %w", path, err)
	}
	return sums, nil
}

// OpenCampaign opens (creating if needed) the campaign directory dir for a
// run with the given identity, locked for writing until Close.
func OpenCampaign(dir string, identity any) (*Campaign, error) {
	id, err := json.MarshalIndent(identity, "", "  ")
	if err != nil {
		return nil, err
	}
	id = append(id, '\n')
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("campaign directory: %w", err)
	}
	lock, err := dirlock.Exclusive(dir)
	if err != nil {
		return nil, err
	}
	if err := checkIdentity(dir, id); err != nil {
		lock.Unlock()
		return nil, err
	}
	return &Campaign{dir: dir, run: sha256.Sum256(id), lock: lock, files: map[string]*os.File{}, pending: map[string]*pendingSegment{},
		SegmentUnits: DefaultSegmentUnits, SegmentInterval: DefaultSegmentInterval}, nil
}

// checkIdentity writes dir's run.json for a new directory, or checks that
// an existing one is id.
func checkIdentity(dir string, id []byte) error {
	path := filepath.Join(dir, RunFile)
	if legacy, _ := filepath.Glob(filepath.Join(dir, "records-*.jsonl")); len(legacy) > 0 {
		return fmt.Errorf("%s holds records in the JSON-lines layout of an earlier fprlab (%s), which this version does not read: use a new --out directory", dir, filepath.Base(legacy[0]))
	}
	old, err := ReadRunFile(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := dirlock.CheckFresh(dir, RunFile); err != nil {
			return err
		}
		if err := safefile.WriteFiles(io.Discard, safefile.File{Path: path, Data: id}); err != nil {
			return fmt.Errorf("campaign directory: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("campaign directory: %w", err)
	case bytes.Equal(old, id):
		return nil
	}
	diff, err := IdentityDiff(old, id)
	if err != nil {
		return fmt.Errorf("%s is damaged: %v; remove the directory or use another --out", path, err)
	}
	return fmt.Errorf("%s was made by another run: %s; use another --out directory, or the same command and flags", dir, diff)
}

// keySourceText describes an identity's key_source value.
func keySourceText(v any, ok bool) string {
	if !ok {
		return "round 3's (no key_source; --key-source falcon)"
	}
	if s, isString := v.(string); isString {
		return "from --key-source " + s
	}
	return "from --key-source " + identityValue(v)
}

// modeText describes an identity's mode value (absent: dyn).
func modeText(v any, ok bool) string {
	if !ok {
		return "falcon_sign_dyn (--mode dyn, the default)"
	}
	if s, isString := v.(string); isString {
		return "--mode " + s
	}
	return "--mode " + identityValue(v)
}

// schemeText describes an identity's scheme value (absent: round 3).
func schemeText(v any, ok bool) string {
	if !ok {
		return "Falcon round 3 (--scheme falcon, the default)"
	}
	if name, isString := v.(string); isString {
		if s, err := scheme.Lookup(name); err == nil && name != "" {
			return s.Description() + " (--scheme " + name + ")"
		}
	}
	return "--scheme " + identityValue(v)
}

// pluginsDiff describes how an identity's plugin libraries ("so:ARG
// sha256:HEX" each, or absent) differ from this run's.
func pluginsDiff(old, cur any) string {
	if old == nil {
		return "it records no plugin library, this run's are " + identityValue(cur) +
			" (a directory written before fprlab recorded them, or with other backends: its records cannot be checked against these libraries)"
	}
	if cur == nil {
		return "it was made with the plugin libraries " + identityValue(old) + ", this run has none"
	}
	digests := func(v any) map[string]string {
		m := map[string]string{}
		if l, ok := v.([]any); ok {
			for _, e := range l {
				s, _ := e.(string)
				name, sum, _ := strings.Cut(s, " ")
				m[name] = sum
			}
		}
		return m
	}
	o, c := digests(old), digests(cur)
	var d []string
	for _, name := range slices.Sorted(maps.Keys(c)) {
		if sum, ok := o[name]; ok && sum != c[name] {
			d = append(d, fmt.Sprintf("%s is another library than the one that made it (%s then, %s now: rebuilt or replaced since)", name, sum, c[name]))
		}
	}
	if len(d) == 0 {
		return fmt.Sprintf("it was made with the plugin libraries %s, this run uses %s", identityValue(old), identityValue(cur))
	}
	return strings.Join(d, "; ")
}

// IdentityDiff describes how the identity old (a run.json read from a
// directory) differs from cur (this run's), naming the flags and both
// values. An old identity that is not a JSON object -- truncated, edited
// -- is an error: the directory is damaged rather than another run's.
func IdentityDiff(old, cur []byte) (string, error) {
	var o, c map[string]any
	if err := json.Unmarshal(old, &o); err != nil || o == nil {
		return "", errors.New("its run.json is not a run identity (truncated or edited)")
	}
	if err := json.Unmarshal(cur, &c); err != nil {
		return "", err
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range o {
			if !yield(k) {
				return
			}
		}
		for k := range c {
			if _, ok := o[k]; !ok && !yield(k) {
				return
			}
		}
	})
	var diffs []string
	for _, k := range keys {
		ov, ook := o[k]
		cv, cok := c[k]
		if ook && cok && reflect.DeepEqual(ov, cv) {
			continue
		}
		switch k {
		case "version":
			diffs = append(diffs, fmt.Sprintf("it was made by fprlab %s, this is fprlab %s", identityValue(ov), identityValue(cv)))
			continue
		case "command":
			diffs = append(diffs, fmt.Sprintf("it was made by `fprlab %s`, this is `fprlab %s`", identityValue(ov), identityValue(cv)))
			continue
		case "plugins":
			diffs = append(diffs, pluginsDiff(ov, cv))
			continue
		case "triword_names":
			// Written only when a triword backend is measured: where the
			// backends (or a sweep's formats) differ, their line says it
			// all. No flag sets it: the program's version does.
			if !reflect.DeepEqual(o["backends"], c["backends"]) || !reflect.DeepEqual(o["formats"], c["formats"]) {
				continue
			}
			diffs = append(diffs, fmt.Sprintf("its triword backend names mean %s, this fprlab's %s (docs/backends.md, \"Old triword names\")", namesText(ov, ook), namesText(cv, cok)))
			continue
		case "scheme":
			// Absent: round 3 (--scheme falcon, the default).
			diffs = append(diffs, fmt.Sprintf("it signs %s, this run %s", schemeText(ov, ook), schemeText(cv, cok)))
			continue
		case "mode":
			// Absent: falcon_sign_dyn.
			diffs = append(diffs, fmt.Sprintf("it signs by %s, this run by %s", modeText(ov, ook), modeText(cv, cok)))
			continue
		case "key_source":
			// A key source belongs to FN-DSA campaigns: where the schemes
			// differ, the scheme's line says it all (naming round 3's
			// keys as --key-source falcon, which round 3 refuses, would
			// mislead).
			if !reflect.DeepEqual(o["scheme"], c["scheme"]) {
				continue
			}
			// Absent: round 3's keys (an FN-DSA campaign's before the
			// field existed, or with --key-source falcon).
			diffs = append(diffs, fmt.Sprintf("its keys are %s, this run's %s", keySourceText(ov, ook), keySourceText(cv, cok)))
			continue
		}
		flag := identityFlag(k)
		switch {
		case !ook:
			diffs = append(diffs, fmt.Sprintf("it has no %s, this run has %s %s", flag, flag, identityValue(cv)))
		case !cok:
			diffs = append(diffs, fmt.Sprintf("it has %s %s, this run has none", flag, identityValue(ov)))
		default:
			diffs = append(diffs, fmt.Sprintf("it has %s %s, this run %s %s", flag, identityValue(ov), flag, identityValue(cv)))
		}
	}
	if len(diffs) == 0 {
		return "", errors.New("its run.json holds this run's identity but not in the bytes fprlab writes (edited)")
	}
	return strings.Join(diffs, "; "), nil
}

// namesText says what a run's triword names revision means (absent: the
// names before the revision, when triword imported binary64 constants).
func namesText(v any, ok bool) string {
	if !ok {
		return "the arithmetics of before the names' revision (triword then imported the reference's binary64 constants)"
	}
	return "the arithmetics of names revision " + identityValue(v)
}

// identityFlag names the flag of an identity field.
func identityFlag(key string) string {
	switch key {
	case "backends":
		return "--backend"
	case "formats":
		return "--format/--bits (the formats)"
	case "references":
		return "--reference (the number of reference backends)"
	}
	return "--" + strings.ReplaceAll(key, "_", "-")
}

// identityValue renders an identity value (strings quoted, lists joined by
// commas, long values cut).
func identityValue(v any) string {
	var s string
	switch x := v.(type) {
	case nil:
		s = "(none)"
	case string:
		s = fmt.Sprintf("%q", x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = fmt.Sprint(e)
		}
		s = strings.Join(parts, ",")
	default:
		s = fmt.Sprint(x)
	}
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

// ReadCampaign opens an existing campaign directory for reading (merge,
// records dump) under a shared lock: a directory a running process writes
// is refused. It returns the directory's run.json.
func ReadCampaign(dir string) (*Campaign, []byte, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a campaign directory", dir)
	}
	lock, err := dirlock.Shared(dir)
	if err != nil {
		return nil, nil, err
	}
	id, err := ReadRunFile(dir)
	if err != nil {
		lock.Unlock()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s is not a campaign directory, or a damaged one: it has no run.json", dir)
		}
		return nil, nil, err
	}
	return &Campaign{dir: dir, run: sha256.Sum256(id), lock: lock, readOnly: true, files: map[string]*os.File{}, pending: map[string]*pendingSegment{}}, id, nil
}

// Run identifies the directory's run (the SHA-256 of its run.json).
func (c *Campaign) Run() RunID { return c.run }

// Dir is the campaign's directory.
func (c *Campaign) Dir() string { return c.dir }

// RecordsFile is the records file of a backend.
func (c *Campaign) RecordsFile(backend string) string {
	r := strings.NewReplacer(":", "_", ",", "_", "/", "_")
	return filepath.Join(c.dir, "records-"+r.Replace(backend)+".seg")
}

// RecordsFiles lists the directory's records files.
func (c *Campaign) RecordsFiles() ([]string, error) {
	return filepath.Glob(filepath.Join(c.dir, "records-*.seg"))
}

// errNoCampaign is what the methods of a nil *Campaign return.
var errNoCampaign = errors.New("shadow: campaign not open (use OpenCampaign)")

// Segments calls f with each segment of backend's records file, in file
// order, after checking that it belongs to this directory's run and to
// backend. A segment cut short at the end of the file ends the reading
// (and, for a directory open for writing, is cut off so that appends
// start on a frame boundary).
func (c *Campaign) Segments(backend string, f func(*Segment) error) error {
	if c == nil {
		return errNoCampaign
	}
	return c.readFile(c.RecordsFile(backend), backend, f)
}

// DumpFile reads a records file of the campaign as Segments does; with
// backend "" the file's first segment names the backend the others must
// have.
func (c *Campaign) DumpFile(path, backend string, f func(*Segment) error) error {
	return c.readFile(path, backend, f)
}

func (c *Campaign) readFile(path, backend string, f func(*Segment) error) error {
	fh, err := openRecords(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer fh.Close()
	err = ReadSegments(fh, func(s *Segment) error {
		if s.Run != c.run {
			return fmt.Errorf("%s: a segment of another run (its run identity %.12s..., this directory's run.json %.12s...): its records were copied from another directory, or run.json was edited after they were written: remove the file or the directory", path, s.Run, c.run)
		}
		if backend == "" {
			backend = s.Backend
		}
		if s.Backend != backend {
			return fmt.Errorf("%s: a segment of backend %q in the file of %q; remove the file or the directory", path, s.Backend, backend)
		}
		return f(s)
	})
	var se *SegmentError
	switch {
	case errors.As(err, &se) && errors.Is(err, ErrTornSegment):
		if c.readOnly {
			return nil
		}
		if err := os.Truncate(path, se.Offset); err != nil {
			return err
		}
		if c.Notice != nil {
			c.Notice(fmt.Sprintf("%s: segment %d, from byte %d, was cut short (an interrupted run); it is dropped and its units are run again", path, se.Index, se.Offset))
		}
		return nil
	case errors.As(err, &se):
		return fmt.Errorf("%s: %v (remove the file or the directory)", path, err)
	}
	return err
}

// openRecords opens a records file for reading, refusing anything but a
// regular file: a device such as /dev/zero would be read forever, a FIFO
// would block the open or the reads, a directory would read as no
// records. O_NONBLOCK makes the open of a FIFO return at once so that its
// type can be seen; it does not affect reads of a regular file.
func openRecords(path string) (*os.File, error) {
	fh, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		fh.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s) but fprlab writes its records as one: remove it or the directory", path, fileKind(st.Mode()))
	}
	return fh, nil
}

// fileKind names the type of a file that is not a regular one.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// Finished is what a campaign directory holds of one backend: the units
// recorded and their aggregate.
type Finished struct {
	Keygens, Signatures UnitSet
	Aggregate           *Aggregate
}

// Have adapts the finished units to Config.Have: a finished unit has no
// record to return (its record is in the aggregate).
func (f *Finished) Have(kind string, index int) (*Record, bool) {
	if kind == "keygen" {
		return nil, f.Keygens.Has(index)
	}
	return nil, f.Signatures.Has(index)
}

// Add records the units of a segment and merges its aggregate; a unit
// already there is an error.
func (f *Finished) Add(s *Segment) error {
	for _, u := range []struct {
		set   *UnitSet
		units []int
		kind  string
	}{{&f.Keygens, s.KeygenUnits, "keygen"}, {&f.Signatures, s.SignatureUnits, "signature"}} {
		for _, i := range u.units {
			if !u.set.Add(i) {
				return fmt.Errorf("%s %d recorded twice", u.kind, i)
			}
		}
	}
	f.Aggregate.Merge(s.Aggregate)
	return nil
}

// Load returns the finished units of backend and their aggregate.
func (c *Campaign) Load(backend string) (*Finished, error) {
	return c.LoadEach(backend, nil)
}

// LoadEach is Load, calling each (when not nil) with every segment once
// it has passed the checks a resume makes: the run, the backend, no unit
// recorded twice.
func (c *Campaign) LoadEach(backend string, each func(*Segment) error) (*Finished, error) {
	if c == nil {
		return nil, errNoCampaign
	}
	f := &Finished{Aggregate: NewAggregate()}
	err := c.Segments(backend, func(s *Segment) error {
		if err := f.Add(s); err != nil {
			return fmt.Errorf("%s: %v (remove the file or the directory)", c.RecordsFile(backend), err)
		}
		if each != nil {
			return each(s)
		}
		return nil
	})
	return f, err
}

// StrayRecords refuses records files of the directory that belong to
// none of the backends its run measures.
func (c *Campaign) StrayRecords(backends []string) error {
	files, err := c.RecordsFiles()
	if err != nil {
		return err
	}
	own := map[string]bool{}
	for _, b := range backends {
		own[c.RecordsFile(b)] = true
	}
	for _, f := range files {
		if !own[f] {
			return fmt.Errorf("%s is the records file of no backend of the run (its backends: %s): remove it or the directory", f, strings.Join(backends, ", "))
		}
	}
	return nil
}

// Append adds one finished record of backend to its pending segment,
// writing the segment once it is full or old enough.
func (c *Campaign) Append(backend string, r *Record) error {
	if c == nil {
		return errNoCampaign
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pending[backend]
	if p == nil {
		p = &pendingSegment{seg: &Segment{Backend: backend, Aggregate: NewAggregate()}, since: time.Now()}
		c.pending[backend] = p
	}
	p.seg.Aggregate.Add(r)
	if r.Kind == "keygen" {
		p.seg.KeygenUnits = append(p.seg.KeygenUnits, r.Index)
	} else {
		p.seg.SignatureUnits = append(p.seg.SignatureUnits, r.Index)
	}
	if len(p.seg.KeygenUnits)+len(p.seg.SignatureUnits) >= max(c.SegmentUnits, 1) || time.Since(p.since) >= c.SegmentInterval {
		return c.flushLocked(backend)
	}
	return nil
}

// WriteSegment appends a segment (of another directory, for merge) to
// backend's records file, bound to this directory's run.
func (c *Campaign) WriteSegment(backend string, s *Segment) error {
	if c == nil {
		return errNoCampaign
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.flushLocked(backend); err != nil {
		return err
	}
	cp := *s
	cp.Backend = backend
	return c.writeLocked(&cp)
}

// Flush writes the pending segments.
func (c *Campaign) Flush() error {
	if c == nil {
		return errNoCampaign
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for b := range c.pending {
		errs = append(errs, c.flushLocked(b))
	}
	return errors.Join(errs...)
}

func (c *Campaign) flushLocked(backend string) error {
	p := c.pending[backend]
	if p == nil {
		return nil
	}
	delete(c.pending, backend)
	slices.Sort(p.seg.KeygenUnits)
	slices.Sort(p.seg.SignatureUnits)
	return c.writeLocked(p.seg)
}

func (c *Campaign) writeLocked(s *Segment) error {
	if c.readOnly {
		return fmt.Errorf("%s is open for reading only", c.dir)
	}
	s.Run = c.run
	f := c.files[s.Backend]
	if f == nil {
		var err error
		f, err = os.OpenFile(c.RecordsFile(s.Backend), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		c.files[s.Backend] = f
	}
	if _, err := f.Write(AppendSegment(nil, s)); err != nil {
		return err
	}
	return f.Sync()
}

// WriteSummary writes DIR/summary.json atomically.
func (c *Campaign) WriteSummary(v any) error {
	if c == nil {
		return errNoCampaign
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(c.dir, SummaryFile)
	return safefile.WriteFiles(io.Discard, safefile.File{Path: path, Data: append(data, '\n')})
}

// Close writes the pending segments, closes the records files and
// releases the lock.
func (c *Campaign) Close() error {
	if c == nil {
		return errNoCampaign
	}
	var errs []error
	if !c.readOnly {
		errs = append(errs, c.Flush())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.files {
		errs = append(errs, f.Close())
	}
	c.files = map[string]*os.File{}
	errs = append(errs, c.lock.Unlock())
	return errors.Join(errs...)
}

// UnitSet is a set of unit indices (a bitmap: an eighth of a byte per
// unit up to the largest index).
type UnitSet struct {
	words []uint64
	n     int
}

// Has reports whether i is in the set.
func (u *UnitSet) Has(i int) bool {
	return i >= 0 && i/64 < len(u.words) && u.words[i/64]&(1<<(i%64)) != 0
}

// Add puts i in the set and reports whether it was not there.
func (u *UnitSet) Add(i int) bool {
	if u.Has(i) {
		return false
	}
	for i/64 >= len(u.words) {
		u.words = append(u.words, 0)
	}
	u.words[i/64] |= 1 << (i % 64)
	u.n++
	return true
}

// Len is the number of units in the set.
func (u *UnitSet) Len() int { return u.n }
