package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/kat"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon/katref"
	"github.com/fprlab/fprlab/internal/cli"
)

// publishedPrefix returns the published Falcon-512 response file cut after
// its first n records.
func publishedPrefix(t *testing.T, n int) []byte {
	t.Helper()
	data, err := katref.Response(9)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("count = "+strconv.Itoa(n)+"\n"))
	if i < 0 {
		t.Fatalf("record %d not found", n)
	}
	return data[:i]
}

// TestKatJSONContract decodes the --json output as scripts do: exactly the
// documented keys, and values that agree with the published file.
func TestKatJSONContract(t *testing.T) {
	out := filepath.Join(t.TempDir(), "gen.rsp")
	code, stdout, stderr := runCLI(t, "kat", "--params", "512", "--backend", "native", "--records", "2", "--json", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stderr, "2/2 records") {
		t.Errorf("no progress on stderr: %q", stderr)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatalf("decoding %q: %v", stdout, err)
	}
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"backend", "first_divergence", "first_mismatch", "keygen_backend", "match_pk", "match_sk", "match_sm", "params", "records", "sha256"}
	if !slices.Equal(keys, want) {
		t.Fatalf("keys %v, want %v", keys, want)
	}
	if raw["first_mismatch"] != nil {
		t.Errorf("first_mismatch = %v, want null", raw["first_mismatch"])
	}
	for k, v := range map[string]float64{"params": 512, "records": 2, "match_pk": 2, "match_sk": 2, "match_sm": 2} {
		if raw[k] != v {
			t.Errorf("%s = %v, want %v", k, raw[k], v)
		}
	}
	prefix := publishedPrefix(t, 2)
	sum := sha256.Sum256(prefix)
	if raw["sha256"] != hex.EncodeToString(sum[:]) || raw["backend"] != "native" {
		t.Errorf("sha256 %v backend %v, want %x native", raw["sha256"], raw["backend"], sum)
	}
	gen, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(gen, prefix) {
		t.Errorf("--out file is not the published prefix (err %v)", err)
	}
}

