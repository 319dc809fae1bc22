package scheme

import (
	"fmt"
	"io"
	"strconv"
	"strings"
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
	fmt.Fprintln(tw, "BACKEND\tDEGREES\tRECORDS\tKEYS\tPINS\tVERIFIED\tFIRST MISMATCH")
	for _, r := range results {
		mm := "-"
		if m := r.FirstMismatch; m != nil {
			mm = fmt.Sprintf("record %d (degree %d, j %d), %s", m.Record, 1<<m.LogN, m.J, m.Field)
		}
		if r.Error != "" {
			mm = "error: " + r.Error
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%s\n", r.Backend, degreesText(r.Degrees), r.Records, r.MatchKeys, r.MatchPins, r.Verified, mm)
	}
	return tw.Flush()
}

// degreesText is "512", "4..1024" (every power of two between) or a list.
func degreesText(ds []int) string {
	switch {
	case len(ds) == 0:
		return "-"
	case len(ds) == 1:
		return strconv.Itoa(ds[0])
	}
	consecutive := true
	for i := 1; i < len(ds); i++ {
		consecutive = consecutive && ds[i] == 2*ds[i-1]
	}
	if consecutive {
		return fmt.Sprintf("%d..%d", ds[0], ds[len(ds)-1])
	}
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, ",")
}
