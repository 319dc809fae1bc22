package main

import (
	"slices"
	"strings"

	"github.com/fprlab/fprlab/arith/cabi"
	"github.com/fprlab/fprlab/arith/plan"
)

// pluginLibraries lists the plugin libraries the backends named load -- a
// so: backend, or a so: stage of a plan -- each as "so:ARG sha256:HEX", the
// SHA-256 of its file now, sorted. A campaign directory's identity holds
// them (run.json's "plugins"): a library rebuilt or replaced since is
// another arithmetic, whose runs must not be resumed into, or reported
// as, the records of the old one.
func pluginLibraries(names []string) ([]string, error) {
	var out []string
	for _, name := range names {
		var args []string
		switch {
		case strings.HasPrefix(name, "so:"):
			args = []string{name}
		case strings.HasPrefix(name, "plan:"):
			p, err := plan.Parse(strings.TrimPrefix(name, "plan:"))
			if err != nil {
				return nil, err
			}
			if args, err = p.Foreign(); err != nil {
				return nil, err
			}
		}
		for _, a := range args {
			arg, ok := strings.CutPrefix(a, "so:")
			if !ok {
				continue
			}
			sum, err := cabi.LibraryDigest(arg)
			if err != nil {
				return nil, err
			}
			out = append(out, a+" sha256:"+sum)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
