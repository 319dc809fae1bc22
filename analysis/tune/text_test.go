package tune_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/tune"
)

// TestWriteTextPlanPrefix: the chosen plan and the Pareto front print as
// --backend takes them (plan:...), ready to paste into compare.
func TestWriteTextPlanPrefix(t *testing.T) {
	e := &tune.Evaluation{Plan: "all=vprec:40", Cost: 0.5}
	e.Widths[0] = 40
	u := &tune.Evaluation{Plan: "all=vprec:53", Cost: 1}
	u.Widths[0] = 53
	var b bytes.Buffer
	if err := (&tune.Result{Params: 512, Uniform: u, Chosen: e, Pareto: []*tune.Evaluation{e}}).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Count(b.String(), "plan:all=vprec:40") != 2 {
		t.Errorf("want the plan twice as plan:all=vprec:40:\n%s", b.String())
	}
}
