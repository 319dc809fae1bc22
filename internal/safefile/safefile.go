// Package safefile reads and writes the files named on fprlab's command
// lines so that careless or hostile names cannot lose data or exhaust
// memory:
//
//   - Read reads at most a stated number of bytes and names the file and
//     the cap when a file is larger (a key given as /dev/zero is an error,
//     not an out-of-memory crash); "-" reads standard input. ReadJSON
//     refuses a file that cannot be a JSON document from its first bytes.
//   - WriteFiles writes a set of files as one step: each regular file goes
//     to a temporary file in its directory and all of them are renamed into
//     place only when every one is complete, so an interrupted or failed run
//     leaves either the old files or the new ones. "-" writes standard
//     output. A symbolic link is written through to the file it names (the
//     link stays); a link to a missing file is refused. A character device
//     or a FIFO (/dev/null, a terminal, a pipe) is written into, never
//     replaced; directories and other special files are refused. Standard
//     output and devices are written before any rename and secret files
//     last among them, so a failed write leaves no new file and a private
//     key is never printed when another output fails.
//   - WriteNew writes one new file the same way and never over anything
//     that exists: what a recovered private key is written with.
//   - Distinct refuses a command line whose outputs name one of its inputs
//     or each other (a KAT reference overwritten by its own regeneration,
//     a checkpoint replaced by a result file).
//
// Errors name the user's path, never a temporary file.
package safefile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Stdio is the path that means standard input (for Read) or standard
// output (for WriteFiles).
const Stdio = "-"

// TooLargeError reports a file above the cap given to Read.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes, the most this input can hold", displayName(e.Path), e.Limit)
}

// Read returns the content of path ("-": all of stdin; refused when stdin
// is nil, for inputs that must be files), at most limit bytes; a longer
// file is a *TooLargeError, detected after reading limit+1 bytes, so a
// device that never ends costs no more than that.
func Read(stdin io.Reader, path string, limit int64) ([]byte, error) {
	r, done, err := open(stdin, path)
	if err != nil {
		return nil, err
	}
	defer done()
	return readAll(r, path, limit, 0)
}

// ReadJSON is Read for a JSON document (an object or an array): the first
// byte after any leading white space is checked before the rest is read,
// and one that cannot open a document is a *NotJSONError at once. A device
// or a binary file given where a document is expected (/dev/zero, a key,
// a segment of records) is then refused after a few bytes, where Read
// would first take limit bytes of it into memory. A file of white space
// only returns no bytes: the caller's parser reports it as empty. The
// leading white space is not returned.
func ReadJSON(stdin io.Reader, path string, limit int64) ([]byte, error) {
	r, done, err := open(stdin, path)
	if err != nil {
		return nil, err
	}
	defer done()
	br := bufio.NewReader(io.LimitReader(r, limit+1))
	var lead int64
	for {
		b, err := br.ReadByte()
		if err == io.EOF {
			return []byte{}, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", displayName(path), unwrapPath(err))
		}
		if b == ' ' || b == '\t' || b == '\n' || b == '\r' {
			lead++
			continue
		}
		if b != '{' && b != '[' {
			return nil, &NotJSONError{Path: path, First: b}
		}
		if err := br.UnreadByte(); err != nil {
			return nil, err
		}
		break
	}
	return readAll(br, path, limit, lead)
}

// NotJSONError reports a file that ReadJSON refused: its first byte other
// than white space cannot begin a JSON object or array.
type NotJSONError struct {
	Path  string
	First byte
}

func (e *NotJSONError) Error() string {
	return fmt.Sprintf("%s is not JSON: it begins with %s, where a document begins with { or [", displayName(e.Path), e.Describe())
}

// Describe names the first byte for a message: printable ASCII as itself,
// anything else (the NUL of /dev/zero, a binary header) in hex.
func (e *NotJSONError) Describe() string {
	if b := e.First; b > ' ' && b < 0x7f {
		return fmt.Sprintf("%q", rune(b))
	}
	return fmt.Sprintf("byte 0x%02x", e.First)
}

