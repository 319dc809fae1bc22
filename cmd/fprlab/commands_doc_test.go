package main

// The command reference docs/commands.md is generated from the cobra tree,
// so that every command and flag is documented by construction and the
// reference cannot drift from --help: TestCommandReference fails when the
// file is stale (as cmd/go's alldocs test does), and
//
//	go generate ./cmd/fprlab
//
// rewrites it.

//go:generate go test -run ^TestCommandReference$ -update-commands

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/internal/cli"
)

var updateCommands = flag.Bool("update-commands", false, "rewrite ../../docs/commands.md from the command tree")

// commandsDocPath is the reference's path from this package's directory.
const commandsDocPath = "../../docs/commands.md"

// commandReference renders the reference of root and every command below
// it: a contents list, then per command its one-line summary and exactly
// the text `fprlab CMD --help` prints (Long and usage, flags with their
// defaults), in a preformatted block because the help text is laid out
// for a terminal. Cobra's help and completion commands are left out; the
// root's help says how to reach completion.
func commandReference(root *cobra.Command) []byte {
	var cmds []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c != root || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		cmds = append(cmds, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)

	var b bytes.Buffer
	b.WriteString("# fprlab command reference\n\n")
	b.WriteString("<!-- Generated from the command tree by `go generate ./cmd/fprlab` (cmd/fprlab/commands_doc_test.go); do not edit. -->\n\n")
	b.WriteString("Each section is what `fprlab COMMAND --help` prints, but for cobra's own `help` and `completion` commands, left out here (`fprlab completion --help`). The guides are listed in the [README](../README.md#documentation).\n\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "%s- [%s](#%s) -- %s\n", strings.Repeat("  ", depth(c)), c.CommandPath(), anchor(c), c.Short)
	}
	for _, c := range cmds {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n```text\n", c.CommandPath(), c.Short)
		var help bytes.Buffer
		c.InitDefaultHelpFlag()
		if c.Long != "" {
			help.WriteString(strings.TrimSpace(c.Long) + "\n\n")
		}
		help.WriteString(c.UsageString())
		b.WriteString(strings.TrimRight(help.String(), "\n") + "\n```\n")
	}
	return b.Bytes()
}

// depth is how far c is below the root command.
func depth(c *cobra.Command) int {
	d := -1
	for p := c; p.HasParent(); p = p.Parent() {
		d++
	}
	return max(d, 0)
}

// anchor is the link target GitHub gives the heading "## fprlab x y".
func anchor(c *cobra.Command) string {
	return strings.ReplaceAll(c.CommandPath(), " ", "-")
}

// TestCommandReference fails when docs/commands.md is not what the
// command tree generates: a command or flag was added, removed or its
// help changed without `go generate ./cmd/fprlab`.
func TestCommandReference(t *testing.T) {
	got := commandReference(newRootCmd(&cli.Streams{Out: io.Discard, Err: io.Discard}))
	if *updateCommands {
		if err := os.WriteFile(commandsDocPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(commandsDocPath)
	if err != nil {
		t.Fatalf("%v: run go generate ./cmd/fprlab", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s is stale (first difference at line %d: the tree gives %q, the file has %q): run go generate ./cmd/fprlab",
					commandsDocPath, i+1, g, w)
			}
		}
	}
}

// flagName finds the flag names in cobra's flag usage text.
var flagName = regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([\w-]+)`)

// TestCommandReferenceListsEveryFlag checks the generator, not the file:
// every flag of every command (the check TestCommandReference then keeps
// true in docs/commands.md) appears in the section of its command.
func TestCommandReferenceListsEveryFlag(t *testing.T) {
	root := newRootCmd(&cli.Streams{Out: io.Discard, Err: io.Discard})
	doc := string(commandReference(root))
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		if c.Name() == "help" || c.Name() == "completion" {
			return
		}
		head := "\n## " + c.CommandPath() + "\n"
		start := strings.Index(doc, head)
		if start < 0 {
			t.Errorf("no section for %s", c.CommandPath())
			return
		}
		section := doc[start+len(head):]
		if end := strings.Index(section, "\n## "); end >= 0 {
			section = section[:end]
		}
		for _, m := range flagName.FindAllStringSubmatch(c.LocalFlags().FlagUsages(), -1) {
			if !strings.Contains(section, "--"+m[1]) {
				t.Errorf("section %s lacks --%s", c.CommandPath(), m[1])
			}
		}
		for _, sub := range c.Commands() {
			visit(sub)
		}
	}
	visit(root)
}
