package certify

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/plan"
	"github.com/fprlab/fprlab/internal/pow2"
)

// Model is the error model of one arithmetic's operations as the bound
// uses it: every rounded addition or subtraction x+y returns a value
// within AddRel |x+y| + Abs of x+y, every rounded product x*y a value
// within MulRel |x*y| + Abs of x*y; halving and negation are exact up to
// Abs; integer conversion (Of) is exact for |i| < 2^IntBits. These are
// the only operations ffSampling and the target perform (Inv and Sqrt
// are used by the ffLDL tree and the leaves, whose values the bound does
// not model but reads exactly, see the package documentation).
type Model struct {
	// Name says where the model comes from ("binary64, round to nearest",
	// "declared: rel=2^-40", ...).
	Name string
	// AddRel and MulRel are the relative bounds; Abs the absolute term
	// (underflow: subnormal results, a flush to zero, limbs below their
	// format's range).
	AddRel, MulRel, Abs float64
	// IntBits: Of(i) is exact for |i| < 2^IntBits.
	IntBits int
	// ConvRel bounds the relative error of converting a value computed
	// elsewhere -- the basis, the tree's l10, the twiddles and 1/q --
	// into the format the target and ffSampling compute in: 0 but for a
	// precision plan, whose stages each convert their operands into their
	// own format.
	ConvRel float64
	// Target, when not nil, is the model of the target's operations,
	// which a precision plan computes in another format than ffSampling's
	// (this model's, whose ConvRel then also bounds the conversion of the
	// target into it).
	Target *Model
}

func (m Model) String() string {
	s := m.Name + ": " + m.bounds()
	if m.Target != nil {
		s += "; target: " + m.Target.bounds()
	}
	return s
}

// bounds is "add 2^-A, mul 2^-M[, abs 2^-E]".
func (m Model) bounds() string {
	s := "add " + pow2.Text(m.AddRel) + ", mul " + pow2.Text(m.MulRel)
	if m.Abs > 0 {
		s += ", abs " + pow2.Text(m.Abs)
	}
	return s
}

// Halved returns the model with both relative bounds and the absolute
// term halved: a model too small for its arithmetic, which the soundness
// test must catch.
func (m Model) Halved() Model {
	m.Name += " (halved)"
	m.AddRel, m.MulRel, m.Abs, m.ConvRel = m.AddRel/2, m.MulRel/2, m.Abs/2, m.ConvRel/2
	if m.Target != nil {
		t := m.Target.Halved()
		m.Target = &t
	}
	return m
}

// The binary64 models. Round to nearest at 53 bits: |fl(x) - x| <=
// 2^-53 |x| for normal results; a subnormal result (gradual underflow,
// native) is within 2^-1075 of x, and a result flushed to zero (emu64,
// the reference's emulation) within 2^-1022.
var (
	binary64Native = Model{Name: "binary64, round to nearest, gradual underflow", AddRel: 0x1p-53, MulRel: 0x1p-53, Abs: 0x1p-1074, IntBits: 53}
	binary64Emu    = Model{Name: "binary64, round to nearest, subnormals flushed to zero", AddRel: 0x1p-53, MulRel: 0x1p-53, Abs: 0x1p-1022, IntBits: 53}
)

// binary64Fused is native-fma's model: binary64's. native-fma performs
// the operations of native's dataflow but computes some pairs x*y + z as
// one fused multiply-add, rounded once (and some negations, exact, in
// another place): that is the product x*y without rounding -- an error of
// 0, within MulRel |x*y| -- followed by the rounded sum, within AddRel
// |x*y + z| + Abs. Every operation of the fused run thus meets the model
// the unfused run does, and the bound, which holds for every run of the
// dataflow whose operations meet their model, holds for it. (Its key
// values, computed with the fused LDL, are read from its own signing
// attempt, as every backend's.)
var binary64Fused = func() Model {
	m := binary64Native
	m.Name += "; a fused multiply-add is its product unrounded, then the rounded sum"
	return m
}()

