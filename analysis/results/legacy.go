package results

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
)

// Renamed is a backend of a document written before the triword names
// were revised (no "names_revision"), whose name meant another arithmetic
// than today's backend of that name.
type Renamed struct {
	File string
	// Old is the name the document uses, New today's name of the same
	// arithmetic, or "" when no backend has it today (the entry keeps its
	// old name, which no current backend has).
	Old, New string
}

// String says what the rename means, for stderr and the report page.
func (r Renamed) String() string {
	if r.New == "" {
		return fmt.Sprintf("%s: %v; shown under its old name", r.File, arith.LegacyNameError(r.Old))
	}
	return fmt.Sprintf("%s: %v; shown as %q", r.File, arith.LegacyNameError(r.Old), r.New)
}

// relabelLegacy gives each entry of a document without a names revision
// whose backend name changed meaning today's name of its arithmetic
// (arith.LegacyName), and records the rename: an old "triword" is read
// as "triword-b64const", never as today's triword.
func (c *Campaign) relabelLegacy(file string, cs []*Compare, formats []*string) {
	seen := map[string]bool{}
	for i, e := range cs {
		if e.NamesRevision >= arith.TriwordNamesRevision || !arith.IsLegacyName(e.Backend) {
			continue
		}
		old := e.Backend
		cur, ok := arith.LegacyName(old)
		if ok {
			e.Backend = cur
			if formats != nil && *formats[i] == old {
				*formats[i] = cur
			}
		}
		if !seen[old] {
			seen[old] = true
			c.Renamed = append(c.Renamed, Renamed{File: file, Old: old, New: cur})
		}
	}
}
