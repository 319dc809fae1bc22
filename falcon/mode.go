package falcon

import (
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
)

// Mode is one of the reference's two signing procedures. They compute the
// same thing in different operation orders, so that on the same key,
// message, nonce and sampler seed they sign differently once in some tens
// of thousands of signatures (docs/backends.md gives the measured rates):
// a campaign or a reproduction names the one it means.
type Mode int

const (
	// Dyn is falcon_sign_dyn: the basis, the Gram matrix and the ffLDL
	// tree are recomputed for every attempt, interleaved with
	// ffSampling_fft_dyntree (Sign, SignHashedDyn). It is the default, and
	// the procedure of the round-3 NIST API and its KATs.
	Dyn Mode = iota
	// Tree is falcon_expand_privkey + falcon_sign_tree: the basis in FFT
	// form and the normalised ffLDL tree are computed once
	// (ExpandPrivateKey) and every attempt runs ffSampling_fft over the
	// stored tree (ExpandedKey.Sign).
	Tree
)

var modeNames = [...]string{Dyn: "dyn", Tree: "tree"}

// String returns the mode's name, "dyn" or "tree".
func (m Mode) String() string {
	if m < 0 || int(m) >= len(modeNames) {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// ParseMode parses a mode name ("dyn" or "tree").
func ParseMode(s string) (Mode, error) {
	for m, name := range modeNames {
		if s == name {
			return Mode(m), nil
		}
	}
	return 0, fmt.Errorf("unknown signing mode %q (want dyn or tree)", s)
}

// SignMode signs msg with sk over backend b in the given format and mode,
// reading the nonce and the sampler seeds from rng: Sign for Dyn, and
// ExpandPrivateKey then ExpandedKey.Sign for Tree. Both read rng the same
// way, so that with the same rng the two modes sign the same (key, nonce,
// message, seeds) -- the comparison of the reference's two procedures.
// The warning of Sign applies.
func SignMode(b arith.Backend, sk *PrivateKey, msg []byte, format SigFormat, rng io.Reader, mode Mode) ([]byte, error) {
	switch mode {
	case Dyn:
		return Sign(b, sk, msg, format, rng)
	case Tree:
		ek, err := ExpandPrivateKey(b, sk)
		if err != nil {
			return nil, err
		}
		return ek.Sign(msg, format, rng)
	}
	return nil, fmt.Errorf("falcon: unknown signing mode %d", int(mode))
}

// SignHashedMode returns s2 for the hashed point hm in the given mode
// (SignHashedDyn, or ExpandPrivateKey then ExpandedKey.SignHashed).
func SignHashedMode(b arith.Backend, sk *PrivateKey, hm []uint16, rng io.Reader, mode Mode) ([]int16, error) {
	switch mode {
	case Dyn:
		return SignHashedDyn(b, sk, hm, rng)
	case Tree:
		ek, err := ExpandPrivateKey(b, sk)
		if err != nil {
			return nil, err
		}
		return ek.SignHashed(hm, rng)
	}
	return nil, fmt.Errorf("falcon: unknown signing mode %d", int(mode))
}
