// Package plugintest builds the C and C++ arithmetic plugins of the
// repository (examples/, test fixtures) for the tests of packages that
// load them.
package plugintest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	mu    sync.Mutex
	built = map[string]string{} // source and flags -> library
	dir   string
)

// Build compiles the C or C++ source src (a path relative to the calling
// test's package; .cpp is C++) into a shared library with gcc or g++ and
// the extra flags, once per test binary, and returns the library's path.
// Without the compiler the test is skipped -- except under CI=true, where
// the examples must be built and a missing compiler fails the test.
func Build(t testing.TB, src string, flags ...string) string {
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
	if m := machine(cc); m != "" && m != runtime.GOARCH {
		// A cross-compiled test (arm64 under qemu-user) cannot load the
		// host compiler's libraries.
		t.Skipf("%s builds for %s, this test runs on %s", cc, m, runtime.GOARCH)
	}
	mu.Lock()
	defer mu.Unlock()
	key := src + "\x00" + strings.Join(flags, "\x00")
	if p, ok := built[key]; ok {
		return p
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "fprlab-plugins-")
		if err != nil {
			t.Fatal(err)
		}
		dir = d
	}
	out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))+"-"+strconv.Itoa(len(built))+".so")
	args := append([]string{"-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-o", out, src}, flags...)
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, msg)
	}
	built[key] = out
	return out
}

// machine is the GOARCH of cc's target (gcc -dumpmachine), "" when unknown.
func machine(cc string) string {
	out, err := exec.Command(cc, "-dumpmachine").Output()
	if err != nil {
		return ""
	}
	arch, _, _ := strings.Cut(strings.TrimSpace(string(out)), "-")
	switch arch {
	case "x86_64":
		return "amd64"
	case "aarch64":
		return "arm64"
	case "i386", "i486", "i586", "i686":
		return "386"
	}
	return arch
}

// Cleanup removes the libraries built so far; a TestMain calls it after
// the tests.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if dir != "" {
		os.RemoveAll(dir)
		dir, built = "", map[string]string{}
	}
}
