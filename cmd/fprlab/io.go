package main

import (
	"encoding/hex"
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
	if asHex {
		data = []byte(hex.EncodeToString(data) + "\n")
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	name := tmp.Name()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// lookupBackend resolves a --backend value; the error lists the choices.
func lookupBackend(name string) (arith.Backend, error) {
	return arith.Lookup(name)
}
