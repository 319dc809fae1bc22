package valuetype

// The composition root links the signature schemes too, as it links the
// bundled backends: analysis/shadow, analysis/tune and the commands look a
// scheme up by name (package scheme) and import no implementation, so a
// program that registers value types here can also run a campaign of either
// scheme -- round 3, the default of a zero shadow.Config, and FN-DSA's two
// profiles.
import (
	_ "github.com/fprlab/fprlab/scheme/fndsa2025" // "fn-dsa" (also "fn-dsa-2025")
	_ "github.com/fprlab/fprlab/scheme/fndsa2026" // "fn-dsa-2026"
	_ "github.com/fprlab/fprlab/scheme/round3"    // "falcon", the default
)
