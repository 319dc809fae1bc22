package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
)

func init() { subcommands = append(subcommands, newKatCmd) }

// katJSON is the --json output for one backend. Scripts depend on it: the
// field names and meanings are stable.
type katJSON struct {
	Backend       string           `json:"backend"`
	Params        int              `json:"params"`
	Records       int              `json:"records"`
	MatchPK       int              `json:"match_pk"`
	MatchSK       int              `json:"match_sk"`
	MatchSM       int              `json:"match_sm"`
	SHA256        string           `json:"sha256"`
	FirstMismatch *katMismatchJSON `json:"first_mismatch"`
	// Error is present only when the backend could not produce a record
	// (for instance a backend whose exponent range is too small for key
	// generation). The run stops there: first_mismatch names that
	// record's pk at offset 0, and sha256 covers the records before it.
	Error string `json:"error,omitempty"`
}

// katMismatchJSON locates the first difference from the reference.
type katMismatchJSON struct {
	Record int    `json:"record"`
	Field  string `json:"field"`
	Offset int    `json:"offset"`
}

// katRun is the outcome of regenerating the KAT over one backend.
type katRun struct {
	result katJSON
	rsp    []byte // the generated response file
}

func (r *katRun) allMatch() bool { return r.result.FirstMismatch == nil }

