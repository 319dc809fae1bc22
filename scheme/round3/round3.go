// Package round3 registers Falcon round 3 (package falcon, compressed
// signatures) as the scheme "falcon", the default. Import it for its side
// effect where a program looks schemes up by name.
package round3

import (
	"errors"
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

func init() { scheme.Register(Scheme) }

// Scheme is Falcon round 3.
var Scheme scheme.Scheme = round3{}

type round3 struct{}

func (round3) Name() string { return "falcon" }

func (round3) Description() string { return "Falcon round 3" }

func (round3) Source() string { return "Falcon as submitted to NIST's third round" }

func (round3) Title(logn uint) string { return fmt.Sprintf("Falcon-%d", 1<<logn) }

// CheckLogN accepts every degree falcon defines (2 to 1024; the NIST
// parameter sets are 512 and 1024): campaigns at small degrees are how
// the precision questions are explored cheaply.
func (round3) CheckLogN(logn uint) error {
	_, err := falcon.ParamsFor(logn)
	return err
}

func (round3) KeySeedSize() int { return 0 }

func (round3) KeyGen(uint, []byte) (*falcon.PrivateKey, error) {
	return nil, errors.New("falcon: round 3's key generation runs over a backend (falcon.Keygen), not from a fixed seed")
}

func (r round3) Sign(b arith.Backend, sk *falcon.PrivateKey, msg []byte, rng io.Reader) ([]byte, error) {
	return r.SignFormat(b, sk, msg, falcon.Compressed, falcon.Dyn, rng)
}

// SignFormat makes round 3 a scheme.Formatter: its signatures come in
// falcon.h's three formats, by falcon_sign_dyn or falcon_sign_tree.
func (round3) SignFormat(b arith.Backend, sk *falcon.PrivateKey, msg []byte, f falcon.SigFormat, m falcon.Mode, rng io.Reader) ([]byte, error) {
	sig, err := falcon.SignMode(b, sk, msg, f, rng, m)
	return sig, scheme.MarkEngine(err)
}

func (round3) Verify(pk *falcon.PublicKey, msg, sig []byte) error { return falcon.Verify(pk, msg, sig) }

func (round3) EncodeKeys(sk *falcon.PrivateKey) (pk, skb []byte, err error) {
	pub, err := sk.Public()
	if err != nil {
		return nil, nil, err
	}
	pk, skb = pub.Encode(), sk.Encode()
	if pk == nil || skb == nil {
		return nil, nil, errors.New("falcon: key does not encode")
	}
	return pk, skb, nil
}

var (
	_ scheme.SignatureReader = round3{}
	_ scheme.Attempter       = round3{}
)

// SignAttempt runs an attempt of the dynamic path, falcon_sign_dyn's.
func (round3) SignAttempt(b arith.Backend, sk *falcon.PrivateKey, hm []uint16, seed []byte) error {
	_, err := falcon.SignAttemptDyn(b, sk, hm, scheme.AttemptSeed(seed, falcon.SeedSize))
	return err
}

// ReadSignature reads any of falcon.h's formats.
func (round3) ReadSignature(logn uint, sig []byte) ([]byte, []int16, error) {
	return scheme.ReadFalconSignature(logn, sig)
}

func (round3) DecodePublicKey(pk []byte) (*falcon.PublicKey, error) {
	return falcon.DecodePublicKey(pk)
}

func (round3) DecodePrivateKey(sk []byte) (*falcon.PrivateKey, error) {
	return falcon.DecodePrivateKey(sk)
}

// MaxEncodedSizes: falcon.h's formats.
func (round3) MaxEncodedSizes() (pk, sk, sig int) { return falcon.MaxEncodedSizes() }

func (round3) FixedInvSigma() bool  { return false }
func (round3) ReplaysNISTKAT() bool { return true }

func (round3) IdleStage(arith.PlanStage) string { return "" }
func (round3) CostNote() string                 { return "" }
