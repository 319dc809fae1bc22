package valuetype_test

import (
	"bytes"
	"fmt"
	"log"
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
	"github.com/fprlab/fprlab/valuetype"
)

// boxed is the value type of a backend of one's own: binary64 held in a
// struct, a type no consumer has been instantiated for.
type boxed struct{ x float64 }

// boxedArith computes binary64 over boxed values with native's
// operations, so Falcon over it must give the reference's own results.
type boxedArith struct{ n native.Arith }

func (a boxedArith) Of(i int64) boxed             { return boxed{a.n.Of(i)} }
func (a boxedArith) Scaled(i int64, e int) boxed  { return boxed{a.n.Scaled(i, e)} }
func (a boxedArith) FromFloat64(x float64) boxed  { return boxed{x} }
func (a boxedArith) Const(c arith.Constant) boxed { return boxed{a.n.Const(c)} }
func (a boxedArith) GM(k int) boxed               { return boxed{a.n.GM(k)} }
func (a boxedArith) Add(x, y boxed) boxed         { return boxed{a.n.Add(x.x, y.x)} }
func (a boxedArith) Sub(x, y boxed) boxed         { return boxed{a.n.Sub(x.x, y.x)} }
func (a boxedArith) Neg(x boxed) boxed            { return boxed{a.n.Neg(x.x)} }
func (a boxedArith) Half(x boxed) boxed           { return boxed{a.n.Half(x.x)} }
func (a boxedArith) Double(x boxed) boxed         { return boxed{a.n.Double(x.x)} }
func (a boxedArith) Mul(x, y boxed) boxed         { return boxed{a.n.Mul(x.x, y.x)} }
func (a boxedArith) Sqr(x boxed) boxed            { return boxed{a.n.Sqr(x.x)} }
func (a boxedArith) Inv(x boxed) boxed            { return boxed{a.n.Inv(x.x)} }
func (a boxedArith) Div(x, y boxed) boxed         { return boxed{a.n.Div(x.x, y.x)} }
func (a boxedArith) Sqrt(x boxed) boxed           { return boxed{a.n.Sqrt(x.x)} }
func (a boxedArith) Rint(x boxed) int64           { return a.n.Rint(x.x) }
func (a boxedArith) Floor(x boxed) int64          { return a.n.Floor(x.x) }
func (a boxedArith) Trunc(x boxed) int64          { return a.n.Trunc(x.x) }
func (a boxedArith) Lt(x, y boxed) bool           { return a.n.Lt(x.x, y.x) }
func (a boxedArith) ExpmP63(x, ccs boxed) uint64  { return a.n.ExpmP63(x.x, ccs.x) }
func (a boxedArith) Float64(x boxed) float64      { return x.x }
func (a boxedArith) Big(x boxed) *big.Float       { return a.n.Big(x.x) }

// A backend package registers its name and its value type once, at
// initialisation; every command then takes it by name.
func init() {
	arith.Register(arith.Backend{Name: "boxed-binary64", Bits: 53, ExpBits: 11,
		Description: "binary64 in a struct (an example)", Impl: boxedArith{}})
	valuetype.Register[boxed, boxedArith]()
}

// Example_register runs Falcon's NIST KAT flow over a backend with a value
// type of its own: record 0 of Falcon-512, keys and signature generated
// over boxed values, equal to the published falcon512-KAT.rsp record
// because the operations are binary64's.
func Example_register() {
	b, err := arith.Lookup("boxed-binary64")
	if err != nil {
		log.Fatal(err)
	}
	rec, err := falcon.KATRequest(0)
	if err != nil {
		log.Fatal(err)
	}
	if err := falcon.GenerateKAT(9, &rec, falcon.KATOptions{Keygen: b}); err != nil {
		log.Fatal(err)
	}
	rsp, err := katref.Response(9)
	if err != nil {
		log.Fatal(err)
	}
	_, published, err := falcon.ParseKAT(rsp)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (%d bits): sm %d bytes, equal to the published record: %v\n", b.Name, b.Bits, len(rec.SM),
		bytes.Equal(rec.PK, published[0].PK) && bytes.Equal(rec.SK, published[0].SK) && bytes.Equal(rec.SM, published[0].SM))
	// Output:
	// boxed-binary64 (53 bits): sm 691 bytes, equal to the published record: true
}
