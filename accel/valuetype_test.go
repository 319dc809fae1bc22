package accel_test

// The test binary links the composition root: its init instantiates every
// consumer for every backend's value type, before any test of the binary
// runs, so the tests of package accel too run the bundled backends by
// name (package valuetype imports package accel, so only an external test
// package can import it).
import _ "github.com/fprlab/fprlab/valuetype"
