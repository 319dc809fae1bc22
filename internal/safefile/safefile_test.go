package safefile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadCapsEndlessDevice(t *testing.T) {
	_, err := Read(nil, "/dev/zero", 1000)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != 1000 || !strings.Contains(err.Error(), "/dev/zero is larger than 1000 bytes") {
		t.Fatalf("err = %v", err)
	}
}

func TestReadLimitIsInclusive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(nil, p, 5); err != nil || string(got) != "12345" {
		t.Errorf("limit 5: %q, %v", got, err)
	}
	if _, err := Read(nil, p, 4); err == nil {
		t.Error("limit 4: no error for a 5-byte file")
	}
	if got, err := Read(strings.NewReader("stdin"), "-", 10); err != nil || string(got) != "stdin" {
		t.Errorf("-: %q, %v", got, err)
	}
	if _, err := Read(nil, t.TempDir(), 10); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
}

func TestWriteThroughSymlinkKeepsLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	link := filepath.Join(dir, "link")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(nil, File{Path: link, Data: []byte("new")}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("target holds %q", got)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("missing", dangling); err != nil {
		t.Fatal(err)
	}
	err := WriteFiles(nil, File{Path: dangling, Data: []byte("x")})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("dangling link: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "missing")); err == nil {
		t.Error("dangling link's target was created")
	}
}

// TestWriteIntoFIFO writes into a named pipe: it must stay a pipe (the
// old code renamed a regular file over it), and the reader gets the data.
func TestWriteIntoFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan []byte)
	go func() {
		data, _ := os.ReadFile(p)
		got <- data
	}()
	if err := WriteFiles(nil, File{Path: p, Data: []byte("through the pipe")}); err != nil {
		t.Fatal(err)
	}
	if data := <-got; string(data) != "through the pipe" {
		t.Errorf("reader got %q", data)
	}
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
}

func TestWriteDevNullStaysDevice(t *testing.T) {
	if err := WriteFiles(nil, File{Path: "/dev/null", Data: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat("/dev/null"); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatalf("/dev/null is no longer a device: %v %v", fi.Mode(), err)
	}
	if err := WriteFiles(nil, File{Path: "/dev/full", Data: []byte("x")}); err == nil || !strings.Contains(err.Error(), "writing /dev/full") {
		t.Errorf("/dev/full: %v", err)
	}
}

func TestWriteDashIsStdout(t *testing.T) {
	var out bytes.Buffer
	p := filepath.Join(t.TempDir(), "f")
	if err := WriteFiles(&out, File{Path: "-", Data: []byte("to stdout")}, File{Path: p, Data: []byte("file")}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "to stdout" {
		t.Errorf("stdout got %q", out.String())
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("a file named - was created")
	}
}

// TestWriteSetIsAllOrNothing puts a directory in the way of the second
// file: the first keeps its old content and no temporary file is left.
func TestWriteSetIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(b, 0o755); err != nil {
		t.Fatal(err)
	}
	err := WriteFiles(nil, File{Path: a, Data: []byte("new")}, File{Path: b, Data: []byte("new")})
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(a); string(got) != "old" {
		t.Errorf("a holds %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("directory holds %d entries, want 2 (temporary files left?)", len(ents))
	}
}

func TestWriteErrorNamesUserFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "no", "such", "dir", "sig")
	err := WriteFiles(nil, File{Path: p, Data: []byte("x")})
	if err == nil || !strings.Contains(err.Error(), p) || strings.Contains(err.Error(), ".tmp") || !strings.Contains(err.Error(), "cannot create a file in "+filepath.Dir(p)) {
		t.Errorf("err = %v", err)
	}
	// A file that exists in a directory where no file can be created
	// (/proc's): the directory is named as the problem, not the file.
	err = WriteFiles(nil, File{Path: "/proc/self/mem", Data: []byte("x")})
	if err == nil || !strings.Contains(err.Error(), "writing /proc/self/mem: cannot create a file in /proc/self") {
		t.Errorf("/proc/self/mem: %v", err)
	}
}

