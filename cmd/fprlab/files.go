package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/fprlab/fprlab/internal/safefile"
)

// writeFileAtomic writes a campaign file (safefile's atomic write),
// creating its directory.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return safefile.WriteFiles(io.Discard, safefile.File{Path: path, Data: data})
}
