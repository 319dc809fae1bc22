package accel

import (
	"context"
	"fmt"
	"io"
)

// Counter is the capability (in the sense of package scheme's optional
// interfaces) of a signature scheme other than round 3 whose signing and
// verification accel counts counts and whose verify path accel cycles
// prices. Round 3's counts are the NIST KAT flow's (CountKATRecord,
// CountKATPhases) and need no Counter; a scheme with neither is refused
// by those commands. Implementations: scheme/fndsa2025.
type Counter interface {
	// KATSource names the implementation whose known-answer test the
	// scheme's own records are, as "go-fn-dsa".
	KATSource() string
	// KATRecordsPerDegree is the number of those records of each degree
	// (j = 0 to KATRecordsPerDegree()-1).
	KATRecordsPerDegree() int
	// CountKAT counts record j of the scheme's own test at degree
	// 2^logn, signed with the scheme's own keys; a count whose keys or
	// signature are not the record's is refused (its numbers would
	// describe another computation).
	CountKAT(logn uint, j int) (*FNDSACounts, error)
	// CountRound3Keys counts the scheme's signature made with the keys,
	// seed and message of round-3 NIST KAT record r (the record's flow
	// checked against the published file), beside that flow's counts.
	CountRound3Keys(logn uint, r int) (*FNDSACounts, error)
	// VerifyOps is the verify-path operations of one verification at
	// degree 2^logn with keccak permutations (ModelVerifyPathOps).
	VerifyOps(logn uint, keccak uint64) [5]uint64
	// CountsNotes are the notes of accel counts: of the scheme's own
	// keys, or with round3Keys of a NIST record's keys.
	CountsNotes(round3Keys bool) []string
	// CyclesNotes are the notes of accel cycles' verify path.
	CyclesNotes() []string
}

// SchemeVerifyPath is the --json output of accel cycles for a scheme with
// a Counter: its verify path priced over records.
type SchemeVerifyPath struct {
	Scheme string `json:"scheme"`
	Params int    `json:"params"`
	// KeySource is the scheme's name (Records are its own KAT's records
	// j, with its own keys) or "falcon" (NIST KAT records, round-3 keys).
	KeySource  string            `json:"key_source"`
	Platform   string            `json:"platform"`
	Records    []int             `json:"records"`
	VerifyPath *VerifyPathReport `json:"verify_path"`
	Notes      []string          `json:"notes"`
}

// ModelCounterVerifyPath counts the verifications of the first n records
// of c at degree 2^logn -- of its own KAT with its own keys (ownKeys), or
// made with the keys of the NIST KAT records -- and prices them with
// table t's verify path. It stops with ctx's error between records.
func ModelCounterVerifyPath(ctx context.Context, c Counter, t *CostTable, logn uint, ownKeys bool, n int) (*VerifyPathReport, []int, error) {
	var recs []int
	var keccak []uint64
	for r := range n {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		var k *FNDSACounts
		var err error
		if ownKeys {
			k, err = c.CountKAT(logn, r)
		} else {
			k, err = c.CountRound3Keys(logn, r)
		}
		if err != nil {
			return nil, nil, err
		}
		recs = append(recs, r)
		keccak = append(keccak, k.VerifyInt.KeccakF1600)
	}
	v, err := ModelVerifyPathOps(t.VerifyPath, 1<<logn, recs, keccak, c.VerifyOps)
	return v, recs, err
}

// WriteText writes d as accel cycles prints it, title naming the scheme's
// parameter set ("FN-DSA-512"), description the scheme ("FN-DSA") and
// katSource the implementation whose KAT its own records are.
func (d *SchemeVerifyPath) WriteText(w io.Writer, t *CostTable, title, description, katSource string, ownKeys bool) {
	recs := d.Records
	over := fmt.Sprintf("the %s signatures made with the keys of NIST KAT records %d to %d (%d records, round-3 keys)", description, recs[0], recs[len(recs)-1], len(recs))
	if ownKeys {
		over = fmt.Sprintf("the signatures of %s's KAT records %d to %d of the degree (%d records, their %s keys)", katSource, recs[0], recs[len(recs)-1], len(recs), description)
	}
	fmt.Fprintf(w, "%s verify path, cost table %q (bottom up: the key's digest and hash-to-point on the Keccak unit, the\nNTT-based product on the NTT unit, the norm check and the rest per coefficient), mean per verification over\n%s:\n\n", title, d.Platform, over)
	d.VerifyPath.WriteText(w)
	t.WriteVerifySources(w)
	for _, n := range d.Notes {
		fmt.Fprintln(w, "*", n)
	}
}
