package main

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedUpToDate regenerates package falcon's copies (every
// instance of the table) in memory and compares them with the checked-in
// files: a change to the generic code without `go generate` fails here.
func TestGeneratedUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..")
	files, err := generate(dir, instances)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range files {
		names[f.name] = true
		old, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			t.Fatalf("%v (run go generate in falcon)", err)
		}
		if !bytes.Equal(old, f.src) {
			t.Errorf("falcon/%s is out of date: run go generate in falcon", f.name)
		}
	}
	for _, in := range instances {
		if !names[in.genName()] {
			t.Errorf("no %s generated", in.genName())
		}
		for _, n := range []string{in.genName(), in.genTestName()} {
			if _, err := os.Stat(filepath.Join(dir, n)); err == nil && !names[n] {
				t.Errorf("falcon/%s exists but is no longer generated: delete it", n)
			}
		}
	}
}

// TestRewriteRules generates the native copies of testdata/rules, a small
// package that uses every construct the rules cover, compares them with the
// expected output testdata/rules.golden (checked by reading it), and
// type-checks the package together with its copies.
func TestRewriteRules(t *testing.T) {
	native := instances[0]
	files, err := generate(filepath.Join("testdata", "rules"), []instance{native})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].name != native.genName() {
		t.Fatalf("generated %d files, want only %s", len(files), native.genName())
	}
	want, err := os.ReadFile(filepath.Join("testdata", "rules.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if got := files[0].src; !bytes.Equal(got, want) {
		t.Errorf("generated:\n%s\nwant:\n%s", got, want)
	}

	fset := token.NewFileSet()
	var asts []*ast.File
	for _, name := range []string{"rules/rules.go", "rules.golden"} {
		f, err := parser.ParseFile(fset, filepath.Join("testdata", name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		asts = append(asts, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("rules", fset, asts, nil); err != nil {
		t.Errorf("the package with its copies does not type-check: %v", err)
	}
}

// TestRewriteRejects checks that constructs outside the rules are errors.
func TestRewriteRejects(t *testing.T) {
	for _, c := range []struct{ dir, msg string }{
		{"shadow", "would shadow the substitution"},
		{"otherargs", "does not become"},
	} {
		_, err := generate(filepath.Join("testdata", c.dir), instances[:1])
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got error %v, want one containing %q", c.dir, err, c.msg)
		}
	}
}

// TestRewriteInstances generates every instance of the table for
// testdata/rules and type-checks the package with all the copies: each
// instance's substitution is declared once and uses its own types (the
// emu64 copy of add takes an emu64.Arith and emu64.FPR values).
func TestRewriteInstances(t *testing.T) {
	files, err := generate(filepath.Join("testdata", "rules"), instances)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(instances) {
		t.Fatalf("generated %d files, want %d", len(files), len(instances))
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join("testdata", "rules", "rules.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	asts := []*ast.File{f}
	for i, g := range files {
		if want := instances[i].genName(); g.name != want {
			t.Errorf("file %d is %s, want %s", i, g.name, want)
		}
		f, err := parser.ParseFile(fset, g.name, g.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		asts = append(asts, f)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("rules", fset, asts, info)
	if err != nil {
		t.Fatalf("the package with all copies does not type-check: %v", err)
	}
	for _, c := range []struct{ fn, sig string }{
		{"addNative", "func(a github.com/fprlab/fprlab/arith/native.Arith, x float64, y float64) float64"},
		{"addEmu64", "func(a github.com/fprlab/fprlab/arith/emu64.Arith, x github.com/fprlab/fprlab/arith/emu64.FPR, y github.com/fprlab/fprlab/arith/emu64.FPR) github.com/fprlab/fprlab/arith/emu64.FPR"},
		{"addTriword", "func(a github.com/fprlab/fprlab/arith/triword.Arith, x github.com/fprlab/fprlab/arith/triword.TW, y github.com/fprlab/fprlab/arith/triword.TW) github.com/fprlab/fprlab/arith/triword.TW"},
	} {
		obj := pkg.Scope().Lookup(c.fn)
		if obj == nil {
			t.Errorf("%s not generated", c.fn)
			continue
		}
		if got := obj.Type().String(); got != c.sig {
			t.Errorf("%s has type %s, want %s", c.fn, got, c.sig)
		}
	}
}

// TestHandWritten checks an instance's hand-written copies: in
// testdata/handwritten the call of the hook becomes a call of the
// package's own hookNative and no copy of hook is written; in
// testdata/handmissing, which does not declare hookNative, generating is
// an error.
func TestHandWritten(t *testing.T) {
	native := instances[0]
	native.handWritten = []string{"hook"}
	files, err := generate(filepath.Join("testdata", "handwritten"), []instance{native})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 {
		t.Fatalf("generated %d files, want 1", len(files))
	}
	src := string(files[0].src)
	if !strings.Contains(src, "func useNative(a native.Arith, x []float64) {") || !strings.Contains(src, "if hookNative(a, x) {") {
		t.Errorf("useNative does not call hookNative:\n%s", src)
	}
	if strings.Contains(src, "func hookNative") {
		t.Errorf("the hand-written hookNative was generated too:\n%s", src)
	}
	_, err = generate(filepath.Join("testdata", "handmissing"), []instance{native})
	if err == nil || !strings.Contains(err.Error(), "declares no function hookNative") {
		t.Errorf("handmissing: got error %v, want one about the missing hookNative", err)
	}
}

// TestTriwordOmitsKeygen checks that the triword instance copies no key
// generation (triple-word binary32 cannot run NTRUSolve) while native, which
// can, copies it, and that triword still copies signing.
func TestTriwordOmitsKeygen(t *testing.T) {
	files, err := generate(filepath.Join("..", ".."), instances)
	if err != nil {
		t.Fatal(err)
	}
	src := map[string]string{}
	for _, f := range files {
		src[f.name] = string(f.src)
	}
	for _, s := range []string{"func (e *engineOfNative) keygen(", "type ntruSolverNative struct", "func (e *engineOfNative) attemptTree("} {
		if !strings.Contains(src["zz_native_gen.go"], s) {
			t.Errorf("native copy lacks %q", s)
		}
	}
	tw := src["zz_triword_gen.go"]
	for _, s := range []string{"func (e *engineOfTriword) keygen(", "func (e *engineOfTriword) solveNTRU(", "ntruSolverTriword", "polyBigToFpTriword"} {
		if strings.Contains(tw, s) {
			t.Errorf("triword copy holds key generation: %q", s)
		}
	}
	for _, s := range []string{"func (e *engineOfTriword) attemptTree(", "func (e *engineOfTriword) expandKey(", "func ffSamplingTreeTriword("} {
		if !strings.Contains(tw, s) {
			t.Errorf("triword copy lacks signing: %q", s)
		}
	}
}

// TestStubs checks an instance's stubs: in testdata/stubs the copy of
// hook returns false without its generic body (no type assertion, no
// copy of the helper the body calls), useEmu64 calls it, and a stub that
// does not return one bool is an error.
func TestStubs(t *testing.T) {
	emu := instances[1]
	emu.stubs = []string{"hook"}
	files, err := generate(filepath.Join("testdata", "stubs"), []instance{emu})
	if err != nil {
		t.Fatal(err)
	}
	src := string(files[0].src)
	if !strings.Contains(src, "func hookEmu64(a emu64.Arith, x []emu64.FPR) bool { return false }") {
		t.Errorf("hookEmu64 is not a stub:\n%s", src)
	}
	if !strings.Contains(src, "if hookEmu64(a, x) {") {
		t.Errorf("useEmu64 does not call hookEmu64:\n%s", src)
	}
	if strings.Contains(src, "Vector") || strings.Contains(src, "batched") {
		t.Errorf("the stub's body or its helper was copied:\n%s", src)
	}
	emu.stubs = []string{"notBool"}
	if _, err := generate(filepath.Join("testdata", "stubs"), []instance{emu}); err == nil || !strings.Contains(err.Error(), "stub notBool does not return one bool") {
		t.Errorf("a stub returning int: error %v", err)
	}
}
