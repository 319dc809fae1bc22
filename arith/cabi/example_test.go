package cabi_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/cabi"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
	_ "github.com/fprlab/fprlab/valuetype" // links every backend and instantiates Falcon for the plugins' value types
)

// ExampleOpen loads an arithmetic plugin -- examples/double.c, the host's
// double behind the C ABI of plugin/fprlab_arith.h, built with
// `gcc -shared -fPIC -o libdouble.so examples/double.c` (here doubleLib) --
// and signs NIST KAT record 0 of Falcon-512 with it on the record's keys
// (generated over emu64). The plugin computes binary64 as the reference
// does, so the signed message is the published one.
func ExampleOpen() {
	lib, err := cabi.Open(doubleLib) // or arith.Lookup("so:" + doubleLib)
	if err != nil {
		log.Fatal(err)
	}
	b := lib.Backend("so:" + doubleLib)
	emu64, err := arith.Lookup("emu64")
	if err != nil {
		log.Fatal(err)
	}
	rec, err := falcon.KATRequest(0)
	if err != nil {
		log.Fatal(err)
	}
	if err := falcon.GenerateKAT(9, &rec, falcon.KATOptions{Keygen: emu64, Sign: b}); err != nil {
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
	fmt.Printf("plugin: %d-bit significand, %d-bit exponent\n", b.Bits, b.ExpBits)
	fmt.Println("signed message equal to the published record:", bytes.Equal(rec.SM, published[0].SM))
	// Output:
	// plugin: 53-bit significand, 11-bit exponent
	// signed message equal to the published record: true
}
