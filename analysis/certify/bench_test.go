package certify_test

import (
	"testing"

	"github.com/fprlab/fprlab/analysis/certify"
	"github.com/fprlab/fprlab/internal/cputime"
)

// BenchmarkCertify certifies KAT key 0 at each degree over native and
// triword: the whole of Certify (both captures of the key's values, the
// norm analysis, the path bound of every sampler call). It reports the
// process CPU time per certificate (cpu-s/key; both vCPUs count) beside
// the wall time, for the target of 60 s of CPU per Falcon-1024
// key (docs/certify.md).
func BenchmarkCertify(b *testing.B) {
	for _, logn := range []uint{9, 10} {
		sk := katKey(b, logn, 0)
		for _, name := range []string{"native", "triword"} {
			be := lookup(b, name)
			m, err := certify.ModelFor(be, "")
			if err != nil {
				b.Fatal(err)
			}
			b.Run(map[uint]string{9: "512/", 10: "1024/"}[logn]+name, func(b *testing.B) {
				c0, ok := cputime.Now()
				if !ok {
					b.Skip("no process CPU clock on this platform")
				}
				for b.Loop() {
					if _, err := certify.Certify(be, sk, certify.Options{Model: m}); err != nil {
						b.Fatal(err)
					}
				}
				c1, _ := cputime.Now()
				b.ReportMetric((c1-c0).Seconds()/float64(b.N), "cpu-s/key")
			})
		}
	}
}
