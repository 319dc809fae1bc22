package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/internal/cli"
)

// version is the release of fprlab; builds from a module cache report the
// module version instead when there is one.
const version = "0.1.0-dev"

// releaseVersion is the module version when built from the module cache,
// else version. Checkpoints record it: a checkpoint of another release is
// not resumed. (The VCS revision is left out there, since `go run` and
// `go build` of the same code stamp it differently.)
func releaseVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}

// programVersion is the version `fprlab version` prints: releaseVersion
// and, when the build recorded one, the VCS revision.
func programVersion() string {
	v := releaseVersion()
	bi, ok := debug.ReadBuildInfo()
	if !ok || v != version {
		return v
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
	_, err := fmt.Fprintf(s.Out, "fprlab %s (%s %s/%s)\n", programVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}
