package campaign

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// TestSweepFormats: --format lists with a range, --bits ranges with their
// step, exponent width (11 by default for rz and sr) and rounding; and the
// refusals: neither or both, a decreasing or empty range, a zero step, a
// width beyond what a format can hold, more than MaxFormats names.
func TestSweepFormats(t *testing.T) {
	for _, tc := range []struct {
		format, bits string
		exp          int
		rounding     string
		want         string
	}{
		{"vprec:{24..26}", "", 0, "", "vprec:24 vprec:25 vprec:26"},
		{"vprec:{30..31}:e11:rz, native", "", 0, "", "vprec:30:e11:rz vprec:31:e11:rz native"},
		{"", "24:30:3", 0, "rn", "vprec:24 vprec:27 vprec:30"},
		{"", "40:41", 0, "rz", "vprec:40:e11:rz vprec:41:e11:rz"},
		{"", "40:40", 8, "rn", "vprec:40:e8"},
	} {
		got, err := SweepFormats(tc.format, tc.bits, tc.exp, tc.rounding)
		if err != nil || strings.Join(got, " ") != tc.want {
			t.Errorf("%+v: %v, %v; want %s", tc, got, err, tc.want)
		}
	}
	for _, bad := range [][2]string{{"", ""}, {"a", "1:2"}, {"", "30:20"}, {"", "1:2:0"}, {"", "x"}, {"vprec:{9..1}", ""}, {"", "1:5000"},
		{"", "1:9223372036854775807"}, {"", "-9223372036854775808:9223372036854775807"}, {"", "0:3"}, {"vprec:{1..600},vprec:{1..600}", ""}} {
		if got, err := SweepFormats(bad[0], bad[1], 0, "rn"); err == nil {
			t.Errorf("--format %q --bits %q accepted: %v", bad[0], bad[1], got)
		}
	}
}

// TestSplitBackends: a plan's entries after a ',' stay with the plan; a
// vprec name with '=' (stochastic rounding's seed) is a backend of its own.
func TestSplitBackends(t *testing.T) {
	got := SplitBackends("native, plan:fft=vprec:60,ldl=vprec:64,all=vprec:53,triword,plan:all=vprec:40,vprec:40:e11:sr=3")
	want := []string{"native", "plan:fft=vprec:60,ldl=vprec:64,all=vprec:53", "triword", "plan:all=vprec:40", "vprec:40:e11:sr=3"}
	if !slices.Equal(got, want) {
		t.Errorf("SplitBackends = %q, want %q", got, want)
	}
}

// TestLookupBackends: names resolved in order; a backend named twice
// (under two spellings too) refused with the caller's message; a missing
// plugin library followed by more items gets the hint about ',' in paths,
// the last item does not.
func TestLookupBackends(t *testing.T) {
	lookup := func(name string) (arith.Backend, error) {
		switch name {
		case "a", "alias-of-a":
			return arith.Backend{Name: "a"}, nil
		case "b":
			return arith.Backend{Name: "b"}, nil
		}
		return arith.Backend{}, fmt.Errorf("open %s: %w", name, fs.ErrNotExist)
	}
	bs, err := LookupBackends([]string{"b", "a"}, lookup, "%s twice")
	if err != nil || len(bs) != 2 || bs[0].Name != "b" || bs[1].Name != "a" {
		t.Errorf("b, a: %v, %v", bs, err)
	}
	if _, err := LookupBackends([]string{"a", "b", "alias-of-a"}, lookup, "--backend names %s twice"); err == nil || err.Error() != "--backend names a twice" {
		t.Errorf("a twice: %v", err)
	}
	_, err = LookupBackends([]string{"so:./x", "y.so", "a"}, lookup, "%s")
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "plan:all=so:PATH, with the ',' written %2C") {
		t.Errorf("a plugin path cut at ',': %v", err)
	}
	if _, err = LookupBackends([]string{"a", "so:./x"}, lookup, "%s"); err == nil || strings.Contains(err.Error(), "%2C") {
		t.Errorf("a missing plugin last: %v", err)
	}
	// "a,,b" and "a,": an empty entry is named as such.
	for _, names := range [][]string{SplitBackends("a,,b"), SplitBackends("a,")} {
		if _, err := LookupBackends(names, lookup, "%s"); err == nil || !strings.Contains(err.Error(), "is empty (two commas, or one at an end)") {
			t.Errorf("%q: %v", names, err)
		}
	}
}
