package campaign

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The formats of a sweep, by name: a list given with ranges (ExpandFormats)
// or vprec formats of a range of significand widths (VprecFormats).

// MaxFormats is the most formats one sweep measures.
const MaxFormats = 1000

// braceRange matches one {A..B} range in a format.
var braceRange = regexp.MustCompile(`\{(\d+)\.\.(\d+)\}`)

// ExpandFormats expands a comma-separated list of backend names, each
// with at most one {A..B} range ("vprec:{24..26}" is vprec:24, vprec:25
// and vprec:26).
func ExpandFormats(list string) ([]string, error) {
	var names []string
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		m := braceRange.FindStringSubmatchIndex(f)
		if m == nil {
			names = append(names, f)
			continue
		}
		a, _ := strconv.Atoi(f[m[2]:m[3]])
		b, _ := strconv.Atoi(f[m[4]:m[5]])
		if a > b || b-a > MaxFormats {
			return nil, fmt.Errorf("--format %q: range {%d..%d} must increase and hold at most %d values", f, a, b, MaxFormats)
		}
		for p := a; p <= b; p++ {
			names = append(names, f[:m[0]]+strconv.Itoa(p)+f[m[1]:])
		}
	}
	return names, nil
}

// VprecFormats names the vprec formats of significand widths bits
// ("FROM:TO" or "FROM:TO:STEP"), exponent width exp (0: unbounded) and
// rounding rounding (VprecSuffix). A range of more than MaxFormats
// formats is refused before any name is made.
func VprecFormats(bits string, exp int, rounding string) ([]string, error) {
	parts := strings.Split(bits, ":")
	var v [3]int
	v[2] = 1
	ok := len(parts) == 2 || len(parts) == 3
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		ok = ok && err == nil && i < 3
		if ok {
			v[i] = n
		}
	}
	if !ok || v[0] < 1 || v[0] > v[1] || v[2] < 1 {
		return nil, fmt.Errorf("--bits %q: want FROM:TO or FROM:TO:STEP with 1 <= FROM <= TO and STEP >= 1", bits)
	}
	if (v[1]-v[0])/v[2] >= MaxFormats {
		return nil, fmt.Errorf("%d formats: at most %d in one sweep", (v[1]-v[0])/v[2]+1, MaxFormats)
	}
	suffix := VprecSuffix(exp, rounding)
	var names []string
	for p := v[0]; p <= v[1]; p += v[2] {
		names = append(names, "vprec:"+strconv.Itoa(p)+suffix)
	}
	return names, nil
}

// VprecSuffix is the part of a vprec format's name after "vprec:P" for
// exponent width exp and rounding rn, rz or sr=SEED: rz and sr need an
// exponent width, 11 unless given.
func VprecSuffix(exp int, rounding string) string {
	if rounding != "rn" && exp == 0 {
		exp = 11
	}
	suffix := ""
	if exp != 0 {
		suffix = ":e" + strconv.Itoa(exp)
	}
	if rounding != "rn" {
		suffix += ":" + rounding
	}
	return suffix
}

// FormatRounding reads the rounding from a vprec name: "rn" unless it
// ends in ":rz" or ":sr=SEED".
func FormatRounding(name string) (rounding string) {
	rounding = "rn"
	f := strings.Split(name, ":")
	for _, s := range f[min(2, len(f)):] {
		if s == "rz" || strings.HasPrefix(s, "sr") {
			rounding = s
		}
	}
	return rounding
}

// SweepFormats expands a sweep's --format list (ExpandFormats) or its
// --bits range with exponent width exp and rounding (VprecFormats) into
// backend names, at most MaxFormats of them; one of the two is required.
func SweepFormats(format, bits string, exp int, rounding string) (names []string, err error) {
	switch {
	case format != "" && bits != "":
		return nil, errors.New("--format and --bits exclude each other")
	case format != "":
		names, err = ExpandFormats(format)
	case bits != "":
		names, err = VprecFormats(bits, exp, rounding)
	default:
		return nil, errors.New("missing --format or --bits (for instance --bits 24:80)")
	}
	if err == nil && len(names) > MaxFormats {
		err = fmt.Errorf("%d formats: at most %d in one sweep", len(names), MaxFormats)
	}
	return names, err
}
