package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cli"
)

// TestInputsAreBounded gives /dev/zero as each input: the old code read
// until memory ran out; now each is refused with its cap.
func TestInputsAreBounded(t *testing.T) {
	dir, _, _, _ := verifyFiles(t)
	p := func(n string) string { return filepath.Join(dir, n) }
	f := newSignFixture(t)
	out := filepath.Join(f.dir, "sig")
	// A campaign directory whose run.json and result.json never end,
	// and a tune directory whose checkpoint is a device.
	endless, tuneDir := filepath.Join(t.TempDir(), "endless"), filepath.Join(t.TempDir(), "tune")
	for _, f := range []string{filepath.Join(endless, "run.json"), filepath.Join(endless, "result.json"), filepath.Join(tuneDir, "evaluations.json")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("/dev/zero", f); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"verify", "--pk", "/dev/zero", "--msg", p("msg"), "--sig", p("sig")}, "--pk /dev/zero: larger than 1793 bytes"},
		{[]string{"verify", "--pk", p("pk"), "--msg", "/dev/zero", "--sig", p("sig")}, "--msg /dev/zero: larger than 67108864 bytes (64 MiB)"},
		{[]string{"verify", "--pk", p("pk"), "--msg", p("msg"), "--sig", "/dev/zero"}, "--sig /dev/zero: larger than"},
		{[]string{"verify", "--hex", "--pk", "/dev/zero", "--msg", p("msg"), "--sig", p("sig")}, "--pk /dev/zero: larger than"},
		{[]string{"sign", "--sk", "/dev/zero", "--msg", f.msgPath, "--out", out}, "--sk /dev/zero: larger than 2369 bytes, the longest encoding of a private key of any scheme"},
		{[]string{"sign", "--sk", f.skPath, "--msg", "/dev/zero", "--out", out}, "--msg /dev/zero: larger than"},
		{[]string{"kat", "--params", "512", "--ref", "/dev/zero"}, "larger than"},
		{[]string{"records", "dump", endless}, "run.json is larger than 1048576 bytes"},
		{[]string{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--out", endless}, "run.json is larger than 1048576 bytes"},
		{[]string{"sweep", "--format", "vprec:30", "--params", "512", "--signatures", "1", "--out", endless}, "run.json is larger than 1048576 bytes"},
		{[]string{"merge", endless, endless, "--out", filepath.Join(t.TempDir(), "m")}, "run.json is larger than 1048576 bytes"},
		{[]string{"tune", "--params", "512", "--signatures", "1", "--out", tuneDir}, "evaluations.json is not a regular file"},
		{[]string{"arith", "errors", "--backend", "native", "--n", "10", "--checkpoint", "/dev/zero"}, "checkpoint /dev/zero is not a regular file"},
		// Documents: refused at their first byte, not after reading
		// their limit (256 MiB) of the device.
		{[]string{"diff", "/dev/zero", p("msg")}, "/dev/zero: not JSON: it begins with byte 0x00"},
		{[]string{"plot", "histogram", "--in", "/dev/zero", "--out", filepath.Join(t.TempDir(), "h.svg")}, "/dev/zero: not JSON: it begins with byte 0x00"},
		{[]string{"report", "--in", "/dev/zero", "--allow-no-manifest", "--out", filepath.Join(t.TempDir(), "r.html")}, "/dev/zero: not JSON: it begins with byte 0x00"},
		{[]string{"leak", "--from", endless, "--pair", "0"}, "result.json is not JSON: it begins with byte 0x00"},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if code != cli.ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, stderr, c.want)
		}
	}
}

// TestSignOutputTargets writes the signature through a symbolic link (the
// link stays, its target gets the signature), to "-" and to a link to the
// file standard output is open on (both reach stdout; nothing named "-"
// is created and the link is not replaced).
func TestSignOutputTargets(t *testing.T) {
	f := newSignFixture(t)
	target := filepath.Join(f.dir, "target.sig")
	link := filepath.Join(f.dir, "link.sig")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.sig", link); err != nil {
		t.Fatal(err)
	}
	args := []string{"sign", "--sk", f.skPath, "--msg", f.msgPath, "--seed", "01"}
	if code, _, stderr := runCLI(t, append(args, "--out", link)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("--out through a link replaced the link (%v)", err)
	}
	sig := readFile(t, target)
	if err := falcon.Verify(f.pk, f.msg, sig); err != nil {
		t.Fatalf("link target does not hold a signature: %v", err)
	}
	wd, _ := os.Getwd()
	t.Chdir(f.dir)
	code, stdout, stderr := runCLI(t, append(args, "--out", "-")...)
	if code != 0 || stdout != string(sig) {
		t.Errorf("--out -: exit %d, stderr %q, %d bytes on stdout, want the %d-byte signature", code, stderr, len(stdout), len(sig))
	}
	if _, err := os.Lstat("-"); err == nil {
		t.Error("--out - created a file named -")
	}
	t.Chdir(wd)
	if _, err := os.Stat("/proc/self/fd/1"); err == nil { // Linux: the file descriptor's link
		devStdout := filepath.Join(f.dir, "stdout")
		if err := os.Symlink("/proc/self/fd/1", devStdout); err != nil {
			t.Fatal(err)
		}
		code, stdout, _ = runCLI(t, append(args, "--out", devStdout)...)
		if code != 0 || stdout != string(sig) {
			t.Errorf("--out link to stdout: exit %d, %d bytes on stdout", code, len(stdout))
		}
		if fi, err := os.Lstat(devStdout); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the link to standard output was replaced")
		}
	}
	if code, _, stderr := runCLI(t, append(args, "--out", "-", "--json")...); code != cli.ExitUsage || !strings.Contains(stderr, "both write to standard output") {
		t.Errorf("--out - --json: exit %d, stderr %q", code, stderr)
	}
}

