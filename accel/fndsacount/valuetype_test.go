package fndsacount_test

// The test binary links the composition root, which registers the backends
// the counts look up by name (emu64) and the sampler recorder of every
// value type; package valuetype imports this package (through the FN-DSA
// scheme), so only an external test package can import it.
import _ "github.com/fprlab/fprlab/valuetype"
