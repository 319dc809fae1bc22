package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fprlab/fprlab/internal/safefile"
)

// ManifestName is the file of a campaign directory that says what was run.
const ManifestName = "manifest.json"

// MaxDocument is the largest document Read accepts (a compare document
// holds one histogram per quantity and backend: kilobytes).
const MaxDocument = 256 << 20

// Manifest describes a campaign: what was run, with which version, seeds
// and sample sizes. The measuring commands do not write it; whoever runs
// the campaign does (a script, or by hand), one run per output document:
//
//	{"title": "...", "version": "fprlab ...", "notes": "...",
//	 "runs": [{"command": "fprlab compare --backend native,triword --params 512 --signatures 1000 --json",
//	           "output": "compare-512.json", "version": "...", "seed": "1",
//	           "signatures": 1000, "kat_records": "", "seconds": 61.2}]}
type Manifest struct {
	Title   string `json:"title"`
	Version string `json:"version"`
	Notes   string `json:"notes,omitempty"`
	Runs    []Run  `json:"runs"`
}

// Run is one command of a campaign and the document it wrote. Argv is
// the command's words (fprlab writes it); Command is the same command as
// one line for a POSIX shell, each word quoted (package shellword), or,
// in manifests written by hand, whatever line they give.
type Run struct {
	Command    string   `json:"command"`
	Argv       []string `json:"argv,omitempty"`
	Output     string   `json:"output"`
	Version    string   `json:"version,omitempty"`
	Seed       string   `json:"seed,omitempty"`
	Signatures int64    `json:"signatures,omitempty"`
	KATRecords string   `json:"kat_records,omitempty"`
	// Scheme is "fn-dsa" for an FN-DSA campaign (absent: round 3), and
	// KeySource its keys' generation: "fn-dsa" (FN-DSA's own) or "falcon"
	// (round 3's).
	Scheme    string  `json:"scheme,omitempty"`
	KeySource string  `json:"key_source,omitempty"`
	Seconds   float64 `json:"seconds,omitempty"`
	Note      string  `json:"note,omitempty"`
}

// CompareDoc is a parsed `compare --json` document.
type CompareDoc struct {
	File     string
	Backends []Compare
}

// SweepDoc is a parsed `sweep --json` document.
type SweepDoc struct {
	File   string
	Points []Point
	// PStar is the document's own P* entries (nil in the bare-array
	// documents written before they were part of it, Legacy then).
	// Readers should prefer PStars(Points), which is their definition.
	PStar  []PStarEntry
	Shard  string // "I/N" in a shard's document
	Legacy bool
}

// Skipped is a file of a campaign directory that holds no document.
type Skipped struct {
	File, Reason string
}

// Campaign is what a directory (or one file) holds.
type Campaign struct {
	Dir      string
	Manifest *Manifest // nil without manifest.json
	Compares []CompareDoc
	Sweeps   []SweepDoc
	OpErrors []OpErrorDoc
	Tunes    []TuneDoc
	Diverges []DivergeDoc
	Skipped  []Skipped
	// Own are the files fprlab keeps beside its documents (run.json,
	// checkpoints), read but holding no result.
	Own []string
	// fromDir: the campaign was read from a directory (Dir), not from one
	// document.
	fromDir bool
	// Files are the paths of every file read (documents, the manifest
	// and files skipped after reading), so that a command writing
	// beside them can refuse to replace one of its own inputs.
	Files   []string
	Renamed []Renamed // backends of documents written under the old triword names (legacy.go)
}

