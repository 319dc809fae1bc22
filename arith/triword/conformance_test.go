package triword

import (
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/arithtest"
)

// TestConformance: every triword variant meets the operation set's
// contract to 66 bits, the weakest of the proven bounds in Falcon's range
// (the fast product's 2^-66.5, see the package documentation); a zero
// product is +0 whatever its factors' signs.
func TestConformance(t *testing.T) {
	for _, b := range Backends {
		t.Run(b.Name, func(t *testing.T) {
			arithtest.Run(t, b.Impl.(arith.Arith[TW]), arithtest.Options{Bits: 66, UnsignedZeroProducts: true})
		})
	}
}
