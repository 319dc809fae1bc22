package campaign

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/fprlab/fprlab/arith"
)

// SplitBackends splits a comma-separated backend list. A precision plan may
// separate its entries with commas too (plan:fft=vprec:60,all=vprec:53):
// an item of the form KEY=FORMAT after a plan, KEY a word without ':' (a
// stage, all, or a mistake the plan reports, such as the rest of a
// plugin's path cut at a ','), belongs to that plan. Backend names with
// '=' have a family before it (vprec:64:e11:sr=5).
func SplitBackends(list string) []string {
	var out []string
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		key, _, isEntry := strings.Cut(item, "=")
		if isEntry && key != "" && !strings.Contains(key, ":") && len(out) > 0 && strings.HasPrefix(out[len(out)-1], "plan:") {
			out[len(out)-1] += "," + item
			continue
		}
		out = append(out, item)
	}
	return out
}

// LookupBackends resolves the names of a backend list with lookup, in
// order, refusing a backend named twice (twice is the message, with a %s
// for its name). A plugin library that does not exist, with more items
// after it, may be a path holding a ',' that the list was split at: the
// error says how to name it.
func LookupBackends(names []string, lookup func(string) (arith.Backend, error), twice string) ([]arith.Backend, error) {
	var bs []arith.Backend
	seen := map[string]bool{}
	for i, name := range names {
		if name == "" && len(names) > 1 {
			return nil, fmt.Errorf("backend list entry %d of %d is empty (two commas, or one at an end)", i+1, len(names))
		}
		b, err := lookup(name)
		if err != nil && strings.HasPrefix(name, "so:") && i+1 < len(names) && errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%w (a backend list is split at ','; name a plugin whose path holds a ',' as a plan of its arithmetic alone, plan:all=so:PATH, with the ',' written %%2C)", err)
		}
		if err != nil {
			return nil, err
		}
		if seen[b.Name] {
			return nil, fmt.Errorf(twice, b.Name)
		}
		seen[b.Name] = true
		bs = append(bs, b)
	}
	return bs, nil
}