// open opens path for reading ("-": stdin, refused when stdin is nil);
// done closes what open opened.
func open(stdin io.Reader, path string) (r io.Reader, done func(), err error) {
	if path == Stdio {
		if stdin == nil {
			return nil, nil, errors.New("reading -: this input must be a file, not standard input")
		}
		return stdin, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s: %w", path, unwrapPath(err))
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("reading %s: is a directory", path)
	}
	return f, func() { f.Close() }, nil
}

// readAll reads r to its end, refusing more than limit bytes in all, of
// which read were consumed before r (and are not returned).
func readAll(r io.Reader, path string, limit, read int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1-read))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", displayName(path), unwrapPath(err))
	}
	if read+int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return data, nil
}

// displayName is path as error messages name it.
func displayName(path string) string {
	if path == Stdio {
		return "standard input"
	}
	return path
}

// File is one file of a WriteFiles call.
type File struct {
	Path string // "-" for standard output
	Data []byte
	// Secret files (private keys) are created readable by their owner
	// only (mode 0600); others get 0644.
	Secret bool
}

// WriteFiles writes files as one step (see the package comment); the
// files named "-", or naming the file standard output is open on, are
// written to stdout. Outputs that cannot be undone (stdout, devices,
// FIFOs) are written first, secret ones last, and the regular files are
// renamed into place only once they all succeeded.
func WriteFiles(stdout io.Writer, files ...File) error {
	type plan struct {
		f      File
		target string // the regular file to replace, after links
		tmp    string
		direct bool // write into target (a device or FIFO), not replace it
		stdout bool
	}
	plans := make([]plan, len(files))
	cleanup := func() {
		for _, p := range plans {
			if p.tmp != "" {
				os.Remove(p.tmp)
			}
		}
	}
	for i, f := range files {
		p := plan{f: f}
		switch {
		case f.Path == "":
			return errors.New("writing: empty file name")
		case IsStdout(f.Path):
			p.stdout = true
		default:
			target, direct, err := resolveTarget(f.Path)
			if err != nil {
				cleanup()
				return err
			}
			p.target, p.direct = target, direct
		}
		plans[i] = p
		if p.stdout || p.direct {
			continue
		}
		tmp, err := writeTemp(p.target, f)
		if err != nil {
			cleanup()
			return fmt.Errorf("writing %s: %w", f.Path, err)
		}
		plans[i].tmp = tmp
	}
	// Streams and devices cannot be taken back: they are written before
	// any file is renamed into place, so that a failed write (a full
	// device, a closed pipe) leaves no regular file written, and secret
	// files last among them, so that a private key is never printed when
	// another output then fails. (A public key already printed when a
	// private key's device fails stays printed.)
	for _, secret := range []bool{false, true} {
		for _, p := range plans {
			if p.f.Secret != secret {
				continue
			}
			var err error
			switch {
			case p.stdout:
				_, err = stdout.Write(p.f.Data)
			case p.direct:
				err = writeInto(p.target, p.f.Data)
			default:
				continue
			}
			if err != nil {
				cleanup()
				name := p.f.Path
				if p.f.Path == Stdio {
					name = "standard output"
				}
				return fmt.Errorf("writing %s: %w", name, unwrapPath(err))
			}
		}
	}
	for i, p := range plans {
		if p.tmp == "" {
			continue
		}
		if err := os.Rename(p.tmp, p.target); err != nil {
			// Files already renamed stay: their content is complete.
			plans = plans[i:]
			cleanup()
			return fmt.Errorf("writing %s: %w", p.f.Path, unwrapPath(err))
		}
	}
	return nil
}