func newKatCmd() *cobra.Command {
	var (
		params, backend, outPath, refPath string
		records                           int
		asJSON                            bool
	)
	cmd := &cobra.Command{
		Use:   "kat --params 512|1024",
		Short: "Regenerate the NIST KAT response file over a backend and compare it with the published one",
		Long: `kat replays the round-3 NIST known-answer test: the AES-256 CTR_DRBG seeded with
the bytes 0..47 gives each record's seed and message; each record re-seeds the
DRBG and runs crypto_sign_keypair and crypto_sign (nist.c) with every
floating-point operation done by --backend. It prints the SHA-256 of the
generated .rsp text, how many records match the reference in pk, sk and sm,
and the first mismatch (record, field, byte offset). The reference is the
published file (embedded) unless --ref FILE is given. With --backend all,
every registered backend (not the parameterised families) is run.

Exit status: 0 if every generated record equals the reference, 1 if any
differs, 2 on errors. Progress goes to stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			logn, err := degreeLogn(params)
			if err != nil {
				return err
			}
			if _, err := falcon.KATName(logn); err != nil {
				return fmt.Errorf("--params %s: the NIST KAT exists for 512 and 1024 only", params)
			}
			var backends []arith.Backend
			if backend == "all" {
				backends = arith.List()
				if outPath != "" {
					return errors.New("--out needs a single --backend, not all")
				}
			} else {
				b, err := lookupBackend(backend)
				if err != nil {
					return err
				}
				backends = []arith.Backend{b}
			}

			var refData []byte
			refName := ""
			if refPath != "" {
				refData, err = readInput("ref", refPath, false)
				refName = refPath
			} else {
				refData, err = katref.Response(logn)
				f, _ := katref.Lookup(logn)
				refName = "published " + f.Name + " (embedded)"
			}
			if err != nil {
				return err
			}
			_, ref, err := falcon.ParseKAT(refData)
			if err != nil {
				return fmt.Errorf("reference %s: %w", refName, err)
			}
			if records < 1 || records > len(ref) {
				return fmt.Errorf("--records %d: want 1..%d (the reference has %d records)", records, len(ref), len(ref))
			}

			var runs []*katRun
			for _, b := range backends {
				r, err := runKAT(b, logn, records, ref, cmd.ErrOrStderr())
				if err != nil {
					return err
				}
				if r.result.Error != "" && backend != "all" {
					return fmt.Errorf("backend %s: %s", b.Name, r.result.Error)
				}
				runs = append(runs, r)
			}
			if outPath != "" {
				if err := writeOutput(outPath, runs[0].rsp, false); err != nil {
					return err
				}
			}

			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if backend == "all" {
					rs := make([]katJSON, len(runs))
					for i, r := range runs {
						rs[i] = r.result
					}
					err = enc.Encode(rs)
				} else {
					err = enc.Encode(runs[0].result)
				}
				if err != nil {
					return err
				}
			} else if err := printKAT(out, logn, refName, runs); err != nil {
				return err
			}
			for _, r := range runs {
				if !r.allMatch() {
					return &exitError{code: exitFalse, err: errors.New("generated records differ from the reference")}
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&params, "params", "", "degree: 512 or 1024")
	f.StringVar(&backend, "backend", defaultKeygenBackend, "arithmetic backend, or all (see 'fprlab backends')")
	f.IntVar(&records, "records", 100, "number of records to regenerate, from the first")
	f.StringVar(&outPath, "out", "", "write the generated .rsp to FILE")
	f.StringVar(&refPath, "ref", "", "compare with this .rsp file instead of the published one")
	f.BoolVar(&asJSON, "json", false, "print {backend, params, records, match_pk, match_sk, match_sm, sha256, first_mismatch} (an array with --backend all)")
	return cmd
}

// runKAT regenerates the first n records over backend b and compares them
// with ref. A record the backend cannot produce ends the run and is
// reported in the result's Error.
func runKAT(b arith.Backend, logn uint, n int, ref []falcon.KATRecord, progress io.Writer) (*katRun, error) {
	recs := falcon.KATRequests(n)
	res := katJSON{Backend: b.Name, Params: 1 << logn, Records: n}
	for i := range recs {
		if err := falcon.GenerateKATRecord(b, logn, &recs[i]); err != nil {
			res.Error = fmt.Sprintf("record %d: %v", i, err)
			if res.FirstMismatch == nil {
				res.FirstMismatch = &katMismatchJSON{Record: ref[i].Count, Field: "pk", Offset: 0}
			}
			fmt.Fprintf(progress, "kat: %s Falcon-%d: stopped at record %d: %v\n", b.Name, 1<<logn, i, err)
			recs = recs[:i]
			break
		}
		got, want := &recs[i], &ref[i]
		if bytes.Equal(got.PK, want.PK) {
			res.MatchPK++
		}
		if bytes.Equal(got.SK, want.SK) {
			res.MatchSK++
		}
		if bytes.Equal(got.SM, want.SM) {
			res.MatchSM++
		}
		if m := falcon.CompareKATRecord(got, want); m != nil && res.FirstMismatch == nil {
			res.FirstMismatch = &katMismatchJSON{Record: m.Record, Field: m.Field, Offset: m.Offset}
		}
		if (i+1)%10 == 0 || i+1 == n {
			fmt.Fprintf(progress, "kat: %s Falcon-%d: %d/%d records\n", b.Name, 1<<logn, i+1, n)
		}
	}
	var buf bytes.Buffer
	if err := falcon.WriteKAT(&buf, logn, recs); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(buf.Bytes())
	res.SHA256 = hex.EncodeToString(sum[:])
	return &katRun{result: res, rsp: buf.Bytes()}, nil
}

// printKAT prints the human-readable summary: one row per backend.
func printKAT(w io.Writer, logn uint, refName string, runs []*katRun) error {
	fmt.Fprintf(w, "Falcon-%d NIST KAT, reference: %s\n", 1<<logn, refName)
	if f, err := katref.Lookup(logn); err == nil {
		fmt.Fprintf(w, "published SHA-256 (%d records): %s\n", f.Records, f.SHA256)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BACKEND\tRECORDS\tPK\tSK\tSM\tSHA-256 OF GENERATED FILE\tFIRST MISMATCH")
	for _, r := range runs {
		res := r.result
		mm := "-"
		if m := res.FirstMismatch; m != nil {
			mm = fmt.Sprintf("record %d, %s, byte %d", m.Record, m.Field, m.Offset)
		}
		if res.Error != "" {
			mm = "error: " + res.Error
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\n", res.Backend, res.Records, res.MatchPK, res.MatchSK, res.MatchSM, res.SHA256, mm)
	}
	return tw.Flush()
}