// Read reads a campaign from path: a directory (every *.json at its top
// level, manifest.json as the manifest, in name order) or a single
// document.
func Read(path string) (*Campaign, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		c := &Campaign{Dir: filepath.Dir(path)}
		if err := c.add(path); err != nil {
			return nil, err
		}
		if c.Documents() == 0 {
			if len(c.Own) > 0 {
				return nil, fmt.Errorf("%s: a file fprlab keeps beside its results (a run identity or checkpoint), not a document", path)
			}
			return nil, fmt.Errorf("%s: %s", path, c.Skipped[0].Reason)
		}
		return c, nil
	}
	c := &Campaign{Dir: path, fromDir: true}
	files, err := filepath.Glob(filepath.Join(path, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	for _, f := range files {
		if st, err := os.Stat(f); err != nil {
			c.Skipped = append(c.Skipped, Skipped{filepath.Base(f), err.Error()})
			continue
		} else if !st.Mode().IsRegular() {
			c.Skipped = append(c.Skipped, Skipped{filepath.Base(f), "not a regular file (" + st.Mode().Type().String() + ")"})
			continue
		}
		if filepath.Base(f) == ManifestName {
			c.Files = append(c.Files, f)
			m, err := readManifest(f)
			if err != nil {
				return nil, err
			}
			c.Manifest = m
			continue
		}
		if err := c.add(f); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Documents counts the documents read (the manifest and skipped files
// not counted).
func (c *Campaign) Documents() int {
	return len(c.Compares) + len(c.Sweeps) + len(c.OpErrors) + len(c.Tunes) + len(c.Diverges)
}

// InputArgs returns, for safefile.Distinct, the files of the campaign
// given as --flag that an output must not replace: every file read, and
// for a campaign directory every other regular file at its top level (a
// compare campaign's records and lock) but HTML pages, which are earlier
// reports.
func (c *Campaign) InputArgs(flag string) []safefile.Arg {
	args := make([]safefile.Arg, len(c.Files))
	for i, f := range c.Files {
		args[i] = safefile.Arg{Flag: flag, Path: f}
	}
	if !c.fromDir {
		return args
	}
	ents, err := os.ReadDir(c.Dir)
	if err != nil {
		return args
	}
	for _, e := range ents {
		path := filepath.Join(c.Dir, e.Name())
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if !e.Type().IsRegular() || ext == ".html" || ext == ".htm" || slices.Contains(c.Files, path) {
			continue
		}
		args = append(args, safefile.Arg{Flag: flag, Path: path})
	}
	return args
}

func readManifest(path string) (*Manifest, error) {
	b, err := safefile.ReadJSON(nil, path, MaxDocument)
	if err != nil {
		return nil, err
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: not a campaign manifest: %w", path, err)
	}
	return &m, nil
}

// add reads one file: a document is parsed (a malformed one is an error),
// anything else is recorded as skipped.
func (c *Campaign) add(path string) error {
	name := filepath.Base(path)
	c.Files = append(c.Files, path)
	b, err := safefile.ReadJSON(nil, path, MaxDocument)
	var nj *safefile.NotJSONError
	if errors.As(err, &nj) {
		c.Skipped = append(c.Skipped, Skipped{name, fmt.Sprintf("not JSON: it begins with %s", nj.Describe())})
		return nil
	}
	if err != nil {
		return err
	}
	var objs []map[string]json.RawMessage
	if err := json.Unmarshal(b, &objs); err != nil {
		var obj map[string]json.RawMessage
		if jerr := json.Unmarshal(b, &obj); jerr != nil {
			reason := "not a JSON array of objects (compare prints one) nor an object (sweep and tune print one)"
			if !json.Valid(b) {
				reason = "not JSON (" + jerr.Error() + "): damaged or cut short?"
			}
			c.Skipped = append(c.Skipped, Skipped{name, reason})
			return nil
		}
		switch {
		case ownFile(name, obj):
			c.Own = append(c.Own, name)
			return nil
		case obj["formats"] != nil:
			return c.addSweepObject(name, path, b)
		case obj["pareto"] != nil && obj["chosen"] != nil:
			var t Tune
			if err := json.Unmarshal(b, &t); err != nil {
				return fmt.Errorf("%s: tune document: %w", path, err)
			}
			if err := t.validate(); err != nil {
				return fmt.Errorf("%s: tune document: %w", path, err)
			}
			c.Tunes = append(c.Tunes, TuneDoc{name, t})
			return nil
		case obj["compared"] != nil && obj["differing"] != nil && obj["against"] != nil:
			var d Diverge
			if err := json.Unmarshal(b, &d); err != nil {
				return fmt.Errorf("%s: diverge document: %w", path, err)
			}
			if err := d.validate(); err != nil {
				return fmt.Errorf("%s: diverge document: %w", path, err)
			}
			c.Diverges = append(c.Diverges, DivergeDoc{name, d})
			return nil
		}
		c.Skipped = append(c.Skipped, Skipped{name, "a JSON object that is not a sweep (formats, pstar), tune (pareto, chosen) or diverge (compared, differing, against) document"})
		return nil
	}
	if len(objs) == 0 {
		c.Skipped = append(c.Skipped, Skipped{name, "empty array"})
		return nil
	}
	_, hasFormat := objs[0]["format"]
	_, hasBackend := objs[0]["backend"]
	_, hasLeaf := objs[0]["per_leaf"]
	_, hasOp := objs[0]["op"]
	_, hasOpErr := objs[0]["max_rel_err_log2"]
	switch {
	case hasBackend && hasOp && hasOpErr:
		var ops []OpError
		if err := json.Unmarshal(b, &ops); err != nil {
			return fmt.Errorf("%s: arith errors document: %w", path, err)
		}
		for i := range ops {
			if ops[i].Backend == "" || ops[i].Op == "" {
				return fmt.Errorf("%s: arith errors entry %d: needs \"backend\" and \"op\"", path, i)
			}
			if err := ops[i].validate(); err != nil {
				return fmt.Errorf("%s: arith errors entry %d: %w", path, i, err)
			}
		}
		c.OpErrors = append(c.OpErrors, OpErrorDoc{name, ops})
	case hasFormat:
		if err := c.addSweep(name, path, SweepDoc{File: name, Legacy: true}, b, objs); err != nil {
			return err
		}
	case hasBackend && hasLeaf:
		var cs []Compare
		if err := json.Unmarshal(b, &cs); err != nil {
			return fmt.Errorf("%s: compare document: %w", path, err)
		}
		for i := range cs {
			if cs[i].Backend == "" {
				return fmt.Errorf("%s: compare entry %d: no \"backend\"", path, i)
			}
			if err := cs[i].validate(); err != nil {
				return fmt.Errorf("%s: compare entry %d (%s): %w", path, i, cs[i].Backend, err)
			}
			if err := validateCounts(objs[i]); err != nil {
				return fmt.Errorf("%s: compare entry %d (%s): %w", path, i, cs[i].Backend, err)
			}
			fillAbsent(&cs[i], objs[i])
		}
		ps := make([]*Compare, len(cs))
		for i := range cs {
			ps[i] = &cs[i]
		}
		c.relabelLegacy(name, ps, nil)
		c.Compares = append(c.Compares, CompareDoc{name, cs})
	default:
		c.Skipped = append(c.Skipped, Skipped{name, "not a compare (backend, per_leaf), sweep (format, bits) or arith errors (backend, op, max_rel_err_log2) document"})
	}
	return nil
}

// addSweepObject reads a sweep document (SweepDocument).
func (c *Campaign) addSweepObject(name, path string, b []byte) error {
	var d SweepDocument
	if err := json.Unmarshal(b, &d); err != nil {
		return fmt.Errorf("%s: sweep document: %w", path, err)
	}
	if len(d.Formats) == 0 {
		c.Skipped = append(c.Skipped, Skipped{name, "a sweep document without formats"})
		return nil
	}
	for i := range d.PStar {
		if err := d.PStar[i].validate(); err != nil {
			return fmt.Errorf("%s: sweep pstar entry %d: %w", path, i, err)
		}
	}
	objs := make([]map[string]json.RawMessage, len(d.Formats))
	for i, f := range d.Formats {
		if err := json.Unmarshal(f, &objs[i]); err != nil || objs[i] == nil {
			return fmt.Errorf("%s: sweep formats[%d]: not a JSON object", path, i)
		}
	}
	formats, err := json.Marshal(d.Formats)
	if err != nil {
		return err
	}
	return c.addSweep(name, path, SweepDoc{File: name, PStar: d.PStar, Shard: d.Shard}, formats, objs)
}

// addSweep reads the points of a sweep document: b is the JSON array of
// its formats, objs the same array as raw objects.
func (c *Campaign) addSweep(name, path string, doc SweepDoc, b []byte, objs []map[string]json.RawMessage) error {
	var pts []Point
	if err := json.Unmarshal(b, &pts); err != nil {
		return fmt.Errorf("%s: sweep document: %w", path, err)
	}
	for i := range pts {
		if pts[i].Format == "" || pts[i].Bits <= 0 {
			return fmt.Errorf("%s: sweep entry %d: needs \"format\" and \"bits\" > 0", path, i)
		}
		if err := pts[i].validate(); err != nil {
			return fmt.Errorf("%s: sweep entry %d (%s): %w", path, i, pts[i].Format, err)
		}
		fillAbsent(&pts[i].Compare, objs[i])
	}
	cs, formats := make([]*Compare, len(pts)), make([]*string, len(pts))
	for i := range pts {
		cs[i], formats[i] = &pts[i].Compare, &pts[i].Format
	}
	c.relabelLegacy(name, cs, formats)
	doc.Points = pts
	c.Sweeps = append(c.Sweeps, doc)
	return nil
}

// ownFile reports whether a JSON object is one of the files fprlab keeps
// beside its documents in an --out directory: a campaign's identity
// (run.json: {"command": ..., ...}) or a checkpoint envelope (tune's
// evaluations.json, internal/checkpoint). They hold no result, and are
// not listed as skipped.
func ownFile(name string, obj map[string]json.RawMessage) bool {
	var format string
	if json.Unmarshal(obj["format"], &format) == nil && format == "fprlab checkpoint" {
		return true
	}
	return name == "run.json" && obj["command"] != nil
}

// fillAbsent marks the error statistics a document left out as not
// measured (NaN) rather than zero.
func fillAbsent(c *Compare, raw map[string]json.RawMessage) {
	none := Quantiles{Min: nan, Q01: nan, Q10: nan, Median: nan, Q90: nan, Q99: nan, Max: nan}
	for key, e := range map[string]*Errors{"per_leaf": &c.PerLeaf, "per_signature": &c.PerSignature} {
		if _, ok := raw[key]; !ok {
			*e = Errors{none, none, none}
		}
	}
}

// AllCompares returns every backend object of every compare document.
func (c *Campaign) AllCompares() []Compare {
	var out []Compare
	for _, d := range c.Compares {
		out = append(out, d.Backends...)
	}
	return out
}

// AllPoints returns every point of every sweep document.
func (c *Campaign) AllPoints() []Point {
	var out []Point
	for _, d := range c.Sweeps {
		out = append(out, d.Points...)
	}
	return out
}

// PrecisionPoints returns the points of the precision figures: every sweep
// point, then every compare object over a precision family (backend
// "vprec:P..." or "oracle:P") as a point of precision P, so that compare
// runs over several formats draw as a sweep (without KAT data). A format
// already in a sweep document for the same degree is not repeated.
func (c *Campaign) PrecisionPoints() []Point {
	out := c.AllPoints()
	seen := map[string]bool{}
	for _, p := range out {
		seen[fmt.Sprint(p.Format, p.Params)] = true
	}
	for _, x := range c.AllCompares() {
		bits, ok := familyBits(x.Backend)
		if !ok || seen[fmt.Sprint(x.Backend, x.Params)] {
			continue
		}
		seen[fmt.Sprint(x.Backend, x.Params)] = true
		out = append(out, Point{Compare: x, Format: x.Backend, Bits: bits})
	}
	return out
}

// IsFamilyName reports whether a backend name is a member of a precision
// family ("vprec:P...", "oracle:P"), a point on a precision axis rather
// than a fixed reference backend.
func IsFamilyName(name string) bool {
	_, ok := familyBits(name)
	return ok
}

// familyBits reads P from "vprec:P[:...]" or "oracle:P".
func familyBits(name string) (int, bool) {
	for _, fam := range []string{"vprec:", "oracle:"} {
		if rest, ok := strings.CutPrefix(name, fam); ok {
			p, _, _ := strings.Cut(rest, ":")
			n, err := strconv.Atoi(p)
			return n, err == nil && n > 0
		}
	}
	return 0, false
}

// ErrNoData is returned when a campaign holds no document a plot needs.
var ErrNoData = errors.New("no data")

// DescribeSamples says on how many signatures and leaves a set of compare
// objects was measured: "1000 signatures, 1,024,000 leaves" when they all
// agree, else the range.
func DescribeSamples(cs []Compare) string {
	if len(cs) == 0 {
		return "no signatures"
	}
	lo, hi := cs[0], cs[0]
	for _, x := range cs {
		if x.Signatures < lo.Signatures {
			lo = x
		}
		if x.Signatures > hi.Signatures {
			hi = x
		}
	}
	if lo.Signatures == hi.Signatures {
		return fmt.Sprintf("%s signatures, %s leaves", Thousands(lo.Signatures), Thousands(lo.Leaves))
	}
	return fmt.Sprintf("%s..%s signatures", Thousands(lo.Signatures), Thousands(hi.Signatures))
}

// Thousands formats n with comma separators.
func Thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
