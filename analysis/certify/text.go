package certify

import (
	"fmt"
	"io"
	"strings"

	"github.com/fprlab/fprlab/scheme"
)

// WriteText writes rs as fprlab certify prints them: the verdicts first,
// then each certificate.
func WriteText(w io.Writer, rs []Document) error {
	proven := 0
	for _, r := range rs {
		if r.Proven {
			proven++
		}
	}
	switch {
	case proven == len(rs):
		fmt.Fprintf(w, "proven for every message: delta_c + delta_sigma <= 2^-46 for all %d (backend, key) pairs\n", len(rs))
	default:
		fmt.Fprintf(w, "not proven for %d of %d (backend, key) pairs: their bound on delta_c + delta_sigma exceeds 2^-46 -- a bound above 2^-46 shows no failure, only that this analysis cannot exclude one\n", len(rs)-proven, len(rs))
	}
	for _, r := range rs {
		verdict := "not proven"
		if r.Proven {
			verdict = "proven"
		}
		fmt.Fprintf(w, "\n%s: %s, %s, %s: delta_c + delta_sigma <= 2^%.2f (target 2^-46)\n",
			verdict, r.Backend, scheme.TitleOf(r.Scheme, r.Params), r.Key.Name(), r.SumBoundLog2)
		ds := "0 (exact)"
		if r.DeltaSigmaLog2 != nil {
			ds = fmt.Sprintf("2^%.2f", *r.DeltaSigmaLog2)
		}
		sigma := "the reference's table"
		if r.ExactSigma == "formula" {
			sigma = "the formula"
		}
		fmt.Fprintf(w, "  delta_sigma, exact:     %s at leaf %d (exact 1/sigma: %s)\n", ds, r.DeltaSigmaLeaf, sigma)
		fmt.Fprintf(w, "  delta_c, certified:  <= 2^%.2f at sampler call %d (leaf %d, tree path %s from the root)\n",
			r.DeltaCBoundLog2, r.WorstCall.Call, r.WorstCall.Leaf, r.WorstCall.Path)
		var parts []string
		for _, st := range r.Stages {
			parts = append(parts, fmt.Sprintf("%s %.1f%%", st.Stage, 100*st.Share))
		}
		if r.Signatures > 0 {
			fmt.Fprintf(w, "  sampled delta_c:        %s, maximum over %s under the %s shadow%s\n",
				maxText(r.SampledDeltaCMax), plural(r.Signatures, "signature"), r.CheckShadow, gapText(r.GapBits))
		}
		if r.ChosenAttempts > 0 {
			samples := "samples drawn"
			if r.ChosenDeviation != nil {
				samples = fmt.Sprintf("samples %d to %d from their centres (z0 = %d)", *r.ChosenDeviation, *r.ChosenDeviation+1, *r.ChosenDeviation)
			}
			fmt.Fprintf(w, "  chosen hashed points:   %s, maximum over %s on %s chosen for the key's largest targets, %s, %s shadow%s\n",
				maxText(r.ChosenDeltaCMax), plural(r.ChosenAttempts, "attempt"), plural(min(r.ChosenAttempts, ChosenPoints), "hashed point"), samples, r.CheckShadow, gapText(r.ChosenGapBits))
		}
		fmt.Fprintf(w, "  where the bound comes from: %s\n", strings.Join(parts, ", "))
		fmt.Fprintf(w, "  error model: %s; exact side oracle:%d; %.2f s\n", r.ErrorModel, DefaultOracleBits, r.Seconds)
	}
	return nil
}

// WriteText writes the report as fprlab certify --pstar prints it: the
// worst certified P* of the keys of the parameter set named title (as
// "Falcon-512"), then each key's.
func (rep *PStarReport) WriteText(w io.Writer, title string) error {
	switch {
	case rep.Interrupted:
		fmt.Fprintf(w, "certified P*, %s: interrupted after %d of %d keys, printed below; the worst over the keys is not known\n", title, len(rep.PerKey), rep.Keys)
	case rep.Worst == nil:
		fmt.Fprintf(w, "certified P*, %s: no vprec:P up to P = %d is proven for every key\n", title, PStarHigh)
	default:
		fmt.Fprintf(w, "certified P*, %s: vprec:%d (round to nearest) is proven for %s -- the least P proven for each, worst over the keys; sweep's P* is a sample's\n", title, *rep.Worst, keysText(len(rep.PerKey), "the key", "all %d keys"))
	}
	for _, r := range rep.PerKey {
		if r.PStar == nil {
			fmt.Fprintf(w, "  %s: not proven at any P up to %d\n", r.Key.Name(), PStarHigh)
			continue
		}
		below := ""
		if r.BelowLog2 != nil {
			below = fmt.Sprintf("; at P = %d, 2^%.2f", *r.PStar-1, *r.BelowLog2)
		}
		if _, err := fmt.Fprintf(w, "  %s: P* = %d (delta_c + delta_sigma <= 2^%.2f%s)\n", r.Key.Name(), *r.PStar, *r.SumBoundLog2, below); err != nil {
			return err
		}
	}
	return nil
}

// maxText is a checked maximum: 2^x, or 0 when every centre was exact.
func maxText(log2 *float64) string {
	if log2 == nil {
		return "0 (exact)"
	}
	return fmt.Sprintf("2^%.2f", *log2)
}

// gapText is the bound's distance above a checked maximum.
func gapText(gap *float64) string {
	if gap == nil {
		return ""
	}
	return fmt.Sprintf(": the bound is %.2f bits above", *gap)
}

// plural is "1 attempt", "2 attempts".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// keysText names n keys: one when n is 1, else many (a format with %d).
func keysText(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf(many, n)
}
