package results

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Diff sets two campaigns side by side, A the baseline and B the one
// compared with it (two versions of a datapath, two backends, two
// commits): per backend or swept format the change of every error
// statistic in bits, whether the 2^-46 verdict changed, whether decision
// flips appeared or vanished, and per sweep curve the change of P*.
type Diff struct {
	A     string      `json:"a"`
	B     string      `json:"b"`
	Pairs []DiffPair  `json:"pairs"`
	PStar []DiffPStar `json:"pstar"`
}

// DiffPair is one backend (or swept format) of A beside its counterpart
// in B: the same name, or the only backend of each side.
type DiffPair struct {
	A           string `json:"a"`
	B           string `json:"b"`
	Params      int    `json:"params"`
	SignaturesA int64  `json:"signatures_a"`
	SignaturesB int64  `json:"signatures_b"`
	// Stats are the log2 statistics; ChangeBits is B - A, so a positive
	// change is a larger error (worse).
	Stats []DiffStat `json:"stats"`
	// MeetsA, MeetsB: whether the per-signature worst is at most 2^-46
	// (null: not measured). Verdict is "unchanged", "now fails",
	// "now meets" or "not measured".
	MeetsA  *bool  `json:"meets_2^-46_a"`
	MeetsB  *bool  `json:"meets_2^-46_b"`
	Verdict string `json:"verdict"`
	// FlipsA, FlipsB are the decision flips (null: not counted); Flips is
	// "none", "appeared", "vanished", "both" (flips on both sides) or
	// "not counted".
	FlipsA *int64 `json:"flips_a"`
	FlipsB *int64 `json:"flips_b"`
	Flips  string `json:"flips"`
	// ConditionsA, ConditionsB are what each side was measured under;
	// where they differ the pair compares two questions, not two
	// arithmetics, and Mismatch says how (set by whoever allowed it).
	ConditionsA Conditions `json:"-"`
	ConditionsB Conditions `json:"-"`
	Mismatch    string     `json:"mismatch,omitempty"`
}

// Conditions are the settings besides the backend that a compare
// object's figures depend on, under the names of the fields of a
// campaign's run.json, so that the identity comparison merge makes can
// describe how two of them differ.
type Conditions struct {
	Scheme     string `json:"scheme,omitempty"`
	KeySource  string `json:"key_source,omitempty"`
	Mode       string `json:"mode,omitempty"`
	Shadow     string `json:"shadow,omitempty"`
	OracleBits int    `json:"oracle_bits,omitempty"`
	ExactSigma string `json:"exact_sigma,omitempty"`
	Acceptance string `json:"acceptance,omitempty"`
}

// ConditionsOf are c's conditions in run.json's form: round 3's keys
// have no key_source there, and the oracle's precision matters only for
// the oracle shadow.
func ConditionsOf(c *Compare) Conditions {
	k := Conditions{Scheme: c.Scheme, KeySource: c.KeySource, Mode: c.Mode, Shadow: c.Shadow, ExactSigma: c.ExactSigma, Acceptance: c.Acceptance}
	if k.KeySource == "falcon" {
		k.KeySource = ""
	}
	if c.Shadow == "oracle" {
		k.OracleBits = c.OracleBits
	}
	return k
}

// Mismatched are the pairs measured under different conditions.
func (d *Diff) Mismatched() []*DiffPair {
	var out []*DiffPair
	for i := range d.Pairs {
		if p := &d.Pairs[i]; p.ConditionsA != p.ConditionsB {
			out = append(out, p)
		}
	}
	return out
}

// DiffStat is one statistic of a pair.
type DiffStat struct {
	Name       string `json:"name"`
	ALog2      Log2   `json:"a_log2"`
	BLog2      Log2   `json:"b_log2"`
	ChangeBits Log2   `json:"change_bits"` // NaN (JSON null) when either side is not a finite value
}

