package tune

import (
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/scheme/fndsa2025"
	"github.com/fprlab/fprlab/scheme/round3"
)

// The schemes the tests search: the package takes any scheme.Scheme and
// links none; its tests link both (registering them by name, for the
// zero Config's default).
var (
	schemeFalcon = round3.Scheme
	schemeFNDSA  = fndsa2025.Scheme
	keysFNDSA    = shadow.KeysOf(fndsa2025.Scheme)
)