// WriteNew writes data to path, which must not exist: to a temporary file
// in path's directory first, synced, then linked into place, so that path
// either does not exist or holds all of data, and an existing file, link
// or device at path is refused and left as it was (a link, unlike a
// rename, does not replace). The file is readable by its owner only when
// secret.
func WriteNew(path string, data []byte, secret bool) error {
	if path == "" {
		return errors.New("writing: empty file name")
	}
	tmp, err := writeTemp(path, File{Path: path, Data: data, Secret: secret})
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp)
	f, err := os.Open(tmp)
	if err == nil {
		err = errors.Join(f.Sync(), f.Close())
	}
	if err == nil {
		err = os.Link(tmp, path)
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("writing %s: it exists; give the name of a new file", path)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	return nil
}

// resolveTarget follows symbolic links from path to the file it names and
// says how to write it: replace a regular file (or create a missing one),
// or write into a character device or FIFO.
func resolveTarget(path string) (target string, direct bool, err error) {
	li, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	fi := li
	target = path
	if li.Mode()&fs.ModeSymlink != 0 {
		fi, err = os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			dest, _ := os.Readlink(path)
			return "", false, fmt.Errorf("writing %s: it is a symbolic link to %s, which does not exist; name the file itself", path, dest)
		}
		if err != nil {
			return "", false, fmt.Errorf("writing %s: %w", path, unwrapPath(err))
		}
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", false, fmt.Errorf("writing %s: %w", path, unwrapPath(err))
		}
	}
	m := fi.Mode()
	switch {
	case m.IsRegular():
		return target, false, nil
	case m.IsDir():
		return "", false, fmt.Errorf("writing %s: is a directory", path)
	case m&fs.ModeCharDevice != 0, m&fs.ModeNamedPipe != 0:
		return target, true, nil
	}
	return "", false, fmt.Errorf("writing %s: not a regular file, character device or pipe (%v); refusing to replace it", path, m.Type())
}

// writeTemp writes f's data to a new temporary file next to target and
// returns its name.
func writeTemp(target string, f File) (string, error) {
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp*")
	if err != nil {
		// The file itself may exist and be writable: say that the
		// directory is what refused (read-only, or /proc's).
		return "", fmt.Errorf("cannot create a file in %s (an output is written there first, then renamed into place): %w", dir, unwrapPath(err))
	}
	mode := os.FileMode(0o644)
	if f.Secret {
		mode = 0o600
	}
	merr := tmp.Chmod(mode)
	_, werr := tmp.Write(f.Data)
	cerr := tmp.Close()
	if err := errors.Join(merr, werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return "", unwrapPath(err)
	}
	return tmp.Name(), nil
}

// writeInto writes data into an existing device or FIFO.
func writeInto(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	return errors.Join(werr, f.Close())
}

// IsStream reports whether WriteFiles writes path as a stream rather than
// a file it replaces: standard output (IsStdout), or an existing character
// device or FIFO (after links). A command that never replaces a file
// (WriteNew) still writes into these.
func IsStream(path string) bool {
	if IsStdout(path) {
		return true
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) != 0
}

// WouldReplace reports whether writing path would replace an existing
// file: something (a dangling symbolic link included) is there and it is
// not a stream (IsStream), which is written into instead. Commands that
// never replace what they write (a private key, a recovered key) refuse
// such a path before any work.
func WouldReplace(path string) bool {
	if IsStream(path) {
		return false
	}
	_, err := os.Lstat(path)
	return err == nil
}

// IsStdout reports whether WriteFiles sends path to standard output: "-",
// or the file standard output is open on (/dev/stdout, /proc/self/fd/1,
// or the file stdout was redirected to), so that nothing replaces the file
// under the shell's redirection. Commands print no summary then.
func IsStdout(path string) bool {
	if path == Stdio {
		return true
	}
	so, err := os.Stdout.Stat()
	if err != nil {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && os.SameFile(so, fi)
}

// unwrapPath drops the path of an *fs.PathError, which may be a
// temporary file's; callers name the user's file themselves.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