// DiffPStar is a P* answer of A beside B's for the same curve and
// criterion ("bits" null: not found).
type DiffPStar struct {
	Curve      string    `json:"curve"`
	Criterion  Criterion `json:"criterion"`
	A          *int      `json:"a_bits"`
	B          *int      `json:"b_bits"`
	ChangeBits *int      `json:"change_bits"`
}

// Cells are the entry as text: A's and B's P* ("not found" where the
// criterion holds at no swept precision) and the change ("+2"; none is
// the dash given).
func (p DiffPStar) Cells(none string) (a, b, change string) {
	bits := func(v *int) string {
		if v == nil {
			return "not found"
		}
		return fmt.Sprint(*v)
	}
	change = none
	if p.ChangeBits != nil {
		change = fmt.Sprintf("%+d", *p.ChangeBits)
	}
	return bits(p.A), bits(p.B), change
}

// Verdict strings of DiffPair.
const (
	VerdictUnchanged   = "unchanged"
	VerdictNowFails    = "now fails"
	VerdictNowMeets    = "now meets"
	VerdictNotMeasured = "not measured"
)

// diffStats are the statistics a pair compares, in report order.
var diffStats = []struct {
	name string
	get  func(*Compare) Log2
}{
	{"per-signature worst δc+δσ", func(c *Compare) Log2 { return c.PerSignature.Sum.Max }},
	{"per-signature median δc+δσ", func(c *Compare) Log2 { return c.PerSignature.Sum.Median }},
	{"per-signature worst δc", func(c *Compare) Log2 { return c.PerSignature.DeltaC.Max }},
	{"per-signature worst δσ", func(c *Compare) Log2 { return c.PerSignature.DeltaSigma.Max }},
	{"per-call median δc+δσ", func(c *Compare) Log2 { return c.PerLeaf.Sum.Median }},
	{"per-call q99 δc+δσ", func(c *Compare) Log2 { return c.PerLeaf.Sum.Q99 }},
	{"per-call max δc+δσ", func(c *Compare) Log2 { return c.PerLeaf.Sum.Max }},
}

// ErrNotComparable is wrapped by the errors of Compare when the two
// campaigns cannot be set side by side.
var ErrNotComparable = errors.New("campaigns not comparable")

// side is what a campaign contributes to a diff: its compare objects and
// swept points, keyed by name and degree.
type side struct {
	dir   string
	items []*Compare
	names []string
}

// sideOf collects a campaign's backends and swept formats. A backend
// measured twice at one degree (a reference of a sweep that a
// compare document of the campaign measures too) counts once, the
// compare document's first.
func sideOf(c *Campaign) (side, error) {
	s := side{dir: c.Dir}
	seen := map[string]bool{}
	add := func(name string, x *Compare) {
		if k := key(name, x.Params); !seen[k] {
			seen[k] = true
			s.items, s.names = append(s.items, x), append(s.names, name)
		}
	}
	for _, d := range c.Compares {
		for i := range d.Backends {
			add(d.Backends[i].Backend, &d.Backends[i])
		}
	}
	for _, d := range c.Sweeps {
		for i := range d.Points {
			add(d.Points[i].Format, &d.Points[i].Compare)
		}
	}
	if len(s.items) == 0 {
		var skipped []string
		for _, k := range c.Skipped {
			skipped = append(skipped, k.File+": "+k.Reason)
		}
		why := "is it a campaign directory?"
		if len(skipped) > 0 {
			why = "skipped " + strings.Join(skipped, "; ")
		}
		return s, fmt.Errorf("%s: %w: it holds no compare or sweep document (%s)", c.Dir, ErrNotComparable, why)
	}
	return s, nil
}

// key is a pair's matching key: the name and the Falcon degree.
func key(name string, params Params) string { return fmt.Sprintf("%s at Falcon-%d", name, params) }

