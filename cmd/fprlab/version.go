package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is the release of fprlab; builds from a module cache report the
// module version instead when there is one.
const version = "0.1.0-dev"

// programVersion is the version printed by `fprlab version` and recorded
// in checkpoints: the module version when built from the module cache,
// else version, with the VCS revision when the build recorded one (a
// checkpoint of other code is not resumed).
func programVersion() string {
	v := version
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	var rev, modified string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if rev != "" {
		v += "+" + rev[:min(len(rev), 12)] + modified
	}
	return v
}

// versionOptions holds the flags of version (none).
type versionOptions struct{}

func newVersionCmd(s *streams) *cobra.Command {
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

func runVersion(_ context.Context, _ *versionOptions, s *streams) error {
	_, err := fmt.Fprintf(s.Out, "fprlab %s (%s %s/%s)\n", programVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
