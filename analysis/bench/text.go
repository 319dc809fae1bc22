package bench

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/fprlab/fprlab/scheme"
)

// WriteText writes res as fprlab bench prints it: one aligned table per
// degree, the scheme's parameter set named in its title; rounds is the
// number of interleaved rounds the medians are of.
func WriteText(w io.Writer, res []Result, rounds int) error {
	if len(res) == 0 {
		_, err := fmt.Fprintln(w, "nothing measured")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	ratio := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf("%.2fx", *v)
	}
	params := 0
	for _, r := range res {
		if r.Params != params {
			if params != 0 {
				fmt.Fprintln(tw)
			}
			params = r.Params
			fmt.Fprintf(tw, "%s, %s time per operation, median of %d interleaved rounds\n", scheme.TitleOf(r.Scheme, params), r.Clock, rounds)
			fmt.Fprintln(tw, "OP\tBACKEND\tMEDIAN\tMIN\tMAX\tOPS/RUN\tvs EMU64\tvs NATIVE\t")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t\n", r.Op, r.Backend,
			benchDuration(r.MedianNS), benchDuration(r.MinNS), benchDuration(r.MaxNS), r.OpsPerRun,
			ratio(r.RatioToEmu64), ratio(r.RatioToNative))
	}
	return tw.Flush()
}

// benchDuration formats nanoseconds as us below 10 ms, else ms.
func benchDuration(ns int64) string {
	if ns < 10_000_000 {
		return fmt.Sprintf("%.1f us", float64(ns)/1e3)
	}
	return fmt.Sprintf("%.2f ms", float64(ns)/1e6)
}
