package campaign

// The tests run campaigns over real backends and schemes, and name
// schemes in titles: link every backend, scheme and value type, as the
// fprlab program does.
import _ "github.com/fprlab/fprlab/valuetype"
