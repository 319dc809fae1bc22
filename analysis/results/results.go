// Package results reads the documents the measuring commands write, as
// their JSON contracts define them, so that plots, reports and scripts
// share one reading: `fprlab compare --json` (an array of per-backend
// Compare objects), `fprlab sweep --json` (a SweepDocument: its per-format
// Point objects -- a Compare plus the format's name, precision, KAT
// conformance and signing attempts -- and P*; older sweeps wrote the bare
// array of points), `fprlab tune --json`, `fprlab arith errors --json`,
// and a campaign directory holding such documents and a manifest of what
// was run.
//
// It is for reading only: it computes nothing from Falcon, only the
// summaries that follow from a document (P*, rates).
package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Log2 is a base-2 logarithm as the documents write it: a JSON number, or
// null for log2 of zero (compare writes an exact result, whose log2 is -Inf
// and which JSON numbers cannot hold, as null), or the strings "-Inf" and
// "Inf". A field the document leaves out reads as NaN, "not measured".
type Log2 float64

// UnmarshalJSON accepts a number, null (-Inf), or the strings "-Inf",
// "-inf", "-Infinity", "Inf", "+Inf", "Infinity".
func (l *Log2) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*l = Log2(math.Inf(-1))
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		switch strings.ToLower(s) {
		case "-inf", "-infinity":
			*l = Log2(math.Inf(-1))
		case "inf", "+inf", "infinity":
			*l = Log2(math.Inf(1))
		default:
			return fmt.Errorf("log2 value %q: want a number, null, \"-Inf\" or \"Inf\"", s)
		}
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("log2 value %s: want a number", b)
	}
	*l = Log2(f)
	return nil
}

// MarshalJSON writes a finite value as a number, -Inf and Inf as the
// strings "-Inf" and "Inf" (which UnmarshalJSON reads back), and NaN --
// not measured -- as null. (Compare writes null for an exact zero; the
// documents fprlab derives from the measurements, such as diff's, keep
// null for "no value" and say exact with "-Inf".)
func (l Log2) MarshalJSON() ([]byte, error) {
	switch f := float64(l); {
	case math.IsNaN(f):
		return []byte("null"), nil
	case math.IsInf(f, -1):
		return []byte(`"-Inf"`), nil
	case math.IsInf(f, 1):
		return []byte(`"Inf"`), nil
	default:
		return json.Marshal(f)
	}
}

// Finite reports whether l is a measured finite value.
func (l Log2) Finite() bool { return !math.IsNaN(float64(l)) && !math.IsInf(float64(l), 0) }

// Bin is one histogram bin: Count values v with floor(log2 v) = Log2.
type Bin struct {
	Log2  float64 `json:"log2"`
	Count int64   `json:"count"`
}

// Quantiles are the statistics of one error quantity (compare's Q).
type Quantiles struct {
	Min       Log2  `json:"min_log2"`
	Q01       Log2  `json:"q01_log2"`
	Q10       Log2  `json:"q10_log2"`
	Median    Log2  `json:"median_log2"`
	Q90       Log2  `json:"q90_log2"`
	Q99       Log2  `json:"q99_log2"`
	Max       Log2  `json:"max_log2"`
	Histogram []Bin `json:"histogram"`
}

// Errors are the statistics of delta_c, delta_sigma and their sum.
type Errors struct {
	DeltaC     Quantiles `json:"delta_c"`
	DeltaSigma Quantiles `json:"delta_sigma"`
	Sum        Quantiles `json:"sum"`
}