func TestWriteModes(t *testing.T) {
	dir := t.TempDir()
	pub, sec := filepath.Join(dir, "pub"), filepath.Join(dir, "sec")
	if err := WriteFiles(nil, File{Path: pub, Data: []byte("p")}, File{Path: sec, Data: []byte("s"), Secret: true}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]fs.FileMode{pub: 0o644, sec: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v (%v)", p, fi.Mode().Perm(), want, err)
		}
	}
}

func TestDistinct(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.WriteFile(in, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other")
	spelled := filepath.Join(dir, ".", "sub", "..", "in")
	cases := []struct {
		ins, outs []Arg
		want      string // "" for no error
	}{
		{[]Arg{{"ref", in}}, []Arg{{"out", in}}, "--out " + in + " is the --ref file"},
		{[]Arg{{"ref", in}}, []Arg{{"out", link}}, "is the --ref file"},
		{[]Arg{{"ref", in}}, []Arg{{"out", spelled}}, "is the --ref file"},
		{nil, []Arg{{"out", other}, {"checkpoint", other}}, "name the same file"},
		{nil, []Arg{{"pk", "-"}, {"sk", "-"}}, "name the same file"},
		{[]Arg{{"msg", "-"}}, []Arg{{"out", "-"}}, ""},
		{[]Arg{{"ref", in}, {"sk", ""}}, []Arg{{"out", other}, {"checkpoint", ""}}, ""},
	}
	for i, c := range cases {
		err := Distinct(c.ins, c.outs)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: err = %v, want %q", i, err, c.want)
		}
	}
}

// TestWriteFilesBothOrNeither: when an output that cannot be taken back
// fails (a full device), no regular file of the same call is written,
// and a secret file bound for standard output is not printed (keygen
// --pk /dev/full --sk a.sk used to leave a.sk; --sk - printed the private
// key before failing).
func TestWriteFilesBothOrNeither(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	sk := filepath.Join(dir, "a.sk")
	if err := WriteFiles(io.Discard, File{Path: sk, Data: []byte("secret"), Secret: true}, File{Path: "/dev/full", Data: []byte("public")}); err == nil {
		t.Fatal("writing /dev/full succeeded")
	}
	if _, err := os.Stat(sk); err == nil {
		t.Error("the private key file was written although the public key failed")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left %v", ents)
	}
	var out bytes.Buffer
	if err := WriteFiles(&out, File{Path: "-", Data: []byte("secret"), Secret: true}, File{Path: "/dev/full", Data: []byte("public")}); err == nil {
		t.Fatal("writing /dev/full succeeded")
	}
	if out.Len() != 0 {
		t.Errorf("printed %q before failing", out.String())
	}
	pk := filepath.Join(dir, "a.pk")
	if err := WriteFiles(io.Discard, File{Path: "/dev/full", Data: []byte("secret"), Secret: true}, File{Path: pk, Data: []byte("public")}); err == nil {
		t.Fatal("writing /dev/full succeeded")
	}
	if _, err := os.Stat(pk); err == nil {
		t.Error("the public key file was written although the private key failed")
	}
}

