package main

import (
	"context"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/version"
)

// versionOptions holds the flags of version (none).
type versionOptions struct{}

func newVersionCmd(s *cli.Streams) *cobra.Command {
	opts := &versionOptions{}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the fprlab version and the Go toolchain it was built with",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVersion(cmd.Context(), opts, s)
		},
	}
}

func runVersion(_ context.Context, _ *versionOptions, s *cli.Streams) error {
	_, err := fmt.Fprintf(s.Out, "fprlab %s (%s %s/%s)\n", version.Program(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
