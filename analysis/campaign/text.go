package campaign

// The text forms of compare and sweep results (what fprlab compare, sweep
// and merge print).

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/scheme"
)

// WriteCompareText writes compare summaries as fprlab compare prints them:
// per backend, the campaign, the error statistics, the verdicts and the
// decisions, aligned.
func WriteCompareText(w io.Writer, sums []*shadow.Summary) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	for _, s := range sums {
		src := "seed " + strconv.Quote(derefS(s.Seed))
		if s.KATRecords != nil {
			src = "NIST KAT records " + *s.KATRecords
		}
		if s.Signatures == 0 {
			// An empty shard: no statistic, rather than "exact" and
			// "NOT met" for the absence of values.
			fmt.Fprintf(tw, "%s, %s (%s): no signature measured (this shard holds none of the campaign's units)\n\n", s.Backend, scheme.TitleOf(s.Scheme, s.Params), src)
			continue
		}
		fmt.Fprintf(tw, "%s, %s%s: %d signatures (%s), keys: %d from %s; %d sampler calls (%d leaves); shadow %s (%d bits), exact sigma: %s\n",
			s.Backend, scheme.TitleOf(s.Scheme, s.Params), modeNote(s.Mode), s.Signatures, src, s.Keys, keysFrom(s), s.SamplerCalls, s.Leaves, s.Shadow, s.OracleBits, s.ExactSigma)
		if note := WeakShadowNote(s.Backend, s.Shadow, s.OracleBits); note != "" {
			fmt.Fprint(tw, note)
		}
		fmt.Fprintln(tw, "\nstatistic\tquantity\tmin\t1%\t10%\tmedian\t90%\t99%\tmax")
		row := func(stat, name string, q shadow.Q) {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", stat, name, Log2Text(q.Min), Log2Text(q.Q01), Log2Text(q.Q10), Log2Text(q.Median), Log2Text(q.Q90), Log2Text(q.Q99), Log2Text(q.Max))
		}
		row("per call", "delta_c", s.PerLeaf.DeltaC)
		row("per call", "delta_sigma", s.PerLeaf.DeltaSigma)
		row("per call", "sum", s.PerLeaf.Sum)
		row("per tree leaf", "sum", s.PerTreeLeaf)
		row("per signature (max)", "delta_c", s.PerSignature.DeltaC)
		row("per signature (max)", "delta_sigma", s.PerSignature.DeltaSigma)
		row("per signature (max)", "sum", s.PerSignature.Sum)
		row("per call", "expm_p63 rel.", s.ExpmP63)
		row("per trial", "acceptance rel.", s.AcceptanceRel)
		verdict := "NOT met"
		if s.Meets != nil && *s.Meets {
			verdict = "met"
		}
		if k := s.Certified; k != nil {
			what := "proven for every message"
			if k.Proven < k.Keys {
				what = fmt.Sprintf("not proven for %d of them (a bound above 2^-46 shows no failure)", k.Keys-k.Proven)
			}
			keys := fmt.Sprintf("the %d keys", k.Keys)
			if k.Keys == 1 {
				keys = "the key"
			}
			fmt.Fprintf(tw, "\ncertified (fprlab certify, %s): delta_c + delta_sigma <= 2^%.2f for every message with %s, %s\n", k.ErrorModel, k.SumBoundLog2, keys, what)
		}
		r := s.Renyi
		fmt.Fprintf(tw, "\nspecification test delta_c + delta_sigma <= 2^-46 on every signature: %s (worst %s)\n", verdict, Log2Text(s.PerSignature.Sum.Max))
		fmt.Fprintf(tw, "Renyi (lambda = %d): d worst case %s, average case %s; max queries 2^%s (average case 2^%s); bits lost at 2^64 queries: %s (average case %s)\n",
			r.Lambda, Log2Text(r.DWorstLog2), Log2Text(r.DAverageLog2), num(r.MaxQueriesLog2), num(r.MaxQueriesLog2Avg), bitsLost(r.BitsLostAt2_64), bitsLost(r.BitsLostAt2_64Avg))
		fmt.Fprintf(tw, "attempts: %d, failed %d\n", s.Attempts.Total, s.Attempts.Failed)
		if s.Acceptance != "" {
			fmt.Fprintf(tw, "\nsampler acceptance: %s (replaces BerExp; its trials are the \"acceptance\" decisions below)\n", s.Acceptance)
		}
		fmt.Fprintf(tw, "\ndecision\tdecisions\tflips\tsmallest margin\n")
		for _, k := range []string{"floor", "trunc", "berexp", "berexp_more_bytes", "berexp_fewer_bytes", "acceptance", "rint"} {
			if n, ok := s.Flips.Decisions[k]; ok {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%s\n", k, n, s.Flips.ByKind[k], Log2Text(s.Flips.MinMarginLog2[k]))
			}
		}
		fmt.Fprintf(tw, "signatures with a flip: %d of %d\n", s.Flips.SignaturesWithFlips, s.Signatures)
		for k, n := range s.Flips.Unresolved {
			fmt.Fprintf(tw, "  %d %s decisions differ within the shadow's resolution (unresolved; not counted as flips: rerun with --shadow oracle)\n", n, k)
		}
		for _, f := range s.Flips.First {
			fmt.Fprintf(tw, "  %s: %s %d vs exact %d (margin %s)\n", f.Where, f.Kind, f.B, f.X, Log2Text(f.Gap))
		}
		if s.Keygen != nil {
			fmt.Fprintf(tw, "keygen (%d keys, shadowed): Gram-Schmidt norm error %s; flips %d (rint %d, lt %d)\n", s.Keygen.Keys, Log2Text(s.Keygen.GSNormMaxRel),
				s.Keygen.Flips.Total, s.Keygen.Flips.ByKind["rint"], s.Keygen.Flips.ByKind["lt"])
			for _, f := range s.Keygen.Flips.First {
				fmt.Fprintf(tw, "  %s: %s %d vs exact %d\n", f.Where, f.Kind, f.B, f.X)
			}
		}
		fmt.Fprintf(tw, "\nwhere error is born (normwise relative error of each stage's values)\nstage\tlevel\tvalues\tmedian\t99%%\tmax\n")
		for _, st := range s.Stages {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\n", st.Stage, st.Level, st.Values, Log2Text(st.MedianRelLog2), Log2Text(st.Q99RelLog2), Log2Text(st.MaxRelLog2))
		}
		fmt.Fprintf(tw, "\nshadowed time: %.3f s per signature (sum over workers %.1f s)\n\n", s.Seconds/float64(max(s.Signatures, 1)), s.Seconds)
	}
	return tw.Flush()
}

