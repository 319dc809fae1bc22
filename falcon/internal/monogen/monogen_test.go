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

// TestGeneratedUpToDate regenerates package falcon's native copies in
// memory and compares them with the checked-in files: a change to the
// generic code without `go generate` fails here.
func TestGeneratedUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..")
	files, err := generate(dir)
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
	if !names[genName] {
		t.Errorf("no %s generated", genName)
	}
	for _, n := range []string{genName, genTestName} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil && !names[n] {
			t.Errorf("falcon/%s exists but is no longer generated: delete it", n)
		}
	}
}

// TestRewriteRules generates the copies of testdata/rules, a small package
// that uses every construct the rules cover, compares them with the
// expected output testdata/rules.golden (checked by reading it), and
// type-checks the package together with its copies.
func TestRewriteRules(t *testing.T) {
	files, err := generate(filepath.Join("testdata", "rules"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].name != genName {
		t.Fatalf("generated %d files, want only %s", len(files), genName)
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
		_, err := generate(filepath.Join("testdata", c.dir))
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got error %v, want one containing %q", c.dir, err, c.msg)
		}
	}
}
