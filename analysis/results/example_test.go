package results_test

import (
	"fmt"
	"log"

	"github.com/fprlab/fprlab/analysis/results"
)

// ExampleRead reads the summary of a campaign directory, written by
//
//	fprlab compare --backend native --params 512 --kat-records 0:3 --out testdata/native-kat-512
//
// (hardware binary64 shadowed by double-double on NIST KAT records 0 to 2
// of Falcon-512). Its figures are those of an independent measurement:
// the reference C instrumented with a 256-bit MPFR twin gives per record a
// largest delta_c + delta_sigma of 2^-41.5107, 2^-41.1776 and 2^-41.4048,
// one attempt of 512 tree leaves each (analysis/shadow's
// testdata/ref_native_512_records.json).
func ExampleRead() {
	c, err := results.Read("testdata/native-kat-512")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range c.AllCompares() {
		fmt.Printf("%s, Falcon-%d: %d signatures, %d leaves, shadow %s\n", r.Backend, r.Params, r.Signatures, r.Leaves, r.Shadow)
		s := r.PerSignature.Sum
		fmt.Printf("per signature, delta_c + delta_sigma: min 2^%.2f, max 2^%.2f\n", s.Min, s.Max)
		fmt.Println("meets 2^-46 on every signature:", *r.Meets246)
	}
	// Output:
	// native, Falcon-512: 3 signatures, 1536 leaves, shadow dd
	// per signature, delta_c + delta_sigma: min 2^-41.51, max 2^-41.18
	// meets 2^-46 on every signature: false
}