// triwordAbs is the absolute term of the triple-word model. Below
// 2^BoundMinExp = 2^-78 the lowest limb leaves binary32's normal range
// and the proven relative bounds no longer hold; the error is then an
// underflow of binary32 limbs, at most about 2^-149 times the scale of
// the other operand. `arith errors` measures below-range absolute errors
// up to 2^-71.8 over its exponent range -110..80 (a product with an
// operand near 2^80; Falcon's operands stay below 2^35). 2^-70 covers
// that range: it is a declared term, checked against the measurement by
// the model test, not a theorem.
const triwordAbs = 0x1p-70

// ModelFor returns the built-in error model of backend b, or the declared
// model (a non-empty spec, see ParseErrorModel), which replaces it. A
// backend without a built-in model and no declaration is refused, with the
// reason.
func ModelFor(b arith.Backend, declared string) (Model, error) {
	if declared != "" {
		return ParseErrorModel(declared)
	}
	name := b.Name
	switch {
	case name == "native":
		return binary64Native, nil
	case name == "emu64":
		return binary64Emu, nil
	case name == "dd" || strings.HasPrefix(name, "triword"):
		eb, ok := b.Impl.(arith.ErrorBounds)
		if !ok {
			return Model{}, fmt.Errorf("backend %q: no proven error bounds", name)
		}
		add, ok1 := eb.RelErrBound("add")
		mul, ok2 := eb.RelErrBound("mul")
		if !ok1 || !ok2 {
			return Model{}, fmt.Errorf("backend %q: no proven bound for add or mul", name)
		}
		m := Model{Name: "proven per-operation bounds of " + name, AddRel: up(add), MulRel: up(mul)}
		if name == "dd" {
			// Below 2^-916 the low word leaves binary64's normal range:
			// its error is then at most binary64's underflow, 2^-1074
			// per word operation; 2^-1000 is a generous absolute term.
			m.Abs, m.IntBits = 0x1p-1000, 53
		} else {
			// int -> TW is exact within +-2^24 (three float32 limbs).
			m.Abs, m.IntBits = triwordAbs, 24
		}
		return m, nil
	case strings.HasPrefix(name, "vprec:"):
		return vprecModel(name)
	case strings.HasPrefix(name, "plan:"):
		return planModel(name)
	case name == "native-fma":
		return binary64Fused, nil
	}
	return Model{}, &NoModelError{Backend: name}
}

// NoModelError is ModelFor's error for a backend without a built-in error
// model (a plugin, or a plan giving the target or ffSampling to one).
type NoModelError struct{ Backend string }

// Reason says which backends have built-in models and why one is needed.
func (e *NoModelError) Reason() string {
	return fmt.Sprintf("backend %q has no built-in error model (built in: native, native-fma, emu64, dd, triword*, vprec:P[:eE[:rz|:sr=SEED]], plans whose target and ffsampling stages are vprec formats); a certified bound is only as good as the bound on each operation's error, which fprlab cannot know for this arithmetic", e.Backend)
}

func (e *NoModelError) Error() string {
	return e.Reason() + ": declare it with --error-model rel=2^-P[,abs=2^-E]"
}

// vprecModel is the model of "vprec:P[:eE][:rn|:rz|:sr=SEED]": round to
// nearest at P bits errs by at most 2^-P relative, toward zero and
// stochastic rounding by at most 2^-(P-1) (stochastic rounding picks one
// of the two neighbours, either of which is within one ulp). With an
// exponent field of E bits (emin = 2 - 2^(E-1)) an underflowing result is
// within 2^emin of its value whether it is flushed or rounded gradually;
// without one the range is unbounded (no absolute term).
func vprecModel(name string) (Model, error) {
	parts := strings.Split(name, ":")
	p, err := strconv.Atoi(parts[1])
	if err != nil || p < 2 || p > 4096 {
		return Model{}, fmt.Errorf("backend %q: cannot read its precision", name)
	}
	m := Model{Name: fmt.Sprintf("%d-bit round to nearest", p), AddRel: math.Ldexp(1, -p), IntBits: p}
	for _, f := range parts[2:] {
		switch {
		case f == "rn":
		case f == "rz" || strings.HasPrefix(f, "sr"):
			m.Name = fmt.Sprintf("%d-bit %s", p, map[bool]string{true: "round toward zero", false: "stochastic rounding"}[f == "rz"])
			m.AddRel = math.Ldexp(1, 1-p)
		case strings.HasPrefix(f, "e"):
			e, err := strconv.Atoi(f[1:])
			if err != nil || e < 2 || e > 30 {
				return Model{}, fmt.Errorf("backend %q: cannot read its exponent width", name)
			}
			emin := 2 - (1 << (e - 1))
			m.Abs = math.Ldexp(1, emin)
		default:
			return Model{}, fmt.Errorf("backend %q: unknown format field %q", name, f)
		}
	}
	m.MulRel = m.AddRel
	return m, nil
}

