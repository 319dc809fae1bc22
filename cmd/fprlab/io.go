package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fprlab/fprlab/arith"
)

// readInput reads a key, message or signature file. With asHex the file
// holds hex text (whitespace ignored); the error names the file and the
// problem.
func readInput(what, path string, asHex bool) ([]byte, error) {
	if path == "" {
		return nil, fmt.Errorf("missing --%s FILE", what)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	if !asHex {
		return data, nil
	}
	clean := strings.Join(strings.Fields(string(data)), "")
	out, err := hex.DecodeString(clean)
	if err != nil {
		return nil, fmt.Errorf("%s file %s is not valid hex: %v", what, path, err)
	}
	return out, nil
}

// writeOutput writes data to path atomically: to a temporary file in the same
// directory, then renamed over path, so an interrupted or failed run never
// leaves a half-written file. With asHex the file holds lowercase hex and a
// newline.
func writeOutput(path string, data []byte, asHex bool) error {
	return writeOutputs(asHex, outputFile{path: path, data: data})
}

// outputFile is one file of a writeOutputs call. A secret file (a private
// key) is readable by its owner only (mode 0600); others get 0644.
type outputFile struct {
	path   string
	data   []byte
	secret bool
}

// writeOutputs writes several files as one step: every file goes to a
// temporary file first, and only when all of them are written are they
// renamed into place, so a failure (a bad directory, a full disk) leaves
// none of them -- a key pair is never half written.
func writeOutputs(asHex bool, files ...outputFile) error {
	tmps := make([]string, 0, len(files))
	cleanup := func() {
		for _, t := range tmps {
			os.Remove(t)
		}
	}
	for _, f := range files {
		data := f.data
		if asHex {
			data = []byte(hex.EncodeToString(data) + "\n")
		}
		tmp, err := os.CreateTemp(filepath.Dir(f.path), "."+filepath.Base(f.path)+".tmp*")
		if err != nil {
			cleanup()
			return fmt.Errorf("writing %s: %w", f.path, err)
		}
		tmps = append(tmps, tmp.Name())
		mode := os.FileMode(0o644)
		if f.secret {
			mode = 0o600
		}
		merr := tmp.Chmod(mode)
		_, werr := tmp.Write(data)
		cerr := tmp.Close()
		if err := errors.Join(merr, werr, cerr); err != nil {
			cleanup()
			return fmt.Errorf("writing %s: %w", f.path, err)
		}
	}
	// A directory in the way is the common reason a rename fails; find it
	// before the first rename, so no file of the set replaces its old
	// version while another cannot be written.
	for _, f := range files {
		if fi, err := os.Stat(f.path); err == nil && fi.IsDir() {
			cleanup()
			return fmt.Errorf("writing %s: is a directory", f.path)
		}
	}
	for i, f := range files {
		if err := os.Rename(tmps[i], f.path); err != nil {
			// Files already renamed stay: their content is complete.
			tmps = tmps[i:]
			cleanup()
			return fmt.Errorf("writing %s: %w", f.path, err)
		}
	}
	return nil
}

// lookupBackend resolves a --backend value; the error lists the choices.
func lookupBackend(name string) (arith.Backend, error) {
	return arith.Lookup(name)
}

// samePath reports whether a and b name the same file: equal once made
// absolute and cleaned, or, for existing files, the same file through a
// link.
func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	ba, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == ba {
		return true
	}
	ai, err1 := os.Stat(a)
	bi, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}