// bitsLost formats a security loss in bits ("-" when nothing was
// measured).
func bitsLost(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.2f", *v)
}

// Log2Text formats a log2 value ("exact" for an exact zero / no value).
func Log2Text(p *float64) string {
	if p == nil {
		return "exact"
	}
	if math.IsInf(*p, 0) {
		return "inf"
	}
	return fmt.Sprintf("2^%.2f", *p)
}

func num(p *float64) string {
	if p == nil {
		return "inf"
	}
	return fmt.Sprintf("%.1f", *p)
}

func derefS(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// keysFrom is where a summary's keys come from, for compare's text
// output: the backend of round 3's key generation, or the scheme's own.
func keysFrom(s *shadow.Summary) string {
	switch s.KeySource {
	case "":
		return s.KeygenBackend
	case string(shadow.KeysFalcon):
		return "round-3 key generation over " + s.KeygenBackend
	}
	return scheme.DescriptionOf(s.KeySource) + " key generation (integer, the scheme's own; seeds derived from the seed)"
}

// modeNote names a summary's signing procedure when it is not the
// default, falcon_sign_dyn.
func modeNote(mode string) string {
	if mode == "" {
		return ""
	}
	return " (--mode " + mode + ")"
}

// WriteSweepText writes a sweep's points as fprlab sweep prints them (the
// first refs are reference backends), then P* per curve and criterion.
func WriteSweepText(w io.Writer, points []shadow.Point, refs int) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	if len(points) > 0 {
		p := points[0]
		fmt.Fprintf(tw, "%s precision sweep: %d signatures per format, shadow %s, exact sigma %s\n\n", scheme.KeysTitle(p.Scheme, p.Params, p.KeySource), p.Signatures, p.Shadow, p.ExactSigma)
	}
	var notes []string
	fmt.Fprintln(tw, "format\tbits\tworst sum/sig\tmedian sum/call\tflips\tbits lost @2^64\tmax queries\tfailed attempts\tKAT\tseconds")
	for i, p := range points {
		name := p.Format
		if i < refs {
			name += " (reference)"
		}
		kat := "-"
		if p.KAT != nil {
			kat = fmt.Sprintf("%d/%d", p.KAT.Passed, p.KAT.Records)
			if p.KAT.KeygenFailed > 0 {
				kat += fmt.Sprintf(" (%d keygen failed)", p.KAT.KeygenFailed)
			}
		}
		if note := WeakShadowNote(p.Format, p.Shadow, p.OracleBits); note != "" {
			name += " (weak shadow)"
			notes = append(notes, note)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%s\t2^%s\t%.4f\t%s\t%.1f\n", name, p.Bits, Log2Text(p.PerSignature.Sum.Max), Log2Text(p.PerLeaf.Sum.Median),
			p.Flips.Total, bitsLost(p.Renyi.BitsLostAt2_64), num(p.Renyi.MaxQueriesLog2), p.Attempts.FailedFraction(), kat, p.Seconds)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprint(w, n)
	}
	pstars, err := PStars(points, refs)
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, ps := range pstars {
		curve := ps.Curve.String()
		if sc := sweepScheme(points); !scheme.IsDefault(sc) {
			// results.Curve's legend names round 3's degrees ("Falcon-512
			// rn"); a sweep has one scheme.
			n := ps.Curve.Params
			curve = sc.Title(uint(bits.Len(uint(n))-1)) + strings.TrimPrefix(curve, fmt.Sprintf("Falcon-%d", n))
		}
		fmt.Fprintf(w, "P* (%s, %s): %s (%d signatures per format)\n", curve, ps.Criterion.Describe(), ps, ps.Signatures)
	}
	return nil
}

// sweepScheme is the scheme a sweep's points were signed with (nil for
// round 3, or no point at all).
func sweepScheme(points []shadow.Point) scheme.Scheme {
	if len(points) == 0 {
		return nil
	}
	sc, err := scheme.Lookup(points[0].Scheme)
	if err != nil {
		return nil
	}
	return sc
}
