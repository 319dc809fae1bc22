package campaign

import (
	"fmt"
	"strings"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/shadow"
)

// AcceptBerExp names the reference's acceptance test, the default.
const AcceptBerExp = "berexp"

// AcceptanceModel is a sampler acceptance test a campaign can measure
// (compare --acceptance), with what it is.
type AcceptanceModel struct{ Name, Description string }

// AcceptanceModels lists the acceptance tests, for the flag's errors and
// 'fprlab backends'.
var AcceptanceModels = []AcceptanceModel{
	{AcceptBerExp, "the reference's BerExp: expm_p63 on the backend, compared byte by byte with random bytes (Falcon specification v1.2, Algorithm 14)"},
	{accel.TwoBernoulliName, "the pipelined SamplerZ's acceptance (Vojacek and Novotny, TCHES 2026/4): exp(-x) in binary64 without range reduction, then two 64-bit Bernoulli trials of exp(-x) and ccs; replaces BerExp in the measured signatures (two random words per attempt), decisions compared with the design's exact ones"},
}

// ParseAcceptance returns the acceptance test named name (nil for the
// reference's BerExp).
func ParseAcceptance(name string) (shadow.ExactAcceptance, error) {
	switch name {
	case AcceptBerExp, "":
		return nil, nil
	case accel.TwoBernoulliName:
		return accel.TwoBernoulli{}, nil
	}
	names := make([]string, len(AcceptanceModels))
	for i, m := range AcceptanceModels {
		names[i] = m.Name
	}
	return nil, fmt.Errorf("--acceptance %q: want one of %s", name, strings.Join(names, ", "))
}
