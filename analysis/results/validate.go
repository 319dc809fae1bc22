package results

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// The ranges a document's numbers must lie in. They are far outside what
// any measurement gives, and are there so that a crafted or damaged
// document is refused when read instead of making a plot or report lay
// out an axis of 2^1024 ticks.
const (
	// MaxLog2 bounds every finite log2 value and histogram bin. The
	// finest arithmetic fprlab measures is the 4096-bit oracle, whose
	// errors are near 2^-4096; query counts and divergences derived from
	// such errors stay within a few times that.
	MaxLog2 = 1 << 16
	// MaxBits bounds a format's significand precision and exponent
	// width and a plan's stage widths (the oracle goes to 4096 bits).
	MaxBits = 1 << 16
	// maxLevel bounds a stage's tree level (Falcon's trees have at most
	// 10 levels).
	maxLevel = 64
)

// checkLog2 refuses a finite log2 value outside [-MaxLog2, MaxLog2].
func checkLog2(what string, l Log2) error {
	if l.Finite() && math.Abs(float64(l)) > MaxLog2 {
		return fmt.Errorf("%s %g: outside the range of a log2 value (|x| <= %d)", what, float64(l), MaxLog2)
	}
	return nil
}

func checkCount(what string, n int64) error {
	if n < 0 {
		return fmt.Errorf("%s %d: negative", what, n)
	}
	return nil
}

func (q *Quantiles) validate(what string) error {
	for _, f := range []struct {
		name string
		v    Log2
	}{{"min_log2", q.Min}, {"q01_log2", q.Q01}, {"q10_log2", q.Q10}, {"median_log2", q.Median}, {"q90_log2", q.Q90}, {"q99_log2", q.Q99}, {"max_log2", q.Max}} {
		if err := checkLog2(what+"."+f.name, f.v); err != nil {
			return err
		}
	}
	var total int64
	for i, b := range q.Histogram {
		if math.IsNaN(b.Log2) || math.Abs(b.Log2) > MaxLog2 || b.Log2 != math.Floor(b.Log2) {
			return fmt.Errorf("%s.histogram[%d].log2 %g: want an integer in [-%d, %d] (bins are binades)", what, i, b.Log2, MaxLog2, MaxLog2)
		}
		if b.Count < 0 {
			return fmt.Errorf("%s.histogram[%d].count %d: negative", what, i, b.Count)
		}
		if total > math.MaxInt64-b.Count {
			return fmt.Errorf("%s.histogram: counts overflow a 64-bit total", what)
		}
		total += b.Count
	}
	return nil
}

func (e *Errors) validate(what string) error {
	for _, q := range []struct {
		name string
		q    *Quantiles
	}{{"delta_c", &e.DeltaC}, {"delta_sigma", &e.DeltaSigma}, {"sum", &e.Sum}} {
		if err := q.q.validate(what + "." + q.name); err != nil {
			return err
		}
	}
	return nil
}

