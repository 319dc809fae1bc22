package plan

// The shadowed campaigns of these tests sign round 3, the default scheme,
// which analysis/shadow looks up by name: the test links it.
import _ "github.com/fprlab/fprlab/scheme/round3"
