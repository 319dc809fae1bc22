package shadow

import (
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme/fndsa2025"
	"github.com/fprlab/fprlab/scheme/round3"
)

// The schemes the tests sign: the package takes any scheme.Scheme and
// links none; its tests link both (and register them by name, for the
// zero Config's default and for identities read back).
var (
	SchemeFalcon = round3.Scheme
	SchemeFNDSA  = fndsa2025.Scheme
	KeysFNDSA    = KeysOf(fndsa2025.Scheme)
)

// FNDSAKeySeed is the seed of FN-DSA key i of a seeded campaign.
func FNDSAKeySeed(seed string, i int) []byte { return SchemeKeySeed(SchemeFNDSA, seed, i) }

// fndsaKeyOfSeed is FN-DSA's key of a 32-byte seed as a campaign holds it.
func fndsaKeyOfSeed(logn uint, seed []byte) (*falcon.PrivateKey, error) {
	return SchemeFNDSA.KeyGen(logn, seed)
}
