package shadow_test

import (
	"context"
	"fmt"
	"log"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	_ "github.com/fprlab/fprlab/valuetype" // links every backend and instantiates the shadow for its value type
)

// Example shadows one signature: hardware binary64 signs NIST KAT record 0
// of Falcon-512 while the double-double shadow follows the same control
// path, and the record holds the sampler's input errors. The figures are
// those of an independent measurement, the reference C
// (Falcon-impl-20211101) instrumented with a 256-bit MPFR twin
// (testdata/ref_native_512_records.json: one attempt, 1,024 sampler calls,
// max log2 delta_c -41.5112, delta_sigma -46.9412, their sum -41.5107).
func Example() {
	b, err := arith.Lookup("native")
	if err != nil {
		log.Fatal(err)
	}
	cfg := shadow.Config{LogN: 9, KATFrom: 0, KATTo: 1, Shadow: shadow.ShadowDD, Sigma: shadow.SigmaFormula}
	recs, err := shadow.Run(context.Background(), b, cfg)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range recs {
		if r.Kind != "signature" {
			continue
		}
		fmt.Printf("record %d: %d attempt, %d sampler calls\n", r.Index, r.Attempts, r.Calls)
		fmt.Printf("max delta_c 2^%.2f, delta_sigma 2^%.2f, sum 2^%.2f\n", *r.MaxDeltaC, *r.MaxDeltaSigma, *r.MaxSum)
	}
	// Output:
	// record 0: 1 attempt, 1024 sampler calls
	// max delta_c 2^-41.51, delta_sigma 2^-46.94, sum 2^-41.51
}
