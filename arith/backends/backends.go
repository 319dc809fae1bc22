// Package backends links every arithmetic backend into a program: importing
// it for its side effects registers them all with package arith.
package backends

import (
	_ "github.com/fprlab/fprlab/arith/native" // native
)