// Renyi holds the Renyi-divergence consequences of the measured
// per-signature worst error (Falcon specification, section on the
// precision of floating-point arithmetic; Prest, ASIACRYPT 2017).
//
// The worst-case figures bound the distribution's relative error with 2n
// times the per-sample error, the average-case ones with sqrt(2n); Lambda
// is the security level the query bound keeps (256: the specification's
// argument), so a loss of Lambda bits means all of it.
type Renyi struct {
	DWorstLog2     Log2 `json:"d_worst_log2"`
	DAverageLog2   Log2 `json:"d_average_log2"`
	MaxQueriesLog2 Log2 `json:"max_queries_log2"`
	BitsLostAt264  Log2 `json:"bits_lost_at_2^64"` // bits, not a logarithm; Log2 only for its null and Inf handling
	// The average case (sqrt(2n) in place of 2n in the bound on d);
	// NaN in documents that predate it.
	MaxQueriesLog2Average Log2 `json:"max_queries_log2_average"`
	BitsLostAt264Average  Log2 `json:"bits_lost_at_2^64_average"` // bits, as BitsLostAt264
	// Lambda is the security level in bits the query bound keeps (0 in
	// documents that predate it).
	Lambda int `json:"lambda,omitempty"`
}

// Stage is the error of the values one stage of signing produces.
type Stage struct {
	Stage string `json:"stage"`
	// Level is the tree level of stages that repeat per level (compare
	// writes it for every stage); Name says "stage level L" then.
	Level         *int `json:"level,omitempty"`
	MaxRelLog2    Log2 `json:"max_rel_log2"`
	MedianRelLog2 Log2 `json:"median_rel_log2"`
}

// Name is the stage's label: its name, with its level when the stage
// repeats over levels (see Compare.StageNames).
func (s *Stage) Name(withLevel bool) string {
	if withLevel && s.Level != nil {
		return fmt.Sprintf("%s level %d", s.Stage, *s.Level)
	}
	return s.Stage
}

// StageNames tells, per stage name, whether it occurs at several levels
// in the document, so that labels carry the level only where it tells
// stages apart.
func StageNames(cs []Compare) map[string]bool {
	levels := map[string]map[int]bool{}
	for _, c := range cs {
		for _, s := range c.Stages {
			if levels[s.Stage] == nil {
				levels[s.Stage] = map[int]bool{}
			}
			if s.Level != nil {
				levels[s.Stage][*s.Level] = true
			}
		}
	}
	out := map[string]bool{}
	for k, v := range levels {
		out[k] = len(v) > 1
	}
	return out
}

// Compare is one backend's object of `fprlab compare --json`.
type Compare struct {
	Backend string `json:"backend"`
	// NamesRevision is the meaning of the triword backend names
	// (arith.TriwordNamesRevision); 0 in documents written before it, whose
	// renamed backends Read relabels (see Campaign.Renamed).
	NamesRevision int    `json:"names_revision,omitempty"`
	KeygenBackend string `json:"keygen_backend,omitempty"`
	// Bits is the backend's significand precision; 0 in documents that
	// predate it.
	Bits int `json:"bits,omitempty"`
	// ExpBits is the backend's exponent range as the exponent-field width
	// of the IEEE binary format with that range (11 for binary64, 8 for
	// triple-word binary32); 0 or absent: unbounded, or a document that
	// predates it.
	ExpBits int `json:"exp_bits,omitempty"`
	// WeakShadow is set when the shadow was less than the required margin
	// wider than the backend (--allow-weak-shadow): the figures include
	// the shadow's own error. ShadowBits is the shadow's precision then.
	WeakShadow bool            `json:"weak_shadow,omitempty"`
	ShadowBits int             `json:"shadow_bits,omitempty"`
	ExactSigma string          `json:"exact_sigma,omitempty"`
	Params     Params          `json:"params"`
	Signatures int64           `json:"signatures"`
	Keys       int64           `json:"keys"`
	Seed       json.RawMessage `json:"seed,omitempty"`
	KATRecords json.RawMessage `json:"kat_records,omitempty"`
	OracleBits int             `json:"oracle_bits"`
	// Shadow is the exact side: "dd" (double-double) or "oracle"
	// (big.Float at OracleBits); empty in documents that predate it.
	Shadow string `json:"shadow,omitempty"`
	// Scheme is "fn-dsa" for an FN-DSA campaign (absent: Falcon round 3),
	// KeySource its keys' generation: "fn-dsa" (FN-DSA's own) or "falcon"
	// (round 3's; also FN-DSA documents that predate the field).
	Scheme    string `json:"scheme,omitempty"`
	KeySource string `json:"key_source,omitempty"`
	// Mode is "tree" for signatures by the reference's falcon_sign_tree
	// (absent: falcon_sign_dyn).
	Mode string `json:"mode,omitempty"`
	// Certified is compare --certify's bound over the campaign's keys
	// (absent when not asked).
	Certified *Certified `json:"certified,omitempty"`
	// Acceptance names the acceptance test that replaced the reference's
	// BerExp (absent: BerExp).
	Acceptance   string          `json:"acceptance,omitempty"`
	Leaves       int64           `json:"leaves"`
	PerLeaf      Errors          `json:"per_leaf"`
	PerSignature Errors          `json:"per_signature"`
	Meets246     *bool           `json:"meets_2^-46"`
	Renyi        *Renyi          `json:"renyi"`
	Flips        json.RawMessage `json:"flips,omitempty"`
	Stages       []Stage         `json:"stages"`
	Attempts     *Attempts       `json:"attempts,omitempty"`
	Seconds      float64         `json:"seconds"`
}

