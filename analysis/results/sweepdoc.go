package results

import (
	"encoding/json"
	"fmt"
)

// SweepDocument is what `fprlab sweep --json` prints and `sweep --out DIR`
// writes as DIR/sweep.json: a JSON object
//
//	{"formats": [Point, ...],    // per format, the reference backends first
//	 "pstar":   [PStarEntry, ...], // one per curve and criterion
//	 "shard":   "I/N"}             // only in a shard's document
//
// The P* entries are PStars of the swept formats (the references left
// out); a shard's document has none, since P* needs every format (merge
// the shards). Documents written before P* was part of the JSON are a
// bare array of Point objects; Read accepts both and computes P* from the
// points either way (the definition is PStars'), so a reader needs only
// the formats.
type SweepDocument struct {
	Formats []json.RawMessage `json:"formats"`
	PStar   []PStarEntry      `json:"pstar"`
	Shard   string            `json:"shard,omitempty"`
}

// PStarEntry is one P* answer as the sweep document writes it:
//
//	{"curve": "Falcon-512 rn e11", "params": 512, "rounding": "rn", "exp_bits": 11,
//	 "criterion": "worst", "requirement": "per-signature worst δc+δσ ≤ 2^-46",
//	 "bits": 49, "at_lowest": false, "known": true,
//	 "signatures": 1000, "min_bits": 24, "max_bits": 80}
//
// criterion is "worst", "median" or "flips" (Criterion); bits is P*, or
// null when the criterion holds at no swept precision up to max_bits (or
// known is false: the points lack the data); at_lowest means it already
// holds at min_bits, so P* may be lower still; signatures is the smallest
// sample among the curve's formats.
type PStarEntry struct {
	Curve       string    `json:"curve"`
	Params      int       `json:"params"`
	Rounding    string    `json:"rounding"`
	ExpBits     int       `json:"exp_bits"`
	Criterion   Criterion `json:"criterion"`
	Requirement string    `json:"requirement"`
	Bits        *int      `json:"bits"`
	AtLowest    bool      `json:"at_lowest"`
	Known       bool      `json:"known"`
	Signatures  int64     `json:"signatures"`
	MinBits     int       `json:"min_bits"`
	MaxBits     int       `json:"max_bits"`
}

// Entry is the document form of p.
func (p PStar) Entry() PStarEntry {
	e := PStarEntry{Curve: p.Curve.String(), Params: p.Curve.Params, Rounding: p.Curve.Rounding, ExpBits: p.Curve.ExpBits,
		Criterion: p.Criterion, Requirement: p.Criterion.Describe(), AtLowest: p.AtLowest && p.Found, Known: p.Known,
		Signatures: p.Signatures, MinBits: p.MinBits, MaxBits: p.MaxBits}
	if p.Found {
		b := p.Bits
		e.Bits = &b
	}
	return e
}

// SweptPStars returns P* of a sweep's points, leaving out the reference
// backends (rounding "reference"), which belong to no curve.
func SweptPStars(pts []Point) []PStar {
	var swept []Point
	for _, p := range pts {
		if p.Rounding != "reference" {
			swept = append(swept, p)
		}
	}
	return PStars(swept)
}

// PStarEntries returns the document form of SweptPStars.
func PStarEntries(pts []Point) []PStarEntry {
	out := []PStarEntry{}
	for _, p := range SweptPStars(pts) {
		out = append(out, p.Entry())
	}
	return out
}

// validate checks an entry's ranges.
func (e *PStarEntry) validate() error {
	switch e.Criterion {
	case Worst, Median, NoFlips:
	default:
		return fmt.Errorf("criterion %q: want worst, median or flips", e.Criterion)
	}
	if e.Bits != nil && (*e.Bits <= 0 || *e.Bits > MaxBits) {
		return fmt.Errorf("bits %d: want 1..%d or null", *e.Bits, MaxBits)
	}
	if e.MinBits < 0 || e.MaxBits < e.MinBits || e.MaxBits > MaxBits || e.Signatures < 0 {
		return fmt.Errorf("min_bits %d, max_bits %d, signatures %d: want 0 <= min_bits <= max_bits <= %d and signatures >= 0", e.MinBits, e.MaxBits, e.Signatures, MaxBits)
	}
	return nil
}
