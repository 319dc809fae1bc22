package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// RepeatedFlags refuses a flag given twice in args (the arguments of
// command c): pflag keeps the last value, so "--seed a ... --seed b" would
// silently measure seed b. Flags that collect values (--backend of plot,
// comma lists given in parts) may repeat. Arguments after "--" are not
// c's.
func RepeatedFlags(c *cobra.Command, args []string) error {
	seen := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, val, hasVal := strings.Cut(a[2:], "=")
		f := c.Flags().Lookup(name)
		if f == nil {
			continue // cobra reports unknown flags
		}
		if !hasVal && f.NoOptDefVal == "" && i+1 < len(args) {
			i++
			val = args[i]
		}
		if t := f.Value.Type(); strings.HasSuffix(t, "Slice") || strings.HasSuffix(t, "Array") {
			continue
		}
		if prev, ok := seen[name]; ok {
			if f.NoOptDefVal != "" && prev == "" && val == "" {
				return fmt.Errorf("--%s is given twice: give it once", name)
			}
			return fmt.Errorf("--%s is given twice (%q and %q): give it once", name, prev, val)
		}
		seen[name] = val
	}
	return nil
}

// NewHelpCmd is `fprlab help [command]`. Cobra's own prints "Unknown help
// topic" for a command that does not exist and succeeds; this one makes it
// a usage error (exit 2), as running the unknown command is.
func NewHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(_ *cobra.Command, args []string) error {
			c, rest, err := root.Find(args)
			if err != nil || c == nil || len(rest) > 0 {
				return fmt.Errorf("unknown help topic %q: see %s --help for the commands", strings.Join(args, " "), root.CommandPath())
			}
			c.InitDefaultHelpFlag()
			return c.Help()
		},
	}
}

// RequireSubcommand makes every command under c that only groups others
// (fprlab itself, accel, arith, campaign) a usage error (exit 2) when run
// without one of them or with an unknown one, instead of printing its help
// and succeeding: a script that misspells a subcommand must not pass.
func RequireSubcommand(c *cobra.Command) {
	for _, sub := range c.Commands() {
		RequireSubcommand(sub)
	}
	if !c.HasSubCommands() {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.SuggestionsMinimumDistance = 2
	c.RunE = func(cmd *cobra.Command, args []string) error {
		var names []string
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		if len(args) > 0 {
			msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
			if sug := cmd.SuggestionsFor(args[0]); len(sug) > 0 {
				msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(sug, ", "))
			}
			return fmt.Errorf("%s; the commands are: %s", msg, strings.Join(names, ", "))
		}
		fmt.Fprint(cmd.ErrOrStderr(), cmd.UsageString())
		return fmt.Errorf("%s needs a command: one of %s (see %s --help)", cmd.CommandPath(), strings.Join(names, ", "), cmd.CommandPath())
	}
}

// CheckPathFlags refuses, for the flags of cmd whose value is a path
// (their usage names it `DIR`, `FILE` or `SK`), an explicitly empty value,
// which would silently turn an output off or leave an input out, and "-"
// for a directory: "-" means standard output or input elsewhere, and a
// directory literally named "-" is never what was meant. fprlab's root
// runs it before every command.
func CheckPathFlags(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		name, _ := pflag.UnquoteUsage(f)
		if err != nil || (name != "DIR" && name != "FILE" && name != "SK") || f.Value.Type() != "string" {
			return
		}
		switch v := f.Value.String(); {
		case v == "":
			err = fmt.Errorf("--%s is empty: give a %s name (or leave the flag out)", f.Name, map[bool]string{true: "directory", false: "file"}[name == "DIR"])
		case v == "-" && name == "DIR":
			err = fmt.Errorf("--%s -: this is a directory, not standard output or input; give a directory name", f.Name)
		}
	})
	return err
}