// planModel is the model of a precision plan, from the vprec formats of
// its target and ffsampling stages -- every operation the bound analyses:
// ffSampling's format's model, and when the target is computed in another
// format, that format's model as Target. The values those stages take from
// the others (the basis from fft, l10 from ldl) are converted into the
// stage's format as operands, one rounding each, which the analysis adds to
// their errors (ConvRel); so is the target, computed in its own format and
// converted into ffSampling's where ffSampling first uses it (a rounding
// within ffSampling's ConvRel, counted even where the wider format holds
// every value of the narrower one exactly). The twiddles and 1/q are each
// stage's own (capture reads them in both formats). A stage given to a
// plugin is refused: its model is the user's to declare.
func planModel(name string) (Model, error) {
	p, err := plan.Parse(strings.TrimPrefix(name, "plan:"))
	if err != nil {
		return Model{}, fmt.Errorf("backend %q: %w", name, err)
	}
	stageModel := func(st arith.PlanStage) (Model, error) {
		f := p[st]
		if !strings.HasPrefix(f, "vprec:") {
			return Model{}, fmt.Errorf("backend %q computes the %s stage in %s, which has no built-in error model: declare one with --error-model rel=2^-P[,abs=2^-E]", name, st, f)
		}
		m, err := vprecModel(f)
		if err != nil {
			return Model{}, err
		}
		if slices.ContainsFunc(p[:], func(o string) bool { return o != f }) {
			// Other stages' values are converted into f; in a uniform
			// plan they are already in it.
			m.Name = st.String() + " in " + f + ": " + m.Name + ", operands of other stages converted"
			m.ConvRel = m.MulRel
		} else {
			m.Name = "every stage in " + f + ": " + m.Name
		}
		return m, nil
	}
	ft, fs := p[arith.PlanTarget], p[arith.PlanFFSampling]
	if err := centrePath(name, p); err != nil {
		return Model{}, err
	}
	m, err := stageModel(arith.PlanFFSampling)
	if err != nil {
		return Model{}, err
	}
	if ft == fs {
		m.Name = "plan, " + strings.Replace(m.Name, "ffsampling in", "target and ffsampling in", 1)
		return m, nil
	}
	mt, err := stageModel(arith.PlanTarget)
	if err != nil {
		return Model{}, err
	}
	m.Name = "plan, " + mt.Name + "; " + m.Name + ", the target converted into " + fs
	m.Target = &mt
	return m, nil
}

// centrePath refuses a plan whose leaf or sampler stage would round what
// the bound is about. The centre leaves ffSampling in its format and the
// sampler reads it in the sampler stage's (every operation converts its
// operands into the stage's format); the integer samples are converted
// (Of) in the leaf stage's; the leaves' 1/sigma are computed in the leaf
// stage and read in the sampler's. delta_c is bounded, and delta_sigma
// measured, where ffSampling and the leaf stage hand the values over: a
// conversion after that would be a rounding neither includes (a sampler
// stage at 20 bits under ffSampling at 80 was "proven" at 2^-57). So each
// of those conversions must be exact: the leaf stage's format must hold
// every value of ffSampling's, and the sampler stage's every value of both.
func centrePath(name string, p plan.Plan) error {
	fs, fl, fz := p[arith.PlanFFSampling], p[arith.PlanLeaf], p[arith.PlanSampler]
	for _, c := range []struct {
		wide, narrow arith.PlanStage
	}{{arith.PlanLeaf, arith.PlanFFSampling}, {arith.PlanSampler, arith.PlanFFSampling}, {arith.PlanSampler, arith.PlanLeaf}} {
		if !holds(p[c.wide], p[c.narrow]) {
			return fmt.Errorf("backend %q: its %s stage (%s) does not hold every value of its %s stage (%s): the centres, samples and 1/sigma that pass from ffsampling (%s) through leaf (%s) to sampler (%s) would be rounded again, which the certified bound does not cover; give the leaf and sampler stages ffsampling's format or a wider one", name, c.wide, p[c.wide], c.narrow, p[c.narrow], fs, fl, fz)
		}
	}
	return nil
}

