package shadow

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// sortRecords orders records by kind (keygen first) and index.
func sortRecords(recs []*Record) []*Record {
	slices.SortFunc(recs, func(a, b *Record) int {
		if a.Kind != b.Kind {
			if a.Kind == "keygen" {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Index, b.Index)
	})
	return recs
}

// Q is the statistic of one error quantity (the JSON contract of
// `fprlab compare`): log2 values; null where the quantile is an exact zero
// (or there are no values).
type Q struct {
	Count  int64    `json:"count"`
	Zeros  int64    `json:"zeros"`
	Min    *float64 `json:"min_log2"`
	Q01    *float64 `json:"q01_log2"`
	Q10    *float64 `json:"q10_log2"`
	Median *float64 `json:"median_log2"`
	Q90    *float64 `json:"q90_log2"`
	Q99    *float64 `json:"q99_log2"`
	Max    *float64 `json:"max_log2"`
	// Histogram counts the values by integer log2 bins: bin e holds
	// 2^e <= value < 2^(e+1). Exact zeros are in Zeros.
	Histogram []QBin `json:"histogram"`
}

// QBin is one bin of Q.Histogram.
type QBin struct {
	Log2  int   `json:"log2"`
	Count int64 `json:"count"`
}

// QOf returns the statistic of a histogram (an empty one for nil).
// Quantiles are read from bins of 1/16 bit (exact to 1/32 bit); min and max
// are exact.
func QOf(h *Hist) Q {
	if h == nil {
		h = NewHist()
	}
	q := Q{Count: h.Count(), Zeros: h.Zeros, Histogram: []QBin{}}
	if q.Count == 0 {
		return q
	}
	q.Min = finite(h.Min)
	if h.Zeros > 0 {
		q.Min = nil
	}
	q.Q01, q.Q10, q.Median = finite(h.Quantile(0.01)), finite(h.Quantile(0.10)), finite(h.Median())
	q.Q90, q.Q99, q.Max = finite(h.Quantile(0.90)), finite(h.Quantile(0.99)), finite(h.Max)
	coarse := map[int]int64{}
	h.eachBin(func(b int32, c int64) { coarse[int(math.Floor(float64(b)/binsPerBit))] += c })
	keys := make([]int, 0, len(coarse))
	for k := range coarse {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		q.Histogram = append(q.Histogram, QBin{Log2: k, Count: coarse[k]})
	}
	return q
}

// Triple is the statistic of delta_c, delta_sigma and their sum.
type Triple struct {
	DeltaC     Q `json:"delta_c"`
	DeltaSigma Q `json:"delta_sigma"`
	Sum        Q `json:"sum"`
}

// Renyi holds the security consequences of the measured worst errors
// (Falcon specification v1.2, section 2.6; Prest, ASIACRYPT 2017): the
// relative error d of the signature distribution, bounded in the worst
// case by
//
//	d <= 2n [ (sqrt(154)/1.312) delta_c + (2 pi + 1) delta_sigma ]
//
// and on average with sqrt(2n) for 2n; the Renyi divergence of order a is
// then about 1 + a d^2/2, so a lambda-bit problem keeps its security for
// q_s <= 1/(4 lambda d^2) queries, and at q_s queries loses
// 2 sqrt(lambda c) - c bits with c = log2(e) q_s d^2 / 2 (lambda = 256).
type Renyi struct {
	DeltaCLog2        *float64 `json:"delta_c_log2"`
	DeltaSigmaLog2    *float64 `json:"delta_sigma_log2"`
	DWorstLog2        *float64 `json:"d_worst_log2"`
	DAverageLog2      *float64 `json:"d_average_log2"`
	MaxQueriesLog2    *float64 `json:"max_queries_log2"`
	MaxQueriesLog2Avg *float64 `json:"max_queries_log2_average"`
	// BitsLostAt2_64 (and its average case) is nil (null) for a summary
	// of no signature (an empty shard), 0 for an exact backend.
	BitsLostAt2_64      *float64 `json:"bits_lost_at_2^64"`
	BitsLostAt2_64Avg   *float64 `json:"bits_lost_at_2^64_average"`
	Lambda              int      `json:"lambda"`
	SpecificationTarget float64  `json:"target_log2"`
}

// renyiLambda is the security level of the query bound (the specification's
// argument uses 256).
const renyiLambda = 256

// RenyiOf computes the consequences of worst-case delta_c and delta_sigma
// (log2) for degree n.
func RenyiOf(n int, dcLog2, dsLog2 float64) Renyi {
	var lost, lostAvg float64
	r := Renyi{DeltaCLog2: finite(dcLog2), DeltaSigmaLog2: finite(dsLog2), Lambda: renyiLambda, SpecificationTarget: -46,
		BitsLostAt2_64: &lost, BitsLostAt2_64Avg: &lostAvg}
	inner := math.Sqrt(154)/1.312*math.Exp2(dcLog2) + (2*math.Pi+1)*math.Exp2(dsLog2)
	if inner == 0 {
		return r
	}
	dw := math.Log2(2 * float64(n) * inner)
	da := math.Log2(math.Sqrt(2*float64(n)) * inner)
	r.DWorstLog2, r.DAverageLog2 = &dw, &da
	mq := func(d float64) *float64 { v := -math.Log2(4*renyiLambda) - 2*d; return &v }
	r.MaxQueriesLog2, r.MaxQueriesLog2Avg = mq(dw), mq(da)
	lost, lostAvg = BitsLost(dw, 64), BitsLost(da, 64)
	return r
}

// BitsLost returns the security bits a 256-bit problem loses after 2^qLog2
// queries when the distribution's relative error is 2^dLog2:
// 2 sqrt(lambda c) - c with c = log2(e) q d^2 / 2, at most lambda.
func BitsLost(dLog2, qLog2 float64) float64 {
	c := math.Log2E * math.Exp2(qLog2+2*dLog2) / 2
	if c >= renyiLambda {
		return renyiLambda
	}
	return 2*math.Sqrt(renyiLambda*c) - c
}

// Flips summarises decision flips.
type Flips struct {
	Total               int64            `json:"total"`
	ByKind              map[string]int64 `json:"by_kind"`
	Decisions           map[string]int64 `json:"decisions"`
	SignaturesWithFlips int              `json:"signatures_with_flips"`
	// Unresolved: differing decisions within the shadow's resolution, not
	// counted in Total.
	Unresolved    map[string]int64    `json:"unresolved"`
	MinMarginLog2 map[string]*float64 `json:"min_margin_log2"`
	First         []FlipDetail        `json:"first"`
}

// StageSummary is one row of the where-error-is-born table.
type StageSummary struct {
	Stage         string   `json:"stage"`
	Level         int      `json:"level"`
	Values        int64    `json:"values"`
	MaxRelLog2    *float64 `json:"max_rel_log2"`
	MedianRelLog2 *float64 `json:"median_rel_log2"`
	Q99RelLog2    *float64 `json:"q99_rel_log2"`
	ExactValues   int64    `json:"exact_values"`
}

// Attempts summarises signing attempts.
type Attempts struct {
	Total   int            `json:"total"`
	Failed  int            `json:"failed"`
	Reasons map[string]int `json:"reasons"`
	// FailRate is Failed/Total, nil (null) when no attempt was made.
	FailRate *float64 `json:"failed_fraction"`
}

// FailedFraction is FailRate, 0 when no attempt was made.
func (a Attempts) FailedFraction() float64 {
	if a.FailRate == nil {
		return 0
	}
	return *a.FailRate
}

// KeygenSummary summarises shadowed key generations.
type KeygenSummary struct {
	Keys         int            `json:"keys"`
	Shadowed     bool           `json:"shadowed"`
	GSNormMaxRel *float64       `json:"gs_norm_max_rel_log2"`
	Flips        Flips          `json:"flips"`
	Stages       []StageSummary `json:"stages"`
}

// Summary is the result of a campaign over one backend (the JSON contract
// of `fprlab compare --json`, one per backend).
type Summary struct {
	Backend string `json:"backend"`
	// NamesRevision is the meaning of the triword backend names
	// (arith.TriwordNamesRevision): readers relabel documents without it,
	// written when "triword" meant today's "triword-b64const".
	NamesRevision int    `json:"names_revision"`
	KeygenBackend string `json:"keygen_backend"`
	// Bits is the backend's significand precision (arith.Backend.Bits),
	// which figures place the backend by.
	Bits int `json:"bits,omitempty"`
	// ExpBits is the backend's exponent range (arith.Backend.ExpBits):
	// the exponent-field width of the IEEE binary format with that range,
	// 0 (and absent) when unbounded.
	ExpBits int `json:"exp_bits,omitempty"`
	// WeakShadow marks a backend measured with a shadow less than the
	// required margin wider than it (compare --allow-weak-shadow): its
	// figures include the shadow's own error. ShadowBits is then the
	// shadow's significand precision, beside Bits.
	WeakShadow bool    `json:"weak_shadow,omitempty"`
	ShadowBits int     `json:"shadow_bits,omitempty"`
	Params     int     `json:"params"`
	Signatures int     `json:"signatures"`
	Keys       int     `json:"keys"`
	Seed       *string `json:"seed,omitempty"`
	KATRecords *string `json:"kat_records,omitempty"`
	Shadow     Kind    `json:"shadow"`
	// OracleBits is the exact side's significand precision: the oracle's
	// (Config.OracleBits), or 106 under the dd shadow (double-double's,
	// whatever Config.OracleBits says).
	OracleBits uint       `json:"oracle_bits"`
	ExactSigma ExactSigma `json:"exact_sigma"`
	// Acceptance names the acceptance test that replaced BerExp
	// (Config.Acceptance); absent for the reference's BerExp.
	Acceptance string `json:"acceptance,omitempty"`
	// Scheme is "fn-dsa" for an FN-DSA campaign (Config.Scheme); absent
	// for round 3.
	Scheme string `json:"scheme,omitempty"`
	// KeySource is the key generation of an FN-DSA campaign's keys
	// (Config.KeySourceOf): "fn-dsa" (FN-DSA's own, fndsa.KeyGen;
	// KeygenBackend is then "") or "falcon" (round 3's over
	// KeygenBackend); absent for round 3.
	KeySource string `json:"key_source,omitempty"`
	// Mode is "tree" for signatures by the reference's falcon_sign_tree
	// (Config.Mode); absent for falcon_sign_dyn.
	Mode         string `json:"mode,omitempty"`
	Leaves       int64  `json:"leaves"`
	SamplerCalls int64  `json:"sampler_calls"`
	PerLeaf      Triple `json:"per_leaf"`
	PerTreeLeaf  Q      `json:"per_tree_leaf"`
	PerSignature Triple `json:"per_signature"`
	// Certified is the certified bound of the campaign's keys (compare
	// --certify, package analysis/certify): absent unless asked.
	Certified *Certified `json:"certified,omitempty"`
	// Meets is nil (null) for a summary of no signature: an empty shard
	// neither meets nor misses the target.
	Meets   *bool          `json:"meets_2^-46"`
	Renyi   Renyi          `json:"renyi"`
	Flips   Flips          `json:"flips"`
	Stages  []StageSummary `json:"stages"`
	ExpmP63 Q              `json:"expm_p63_rel"`
	// AcceptanceRel is the relative error of the Bernoulli trials'
	// acceptance probability (Record.AcceptErr).
	AcceptanceRel Q              `json:"acceptance_rel"`
	Attempts      Attempts       `json:"attempts"`
	Keygen        *KeygenSummary `json:"keygen,omitempty"`
	Seconds       float64        `json:"seconds"`
}

func orInf(p *float64) float64 {
	if p == nil {
		return math.Inf(-1)
	}
	return *p
}

// Summarize computes the summary of a campaign from its records. It
// depends only on the set of records (not on their order), so a resumed or
// merged campaign gives the summary of an uninterrupted one; it is the
// Summary of their Aggregate.
func Summarize(backend string, cfg Config, recs []*Record) *Summary {
	a := NewAggregate()
	for _, r := range recs {
		a.Add(r)
	}
	return a.Summary(backend, cfg)
}

// failureClass groups attempt failures for the summary.
func failureClass(f string) string {
	switch {
	case strings.Contains(f, "floating-point s1"):
		return "norm above the bound, floating-point s1 wrong"
	case strings.Contains(f, "overflows"):
		return "norm overflows 2^31"
	}
	return "norm above the bound"
}

func recordLabel(r *Record) string {
	if r.Kind == "keygen" {
		return "key " + strconv.Itoa(r.Index)
	}
	return "signature " + strconv.Itoa(r.Index)
}

// Certified summarises the certificates of a campaign's keys over its
// backend (compare --certify): a bound on delta_c + delta_sigma valid for
// every message, per key, by package analysis/certify's analysis.
type Certified struct {
	// Keys is the number of keys certified, Proven those whose bound is
	// at most 2^-46.
	Keys   int `json:"keys"`
	Proven int `json:"proven"`
	// SumBoundLog2 is the largest bound over the keys, DeltaCBoundLog2
	// the largest delta_c bound.
	SumBoundLog2    float64 `json:"sum_bound_log2"`
	DeltaCBoundLog2 float64 `json:"delta_c_bound_log2"`
	// ErrorModel is the per-operation error model the bounds assume.
	ErrorModel string `json:"error_model"`
}
