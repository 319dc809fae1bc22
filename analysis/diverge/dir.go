package diverge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/internal/checkpoint"
	"github.com/fprlab/fprlab/internal/dirlock"
	"github.com/fprlab/fprlab/internal/safefile"
	"github.com/fprlab/fprlab/internal/shard"
)

// A campaign directory holds run.json (the identity: the command's flags
// that determine the result, and the version), checkpoint.json (the
// result of the signatures finished so far, a prefix of the range, saved
// after every chunk) and, once the range is done, result.json (what
// --json prints). A run started again with the same flags continues after
// the prefix; other flags are refused with the difference named. Two
// processes never write one directory (dirlock).
const (
	identityName   = "run.json"
	checkpointName = "checkpoint.json"
	// ResultName is the finished result's file in a campaign directory.
	ResultName = "result.json"
	// maxResult caps the result files merge reads (a pair is about 6 KB
	// of hex at Falcon-1024).
	maxResult = 512 << 20
)

// chunk is the number of signatures between checkpoints: about two
// seconds of Falcon-512 pairs per core (tests make it small).
var chunk = 2048

// dirCommand names diverge's directories in their identity.
const dirCommand = "diverge"

// RunDir signs the campaign's signatures from (included) to to
// (excluded) in the directory dir, created when missing: the run can be
// interrupted (ctx) and started again with the same flags and version,
// and continues after the signatures whose result is saved. flags are the
// command's flags that determine the result (shard among them for a
// shard, which shard names as "I/N"). progress (may be nil) is called
// with the signatures of the range done so far, those of earlier runs
// included.
func (cp *Campaign) RunDir(ctx context.Context, dir string, flags map[string]string, version, shard string, from, to int, progress func(done, total int)) (*Result, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := dirlock.Exclusive(dir)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	id := checkpoint.Identity{Command: dirCommand, Flags: flags, Version: version}
	if err := claim(dir, id); err != nil {
		return nil, err
	}
	type state struct {
		Done   int     `json:"done"`
		Result *Result `json:"result"`
	}
	st := state{Result: cp.empty()}
	found, err := checkpoint.Load(filepath.Join(dir, checkpointName), id, &st)
	if err != nil {
		return nil, err
	}
	if !found {
		// A merged directory has its result and no checkpoint: it is
		// finished.
		if r, err := readResult(dir); err == nil {
			return r, nil
		}
	}
	total := to - from
	if st.Done < 0 || st.Done > total || st.Result == nil || st.Result.Compared != st.Done {
		return nil, fmt.Errorf("%s: its checkpoint counts %d signatures of a range of %d: remove the directory to start again", dir, st.Done, total)
	}
	for st.Done < total {
		start := from + st.Done
		end := min(start+chunk, to)
		var report func(int)
		if progress != nil {
			done := st.Done
			report = func(d int) { progress(done+d, total) }
		}
		r, err := cp.Range(ctx, start, end, report)
		if err != nil {
			return nil, err
		}
		if st.Result, err = Merge(st.Result, r); err != nil {
			return nil, err
		}
		st.Done = end - from
		if err := checkpoint.Save(filepath.Join(dir, checkpointName), id, st); err != nil {
			return nil, err
		}
	}
	res := st.Result
	res.Shard = shard
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return nil, err
	}
	return res, safefile.WriteFiles(io.Discard, safefile.File{Path: filepath.Join(dir, ResultName), Data: append(data, '\n')})
}

// claim writes dir's identity, or checks that the one there is id.
func claim(dir string, id checkpoint.Identity) error {
	path := filepath.Join(dir, identityName)
	have, err := readIdentity(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := dirlock.CheckFresh(dir, identityName); err != nil {
			return err
		}
		data, err := json.MarshalIndent(id, "", "  ")
		if err != nil {
			return err
		}
		return safefile.WriteFiles(io.Discard, safefile.File{Path: path, Data: append(data, '\n')})
	}
	if err != nil {
		return err
	}
	if d := checkpoint.Diff(have, id); d != "" {
		return fmt.Errorf("%s holds another diverge campaign (%s): run with its flags, or use another --out", dir, d)
	}
	return nil
}

// readIdentity reads dir's run.json.
func readIdentity(dir string) (checkpoint.Identity, error) {
	var id checkpoint.Identity
	path := filepath.Join(dir, identityName)
	data, err := safefile.ReadJSON(nil, path, shadow.MaxRunFile)
	if err != nil {
		return id, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&id); err != nil || id.Command != dirCommand {
		return id, fmt.Errorf("%s is not a diverge campaign's identity", path)
	}
	return id, nil
}

