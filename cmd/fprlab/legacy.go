package main

import (
	"fmt"

	"github.com/fprlab/fprlab/analysis/results"
)

// noteRenamed says on stderr which backends of the documents read were
// written under the old triword names and what they are called now.
func noteRenamed(s *streams, c *results.Campaign) {
	for _, r := range c.Renamed {
		fmt.Fprintf(s.Err, "note: %s\n", r)
	}
}
