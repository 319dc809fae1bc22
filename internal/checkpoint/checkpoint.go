// Package checkpoint saves and restores the finished work of long fprlab
// runs (kat, arith errors) so that an interrupted run, started again with
// the same command line, continues where it stopped.
//
// A checkpoint file is a JSON envelope:
//
//	{
//	  "format": "fprlab checkpoint",
//	  "layout": 1,
//	  "identity": {"command": "arith errors", "flags": {"n": "100000", ...}, "version": "0.1.0-dev"},
//	  "payload_sha256": "<hex SHA-256 of the compact JSON payload>",
//	  "payload": { ... the command's own state ... }
//	}
//
// Load refuses, with a message naming the file, a file that is not such an
// envelope, one whose payload does not match its checksum (a damaged or
// edited file), and one whose identity differs from the running command's
// -- another command, other values of the flags that determine the
// results, or another program version -- so finished work is never mixed
// into a run it does not belong to. Payloads are plain JSON structs chosen
// by each command; log2 values that may be infinite use Float, since JSON
// numbers cannot hold infinities.
//
// Files are written atomically through safefile, so an interruption while
// saving leaves the previous checkpoint intact.
package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fprlab/fprlab/internal/dirlock"
	"github.com/fprlab/fprlab/internal/safefile"
)

const (
	formatName = "fprlab checkpoint"
	layout     = 1
	// MaxSize caps the checkpoint files Load reads (a KAT checkpoint of
	// every backend at Falcon-1024 is a few MiB).
	MaxSize = 256 << 20
)

// Identity names the run a checkpoint belongs to.
type Identity struct {
	// Command is the command path without the program name, e.g. "kat".
	Command string `json:"command"`
	// Flags holds the values of the flags that determine the results,
	// keyed by flag name without dashes.
	Flags map[string]string `json:"flags"`
	// Version is the program version that wrote the file.
	Version string `json:"version"`
}

type envelope struct {
	Format   string          `json:"format"`
	Layout   int             `json:"layout"`
	Identity Identity        `json:"identity"`
	SHA256   string          `json:"payload_sha256"`
	Payload  json.RawMessage `json:"payload"`
}

// errStdio refuses "-" as a checkpoint: a checkpoint is read back and
// rewritten, which standard input and output cannot be.
func errStdio(path string) error {
	if path == safefile.Stdio || path == "" {
		return fmt.Errorf("checkpoint %q: a checkpoint is a file fprlab reads and rewrites, not standard input or output; give a file name", path)
	}
	return nil
}

// Save writes payload with the identity id to path, atomically.
func Save(path string, id Identity, payload any) error {
	if err := errStdio(path); err != nil {
		return err
	}
	p, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("checkpoint %s: encoding: %w", path, err)
	}
	sum := sha256.Sum256(p)
	// The envelope's fields are indented for a reader; the payload, which
	// can be megabytes, stays compact (written as the last field).
	head, err := json.MarshalIndent(envelope{Format: formatName, Layout: layout, Identity: id, SHA256: hex.EncodeToString(sum[:])}, "", " ")
	if err != nil {
		return fmt.Errorf("checkpoint %s: encoding: %w", path, err)
	}
	const tail = ",\n \"payload\": null\n}"
	if !bytes.HasSuffix(head, []byte(tail)) {
		return fmt.Errorf("checkpoint %s: unexpected envelope encoding", path)
	}
	data := append(head[:len(head)-len(tail)], ",\n \"payload\": "...)
	data = append(append(data, p...), "\n}\n"...)
	return safefile.WriteFiles(nil, safefile.File{Path: path, Data: data})
}

