package kat

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteText writes the runs as fprlab kat prints them: the reference, one
// row per backend, then where each differing backend first diverges from
// emu64.
func WriteText(w io.Writer, logn uint, ref *Reference, runs []*Run) error {
	fmt.Fprintf(w, "Falcon-%d NIST KAT, reference: %s\n", 1<<logn, ref.Name)
	fmt.Fprintf(w, "reference SHA-256 (%d records): %s\n", len(ref.Records), ref.SHA256)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BACKEND\tRECORDS\tPK\tSK\tSM\tSHA-256 OF GENERATED FILE\tFIRST MISMATCH")
	for _, r := range runs {
		res := r.Result
		mm := "-"
		if m := res.FirstMismatch; m != nil {
			mm = fmt.Sprintf("record %d, %s, byte %d", m.Record, m.Field, m.Offset)
		}
		if res.Error != "" {
			mm = "error: " + res.Error
		}
		name := res.Backend
		if res.KeygenBackend != res.Backend {
			name += " (keys: " + res.KeygenBackend + ")"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\n", name, res.Records, res.MatchPK, res.MatchSK, res.MatchSM, res.SHA256, mm)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range runs {
		if d := r.Result.FirstDivergence; d != nil {
			fmt.Fprintf(w, "%s first diverges from emu64 at %s\n", r.Result.Backend, d)
		}
	}
	return nil
}
