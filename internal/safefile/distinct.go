package safefile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Arg is a file named on a command line: the flag that named it (without
// dashes) and the path given.
type Arg struct {
	Flag, Path string
}

// Distinct returns an error naming both flags when an output names one of
// the inputs or another output: the same path, the same file through a
// link or another spelling, or "-" (standard output) twice. Empty paths
// (flags not given) are ignored, as is "-" among the inputs (standard
// input is not a file an output could replace).
func Distinct(inputs, outputs []Arg) error {
	for i, o := range outputs {
		if o.Path == "" {
			continue
		}
		for _, p := range outputs[:i] {
			if p.Path != "" && SameFile(o.Path, p.Path) {
				return fmt.Errorf("--%s %s and --%s %s name the same file: one output would replace the other", p.Flag, p.Path, o.Flag, o.Path)
			}
		}
		for _, in := range inputs {
			if in.Path != "" && in.Path != Stdio && o.Path != Stdio && SameFile(o.Path, in.Path) {
				return fmt.Errorf("--%s %s is the --%s file: the output would replace its own input", o.Flag, o.Path, in.Flag)
			}
		}
	}
	return nil
}

// SameFile reports whether a and b name the same file: both "-", equal
// once made absolute with their directories' links resolved, or, for
// existing files, the same file (a hard or symbolic link).
func SameFile(a, b string) bool {
	if a == Stdio || b == Stdio {
		return a == b
	}
	if canonical(a) == canonical(b) {
		return true
	}
	ai, err1 := os.Stat(a)
	bi, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}

// canonical is path made absolute, with the links of its directory (and
// of the file itself, when it exists) resolved.
func canonical(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}
