package certify

import (
	"fmt"
	"math"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/scheme"
)

// The documents `fprlab certify --json` writes: one Document per
// (backend, key) under "results", or with --pstar one PStarDocument per key
// under "pstar"."per_key". Their field names are the output format; a
// change here is a change of that format.

// KeyRef names the key a document is about: "kat" (index: the KAT
// record's), "seed" (index: the seeded campaign's key) or "file" (the key
// of --sk). A seeded key is made again from its seed, its key source
// (FN-DSA's own key generation or round 3's, as compare's --key-source)
// and, for round 3's key generation, the backend that ran it: the
// document names all three, so that the key is known from it alone.
type KeyRef struct {
	Source        string `json:"source"`
	Index         int    `json:"index"`
	Seed          string `json:"seed,omitempty"`
	KeySource     string `json:"key_source,omitempty"`
	KeygenBackend string `json:"keygen_backend,omitempty"`
}

// Name names the key for people: "KAT key 3", "seeded key 0", "the key
// of --sk".
func (k KeyRef) Name() string {
	switch k.Source {
	case "seed":
		return fmt.Sprintf("seeded key %d", k.Index)
	case "file":
		return "the key of --sk"
	}
	return fmt.Sprintf("KAT key %d", k.Index)
}

// CallRef names a sampler call: its index in signing order, its leaf and
// the leaf's tree path from the root (R = right child).
type CallRef struct {
	Call int    `json:"call"`
	Leaf int    `json:"leaf"`
	Path string `json:"path"`
}

// StageDocument is one stage's share of the bound at the worst call:
// StageShare in log2 and as a fraction of the bound.
type StageDocument struct {
	Stage     string   `json:"stage"`
	BoundLog2 *float64 `json:"bound_log2"`
	Share     float64  `json:"share"`
}

// Document is the certificate of one (backend, key): Result in log2, with
// what sampling measured when the certificate was checked against
// signatures (AddSampled).
type Document struct {
	Backend         string   `json:"backend"`
	Scheme          string   `json:"scheme"`
	Params          int      `json:"params"`
	Key             KeyRef   `json:"key"`
	DeltaCBoundLog2 float64  `json:"delta_c_bound_log2"`
	DeltaSigmaLog2  *float64 `json:"delta_sigma_log2"` // absent: delta_sigma is 0
	DeltaSigmaLeaf  int      `json:"delta_sigma_leaf"`
	// ExactSigma is the exact 1/sigma of delta_sigma: "formula" or
	// "reference" (absent in documents written before it was chosen:
	// the reference's).
	ExactSigma   string          `json:"exact_sigma,omitempty"`
	SumBoundLog2 float64         `json:"sum_bound_log2"`
	Proven       bool            `json:"proven"`
	WorstCall    CallRef         `json:"worst_call"`
	Stages       []StageDocument `json:"stages"`
	ErrorModel   string          `json:"error_model"`
	Seconds      float64         `json:"seconds"`
	// After AddSampled: the signatures signed, the shadow they were
	// measured against ("oracle" or "dd"), the largest delta_c they
	// measured (absent when every one was exact) and the bound's
	// distance above it in bits.
	Signatures       int      `json:"signatures,omitempty"`
	CheckShadow      string   `json:"check_shadow,omitempty"`
	SampledDeltaCMax *float64 `json:"sampled_delta_c_max_log2,omitempty"`
	GapBits          *float64 `json:"gap_bits,omitempty"`
	// After AddChosen: the attempts run on hashed points chosen for the
	// key (CheckChosen), the deviation z0 their sampler outputs were
	// fixed at (absent when the sampler drew them), the largest delta_c
	// they measured and the bound's distance above it.
	ChosenAttempts  int      `json:"chosen_attempts,omitempty"`
	ChosenDeviation *int     `json:"chosen_deviation,omitempty"`
	ChosenDeltaCMax *float64 `json:"chosen_delta_c_max_log2,omitempty"`
	ChosenGapBits   *float64 `json:"chosen_gap_bits,omitempty"`

	// Result is the certificate the document was made from (nil in a
	// document read back from a checkpoint).
	Result *Result `json:"-"`
}

// NewDocument is the document of r, the certificate over the backend
// named backend of key at 2^logn.
func NewDocument(backend string, logn uint, key KeyRef, r *Result) Document {
	name := r.Scheme
	if name == "" {
		name = scheme.Default
	}
	d := Document{Backend: backend, Scheme: name, Params: 1 << logn, Key: key,
		DeltaCBoundLog2: math.Log2(r.DeltaCBound), DeltaSigmaLog2: finiteLog2(r.DeltaSigma), DeltaSigmaLeaf: r.DeltaSigmaLeaf,
		ExactSigma: string(r.ExactSigma), SumBoundLog2: math.Log2(r.SumBound), Proven: r.Proven,
		WorstCall:  CallRef{Call: r.WorstCall, Leaf: r.WorstLeaf, Path: r.WorstPath},
		ErrorModel: r.Model.String(), Seconds: r.Seconds, Result: r}
	for _, st := range r.Stages {
		d.Stages = append(d.Stages, StageDocument{Stage: st.Stage, BoundLog2: finiteLog2(st.Bound), Share: st.Bound / r.DeltaCBound})
	}
	return d
}

// AddSampled records what signing measured (CheckSignatures) and reports
// whether it exceeds the certificate's bound (Result.Exceeds): the
// analysis or an error model is then wrong.
func (d *Document) AddSampled(s Sampled) (exceeds bool) {
	d.Signatures, d.CheckShadow = s.Signatures, string(s.Shadow)
	d.SampledDeltaCMax, d.GapBits = d.below(s)
	return d.Result.Exceeds(s)
}

// AddChosen records what the attempts on chosen hashed points measured
// (CheckChosen) and reports whether it exceeds the certificate's bound.
func (d *Document) AddChosen(s Sampled) (exceeds bool) {
	d.ChosenAttempts, d.CheckShadow = s.Signatures, string(s.Shadow)
	d.ChosenDeviation = nil
	if s.Edge != shadow.Drawn {
		e := s.Edge
		d.ChosenDeviation = &e
	}
	d.ChosenDeltaCMax, d.ChosenGapBits = d.below(s)
	return d.Result.Exceeds(s)
}

// below returns s's largest delta_c in log2 and the bound's distance above
// it in bits, both nil when every centre was exact.
func (d *Document) below(s Sampled) (maxLog2, gapBits *float64) {
	if math.IsInf(s.DeltaCMax, -1) {
		return nil, nil
	}
	v, gap := s.DeltaCMax, d.DeltaCBoundLog2-s.DeltaCMax
	return &v, &gap
}

// PStarDocument is certify --pstar's result for one key: the key, then
// PStarResult's fields.
type PStarDocument struct {
	Key KeyRef `json:"key"`
	PStarResult
}

// finiteLog2 is log2 x, or nil (JSON's absent) for x <= 0.
func finiteLog2(x float64) *float64 {
	if x <= 0 {
		return nil
	}
	v := math.Log2(x)
	return &v
}
