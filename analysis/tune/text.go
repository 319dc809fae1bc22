package tune

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/fprlab/fprlab/scheme"
)

// WriteText writes r as fprlab tune prints it: the target and the search,
// the chosen plan stage by stage, and the Pareto front.
func (r *Result) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s: cheapest plan with %s delta_c + delta_sigma <= 2^%g, acceptance error <= 2^%.2f and no decision flip, cost in %s (%s)\n",
		scheme.KeysTitle(r.Scheme, r.Params, r.KeySource), r.Statistic, r.TargetLog2, r.TargetLog2+AcceptanceSlackLog2, r.CostUnit, r.Cost)
	fmt.Fprintf(w, "formats %s; %d signatures per plan (margin %g bits), confirmations on %d fresh ones; %d plans and %d confirmations measured in %.0f s\n",
		strings.ReplaceAll(r.Format, "%d", "P"), r.Signatures, r.MarginBits, r.Confirm, len(r.Evaluations), r.Confirmations, r.MeasuredSeconds)
	if r.CostNote != "" {
		fmt.Fprintf(w, "cost: %s\n", r.CostNote)
	}
	fmt.Fprintf(w, "descent: %d moves accepted, %d undone because their plans missed on the fresh signatures\n\n", r.Descent, r.WalkedBack)
	conf := func(e *Evaluation) string {
		if e.Confirmation == nil {
			return "-"
		}
		c := e.Confirmation
		return fmt.Sprintf("2^%.2f, %d flips: %s", float64(c.ErrorLog2), c.Flips, c.Verdict())
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "stage\tbits\tvs binary64")
	idle := map[string]string{}
	for _, n := range r.NotTuned {
		idle[n.Stage] = n.Reason
	}
	for i, st := range r.Stages {
		if why, ok := idle[st]; ok {
			fmt.Fprintf(tw, "%s\t-\t%s\n", st, why)
			continue
		}
		b := r.Chosen.Widths[i]
		rel := "="
		switch {
		case b < 53:
			rel = fmt.Sprintf("%d fewer", 53-b)
		case b > 53:
			rel = fmt.Sprintf("%d more", b-53)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\n", st, b, rel)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.NotTuned) > 0 {
		var names []string
		for _, n := range r.NotTuned {
			names = append(names, n.Stage)
		}
		fmt.Fprintf(w, "(the plan names %s at the uniform width only because every plan names every stage)\n", strings.Join(names, ", "))
	}
	fmt.Fprintf(w, "\nchosen:  %s\n  cost %.4g (uniform %d bits: %.4g, %.0f%%); error 2^%.2f on the search's signatures; confirmation %s\n",
		backendOfPlan(r.Chosen.Plan), r.Chosen.Cost, r.Uniform.Widths[0], r.Uniform.Cost, 100*r.Chosen.Cost/r.Uniform.Cost, float64(r.Chosen.ErrorLog2), conf(r.Chosen))
	fmt.Fprintf(w, "below 53 bits: %s; above: %s\n\nPareto front (cost, error) of the plans that meet the target:\n", orNone(r.Below53), orNone(r.Above53))
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "cost\terror\tacceptance\tconfirmation\tplan")
	for _, e := range r.Pareto {
		acc := "-"
		if e.AcceptanceMaxLog2 != nil {
			acc = fmt.Sprintf("2^%.2f", *e.AcceptanceMaxLog2)
		}
		fmt.Fprintf(tw, "%.4g\t2^%.2f\t%s\t%s\t%s\n", e.Cost, float64(e.ErrorLog2), acc, conf(e), backendOfPlan(e.Plan))
	}
	return tw.Flush()
}

// backendOfPlan is a plan as the backend name --backend takes
// ("plan:..."), so that a printed plan can be pasted into compare.
func backendOfPlan(p string) string {
	if strings.HasPrefix(p, "plan:") {
		return p
	}
	return "plan:" + p
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