// holds reports whether every value of the vprec format narrow is a value
// of the vprec format wide (converting one into the other is exact): at
// least as many bits, and an exponent range at least as wide (none: the
// range is unbounded). A format holds itself; other formats (plugins) hold
// only themselves.
func holds(wide, narrow string) bool {
	if wide == narrow {
		return true
	}
	pw, ew, okw := vprecShape(wide)
	pn, en, okn := vprecShape(narrow)
	return okw && okn && pw >= pn && (ew == 0 || (en != 0 && ew >= en))
}

// vprecShape reads the precision and exponent width (0: unbounded) of a
// "vprec:P[:eE][:rounding]" format.
func vprecShape(f string) (p, e int, ok bool) {
	parts := strings.Split(f, ":")
	if len(parts) < 2 || parts[0] != "vprec" {
		return 0, 0, false
	}
	p, err := strconv.Atoi(parts[1])
	if err != nil {
		return 0, 0, false
	}
	for _, x := range parts[2:] {
		if v, found := strings.CutPrefix(x, "e"); found {
			if e, err = strconv.Atoi(v); err != nil {
				return 0, 0, false
			}
		}
	}
	return p, e, true
}

// ParseErrorModel reads a declared model "rel=2^-P[,abs=2^-E]" (the
// exponents may be fractional): the same relative bound for every
// rounded operation, an optional absolute term, Of exact below 2^24.
func ParseErrorModel(spec string) (Model, error) {
	m := Model{Name: "declared " + spec, IntBits: 24}
	seen := false
	given := map[string]bool{}
	for _, f := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(f), "=")
		if !ok {
			return Model{}, fmt.Errorf("error model %q: want rel=2^-P[,abs=2^-E]", spec)
		}
		if given[k] {
			return Model{}, fmt.Errorf("error model %q: %s is given twice", spec, k)
		}
		given[k] = true
		if k != "rel" && k != "abs" {
			return Model{}, fmt.Errorf("error model %q: unknown term %q (want rel, abs)", spec, k)
		}
		minP := 0.0
		if k == "rel" {
			// A relative bound of 2^-8 or more certifies nothing.
			minP = 8
		}
		x, err := parsePow2(v, minP)
		if err != nil {
			return Model{}, fmt.Errorf("error model %q: %s: %w", spec, k, err)
		}
		switch k {
		case "rel":
			m.AddRel, m.MulRel, seen = x, x, true
		case "abs":
			m.Abs = x
		}
	}
	if !seen {
		return Model{}, errors.New("error model " + strconv.Quote(spec) + ": missing rel=2^-P")
	}
	return m, nil
}

// parsePow2 reads "2^-P", minP < P <= 2000, and returns an upper bound of
// 2^-P.
func parsePow2(v string, minP float64) (float64, error) {
	e, ok := strings.CutPrefix(strings.TrimSpace(v), "2^")
	if !ok {
		return 0, fmt.Errorf("%q: want 2^-P", v)
	}
	x, err := strconv.ParseFloat(e, 64)
	if err != nil || x >= -minP || x < -2000 || math.IsNaN(x) {
		return 0, fmt.Errorf("%q: want 2^-P with %g < P <= 2000", v, minP)
	}
	if x == math.Trunc(x) {
		return math.Ldexp(1, int(x)), nil
	}
	return up(math.Exp2(x) * (1 + 0x1p-50)), nil
}
