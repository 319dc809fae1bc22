package valuetype_test

import (
	"context"
	"crypto/sha3"
	"math/big"
	"testing"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/valuetype"
)

// userValue is a value type of a user's own backend: binary64 in a struct,
// a type no consumer has heard of.
type userValue struct{ x float64 }

// userArith computes as native over userValue.
type userArith struct{ n native.Arith }

func (u userArith) Of(i int64) userValue            { return userValue{u.n.Of(i)} }
func (u userArith) Scaled(i int64, e int) userValue { return userValue{u.n.Scaled(i, e)} }
func (u userArith) FromFloat64(x float64) userValue { return userValue{x} }
func (u userArith) Const(c arith.Constant) userValue {
	return userValue{u.n.Const(c)}
}
func (u userArith) GM(k int) userValue              { return userValue{u.n.GM(k)} }
func (u userArith) Add(x, y userValue) userValue    { return userValue{u.n.Add(x.x, y.x)} }
func (u userArith) Sub(x, y userValue) userValue    { return userValue{u.n.Sub(x.x, y.x)} }
func (u userArith) Neg(x userValue) userValue       { return userValue{u.n.Neg(x.x)} }
func (u userArith) Half(x userValue) userValue      { return userValue{u.n.Half(x.x)} }
func (u userArith) Double(x userValue) userValue    { return userValue{u.n.Double(x.x)} }
func (u userArith) Mul(x, y userValue) userValue    { return userValue{u.n.Mul(x.x, y.x)} }
func (u userArith) Sqr(x userValue) userValue       { return userValue{u.n.Sqr(x.x)} }
func (u userArith) Inv(x userValue) userValue       { return userValue{u.n.Inv(x.x)} }
func (u userArith) Div(x, y userValue) userValue    { return userValue{u.n.Div(x.x, y.x)} }
func (u userArith) Sqrt(x userValue) userValue      { return userValue{u.n.Sqrt(x.x)} }
func (u userArith) Rint(x userValue) int64          { return u.n.Rint(x.x) }
func (u userArith) Floor(x userValue) int64         { return u.n.Floor(x.x) }
func (u userArith) Trunc(x userValue) int64         { return u.n.Trunc(x.x) }
func (u userArith) Lt(x, y userValue) bool          { return u.n.Lt(x.x, y.x) }
func (u userArith) ExpmP63(x, ccs userValue) uint64 { return u.n.ExpmP63(x.x, ccs.x) }
func (u userArith) Float64(x userValue) float64     { return x.x }
func (u userArith) Big(x userValue) *big.Float      { return u.n.Big(x.x) }

// consumers runs b through every consumer and returns each one's error.
// Keys for signing come from emu64, so that signing does not depend on
// key generation.
func consumers(t *testing.T, b arith.Backend) map[string]error {
	const logn = 4
	rng := sha3.NewSHAKE256()
	rng.Write([]byte("valuetype test"))
	errs := map[string]error{}
	_, _, errs["keygen"] = falcon.Keygen(b, logn, rng)
	emu, err := arith.Lookup("emu64")
	if err != nil {
		t.Fatal(err)
	}
	sk, pk, err := falcon.Keygen(emu, logn, rng)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := falcon.Sign(b, sk, []byte("m"), falcon.Compressed, rng)
	if err == nil {
		err = falcon.Verify(pk, []byte("m"), sig)
	}
	errs["sign"] = err
	for _, sh := range []shadow.Kind{shadow.ShadowOracle, shadow.ShadowDD} {
		_, errs["shadow "+string(sh)] = shadow.Run(context.Background(), b, shadow.Config{LogN: logn, Signatures: 1, Keys: 1, Seed: "u",
			OracleBits: 256, Sigma: shadow.SigmaFormula, Shadow: sh, Workers: 1, KeygenBackend: "emu64"})
	}
	_, errs["op errors"] = analysis.MeasureOpError(b, "mul", analysis.OpErrorConfig{N: 16, Seed: 1, Workers: 1})
	_, errs["expm curve"] = analysis.MeasureExpmCurve(b, 4, nil)
	_, errs["sampler record"] = accel.KATSamplerRecord(b.Name, 9, 1)
	return errs
}

// TestUserValueType: a backend with a value type of its own reaches no
// consumer until its value type is registered, and every consumer after
// one Register call.
func TestUserValueType(t *testing.T) {
	const name = "valuetype-test-user"
	b, err := arith.Lookup(name)
	if err != nil {
		b = arith.Backend{Name: name, Bits: 53, Description: "test: native over a struct value", Impl: userArith{}}
		arith.Register(b)
	}
	for c, err := range consumers(t, b) {
		if err == nil {
			t.Errorf("%s ran an unregistered value type", c)
		}
	}
	// Registering twice changes nothing.
	for range 2 {
		valuetype.Register[userValue, arith.Arith[userValue]]()
		for c, err := range consumers(t, b) {
			if err != nil {
				t.Errorf("%s after Register: %v", c, err)
			}
		}
	}
}
