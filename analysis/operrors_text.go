package analysis

import (
	"fmt"
	"io"
	"math"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/arith"
)

// WriteOpErrorText writes the per-operation errors of backend b as fprlab
// arith errors prints them: the table, the worst cases, the samples below
// and beyond the format's range, and note when not empty.
func WriteOpErrorText(w io.Writer, b arith.Backend, cfg OpErrorConfig, results []results.OpError, note string) error {
	emin, emax := cfg.MinExp, cfg.MaxExp
	fmt.Fprintf(w, "backend %s (%d bits), %d samples per operation, seed %d, exponents 2^%d..2^%d\n",
		b.Name, b.Bits, cfg.N, cfg.Seed, emin, emax)
	fmt.Fprintln(w, "errors relative to the 256-bit oracle, as log2 (expm_p63: relative to 2^63)")
	fmt.Fprintln(w)
	const row = "%-9s  %8s  %8s  %6s  %8s  %11s\n"
	fmt.Fprintf(w, row, "OP", "MAX", "MEDIAN", "BITS", "BOUND", "WORST/BOUND")
	for _, r := range results {
		bound, ratio := "-", "-"
		if q, ok := r.WorstOverBound(); ok {
			bound, ratio = fmt.Sprintf("%.2f", r.BoundLog2), fmt.Sprintf("%.3f", q)
			if q >= 1000 {
				ratio = fmt.Sprintf("%.3g", q)
			}
		}
		bits := "exact"
		switch {
		case r.MaxRelErrLog2 >= NonFiniteLog2:
			bits = "0"
		case !math.IsInf(r.MaxRelErrLog2, -1):
			bits = fmt.Sprintf("%.2f", r.Bits())
		}
		fmt.Fprintf(w, row, r.Op, log2Cell(r.MaxRelErrLog2), log2Cell(r.MedianRelErrLog2), bits, bound, ratio)
	}
	fmt.Fprintln(w)
	inexact, below := 0, 0
	for _, r := range results {
		if !math.IsInf(r.MaxRelErrLog2, -1) {
			inexact++
		}
		if r.BelowRange > 0 {
			below++
		}
	}
	if inexact == 0 {
		fmt.Fprintln(w, "worst cases: none, every sample was exact")
	} else {
		fmt.Fprintln(w, "worst cases (binary64 inputs):")
	}
	for _, r := range results {
		if math.IsInf(r.MaxRelErrLog2, -1) {
			continue
		}
		fmt.Fprintf(w, "  %-9s %s\n", r.Op, worstString(r))
	}
	if len(results) > 0 && results[0].HasRange {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "%s's proven bounds assume no underflow: samples with an operand or exact result below 2^%d\n",
			b.Name, results[0].RangeMinExp)
		if below == 0 {
			fmt.Fprintln(w, "are left out of the table above; none was drawn here.")
		} else {
			fmt.Fprintln(w, "are left out of the table above and summarised here (errors as log2):")
			const brow = "  %-9s  %13s  %8s  %8s\n"
			fmt.Fprintf(w, brow, "OP", "BELOW RANGE", "MAX REL", "MAX ABS")
			for _, r := range results {
				if r.BelowRange > 0 {
					fmt.Fprintf(w, brow, r.Op, fmt.Sprintf("%d/%d", r.BelowRange, r.Drawn),
						log2Cell(r.BelowRangeMaxRelErrLog2), log2Cell(r.BelowRangeMaxAbsErrLog2))
				}
			}
		}
	}
	printAboveRange(w, b, results)
	if note != "" {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "note:", note)
	}
	return nil
}

// printAboveRange lists the operations with samples that overflowed the
// backend's format, which the table leaves out.
func printAboveRange(w io.Writer, b arith.Backend, results []results.OpError) {
	first := true
	for _, r := range results {
		if r.AboveRange == 0 {
			continue
		}
		if first {
			fmt.Fprintln(w)
			fmt.Fprintf(w, "samples beyond %s's largest value (overflow of the format), left out of the table above:\n", b.Name)
			first = false
		}
		fmt.Fprintf(w, "  %-9s  %d/%d\n", r.Op, r.AboveRange, r.Drawn)
	}
}

func log2Cell(v float64) string {
	if math.IsInf(v, -1) {
		return "exact"
	}
	if v >= NonFiniteLog2 {
		return "NaN/Inf"
	}
	return fmt.Sprintf("%.2f", v)
}

func worstString(r results.OpError) string {
	x, y := r.Worst.X, r.Worst.Y
	switch r.Op {
	case "of":
		return fmt.Sprintf("i = %d", r.Worst.I)
	case "add", "sub", "mul", "div":
		return fmt.Sprintf("x = %v, y = %v", x, y)
	case "expm_p63":
		return fmt.Sprintf("x = %v, ccs = %v", x, y)
	}
	return fmt.Sprintf("x = %v", x)
}