// CompareCampaigns sets B beside the baseline A. Backends pair by name
// and degree; when each side holds exactly one backend they pair whatever
// their names (two backends measured apart). Anything left without a
// counterpart -- another backend, another degree -- is an error naming
// it, as are campaigns without compare or sweep documents.
func CompareCampaigns(a, b *Campaign) (*Diff, error) {
	sa, err := sideOf(a)
	if err != nil {
		return nil, err
	}
	sb, err := sideOf(b)
	if err != nil {
		return nil, err
	}
	d := &Diff{A: a.Dir, B: b.Dir, Pairs: []DiffPair{}, PStar: []DiffPStar{}}
	if len(sa.items) == 1 && len(sb.items) == 1 {
		x, y := sa.items[0], sb.items[0]
		if x.Params != y.Params {
			return nil, fmt.Errorf("%w: %s measures Falcon-%d, %s Falcon-%d", ErrNotComparable, a.Dir, x.Params, b.Dir, y.Params)
		}
		d.Pairs = append(d.Pairs, pairOf(sa.names[0], sb.names[0], x, y))
	} else {
		inB := map[string]int{}
		for i, n := range sb.names {
			inB[key(n, sb.items[i].Params)] = i
		}
		used := map[int]bool{}
		var onlyA, onlyB []string
		for i, n := range sa.names {
			j, ok := inB[key(n, sa.items[i].Params)]
			if !ok {
				onlyA = append(onlyA, key(n, sa.items[i].Params))
				continue
			}
			used[j] = true
			d.Pairs = append(d.Pairs, pairOf(n, sb.names[j], sa.items[i], sb.items[j]))
		}
		for j, n := range sb.names {
			if !used[j] {
				onlyB = append(onlyB, key(n, sb.items[j].Params))
			}
		}
		if len(onlyA)+len(onlyB) > 0 {
			var parts []string
			if len(onlyA) > 0 {
				parts = append(parts, fmt.Sprintf("only %s has %s", a.Dir, strings.Join(onlyA, ", ")))
			}
			if len(onlyB) > 0 {
				parts = append(parts, fmt.Sprintf("only %s has %s", b.Dir, strings.Join(onlyB, ", ")))
			}
			return nil, fmt.Errorf("%w: the backends differ: %s (diff pairs backends by name and degree, or the single backend of each side)", ErrNotComparable, strings.Join(parts, "; "))
		}
	}
	d.PStar = diffPStars(PStars(a.PrecisionPoints()), PStars(b.PrecisionPoints()))
	return d, nil
}

func pairOf(na, nb string, x, y *Compare) DiffPair {
	p := DiffPair{A: na, B: nb, Params: int(x.Params), SignaturesA: x.Signatures, SignaturesB: y.Signatures, MeetsA: meets246(x), MeetsB: meets246(y),
		ConditionsA: ConditionsOf(x), ConditionsB: ConditionsOf(y)}
	// A document written before the shadow or exact_sigma field says
	// nothing of it: only a value on both sides can differ.
	ca, cb := &p.ConditionsA, &p.ConditionsB
	if ca.Shadow == "" || cb.Shadow == "" {
		ca.Shadow, cb.Shadow, ca.OracleBits, cb.OracleBits = "", "", 0, 0
	}
	if ca.ExactSigma == "" || cb.ExactSigma == "" {
		ca.ExactSigma, cb.ExactSigma = "", ""
	}
	for _, st := range diffStats {
		va, vb := st.get(x), st.get(y)
		ch := nan
		if va.Finite() && vb.Finite() {
			ch = vb - va
		}
		p.Stats = append(p.Stats, DiffStat{Name: st.name, ALog2: va, BLog2: vb, ChangeBits: ch})
	}
	switch {
	case p.MeetsA == nil || p.MeetsB == nil:
		p.Verdict = VerdictNotMeasured
	case *p.MeetsA == *p.MeetsB:
		p.Verdict = VerdictUnchanged
	case *p.MeetsA:
		p.Verdict = VerdictNowFails
	default:
		p.Verdict = VerdictNowMeets
	}
	if n, ok := x.FlipsTotal(); ok {
		p.FlipsA = &n
	}
	if n, ok := y.FlipsTotal(); ok {
		p.FlipsB = &n
	}
	switch {
	case p.FlipsA == nil || p.FlipsB == nil:
		p.Flips = "not counted"
	case *p.FlipsA == 0 && *p.FlipsB == 0:
		p.Flips = "none"
	case *p.FlipsA == 0:
		p.Flips = "appeared"
	case *p.FlipsB == 0:
		p.Flips = "vanished"
	default:
		p.Flips = "both"
	}
	return p
}