// Load reads the checkpoint at path into payload. It returns false, and
// leaves payload alone, when the file does not exist (a fresh run).
func Load(path string, id Identity, payload any) (bool, error) {
	if err := errStdio(path); err != nil {
		return false, err
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		// A device or a pipe is no checkpoint fprlab wrote (and
		// /dev/zero would be read up to MaxSize before the refusal).
		return false, fmt.Errorf("checkpoint %s is not a regular file; give the run a file of its own", path)
	}
	data, err := safefile.ReadJSON(nil, path, MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	var nj *safefile.NotJSONError
	if err != nil && !errors.As(err, &nj) {
		return false, fmt.Errorf("checkpoint: %w", err)
	}
	var env envelope
	if err != nil || json.Unmarshal(data, &env) != nil || env.Format != formatName {
		return false, fmt.Errorf("checkpoint %s is not an fprlab checkpoint file (fprlab does not write over it): give the run the name of a new file, or of a checkpoint of this run", path)
	}
	if env.Layout != layout {
		return false, fmt.Errorf("checkpoint %s has layout %d, which this program does not read (it writes layout %d); remove it to start again", path, env.Layout, layout)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, env.Payload); err != nil {
		return false, fmt.Errorf("checkpoint %s is damaged (its payload is not JSON); remove it to start again", path)
	}
	sum := sha256.Sum256(compact.Bytes())
	if hex.EncodeToString(sum[:]) != env.SHA256 {
		return false, fmt.Errorf("checkpoint %s is damaged: its content does not match its SHA-256 checksum; remove it to start again", path)
	}
	if err := sameRun(env.Identity, id); err != nil {
		return false, fmt.Errorf("checkpoint %s belongs to another run (%v); rerun with the same flags, or remove it, or give the run another checkpoint", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(compact.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(payload); err != nil {
		// The message of a decoding error names Go types; the file
		// passed its checksum, so only its layout can be wrong.
		return false, fmt.Errorf("checkpoint %s does not hold the state of `fprlab %s` in the layout this version writes; remove it to start again", path, id.Command)
	}
	return true, nil
}

// sameRun describes how the identity got (from a file) differs from want.
func sameRun(got, want Identity) error {
	if got.Command != want.Command {
		return fmt.Errorf("it was written by `fprlab %s`, this is `fprlab %s`", got.Command, want.Command)
	}
	if d := Diff(got, want); d != "" {
		return errors.New(d)
	}
	return nil
}

// Diff describes how the flags and version of identity got (from a file)
// differ from want's, leaving out the flags named in ignore; "" when they
// agree. Commands that keep several files of one run (shards of a
// campaign) compare identities with it.
func Diff(got, want Identity, ignore ...string) string {
	var diffs []string
	keys := slices.Sorted(maps.Keys(want.Flags))
	for k := range got.Flags {
		if _, ok := want.Flags[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if slices.Contains(ignore, k) {
			continue
		}
		g, gok := got.Flags[k]
		w, wok := want.Flags[k]
		switch {
		case !gok:
			diffs = append(diffs, fmt.Sprintf("it has no --%s, this run has --%s %s", k, k, w))
		case !wok:
			diffs = append(diffs, fmt.Sprintf("it has --%s %s, which this run does not use", k, g))
		case g != w:
			diffs = append(diffs, fmt.Sprintf("it has --%s %s, this run --%s %s", k, g, k, w))
		}
	}
	if got.Version != want.Version {
		diffs = append(diffs, fmt.Sprintf("it was written by fprlab %s, this is fprlab %s", got.Version, want.Version))
	}
	return strings.Join(diffs, "; ")
}

// Float is a float64 whose JSON form keeps infinities and NaN, which JSON
// numbers cannot hold: finite values are numbers, the others the strings
// "+Inf", "-Inf" and "NaN". (A log2 error of -Inf means an exact result.)
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsInf(v, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	}
	return json.Marshal(v)
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"+Inf"`:
		*f = Float(math.Inf(1))
	case `"-Inf"`:
		*f = Float(math.Inf(-1))
	case `"NaN"`:
		*f = Float(math.NaN())
	default:
		var v float64
		if err := json.Unmarshal(b, &v); err != nil {
			return errors.New("not a number, +Inf, -Inf or NaN")
		}
		*f = Float(v)
	}
	return nil
}

// LoadFile is Load for a checkpoint file the user names (--checkpoint):
// when there is none yet, it also checks that one can be written there
// (Writable).
func LoadFile(path string, id Identity, payload any) (bool, error) {
	found, err := Load(path, id, payload)
	if err == nil && !found {
		err = Writable(path)
	}
	return found, err
}

// Lock keeps a second process from running with the checkpoint file path
// while this one does (both would save their own progress over the
// other's): it holds an exclusive lock on path + ".lock" until Unlock,
// and a second process is refused at once, with the first's process id.
// "-" and a checkpoint that cannot be written are refused first, with
// their own messages (Writable). A checkpoint reached through a symbolic
// link is locked beside the file it names, so that two names of one
// checkpoint exclude each other.
func Lock(path string) (*dirlock.Lock, error) {
	if err := errStdio(path); err != nil {
		return nil, err
	}
	if err := Writable(path); err != nil {
		return nil, err
	}
	target := path
	if p, err := filepath.EvalSymlinks(path); err == nil {
		target = p
	}
	return dirlock.File(target+".lock", "checkpoint "+path)
}

// Writable checks that a file can be created beside path (the
// checkpoint's directory exists and is writable), by creating and removing
// one: a checkpoint in a missing or read-only directory is then refused
// when the run starts, not when its first finished step is lost.
// (Campaign directories make theirs as they go: they use Load.)
func Writable(path string) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".fprlab-probe-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("checkpoint %s cannot be written: cannot create a file in %s: %w", path, dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