// TestKatMismatch checks that a corrupted reference is reported at the
// corrupted byte, with exit status 1.
func TestKatMismatch(t *testing.T) {
	data, err := katref.Response(9)
	if err != nil {
		t.Fatal(err)
	}
	// Corrupt byte 100 of record 0's sm (its hex starts after "sm = ").
	i := bytes.Index(data, []byte("\nsm = ")) + len("\nsm = ") + 2*100
	bad := slices.Clone(data)
	if bad[i] == '0' {
		bad[i] = '1'
	} else {
		bad[i] = '0'
	}
	ref := filepath.Join(t.TempDir(), "bad.rsp")
	if err := os.WriteFile(ref, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runCLI(t, "kat", "--params", "512", "--backend", "native", "--records", "1", "--ref", ref, "--json")
	if code != cli.ExitFalse {
		t.Fatalf("exit %d, want %d", code, cli.ExitFalse)
	}
	var res kat.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	m := res.FirstMismatch
	if m == nil || m.Record != 0 || m.Field != "sm" || m.Offset != 100 || res.MatchPK != 1 || res.MatchSM != 0 {
		t.Fatalf("got %+v, mismatch %+v", res, m)
	}
}

// TestKatAllBackends runs one record over every registered backend: the
// output is an array with one entry per backend, and the binary64
// backends match.
func TestKatAllBackends(t *testing.T) {
	code, stdout, stderr := runCLI(t, "kat", "--params", "512", "--backend", "all", "--records", "1", "--json")
	var rs []kat.Result
	if err := json.Unmarshal([]byte(stdout), &rs); err != nil {
		t.Fatalf("exit %d, stderr %q: decoding %q: %v", code, stderr, stdout, err)
	}
	all := true
	seen := map[string]bool{}
	for _, r := range rs {
		seen[r.Backend] = true
		if r.FirstMismatch != nil {
			all = false
		}
		if r.Error != "" && (r.FirstMismatch == nil || r.FirstMismatch.Field != "pk") {
			t.Errorf("%s failed (%s) without a mismatch", r.Backend, r.Error)
		}
		if (r.Backend == "emu64" || r.Backend == "native") && r.MatchSM != 1 {
			t.Errorf("%s does not match the reference: %+v", r.Backend, r)
		}
	}
	for _, b := range arith.List() {
		if !seen[b.Name] {
			t.Errorf("backend %s missing from %v", b.Name, seen)
		}
	}
	if (code == 0) != all {
		t.Errorf("exit %d with all-match %v", code, all)
	}
}

// TestKatTriwordSignsWithReferenceKeys checks the key-backend fallback:
// triword cannot run NTRUSolve, so its keys come from emu64 and its
// signatures, made over triword from the same DRBG stream, are compared
// with the published ones (they match on these records); naming a key
// backend that cannot generate keys is a usage error.
func TestKatTriwordSignsWithReferenceKeys(t *testing.T) {
	code, stdout, stderr := runCLI(t, "kat", "--params", "512", "--backend", "triword", "--records", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var r kat.Result
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if r.Backend != "triword" || r.KeygenBackend != "emu64" || r.MatchSM != 3 || r.Error != "" {
		t.Errorf("result %+v", r)
	}
	if !strings.Contains(stderr, "keys generated with emu64") {
		t.Errorf("stderr does not say where the keys came from: %q", stderr)
	}
	code, _, stderr = runCLI(t, "kat", "--params", "512", "--backend", "native", "--keygen-backend", "triword", "--records", "1")
	if code != cli.ExitUsage || !strings.Contains(stderr, "--keygen-backend triword") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ = runCLI(t, "kat", "--params", "512", "--backend", "native", "--keygen-backend", "emu64", "--records", "1", "--json")
	if code != 0 || !strings.Contains(stdout, `"keygen_backend": "emu64"`) {
		t.Errorf("exit %d, output %s", code, stdout)
	}
}

// TestKatHuman checks the table output and usage errors.
func TestKatHuman(t *testing.T) {
	code, stdout, _ := runCLI(t, "kat", "--params", "1024", "--backend", "emu64", "--records", "1")
	if code != 0 || !strings.Contains(stdout, "Falcon-1024") || !strings.Contains(stdout, "emu64") {
		t.Fatalf("exit %d, output:\n%s", code, stdout)
	}
	for _, args := range [][]string{
		{"kat", "--params", "256"},
		{"kat", "--params", "512", "--records", "0"},
		{"kat", "--params", "512", "--records", "101"},
		{"kat", "--params", "512", "--backend", "all", "--out", "x"},
		{"kat", "--params", "512", "--ref", "/nonexistent/file"},
	} {
		if code, _, errs := runCLI(t, args...); code != cli.ExitUsage || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestKatCheckpoint resumes a run: the records of a first run are taken
// from the checkpoint by a longer second run, whose output equals a fresh
// run's; a checkpoint of the other degree is refused.
func TestKatCheckpoint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kat.ckpt")
	code, _, stderr := runCLI(t, "kat", "--params", "512", "--backend", "emu64", "--records", "2", "--checkpoint", path, "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	code, resumed, stderr := runCLI(t, "kat", "--params", "512", "--backend", "emu64", "--records", "3", "--checkpoint", path, "--json")
	if code != 0 || !strings.Contains(stderr, "2 records taken from the checkpoint") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	_, fresh, _ := runCLI(t, "kat", "--params", "512", "--backend", "emu64", "--records", "3", "--json")
	if resumed != fresh {
		t.Errorf("resumed run differs from a fresh one:\n%s\n%s", resumed, fresh)
	}
	code, _, stderr = runCLI(t, "kat", "--params", "1024", "--backend", "emu64", "--records", "1", "--checkpoint", path)
	if code != cli.ExitUsage || !strings.Contains(stderr, "belongs to another run") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestKatOutputsMustDiffer refuses an --out or --checkpoint that names the
// --ref file or each other, and leaves the files alone.
func TestKatOutputsMustDiffer(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref.rsp")
	prefix := publishedPrefix(t, 3)
	if err := os.WriteFile(ref, prefix, 0o644); err != nil {
		t.Fatal(err)
	}
	ck := filepath.Join(dir, "ck")
	for _, args := range [][]string{
		{"--ref", ref, "--out", ref},
		{"--checkpoint", ck, "--out", ck},
		{"--checkpoint", ref, "--ref", ref},
	} {
		code, _, stderr := runCLI(t, append([]string{"kat", "--params", "512", "--records", "2"}, args...)...)
		if code != cli.ExitUsage || !strings.Contains(stderr, "replace") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	if got := readFile(t, ref); !bytes.Equal(got, prefix) {
		t.Error("the reference file was changed")
	}
	if _, err := os.Stat(ck); err == nil {
		t.Error("a checkpoint was written")
	}
}

// TestKatRefHeaderAndMalformed checks that the header shows the SHA-256 of
// the reference actually given, and that a truncated or wrong-degree
// reference is malformed input (exit 2), not a mismatch (exit 1).
func TestKatRefHeaderAndMalformed(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	prefix := publishedPrefix(t, 2)
	ref := write("two.rsp", prefix)
	code, stdout, stderr := runCLI(t, "kat", "--params", "512", "--backend", "native", "--records", "2", "--ref", ref)
	sum := sha256.Sum256(prefix)
	if code != 0 || !strings.Contains(stdout, "reference: "+ref) || !strings.Contains(stdout, hex.EncodeToString(sum[:])) {
		t.Errorf("exit %d, stderr %q, header:\n%s", code, stderr, stdout)
	}
	if f, _ := katref.Lookup(9); strings.Contains(stdout, f.SHA256) {
		t.Error("the header shows the published file's SHA-256 for another file")
	}
	// Cut before record 1's sm line: its sm is missing.
	cut := prefix[:bytes.LastIndex(prefix, []byte("\nsm = "))+1]
	f1024, err := katref.Response(10)
	if err != nil {
		t.Fatal(err)
	}
	headerless := f1024[bytes.Index(f1024, []byte("count = 0")):]
	for name, data := range map[string][]byte{"truncated": cut, "falcon-1024": f1024, "falcon-1024 without header": headerless} {
		code, _, stderr := runCLI(t, "kat", "--params", "512", "--backend", "native", "--records", "2", "--ref", write(name, data))
		if code != cli.ExitUsage || !strings.Contains(stderr, "reference") {
			t.Errorf("%s reference: exit %d, stderr %q", name, code, stderr)
		}
	}
}

// TestKatResumeProgress checks that after a resume the progress line
// counts the records taken from the checkpoint once, as such, and is not
// printed again for them.
func TestKatResumeProgress(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck")
	args := []string{"kat", "--params", "512", "--backend", "native", "--checkpoint", path}
	if code, _, stderr := runCLI(t, append(args, "--records", "10")...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Record 10 of 11 came from the checkpoint: the old code printed
	// "10/11 records" for it as if it had been generated.
	code, _, stderr := runCLI(t, append(args, "--records", "11")...)
	if code != 0 || !strings.Contains(stderr, "11/11 records (1 generated now, 10 from the checkpoint)") ||
		strings.Contains(stderr, "10/11") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestKatInterruptAndResume cancels a run (as Ctrl-C does) after the
// checkpoint holds one record: the run stops with exit 130 and tells the
// user to run the command again; the rerun gives a fresh run's output.
func TestKatInterruptAndResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck")
	args := []string{"kat", "--params", "512", "--backend", "native", "--checkpoint", path, "--json"}
	if code, _, stderr := runCLI(t, append(args, "--records", "1")...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := run(ctx, append(args, "--records", "3"), nil, &out, &errb)
	if code != cli.ExitInterrupted || !strings.Contains(errb.String(), "run the same command again to resume") || out.Len() != 0 {
		t.Fatalf("interrupted run: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	code, resumed, stderr := runCLI(t, append(args, "--records", "3")...)
	_, fresh, _ := runCLI(t, "kat", "--params", "512", "--backend", "native", "--records", "3", "--json")
	if code != 0 || resumed != fresh {
		t.Errorf("rerun: exit %d, stderr %q\n%s\nfresh:\n%s", code, stderr, resumed, fresh)
	}
}

// TestKatCheckpointBitFlips flips bits all over a kat checkpoint: each
// damaged file is refused (exit 2, naming the file) or, where the flip
// only touched insignificant whitespace, the run's output equals a fresh
// run's. Before checksums, flips gave false mismatches blamed on the
// backend.
func TestKatCheckpointBitFlips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck")
	args := []string{"kat", "--params", "512", "--backend", "native", "--records", "1", "--checkpoint", path, "--json"}
	code, fresh, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	orig := readFile(t, path)
	flips := 400
	if testing.Short() {
		flips = 50
	}
	step := max(1, len(orig)/flips)
	for i := 0; i < len(orig); i += step {
		data := slices.Clone(orig)
		data[i] ^= 1 << (i % 8)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, stderr := runCLI(t, args...)
		if code == cli.ExitUsage && strings.Contains(stderr, "checkpoint "+path) {
			continue
		}
		if code != 0 || out != fresh {
			t.Fatalf("flip at byte %d (%q): exit %d, stderr %q, output:\n%s", i, orig[i], code, stderr, out)
		}
	}
}

// resealCheckpoint edits the payload of the checkpoint at path and writes
// it back with its checksum recomputed: a checkpoint whose content is
// wrong though intact.
func resealCheckpoint(t *testing.T, path string, edit func(payload map[string]any)) {
	t.Helper()
	var env map[string]any
	if err := json.Unmarshal(readFile(t, path), &env); err != nil {
		t.Fatal(err)
	}
	payload := env["payload"].(map[string]any)
	edit(payload)
	p, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(p)
	env["payload"], env["payload_sha256"] = json.RawMessage(p), hex.EncodeToString(sum[:])
	data, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestKatCheckpointWrongContent: an intact checkpoint holding no records
// ("done": null) or a record numbered other than its place is not
// trusted: the records are generated again, and the output is a fresh
// run's.
func TestKatCheckpointWrongContent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck")
	args := []string{"kat", "--params", "512", "--backend", "native", "--records", "1", "--checkpoint", path, "--json"}
	code, fresh, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	orig := readFile(t, path)
	for name, edit := range map[string]func(map[string]any){
		"done null": func(p map[string]any) { p["done"] = nil },
		"count 77": func(p map[string]any) {
			for _, recs := range p["done"].(map[string]any) {
				recs.([]any)[0].(map[string]any)["Count"] = 77
			}
		},
	} {
		if err := os.WriteFile(path, orig, 0o644); err != nil {
			t.Fatal(err)
		}
		resealCheckpoint(t, path, edit)
		code, out, stderr := runCLI(t, args...)
		if code != 0 || out != fresh || strings.Contains(stderr, "taken from the checkpoint") {
			t.Errorf("%s: exit %d, stderr %q, output as a fresh run's: %v", name, code, stderr, out == fresh)
		}
	}
}
