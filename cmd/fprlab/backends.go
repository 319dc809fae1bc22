package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/cabi" // so:PATH, arithmetic plugins
	"github.com/fprlab/fprlab/internal/cli"
)

// backendsOptions holds the flags of backends.
type backendsOptions struct {
	JSON bool
}

func newBackendsCmd(s *cli.Streams) *cobra.Command {
	opts := &backendsOptions{}
	cmd := &cobra.Command{
		Use:   "backends",
		Short: "List the arithmetic backends, their precision and what they model",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBackends(cmd.Context(), opts, s)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print a JSON array of {name, bits, description} (bits null and family true for name:P families)")
	return cmd
}

// runBackends lists the registered backends, then the families.
func runBackends(_ context.Context, opts *backendsOptions, s *cli.Streams) error {
	rows := arith.Catalog()
	if opts.JSON {
		return cli.PrintJSON(s.Out, rows)
	}
	tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tBITS\tDESCRIPTION")
	for _, r := range rows {
		bits := "P"
		if r.Bits != nil {
			bits = fmt.Sprint(*r.Bits)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, bits, r.Description)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Plugins are backends of the so: family; say how one is made.
	fmt.Fprintln(s.Out, "\nYour own arithmetic: build a shared library implementing plugin/fprlab_arith.h (C ABI version "+
		fmt.Sprint(cabi.ABIVersion)+"; examples/double.c is a minimal one) and name it so:PATH[@CONFIG], e.g.\n"+
		"  gcc -O2 -shared -fPIC -o libdouble.so examples/double.c && fprlab compare --backend so:./libdouble.so,native --params 512")
	// The sampler's acceptance test is chosen apart from the arithmetic.
	fmt.Fprintln(s.Out, "\nSampler acceptance tests (fprlab compare --acceptance NAME, with any backend):")
	tw = tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
	for _, m := range campaign.AcceptanceModels {
		fmt.Fprintf(tw, "%s\t%s\n", m.Name, m.Description)
	}
	return tw.Flush()
}
