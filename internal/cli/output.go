package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/fprlab/fprlab/internal/safefile"
)

// PrintJSON writes v as indented JSON: the one form of every command's
// --json output.
func PrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// CheckPlotPrefix checks a --plot PREFIX, of which PREFIX.png and
// PREFIX.svg are written: a prefix that names an existing device,
// directory or other non-regular file (--plot /dev/full would create
// /dev/full.png beside the device) or that already ends in .png or .svg
// (x.png.png) is a mistake, and "-" has no place for two files.
func CheckPlotPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	if prefix == safefile.Stdio {
		return errors.New("--plot -: --plot takes a file name prefix (PREFIX.png and PREFIX.svg are written), not standard output")
	}
	if ext := strings.ToLower(filepath.Ext(prefix)); ext == ".png" || ext == ".svg" {
		return fmt.Errorf("--plot %s: give the prefix without the extension (%s.png and %s.svg are written)", prefix, prefix, prefix)
	}
	if st, err := os.Stat(prefix); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("--plot %s: names an existing %s; --plot takes a file name prefix (PREFIX.png and PREFIX.svg are written)", prefix, fileKind(st.Mode()))
	}
	return nil
}

// fileKind names the kind of a file mode for messages.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&os.ModeCharDevice != 0, m&os.ModeDevice != 0:
		return "device"
	case m&os.ModeNamedPipe != 0:
		return "pipe"
	}
	return "special file"
}
