package scheme

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteKATText writes the results of a scheme's known-answer test as
// `fprlab kat --scheme` prints them: the test's title (KATReplayer's
// KATTitle), then one row per backend with its counts of matching keys,
// pins and verified signatures and the first mismatch or the error that
// stopped it.
func WriteKATText(w io.Writer, title string, results []KATResult) error {
	fmt.Fprint(w, title)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BACKEND\tRECORDS\tKEYS\tPINS\tVERIFIED\tFIRST MISMATCH")
	for _, r := range results {
		mm := "-"
		if m := r.FirstMismatch; m != nil {
			mm = fmt.Sprintf("record %d (degree %d, j %d), %s", m.Record, 1<<m.LogN, m.J, m.Field)
		}
		if r.Error != "" {
			mm = "error: " + r.Error
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\n", r.Backend, r.Records, r.MatchKeys, r.MatchPins, r.Verified, mm)
	}
	return tw.Flush()
}
