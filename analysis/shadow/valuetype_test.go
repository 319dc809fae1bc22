package shadow_test

// The test binary links the composition root: its init instantiates every
// consumer for every backend's value type, before any test of the binary
// runs, so the tests of package shadow too run the bundled backends by
// name (package valuetype imports package shadow, so only an external test
// package can import it).
import _ "github.com/fprlab/fprlab/valuetype"