// SchemeName names the document's scheme and degree, as "Falcon-512",
// "FN-DSA-512 (FN-DSA keys)" or "FN-DSA-512 (round-3 keys)".
func (c *Compare) SchemeName() string { return schemeKeysName(c.Scheme, c.KeySource, int(c.Params)) }

// schemeKeysName names a document's scheme, degree and, for FN-DSA, its
// keys' generation (round 3's when keySource is not "fn-dsa": documents
// written before the field signed with those).
func schemeKeysName(scheme, keySource string, params int) string {
	if scheme != "fn-dsa" {
		return fmt.Sprintf("Falcon-%d", params)
	}
	if keySource == "fn-dsa" {
		return fmt.Sprintf("FN-DSA-%d (FN-DSA keys)", params)
	}
	return fmt.Sprintf("FN-DSA-%d (round-3 keys)", params)
}

// FlipsTotal returns the total number of decision flips: the "total"
// field of the flips object, or, without one, the sum of its integer
// fields (counts per kind of decision), leaving out fields that are not
// counts (names containing "log2" or "margin"). ok is false when the
// document has no flips object.
func (c *Compare) FlipsTotal() (total int64, ok bool) {
	var m map[string]json.RawMessage
	if len(c.Flips) == 0 || json.Unmarshal(c.Flips, &m) != nil {
		return 0, false
	}
	if t, has := m["total"]; has {
		if json.Unmarshal(t, &total) != nil {
			return 0, false
		}
		return total, true
	}
	for k, v := range m {
		if strings.Contains(k, "log2") || strings.Contains(k, "margin") {
			continue
		}
		var n int64
		if json.Unmarshal(v, &n) == nil {
			total += n
		}
	}
	return total, true
}

// Params is the Falcon degree, written 512 or "512" (also "falcon512").
type Params int

// UnmarshalJSON accepts a number or a string naming the degree.
func (p *Params) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(bytes.TrimSpace(b)), `"`)
	s = strings.TrimPrefix(strings.ToLower(s), "falcon")
	s = strings.TrimPrefix(s, "-")
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("params %s: want 512 or 1024", b)
	}
	*p = Params(n)
	return nil
}

// KAT is a format's NIST KAT conformance in a sweep.
type KAT struct {
	Records int `json:"records"`
	// Passed counts records matching in pk, sk and sm; when absent it is
	// taken as the least of the three match counts.
	Passed       *int `json:"passed,omitempty"`
	MatchPK      int  `json:"match_pk"`
	MatchSK      int  `json:"match_sk"`
	MatchSM      int  `json:"match_sm"`
	KeygenFailed int  `json:"keygen_failed"`
}

// PassRate is the fraction of records matching in pk, sk and sm.
func (k *KAT) PassRate() float64 {
	if k.Records == 0 {
		return math.NaN()
	}
	p := min(k.MatchPK, k.MatchSK, k.MatchSM)
	if k.Passed != nil {
		p = *k.Passed
	}
	return float64(p) / float64(k.Records)
}

// Attempts counts a format's signing attempts in a sweep.
type Attempts struct {
	Total  int64 `json:"total"`
	Failed int64 `json:"failed"`
}

