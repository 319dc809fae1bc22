// Command monogen writes the native (float64) instance of package falcon's
// generic code as ordinary, non-generic Go.
//
// Falcon is written once, as generic code over [F any, A arith.Arith[F]].
// Go compiles a method call on a type parameter into a dictionary call that
// is never inlined, which makes hardware float64 arithmetic about five times
// slower than plain code. monogen substitutes F = float64 and
// A = native.Arith (a zero-size struct whose methods inline) into every
// generic function, method and type of the package, so that the compiler
// sees concrete code. The generic code stays the only source: the copies
// are regenerated from it and never edited.
//
// Run it from package falcon (go generate runs it there):
//
//	go run ./internal/monogen
//
// It writes two files in the current directory:
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
// unconstrained (any; it becomes float64) or constrained by arith.Arith of
// the first kind (it becomes native.Arith). Each generic function and type
// X is copied as XNative with its type parameter list removed; methods keep
// their names and move to the copied receiver type. In the copies:
//
//   - a use of a type parameter becomes float64 or native.Arith;
//   - a reference to a generic function or type of the package, written
//     with explicit type arguments (fft[F, A], expandedKey[F]) or inferred
//     (fft(a, f, logn)), becomes a reference to its copy; the type
//     arguments must be the type parameters of the enclosing declaration,
//     or float64 and native.Arith, in the roles the callee expects.
//
// The rewriting is a set of text edits on the original source, located
// with go/types (so shadowed names are never touched), which keeps the
// comments inside function bodies. Anything the rules do not cover (a
// type parameter of another kind, an instantiation with other type
// arguments, a local declaration named native or float64) is an error
// rather than a silent miscompilation. The output is gofmt'ed.
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
	files, err := generate(*dir)
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
