package results

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// WorseCount is the number of pairs that got worse (DiffPair.Worse).
func (d *Diff) WorseCount() int {
	worse := 0
	for _, p := range d.Pairs {
		if p.Worse() {
			worse++
		}
	}
	return worse
}

// WriteText writes the comparison as `fprlab diff` prints it: the count
// of pairs that got worse, each pair's one-line summary, the table of
// every statistic in both campaigns with its change in bits, and the P*
// changes of a sweep.
func (d *Diff) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "B (%s) against the baseline A (%s): %d of %d backends worse (verdict now fails, or flips appeared)\n\n", d.B, d.A, d.WorseCount(), len(d.Pairs))
	for _, p := range d.Pairs {
		fmt.Fprintln(w, p.Summary())
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "backend\tstatistic\tA (log2)\tB (log2)\tchange (bits)\tsignatures A, B")
	for _, p := range d.Pairs {
		name := p.A
		if p.B != p.A {
			name = p.A + " -> " + p.B
		}
		if p.Mismatch != "" {
			name += " (other conditions)"
		}
		for _, st := range p.Stats {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d, %d\n", name, st.Name, st.ALog2.text(), st.BLog2.text(), st.ChangeBits.changeText(), p.SignaturesA, p.SignaturesB)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(d.PStar) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "curve\tcriterion\tP* A\tP* B\tchange (bits)")
	for _, p := range d.PStar {
		a, b, ch := p.Cells("-")
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Curve, p.Criterion.Describe(), a, b, ch)
	}
	return tw.Flush()
}

// text is a log2 value in the diff table: "-" not measured, "exact" for
// an error of zero.
func (v Log2) text() string {
	switch f := float64(v); {
	case math.IsNaN(f):
		return "-"
	case math.IsInf(f, -1):
		return "exact"
	case math.IsInf(f, 1):
		return "inf"
	}
	return fmt.Sprintf("%.2f", float64(v))
}

// changeText is a change in bits with its sign, "-" when either side has
// no finite value.
func (v Log2) changeText() string {
	if !v.Finite() {
		return "-"
	}
	return fmt.Sprintf("%+.2f", float64(v))
}
