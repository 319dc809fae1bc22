package bench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/scheme"
)

// SetBackends sets the plan's backends from a --backend list: "all"
// (AllBackends), or distinct comma-separated names, each resolved with
// lookup; the References are added when missing, since every ratio needs
// them measured in the same rounds.
func (p *Plan) SetBackends(list string, lookup func(string) (arith.Backend, error)) error {
	names := AllBackends
	if list != "all" {
		var err error
		if names, err = distinctList("backend", list); err != nil {
			return err
		}
		if len(names) == 0 {
			return fmt.Errorf("--backend %q: want a backend name, a comma-separated list, or all", list)
		}
	}
	for _, r := range References {
		if !slices.Contains(names, r) {
			names = append(names, r)
		}
	}
	for _, name := range names {
		b, err := lookup(name)
		if err != nil {
			return fmt.Errorf("--backend: %w", err)
		}
		p.Backends = append(p.Backends, b)
	}
	return nil
}

// SetOps sets the plan's operations from an --op list of distinct names
// of Ops, for the plan's Scheme (set first). A scheme other than round 3
// has no expanded key: Round3Ops are refused for it when asked for
// (chosen: --op given) and dropped from the default list otherwise.
func (p *Plan) SetOps(list string, chosen bool) error {
	ops, err := distinctList("op", list)
	if err != nil {
		return err
	}
	round3 := p.Scheme == nil || scheme.IsDefault(p.Scheme)
	if !round3 && !chosen {
		ops = slices.DeleteFunc(ops, func(op string) bool { return slices.Contains(Round3Ops, op) })
	}
	for _, op := range ops {
		if !slices.Contains(Ops, op) {
			return fmt.Errorf("--op %q: unknown operation; want a comma-separated list of %s", op, strings.Join(Ops, ", "))
		}
		if !round3 && slices.Contains(Round3Ops, op) {
			return fmt.Errorf("--op %s: round 3's only; --scheme %s times keygen, sign and verify", op, p.Scheme.Name())
		}
		p.Ops = append(p.Ops, op)
	}
	if len(p.Ops) == 0 {
		return fmt.Errorf("--op %q: want a comma-separated list of %s", list, strings.Join(Ops, ", "))
	}
	return nil
}

// SplitList splits a comma-separated flag value, dropping empty items.
func SplitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// distinctList is SplitList for a list whose items must differ: an item
// given twice is a mistake to report, not to drop (bench --op
// verify,verify would otherwise measure verify once, silently).
func distinctList(flag, s string) ([]string, error) {
	items := SplitList(s)
	for i, it := range items {
		if slices.Contains(items[:i], it) {
			return nil, fmt.Errorf("--%s %q names %s twice", flag, s, it)
		}
	}
	return items, nil
}
