package fndsa

// The helpers of the go-fn-dsa cross check (gofndsa_test.go), for the
// tests of package fndsa_test.
type GoCheck = goCheck

var (
	Vectors     = vectors
	Unhex       = unhex
	MustPreHash = preHash
	MustBackend = backend
)