// TestKeygenToStdout writes the public key to "-": stdout holds it, the
// private key file is written.
func TestKeygenToStdout(t *testing.T) {
	sk := filepath.Join(t.TempDir(), "sk")
	code, stdout, stderr := runCLI(t, "keygen", "--params", "16", "--seed", "01", "--pk", "-", "--sk", sk, "--hex")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if pk, err := falcon.DecodePublicKey(mustHex(t, stdout)); err != nil || pk.LogN != 4 {
		t.Errorf("stdout is not the public key: %v", err)
	}
	if _, err := os.Stat(sk); err != nil {
		t.Error(err)
	}
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestStdoutWriteErrorsFail runs each command with a standard output that
// cannot be written: every one must exit non-zero and say so.
func TestStdoutWriteErrorsFail(t *testing.T) {
	dir, _, _, _ := verifyFiles(t)
	p := func(n string) string { return filepath.Join(dir, n) }
	f := newSignFixture(t)
	keys := t.TempDir()
	for _, args := range [][]string{
		{"version"},
		{"backends"},
		{"backends", "--json"},
		{"verify", "--pk", p("pk"), "--msg", p("msg"), "--sig", p("sig")},
		{"verify", "--json", "--pk", p("pk"), "--msg", p("msg"), "--sig", p("sig")},
		{"sign", "--sk", f.skPath, "--msg", f.msgPath, "--out", filepath.Join(f.dir, "s")},
		{"sign", "--sk", f.skPath, "--msg", f.msgPath, "--out", "-"},
		{"keygen", "--params", "16", "--pk", filepath.Join(keys, "pk"), "--sk", filepath.Join(keys, "sk")},
		{"arith", "errors", "--backend", "native", "--op", "add", "--n", "100"},
		{"arith", "errors", "--backend", "native", "--op", "add", "--n", "100", "--json"},
		{"kat", "--params", "512", "--records", "1"},
	} {
		var errb bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), failingWriter{}, &errb)
		if code == cli.ExitOK || !strings.Contains(errb.String(), "no space left on device") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	var errb bytes.Buffer
	if code := run(context.Background(), []string{"version"}, nil, full, &errb); code == cli.ExitOK {
		t.Errorf("version > /dev/full: exit 0")
	}
}

// TestErrorsNameUserFile checks that a failed write names the file the
// user gave, not the temporary file it was being written through.
func TestErrorsNameUserFile(t *testing.T) {
	f := newSignFixture(t)
	out := filepath.Join(f.dir, "no", "such", "dir", "x.sig")
	code, _, stderr := runCLI(t, "sign", "--sk", f.skPath, "--msg", f.msgPath, "--out", out)
	if code != cli.ExitUsage || !strings.Contains(stderr, out) || strings.Contains(stderr, ".tmp") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestHexDetected reads hex key and signature files without --hex, with a
// binary message, and binary ones with the hex message under --hex.
func TestHexDetected(t *testing.T) {
	dir, _, _, _ := verifyFiles(t)
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, args := range [][]string{
		{"--pk", p("pk.hex"), "--msg", p("msg"), "--sig", p("sig.hex")},
		{"--pk", p("pk"), "--msg", p("msg"), "--sig", p("sig.hex")},
		{"--pk", p("pk.hex"), "--msg", p("msg"), "--sig", p("sig")},
	} {
		if code, out, stderr := runCLI(t, append([]string{"verify"}, args...)...); code != 0 || out != "valid\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
	f := newSignFixture(t)
	skHex := f.write(t, "key.sk.hex", cli.HexOutput(f.sk.Encode()))
	out := filepath.Join(f.dir, "s")
	if code, _, stderr := runCLI(t, "sign", "--sk", skHex, "--msg", f.msgPath, "--out", out); code != 0 {
		t.Fatalf("sign with a hex key: exit %d, %s", code, stderr)
	}
	if err := falcon.Verify(f.pk, f.msg, readFile(t, out)); err != nil {
		t.Error(err)
	}
}

// mustHex decodes hex text (whitespace ignored).
func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStdioStreams reads a message from standard input and writes a KAT
// response file to standard output (its summary then goes to stderr).
func TestStdioStreams(t *testing.T) {
	f := newSignFixture(t)
	out := filepath.Join(f.dir, "sig")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"sign", "--sk", f.skPath, "--msg", "-", "--out", out}, bytes.NewReader(f.msg), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("sign --msg -: exit %d: %s", code, stderr.String())
	}
	if err := falcon.Verify(f.pk, f.msg, readFile(t, out)); err != nil {
		t.Errorf("signature of the message read from stdin: %v", err)
	}
	if code, _, errs := runCLI(t, "sign", "--sk", "-", "--msg", "-", "--out", out); code != cli.ExitUsage || !strings.Contains(errs, "both read standard input") {
		t.Errorf("sign --sk - --msg -: exit %d, stderr %q", code, errs)
	}
	code, rsp, errs := runCLI(t, "kat", "--params", "512", "--records", "2", "--out", "-")
	if code != 0 || rsp != string(publishedPrefix(t, 2)) || !strings.Contains(errs, "BACKEND") {
		t.Errorf("kat --out -: exit %d, stderr %q, stdout %d bytes", code, errs, len(rsp))
	}
}