// TestWriteNew: a new file gets the data (private when secret) and no
// temporary is left; an existing file, a link (even to a missing file)
// and a device are refused by the user's name and left as they were.
func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "key")
	if err := WriteNew(p, []byte("secret"), true); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "secret" {
		t.Fatalf("read back %q, %v", b, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if err := WriteNew(p, []byte("other"), true); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "exists") {
		t.Errorf("over an existing file: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "secret" {
		t.Errorf("the existing file now holds %q", b)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "missing"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(dangling, []byte("x"), false); err == nil {
		t.Error("written through a dangling link")
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Error("the dangling link's target was created")
	}
	if err := WriteNew("/dev/null", []byte("x"), false); err == nil || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("over /dev/null: %v", err)
	}
	if err := WriteNew(filepath.Join(dir, "no", "such", "dir"), []byte("x"), false); err == nil || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("into a missing directory: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("the directory holds %v, want the key and the link", ents)
	}
}

// TestWouldReplace: a file, a directory and a dangling symbolic link
// would be replaced; a missing path, "-", a device and a FIFO would not.
func TestWouldReplace(t *testing.T) {
	dir := t.TempDir()
	file, link, fifo := filepath.Join(dir, "file"), filepath.Join(dir, "link"), filepath.Join(dir, "fifo")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), link); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		file: true, dir: true, link: true,
		filepath.Join(dir, "missing"): false, Stdio: false, "/dev/null": false, fifo: false,
	} {
		if got := WouldReplace(path); got != want {
			t.Errorf("WouldReplace(%s) = %v, want %v", path, got, want)
		}
	}
}

// TestReadDashWithoutStdin: "-" where no standard input is given is an
// error naming it, not a read from nil.
func TestReadDashWithoutStdin(t *testing.T) {
	if _, err := Read(nil, Stdio, 10); err == nil || !strings.Contains(err.Error(), "must be a file") {
		t.Errorf("Read(nil, -): %v", err)
	}
}

// TestReadJSON: a document is read whole, less its leading white space,
// within the same limit as Read; a file that cannot open a document is
// refused from its first byte, so /dev/zero costs a few bytes, not the
// limit.
func TestReadJSON(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		content, want string
		limit         int64
	}{
		{"{\"a\": 1}\n", "{\"a\": 1}\n", 9},
		{" \n\t[1, 2]", "[1, 2]", 9},
		{"\n\n", "", 9},
		{"", "", 9},
	} {
		got, err := ReadJSON(nil, write("ok", c.content), c.limit)
		if err != nil || string(got) != c.want {
			t.Errorf("%q: %q, %v; want %q", c.content, got, err, c.want)
		}
	}
	// The limit counts the leading white space, as Read's does.
	var tl *TooLargeError
	if _, err := ReadJSON(nil, write("big", "  [1, 2]"), 7); !errors.As(err, &tl) || tl.Limit != 7 {
		t.Errorf("8 bytes under a limit of 7: %v", err)
	}
	if _, err := ReadJSON(nil, write("big", "[1, 2]  "), 7); !errors.As(err, &tl) {
		t.Errorf("8 bytes under a limit of 7: %v", err)
	}
	for content, want := range map[string]string{
		"\x00\x00":       "is not JSON: it begins with byte 0x00, where a document begins with { or [",
		"  hello":        `is not JSON: it begins with 'h'`,
		"\xef\xbb\xbf{}": "it begins with byte 0xef",
	} {
		_, err := ReadJSON(nil, write("bad", content), 100)
		var nj *NotJSONError
		if !errors.As(err, &nj) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; want %q", content, err, want)
		}
	}
	// An endless device is refused at its first byte, with a limit that
	// Read would take in full first.
	var nj *NotJSONError
	if _, err := ReadJSON(nil, "/dev/zero", 1<<40); !errors.As(err, &nj) || !strings.Contains(err.Error(), "/dev/zero is not JSON") {
		t.Errorf("/dev/zero: %v", err)
	}
	if got, err := ReadJSON(strings.NewReader(" {}"), Stdio, 10); err != nil || string(got) != "{}" {
		t.Errorf("-: %q, %v", got, err)
	}
	if _, err := ReadJSON(strings.NewReader("x"), Stdio, 10); err == nil || !strings.Contains(err.Error(), "standard input is not JSON") {
		t.Errorf("- holding x: %v", err)
	}
	if _, err := ReadJSON(nil, Stdio, 10); err == nil || !strings.Contains(err.Error(), "must be a file") {
		t.Errorf("ReadJSON(nil, -): %v", err)
	}
	if _, err := ReadJSON(nil, dir, 10); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
}