// validate checks the ranges of a compare object's numbers.
func (c *Compare) validate() error {
	if c.Params < 0 || c.Params > 1<<10 || c.Params == 1 || c.Params&(c.Params-1) != 0 {
		return fmt.Errorf("params %d: want a Falcon degree (a power of two, 2 to 1024)", c.Params)
	}
	for _, n := range []struct {
		name string
		v    int64
	}{{"signatures", c.Signatures}, {"keys", c.Keys}, {"leaves", c.Leaves}, {"oracle_bits", int64(c.OracleBits)}} {
		if err := checkCount(n.name, n.v); err != nil {
			return err
		}
	}
	if c.OracleBits > MaxBits {
		return fmt.Errorf("oracle_bits %d: above %d", c.OracleBits, MaxBits)
	}
	if c.Bits < 0 || c.Bits > MaxBits || c.ExpBits < 0 || c.ExpBits > MaxBits {
		return fmt.Errorf("bits %d, exp_bits %d: want 0..%d", c.Bits, c.ExpBits, MaxBits)
	}
	if math.IsNaN(c.Seconds) || math.IsInf(c.Seconds, 0) || c.Seconds < 0 {
		return fmt.Errorf("seconds %g: want a finite time >= 0", c.Seconds)
	}
	if err := c.PerLeaf.validate("per_leaf"); err != nil {
		return err
	}
	if err := c.PerSignature.validate("per_signature"); err != nil {
		return err
	}
	if r := c.Renyi; r != nil {
		for _, f := range []struct {
			name string
			v    Log2
		}{{"d_worst_log2", r.DWorstLog2}, {"d_average_log2", r.DAverageLog2}, {"max_queries_log2", r.MaxQueriesLog2}, {"bits_lost_at_2^64", r.BitsLostAt264},
			{"max_queries_log2_average", r.MaxQueriesLog2Average}, {"bits_lost_at_2^64_average", r.BitsLostAt264Average}} {
			if err := checkLog2("renyi."+f.name, f.v); err != nil {
				return err
			}
		}
		if r.Lambda < 0 || r.Lambda > MaxBits {
			return fmt.Errorf("renyi.lambda %d: want 0..%d bits", r.Lambda, MaxBits)
		}
	}
	for i, s := range c.Stages {
		if s.Level != nil && (*s.Level < 0 || *s.Level > maxLevel) {
			return fmt.Errorf("stages[%d].level %d: want 0..%d", i, *s.Level, maxLevel)
		}
		if err := checkLog2(fmt.Sprintf("stages[%d].max_rel_log2", i), s.MaxRelLog2); err != nil {
			return err
		}
		if err := checkLog2(fmt.Sprintf("stages[%d].median_rel_log2", i), s.MedianRelLog2); err != nil {
			return err
		}
	}
	if a := c.Attempts; a != nil && (a.Total < 0 || a.Failed < 0 || a.Failed > a.Total) {
		return fmt.Errorf("attempts: total %d, failed %d: want 0 <= failed <= total", a.Total, a.Failed)
	}
	if w := float64(c.PerSignature.Sum.Max); c.Meets246 != nil && !math.IsNaN(w) && *c.Meets246 != (w <= -46+meetsSlack) && *c.Meets246 != (w <= -46-meetsSlack) {
		return fmt.Errorf("meets_2^-46 %v beside a per-signature worst of 2^%.2f: the verdict contradicts the figure", *c.Meets246, w)
	}
	return nil
}

// meetsSlack is how far from -46 a printed worst may lie and still agree
// with either verdict (the log2 is rounded when printed).
const meetsSlack = 1e-9

