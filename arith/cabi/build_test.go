package cabi_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// compiled caches the libraries built by this test binary, by source and flags.
var compiled sync.Map // string -> *built

type built struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

var libDir = sync.OnceValues(func() (string, error) { return os.MkdirTemp("", "fprlab-cabi-test-") })

func TestMain(m *testing.M) {
	code := m.Run()
	if d, err := libDir(); err == nil {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// plugin compiles the C or C++ source src (relative to this package) into a
// shared library with the extra flags and returns its path. Without the
// compiler the test is skipped -- except under CI=true, where the examples
// must be built and a missing compiler fails the test.
func plugin(t testing.TB, src string, flags ...string) string {
	t.Helper()
	cc := "gcc"
	if strings.HasSuffix(src, ".cpp") {
		cc = "g++"
	}
	if _, err := exec.LookPath(cc); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is needed to build %s (CI=true): %v", cc, src, err)
		}
		t.Skipf("%s not found: %v", cc, err)
	}
	key := src + "\x00" + strings.Join(flags, "\x00")
	v, _ := compiled.LoadOrStore(key, &built{})
	b := v.(*built)
	b.once.Do(func() {
		dir, err := libDir()
		if err != nil {
			b.err = err
			return
		}
		var n int
		compiled.Range(func(any, any) bool { n++; return true })
		b.path = filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))+"-"+strings.Repeat("x", n)+".so")
		args := append([]string{"-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-o", b.path, src}, flags...)
		b.out, b.err = exec.Command(cc, args...).CombinedOutput()
	})
	if b.err != nil {
		t.Fatalf("%s %s: %v\n%s", cc, src, b.err, b.out)
	}
	return b.path
}