// meets246 is whether the per-signature worst is at most 2^-46: the
// document's meets_2^-46, else the statistic itself; nil when neither
// was measured (no signature).
func meets246(c *Compare) *bool {
	if c.Meets246 != nil {
		return c.Meets246
	}
	v := c.PerSignature.Sum.Max
	if math.IsNaN(float64(v)) || c.Signatures == 0 {
		return nil
	}
	ok := float64(v) <= -46
	return &ok
}

// diffPStars pairs the P* answers of A and B by curve and criterion.
func diffPStars(a, b []PStar) []DiffPStar {
	type k struct {
		curve string
		c     Criterion
	}
	m := map[k]*DiffPStar{}
	var order []k
	add := func(ps []PStar, setA bool) {
		for _, p := range ps {
			kk := k{p.Curve.String(), p.Criterion}
			e := m[kk]
			if e == nil {
				e = &DiffPStar{Curve: kk.curve, Criterion: kk.c}
				m[kk] = e
				order = append(order, kk)
			}
			var v *int
			if p.Found {
				b := p.Bits
				v = &b
			}
			if setA {
				e.A = v
			} else {
				e.B = v
			}
		}
	}
	add(a, true)
	add(b, false)
	sort.SliceStable(order, func(i, j int) bool { return order[i].curve < order[j].curve })
	out := []DiffPStar{}
	for _, kk := range order {
		e := m[kk]
		if e.A != nil && e.B != nil {
			ch := *e.B - *e.A
			e.ChangeBits = &ch
		}
		out = append(out, *e)
	}
	return out
}

// Worse reports whether the pair's verdict got worse: it now fails, or
// flips appeared.
func (p DiffPair) Worse() bool { return p.Verdict == VerdictNowFails || p.Flips == "appeared" }

// Summary is the pair's one-line answer: the verdict, the change of the
// per-signature worst, and the flips.
func (p DiffPair) Summary() string {
	name := p.A
	if p.B != p.A {
		name = p.A + " → " + p.B
	}
	v := p.Verdict
	switch p.Verdict {
	case VerdictUnchanged:
		v = "verdict unchanged (fails 2^-46)"
		if *p.MeetsA {
			v = "verdict unchanged (meets 2^-46)"
		}
	case VerdictNowFails:
		v = "NOW FAILS 2^-46"
	case VerdictNowMeets:
		v = "now meets 2^-46"
	}
	w := p.Stats[0]
	change := "worst not comparable"
	if w.ChangeBits.Finite() {
		change = fmt.Sprintf("worst %+.2f bits (2^%.2f → 2^%.2f)", float64(w.ChangeBits), float64(w.ALog2), float64(w.BLog2))
	}
	flips := "flips: " + p.Flips
	if p.FlipsA != nil && p.FlipsB != nil {
		flips = fmt.Sprintf("flips %s → %s (%s)", Thousands(*p.FlipsA), Thousands(*p.FlipsB), p.Flips)
	}
	s := fmt.Sprintf("%s, Falcon-%d: %s; %s; %s", name, p.Params, v, change, flips)
	if p.Mismatch != "" {
		s += "; MEASURED UNDER OTHER CONDITIONS: " + p.Mismatch
	}
	return s
}