// readResult reads dir's result.json.
func readResult(dir string) (*Result, error) {
	return readResultFile(filepath.Join(dir, ResultName))
}

// readResultFile reads the diverge result in the file path.
func readResultFile(path string) (*Result, error) {
	data, err := safefile.ReadJSON(nil, path, maxResult)
	if err != nil {
		return nil, err
	}
	var r Result
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s is not a diverge result: %w", path, err)
	}
	return &r, nil
}

// IsDir reports whether dir is a diverge campaign directory.
func IsDir(dir string) bool {
	_, err := readIdentity(dir)
	return err == nil
}

// MergeDirs combines the finished shard directories of one campaign
// (diverge --shard I/N --out DIR_I, I from 0 to N-1) into the result of
// the whole campaign, written to out (a new directory, or an empty one)
// with the identity of the campaign run whole. The shards must have the
// same flags and version; a missing or repeated shard is named.
func MergeDirs(dirs []string, out string) (*Result, error) {
	var (
		first   checkpoint.Identity
		results []*Result
		seen    = map[int]string{}
		shards  int
	)
	for i, dir := range dirs {
		id, err := readIdentity(dir)
		if err != nil {
			return nil, err
		}
		lock, err := dirlock.Shared(dir)
		if err != nil {
			return nil, err
		}
		r, err := readResult(dir)
		lock.Unlock()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: the shard is not finished (no %s): run its command again to complete it", dir, ResultName)
		}
		if err != nil {
			return nil, err
		}
		sh := id.Flags["shard"]
		si, n, ok := shard.Parse(sh)
		if !ok || r.Shard != sh {
			return nil, fmt.Errorf("%s is not a shard of a diverge campaign (its shard is %q)", dir, sh)
		}
		if i == 0 {
			first, shards = id, n
		} else if d := checkpoint.Diff(first, id, "shard"); d != "" {
			return nil, fmt.Errorf("%s and %s are shards of different campaigns: %s", dirs[0], dir, d)
		}
		if n != shards {
			return nil, fmt.Errorf("%s is shard %s, %s one of %d", dir, sh, dirs[0], shards)
		}
		if prev, dup := seen[si]; dup {
			return nil, fmt.Errorf("shard %d/%d is given twice: %s and %s", si, n, prev, dir)
		}
		seen[si] = dir
		results = append(results, r)
	}
	var missing []string
	for i := range shards {
		if _, ok := seen[i]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, shards))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing shards %s", strings.Join(missing, ", "))
	}
	res, err := Merge(results...)
	if err != nil {
		return nil, err
	}
	whole := checkpoint.Identity{Command: dirCommand, Flags: maps.Clone(first.Flags), Version: first.Version}
	delete(whole.Flags, "shard")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	if entries, err := os.ReadDir(out); err != nil || len(entries) > 0 {
		return nil, fmt.Errorf("--out %s: want a new or empty directory", out)
	}
	idData, err := json.MarshalIndent(whole, "", "  ")
	if err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return nil, err
	}
	return res, safefile.WriteFiles(io.Discard,
		safefile.File{Path: filepath.Join(out, identityName), Data: append(idData, '\n')},
		safefile.File{Path: filepath.Join(out, ResultName), Data: append(data, '\n')})
}

// ReadPair returns the differing pair of signature index of the result in
// path -- a campaign directory (or merged one) or its result.json, under
// any name -- and the result, whose Scheme names the scheme the pair was
// signed with.
func ReadPair(path string, index int) (*Pair, *Result, error) {
	file := filepath.Join(path, ResultName)
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		file = path
	}
	r, err := readResultFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%s: no %s (a diverge campaign directory holds one once it is finished)", path, ResultName)
	}
	if err != nil {
		return nil, nil, err
	}
	var have []string
	for i := range r.Pairs {
		if r.Pairs[i].Index == index {
			return &r.Pairs[i], r, nil
		}
		if len(have) < 8 {
			have = append(have, fmt.Sprint(r.Pairs[i].Index))
		}
	}
	if len(r.Pairs) == 0 {
		return nil, nil, fmt.Errorf("%s: no signature of this campaign differs: there is no pair to read", path)
	}
	more := ""
	if len(r.Pairs) > len(have) {
		more = fmt.Sprintf(", ... (%d pairs)", len(r.Pairs))
	}
	return nil, nil, fmt.Errorf("%s: signature %d is not a differing pair; the pairs are signatures %s%s", path, index, strings.Join(have, ", "), more)
}
