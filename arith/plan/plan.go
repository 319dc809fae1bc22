// Package plan runs Falcon signing with each part of the computation in its
// own floating-point format: a precision plan, as a hardware signer with
// datapaths of several widths would compute.
//
// A plan assigns a format to each of falcon's plan stages (arith.PlanStage:
// fft, gram, ldl, leaf, target, ffsampling, sampler, expm, lattice):
//
//	fft=vprec:60,ldl=vprec:64,sampler=binary64,all=vprec:53
//
// (entries separated by commas or by "+", which backend names use:
// "plan:fft=vprec:60+ldl=vprec:64+sampler=vprec:53:e11+all=vprec:53").
// "all" gives every stage not named otherwise. The formats are those of the
// vprec family (vprec:P, vprec:P:eE[:rz|:sr=SEED]; see `fprlab backends`;
// vprecbig:... for their big.Float reference implementation),
// binary64 (an alias of vprec:53:e11, which computes as the emulated
// binary64 of the reference does), and arithmetic plugins,
// so:PATH[@CONFIG] (foreign formats: see foreign.go and RegisterForeign;
// inside a plan, '+', ',' and '%' of PATH or CONFIG are written %2B, %2C
// and %25). Backends with a value type of their own and no exact import
// (triword, dd) cannot be stages: their values are not P-bit floats.
//
// The stages share one value type, the plan's carrier: vfloat.V when the
// vprec stages are vfloat's (P <= 113), *big.Float for vprecbig and wider
// ones. A plugin's values are opaque, but it rounds an exact number into
// its format (fprlab_from_parts) and exports its values exactly
// (fprlab_decode), so its stage takes carrier values in and gives carrier
// values out without any rounding but its own; a plugin whose values the
// carrier cannot hold (a wider significand, an unbounded exponent range)
// is refused, naming both.
//
// As a datapath converts its inputs, every operation first converts its
// operands into the current stage's format (Convert: rounding into the
// format, the identity on values of the format or of narrower ones within
// range), then computes there. So a uniform plan computes exactly what its
// format alone computes, bit for bit, and a value crossing from a wider
// stage into a narrower one is rounded once, where it enters. Constants and
// twiddle factors come from the current stage's format; expm_p63 is always
// computed in the expm stage's format, on operands converted into it.
package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fprlab/fprlab/arith"
)

// Stages lists the plan stages in order.
func Stages() []arith.PlanStage {
	s := make([]arith.PlanStage, arith.NumPlanStages)
	for i := range s {
		s[i] = arith.PlanStage(i)
	}
	return s
}

// Plan is the format of each stage, by canonical backend name.
type Plan [arith.NumPlanStages]string

// Binary64 is the format name binary64 stands for in plans.
const Binary64 = "vprec:53:e11"

// Uniform returns the plan with every stage in format.
func Uniform(format string) Plan {
	var p Plan
	for i := range p {
		p[i] = format
	}
	return p
}

// Parse reads a plan "stage=FORMAT,stage=FORMAT,...[,all=FORMAT]". Every
// stage must get a format, from its own entry or from all; a stage named
// twice, an unknown stage or a format that is neither a vprec format nor
// a foreign one is an error naming it. Formats are checked and
// canonicalised (arith.Lookup; a foreign format is opened, and its ARG
// spelt with the plan's escapes). A plugin's path or configuration cut
// at a literal '+' or ',' makes an entry that is not one: the error then
// says how to escape them.
func Parse(s string) (Plan, error) {
	var p Plan
	if strings.TrimSpace(s) == "" {
		return p, fmt.Errorf("empty plan: write stage=FORMAT+... with stages %s (or all=FORMAT)", stageList())
	}
	var all string
	seen := map[string]bool{}
	// After a foreign format, an entry that is not one is most likely
	// the rest of its path or configuration, cut at a literal '+' or ','.
	hint := ""
	for _, item := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '+' }) {
		prevHint := hint
		hint = ""
		key, val, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || key == "" || val == "" {
			return p, fmt.Errorf("plan entry %q: want stage=FORMAT%s", item, prevHint)
		}
		if seen[key] {
			return p, fmt.Errorf("plan entry %q: stage %s given twice", item, key)
		}
		seen[key] = true
		st, ok := arith.ParsePlanStage(key)
		if !ok && key != "all" {
			return p, fmt.Errorf("plan entry %q: unknown stage %q (stages: %s, or all)%s", item, key, stageList(), prevHint)
		}
		name, err := canonical(val)
		if _, _, open := foreignFamily(val); open != nil {
			hint = fmt.Sprintf(" (after %q: %s)", item, escapeNote)
			if err != nil {
				err = fmt.Errorf("%w (%s)", err, escapeNote)
			}
		}
		if err != nil {
			// A well-formed entry of a known stage is not the rest of a
			// cut path: its own error, without the escaping hint.
			return p, fmt.Errorf("plan entry %q: %w", item, err)
		}
		if key == "all" {
			all = name
			continue
		}
		p[st] = name
	}
	var missing []string
	for i := range p {
		if p[i] == "" {
			if all == "" {
				missing = append(missing, arith.PlanStage(i).String())
				continue
			}
			p[i] = all
		}
	}
	if len(missing) > 0 {
		return p, fmt.Errorf("plan %q gives no format to stage(s) %s: name them or add all=FORMAT", s, strings.Join(missing, ", "))
	}
	return p, nil
}