// FailedRate is the fraction of signing attempts that failed.
func (a *Attempts) FailedRate() float64 {
	if a.Total == 0 {
		return math.NaN()
	}
	return float64(a.Failed) / float64(a.Total)
}

// Point is one format's object of `fprlab sweep --json` (an entry of its
// "formats"): the compare
// statistics of that format plus
//
//	"format":   its backend name, e.g. "vprec:40:e11:rz"
//	"bits":     its significand precision P
//	"exp_bits": its exponent width E (0 or absent: unbounded)
//	"rounding": "rn", "rz" or "sr" (absent: read from the name, else rn)
//	"kat":      {"records", "passed", "match_pk", "match_sk", "match_sm", "keygen_failed"}
//
// ("attempts": {"total", "failed"}, the signing attempts and the failed
// ones, is part of the compare object.)
//
// Entries whose format is a fixed backend (native, emu64, triword) are
// reference points drawn as such.
type Point struct {
	Compare
	Format   string `json:"format"`
	Bits     int    `json:"bits"`
	ExpBits  int    `json:"exp_bits,omitempty"`
	Rounding string `json:"rounding,omitempty"`
	KAT      *KAT   `json:"kat,omitempty"`
}

// Family returns the rounding and exponent width that group sweep points
// into one curve, filled in from the format's name ("vprec:P:eE:rz") when
// the fields are absent.
func (p *Point) Family() (rounding string, expBits int) {
	rounding, expBits = p.Rounding, p.ExpBits
	f := strings.Split(p.Format, ":")
	for _, s := range f[min(2, len(f)):] {
		switch {
		case expBits == 0 && strings.HasPrefix(s, "e"):
			expBits, _ = strconv.Atoi(s[1:])
		case rounding == "" && (s == "rn" || s == "rz" || strings.HasPrefix(s, "sr")):
			rounding = s
		}
	}
	if i := strings.Index(rounding, "="); i >= 0 {
		rounding = rounding[:i]
	}
	if rounding == "" {
		rounding = "rn"
	}
	return rounding, expBits
}

// IsSwept reports whether the point is a member of a precision family
// (vprec or oracle) rather than a fixed reference backend.
func (p *Point) IsSwept() bool { return IsFamilyName(p.Format) }

// nan is the value of a Log2 field the document leaves out.
var nan = Log2(math.NaN())

// UnmarshalJSON reads a Q object; fields it leaves out are NaN (not
// measured), not zero (which would read as an error of 2^0).
func (q *Quantiles) UnmarshalJSON(b []byte) error {
	type plain Quantiles
	v := plain{Min: nan, Q01: nan, Q10: nan, Median: nan, Q90: nan, Q99: nan, Max: nan}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*q = Quantiles(v)
	return nil
}

// UnmarshalJSON reads a renyi object, absent fields NaN.
func (r *Renyi) UnmarshalJSON(b []byte) error {
	type plain Renyi
	v := plain{DWorstLog2: nan, DAverageLog2: nan, MaxQueriesLog2: nan, BitsLostAt264: nan, MaxQueriesLog2Average: nan, BitsLostAt264Average: nan}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = Renyi(v)
	return nil
}

// UnmarshalJSON reads a stage, absent errors NaN.
func (s *Stage) UnmarshalJSON(b []byte) error {
	type plain Stage
	v := plain{MaxRelLog2: nan, MedianRelLog2: nan}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = Stage(v)
	return nil
}

// UnmarshalJSON reads delta_c, delta_sigma and sum; an absent one is all NaN.
func (e *Errors) UnmarshalJSON(b []byte) error {
	type plain Errors
	none := Quantiles{Min: nan, Q01: nan, Q10: nan, Median: nan, Q90: nan, Q99: nan, Max: nan}
	v := plain{none, none, none}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*e = Errors(v)
	return nil
}

// Certified is a compare document's "certified" object: a bound valid for
// every message, per key, Proven of the Keys at most 2^-46, the largest
// bound SumBoundLog2.
type Certified struct {
	Keys         int     `json:"keys"`
	Proven       int     `json:"proven"`
	SumBoundLog2 float64 `json:"sum_bound_log2"`
}
