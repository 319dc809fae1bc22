// Package plugintest builds the C and C++ arithmetic plugins of the
// repository (examples/, test fixtures) for the tests of packages that
// load them.
package plugintest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// ErrNoCompiler is returned (wrapped) by Path when no compiler can build
// a library this process can load: gcc or g++ missing, or one that
// targets another architecture (a cross-compiled test under qemu-user).
var ErrNoCompiler = errors.New("no C compiler for this architecture")

var (
	mu    sync.Mutex
	built = map[string]string{} // source and flags -> library
	dir   string
)

// Path compiles the C or C++ source src (a path relative to the current
// directory, a test's package; .cpp is C++) into a shared library with gcc
// or g++ and the extra flags, once per process, and returns its path.
func Path(src string, flags ...string) (string, error) {
	cc := "gcc"
	if strings.HasSuffix(src, ".cpp") {
		cc = "g++"
	}
	if _, err := exec.LookPath(cc); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoCompiler, err)
	}
	if m := machine(cc); m != "" && m != runtime.GOARCH {
		return "", fmt.Errorf("%w: %s builds for %s, this process runs on %s", ErrNoCompiler, cc, m, runtime.GOARCH)
	}
	mu.Lock()
	defer mu.Unlock()
	key := src + "\x00" + strings.Join(flags, "\x00")
	if p, ok := built[key]; ok {
		return p, nil
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "fprlab-plugins-")
		if err != nil {
			return "", err
		}
		dir = d
	}
	out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))+"-"+strconv.Itoa(len(built))+".so")
	args := append([]string{"-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-o", out, src}, flags...)
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", cc, strings.Join(args, " "), err, msg)
	}
	built[key] = out
	return out, nil
}

// Build is Path for a test: without a compiler the test is skipped --
// except under CI=true, where the examples must be built and a missing
// compiler fails the test (a cross-compiled run is skipped even then).
func Build(t testing.TB, src string, flags ...string) string {
	t.Helper()
	p, err := Path(src, flags...)
	if Skippable(err) {
		t.Skip(err)
	}
	if err != nil {
		if errors.Is(err, ErrNoCompiler) {
			t.Fatalf("%s (CI=true): %v", src, err)
		}
		t.Fatal(err)
	}
	return p
}

// Skippable reports whether a test may skip after Path's error err: no
// compiler outside CI, or one that builds for another architecture (a
// cross-compiled run under qemu-user, even in CI).
func Skippable(err error) bool {
	return errors.Is(err, ErrNoCompiler) && (!Required() || strings.Contains(err.Error(), "builds for"))
}

// Required reports whether the plugins must be built (CI=true).
func Required() bool { return os.Getenv("CI") == "true" }

// machine is the GOARCH of cc's target (cc -dumpmachine), "" when unknown.
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
