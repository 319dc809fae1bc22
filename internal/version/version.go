// Package version names the fprlab release a program is: what checkpoints
// and campaign directories record, so that another release's are not
// resumed, and what `fprlab version` prints.
package version

import "runtime/debug"

// base is the release of fprlab; builds from a module cache report the
// module version instead when there is one.
const base = "0.1.0-dev"

// Release is the module version when built from the module cache, else
// base. Checkpoints record it: a checkpoint of another release is not
// resumed. (The VCS revision is left out there, since `go run` and `go
// build` of the same code stamp it differently.)
func Release() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return base
}

// Program is the version `fprlab version` prints: Release and, when the
// build recorded one, the VCS revision (+modified for a tree with
// uncommitted changes).
func Program() string {
	v := Release()
	bi, ok := debug.ReadBuildInfo()
	if !ok || v != base {
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