// validateCounts checks the counts of a compare object that Compare does
// not hold as numbers -- each statistic's count and zeros, the flips'
// totals -- as its raw JSON: a negative count is no measurement (diff
// read flips.total -3 as flips that appeared).
func validateCounts(raw map[string]json.RawMessage) error {
	for _, key := range []string{"per_leaf", "per_signature"} {
		var stats map[string]map[string]json.RawMessage
		if json.Unmarshal(raw[key], &stats) != nil {
			continue
		}
		for name, st := range stats {
			for _, f := range []string{"count", "zeros"} {
				if err := nonNegative(key+"."+name+"."+f, st[f]); err != nil {
					return err
				}
			}
		}
	}
	var flips map[string]json.RawMessage
	if json.Unmarshal(raw["flips"], &flips) != nil {
		return nil
	}
	for k, v := range flips {
		if strings.Contains(k, "log2") || strings.Contains(k, "margin") {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(v, &m) == nil {
			for kk, vv := range m {
				if err := nonNegative("flips."+k+"."+kk, vv); err != nil {
					return err
				}
			}
			continue
		}
		if err := nonNegative("flips."+k, v); err != nil {
			return err
		}
	}
	return nil
}

// nonNegative refuses a JSON number below zero (anything else is left to
// the readers of the field).
func nonNegative(what string, v json.RawMessage) error {
	var n float64
	if json.Unmarshal(v, &n) == nil && n < 0 {
		return fmt.Errorf("%s %v: negative", what, n)
	}
	return nil
}

// validate checks a sweep point: its compare numbers, its precision and
// its KAT counts.
func (p *Point) validate() error {
	if p.Bits <= 0 || p.Bits > MaxBits {
		return fmt.Errorf("bits %d: want 1..%d", p.Bits, MaxBits)
	}
	if p.ExpBits < 0 || p.ExpBits > MaxBits {
		return fmt.Errorf("exp_bits %d: want 0..%d", p.ExpBits, MaxBits)
	}
	if k := p.KAT; k != nil {
		if k.Records < 0 {
			return fmt.Errorf("kat.records %d: negative", k.Records)
		}
		for _, n := range []struct {
			name string
			v    int
		}{{"match_pk", k.MatchPK}, {"match_sk", k.MatchSK}, {"match_sm", k.MatchSM}, {"keygen_failed", k.KeygenFailed}} {
			if n.v < 0 || n.v > k.Records {
				return fmt.Errorf("kat.%s %d: want 0..records (%d)", n.name, n.v, k.Records)
			}
		}
		if k.Passed != nil && (*k.Passed < 0 || *k.Passed > k.Records) {
			return fmt.Errorf("kat.passed %d: want 0..records (%d)", *k.Passed, k.Records)
		}
	}
	return p.Compare.validate()
}

// validate checks an arith errors object.
func (o *OpError) validate() error {
	if err := checkCount("samples", int64(o.Samples)); err != nil {
		return err
	}
	if err := checkCount("below_range", int64(o.BelowRange)); err != nil {
		return err
	}
	if err := checkCount("above_range", int64(o.AboveRange)); err != nil {
		return err
	}
	if err := checkLog2("max_rel_err_log2", Log2(o.MaxRelErrLog2)); err != nil {
		return err
	}
	if err := checkLog2("median_rel_err_log2", Log2(o.MedianRelErrLog2)); err != nil {
		return err
	}
	if err := checkLog2("below_range_max_rel_err_log2", Log2(o.BelowRangeMaxRelErrLog2)); err != nil {
		return err
	}
	if o.RangeMinExp < -MaxLog2 || o.RangeMinExp > MaxLog2 {
		return fmt.Errorf("range_min_exp %d: want -%d..%d", o.RangeMinExp, MaxLog2, MaxLog2)
	}
	if o.HasBound && (math.IsNaN(o.BoundLog2) || math.Abs(o.BoundLog2) > MaxLog2) {
		return fmt.Errorf("bound_log2 %g: want a number in [-%d, %d] or null", o.BoundLog2, MaxLog2, MaxLog2)
	}
	return nil
}

// validate checks a tune document's plans.
func (t *Tune) validate() error {
	if t.Chosen == nil || len(t.Stages) == 0 || len(t.Chosen.Widths) != len(t.Stages) {
		return fmt.Errorf("needs \"stages\" and a \"chosen\" plan with one width per stage")
	}
	if math.IsNaN(t.TargetLog2) || math.Abs(t.TargetLog2) > MaxLog2 {
		return fmt.Errorf("target_log2 %g: want a number in [-%d, %d]", t.TargetLog2, MaxLog2, MaxLog2)
	}
	if math.IsNaN(t.MarginBits) || t.MarginBits < 0 || t.MarginBits > MaxLog2 {
		return fmt.Errorf("margin_bits %g: want a number in [0, %d]", t.MarginBits, MaxLog2)
	}
	plans := append([]*TunePlan{t.Uniform, t.Chosen}, t.Pareto...)
	plans = append(plans, t.Evaluations...)
	for _, p := range plans {
		for p != nil {
			if err := p.validate(); err != nil {
				return fmt.Errorf("plan %q: %w", p.Plan, err)
			}
			p = p.Confirmation
		}
	}
	return nil
}

func (p *TunePlan) validate() error {
	for _, w := range p.Widths {
		if w <= 0 || w > MaxBits {
			return fmt.Errorf("width %d: want 1..%d", w, MaxBits)
		}
	}
	if p.Signatures < 0 || p.Flips < 0 {
		return fmt.Errorf("signatures %d, flips %d: negative", p.Signatures, p.Flips)
	}
	if math.IsNaN(p.Cost) || math.IsInf(p.Cost, 0) || p.Cost < 0 {
		return fmt.Errorf("cost %g: want a finite number >= 0", p.Cost)
	}
	return checkLog2("error_log2", p.ErrorLog2)
}
