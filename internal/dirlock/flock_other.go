//go:build !unix

package dirlock

import (
	"errors"
	"os"
)

var errWouldBlock = errors.New("would block")

// flock is not available: campaign directories are not locked on this
// system (docs/shadow.md says so).
func flock(*os.File, bool) error { return nil }
