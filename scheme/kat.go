package scheme

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/fprlab/fprlab/arith"
)

// KATOutcome is what replaying one record of a scheme's known-answer test
// gave: whether the generated keys, the record's pin (a digest of keys and
// signature) and the signature's verification came out as published.
type KATOutcome struct {
	KeysMatch, PinMatch, Verified bool
}

// ReplayKATRecords is the loop a KATReplayer's ReplayKAT runs: it replays
// the first n records over b with replay, record giving record i's degree
// and index within its degree, counts the matches, names the first record
// that differs ("keys" when its keys do, else "signature"), and writes a
// line to progress after each degree. A record b cannot sign (replay's
// error) stops the run there: it is reported in the result (Error), not
// returned, so the records before it still count.
func ReplayKATRecords(ctx context.Context, name string, b arith.Backend, n int, record func(i int) (logn uint, j int), replay func(i int) (KATOutcome, error), progress io.Writer) (KATResult, error) {
	res := KATResult{Scheme: name, Backend: b.Name, Records: n, Degrees: []int{}}
	for i := range n {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		logn, j := record(i)
		got, err := replay(i)
		if err != nil {
			res.Error = fmt.Sprintf("record %d (degree %d, j %d): %v", i, 1<<logn, j, err)
			if res.FirstMismatch == nil {
				res.FirstMismatch = &KATMismatch{Record: i, LogN: logn, J: j, Field: "signature"}
			}
			fmt.Fprintf(progress, "kat: %s over %s: stopped at record %d: %v\n", name, b.Name, i, err)
			res.Records = i
			break
		}
		if d := 1 << logn; !slices.Contains(res.Degrees, d) {
			res.Degrees = append(res.Degrees, d)
		}
		if got.KeysMatch {
			res.MatchKeys++
		}
		if got.PinMatch {
			res.MatchPins++
		}
		if got.Verified {
			res.Verified++
		}
		if next, _ := record(min(i+1, n-1)); i+1 == n || next != logn {
			fmt.Fprintf(progress, "kat: %s over %s: degree %d done, %d/%d records\n", name, b.Name, 1<<logn, i+1, n)
		}
		if !got.PinMatch && res.FirstMismatch == nil {
			field := "signature"
			if !got.KeysMatch {
				field = "keys"
			}
			res.FirstMismatch = &KATMismatch{Record: i, LogN: logn, J: j, Field: field}
		}
	}
	return res, nil
}

// KATVerdict reads a known-answer test's results: the backends that could
// not regenerate every record (KATResult.Error), and whether another
// backend's records differ from the published ones.
func KATVerdict(results []KATResult) (stopped []string, differ bool) {
	for _, r := range results {
		if r.Error != "" {
			stopped = append(stopped, r.Backend)
		} else if r.FirstMismatch != nil {
			differ = true
		}
	}
	return stopped, differ
}
