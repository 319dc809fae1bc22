// Package shard reads and writes the "I/N" that names shard I of a
// campaign split over N processes: the value of compare's, sweep's and
// diverge's --shard flag and of the "shard" their run.json records, which
// merge reads back. Which units a shard owns is each campaign's own rule
// (compare and sweep: unit i to shard i mod N; diverge: a contiguous
// range of the signatures).
package shard

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse reads "I/N" with 0 <= I < N; ok is false for anything else.
func Parse(v string) (i, n int, ok bool) {
	a, b, cut := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !cut || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, false
	}
	return i, n, true
}

// Name is "I/N" for shard i of n > 1, "" for a campaign run whole.
func Name(i, n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", i, n)
}