// escapeNote is how a plan spells the characters of its syntax in a
// foreign format's path or configuration.
const escapeNote = "inside a plan, a '+' or ',' of a plugin's path or configuration is written %2B or %2C, and '%' as %25"

// canonical checks a stage's format and returns its backend name.
func canonical(format string) (string, error) {
	if format == "binary64" {
		return Binary64, nil
	}
	if family, arg, open := foreignFamily(format); open != nil {
		return canonicalForeign(family, arg, open)
	}
	if !strings.HasPrefix(format, "vprec:") && !strings.HasPrefix(format, "vprecbig:") {
		plugins := ""
		if u := foreignUsage(); u != "" {
			plugins = ", an arithmetic plugin (" + u + ")"
		}
		return "", fmt.Errorf("format %q: plan stages take vprec formats (vprec:P, vprec:P:eE[:rz|:sr=SEED]), binary64%s; backends with their own value type (native, emu64, triword, dd) cannot be mixed within one run", format, plugins)
	}
	b, err := arith.Lookup(format)
	if err != nil {
		return "", err
	}
	return b.Name, nil
}

func stageList() string {
	names := make([]string, arith.NumPlanStages)
	for i := range names {
		names[i] = arith.PlanStage(i).String()
	}
	return strings.Join(names, ", ")
}

// String returns the plan in Parse's syntax, shortest form: the most common
// format as all=, the others by stage, in stage order.
func (p Plan) String() string {
	count := map[string]int{}
	for _, f := range p {
		count[f]++
	}
	common := ""
	for _, f := range p { // first-met format among the most common: deterministic
		if count[f] > count[common] {
			common = f
		}
	}
	var parts []string
	for i, f := range p {
		if f != common {
			parts = append(parts, arith.PlanStage(i).String()+"="+f)
		}
	}
	return strings.Join(append(parts, "all="+common), ",")
}

// Name returns the plan's backend name, "plan:" and the plan with "+"
// between entries (commas separate backends in lists).
func (p Plan) Name() string { return "plan:" + strings.ReplaceAll(p.String(), ",", "+") }

// Foreign returns the distinct foreign formats of the plan, sorted, each as
// FAMILY:ARG with ARG decoded from the plan's escapes: a plugin stage
// so:./lib%2Bv2.so@40 gives "so:./lib+v2.so@40", the name of that
// plugin's backend.
func (p Plan) Foreign() ([]string, error) {
	var out []string
	for _, f := range p.Formats() {
		family, arg, open := foreignFamily(f)
		if open == nil {
			continue
		}
		raw, err := unescapeArg(arg)
		if err != nil {
			return nil, fmt.Errorf("format %s: %w", f, err)
		}
		out = append(out, family+":"+raw)
	}
	return out, nil
}

// Formats returns the distinct formats of the plan, sorted.
func (p Plan) Formats() []string {
	f := slices.Clone(p[:])
	slices.Sort(f)
	return slices.Compact(f)
}
