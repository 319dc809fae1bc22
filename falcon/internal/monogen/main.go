// Command monogen writes monomorphic instances of package falcon's generic
// code as ordinary, non-generic Go: one per bundled backend whose
// arithmetic is cheap (native float64, emu64, triword).
//
// Falcon is written once, as generic code over [F any, A arith.Arith[F]].
// Go compiles a method call on a type parameter into a dictionary call that
// is never inlined, which makes hardware float64 arithmetic about five times
// slower than plain code, and adds a call to every integer-emulated
// operation. monogen substitutes, for each instance of its table
// (instances in gen.go), a value type for F and a concrete arithmetic type
// for A -- F = float64, A = native.Arith; F = emu64.FPR, A = emu64.Arith;
// F = triword.TW, A = triword.Arith -- into every generic function, method
// and type of the package, so that the compiler sees concrete code whose
// calls are direct and can inline. The generic code stays the only source:
// the copies are regenerated from it and never edited.
//
// Run it from package falcon (go generate runs it there):
//
//	go run ./internal/monogen
//
// It writes two files per instance in the current directory (for native):
//
//   - zz_native_gen.go: the copies of the generic declarations of the
//     package's non-test files;
//   - zz_native_gen_test.go: the copies of the generic declarations of the
//     package's internal test files (test helpers defined as methods of the
//     generic engine, so that tests reach the generated engine too).
//
// # Rewriting rules
//
// A declaration is generic if it has type parameters (functions and types)
// or a generic receiver (methods). Every type parameter must be either
// unconstrained (any; it becomes the instance's value type, e.g. float64)
// or constrained by arith.Arith of the first kind (it becomes the
// instance's arithmetic, e.g. native.Arith). Each generic function and type
// X is copied as X+suffix (XNative, XEmu64, XTriword) with its type
// parameter list removed; methods keep their names and move to the copied
// receiver type. In the copies:
//
//   - a use of a type parameter becomes the value or arithmetic type;
//   - a reference to a generic function or type of the package, written
//     with explicit type arguments (fft[F, A], expandedKey[F]) or inferred
//     (fft(a, f, logn)), becomes a reference to its copy; the type
//     arguments must be the type parameters of the enclosing declaration,
//     or the instance's value and arithmetic types, in the roles the
//     callee expects.
//
// An instance may list generic functions whose copy the package writes by
// hand (handWritten in the instance table; for native, the vector
// fast-path hooks of falcon/fft_vec.go): calls are rewritten to the
// hand-written copy, which must exist, and the generic body is not copied.
//
// The rewriting is a set of text edits on the original source, located
// with go/types (so shadowed names are never touched), which keeps the
// comments inside function bodies. Anything the rules do not cover (a
// type parameter of another kind, an instantiation with other type
// arguments, a local declaration named like a substituted package or
// float64) is an error rather than a silent miscompilation. The output is
// gofmt'ed.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("monogen: ")
	dir := flag.String("dir", ".", "directory of the package to instantiate")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: monogen [-dir DIR]")
		os.Exit(2)
	}
	files, err := generate(*dir, instances)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range files {
		path := filepath.Join(*dir, f.name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, f.src) {
			continue
		}
		if err := os.WriteFile(path, f.src, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
