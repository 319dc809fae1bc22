package shadow

import (
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/fprlab/fprlab/falcon"
)

// BenchmarkShadowedSign measures shadowed Falcon-512 signing of native
// against each exact side, per signature, with as many signatures in
// parallel as there are CPUs (the throughput compare gets with its default
// --workers): 1,000 signatures take 1000 * ns/op.
//
//	go test -run='^$' -bench=ShadowedSign -benchtime=200x ./analysis/shadow
func BenchmarkShadowedSign(b *testing.B) {
	nb := lookup(b, "native")
	for _, sh := range []Kind{ShadowDD, ShadowOracle} {
		b.Run(string(sh), func(b *testing.B) {
			cfg := Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "bench", OracleBits: 256, Sigma: SigmaFormula, Shadow: sh}
			r, err := newRunner(nb, &cfg)
			if err != nil {
				b.Fatal(err)
			}
			sk, _, err := falcon.Keygen(nb, 9, derive("key", cfg.Seed, 0))
			if err != nil {
				b.Fatal(err)
			}
			var next atomic.Int64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					j := int(next.Add(1))
					if _, err := r.sign(sk, Message(cfg.Seed, j), derive("signature", cfg.Seed, j), j, 0); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkShadowedSignVPrec measures one shadowed Falcon-512 signature
// (dd shadow, one goroutine) over vprec formats: the fast implementation
// (vprec, package arith/vfloat) and the big.Float reference (vprecbig).
//
//	go test -run='^$' -bench=ShadowedSignVPrec -benchtime=20x ./analysis/shadow
func BenchmarkShadowedSignVPrec(b *testing.B) {
	for _, p := range []string{"24", "53", "64", "80"} {
		for _, fam := range []string{"vprec", "vprecbig"} {
			b.Run(fam+":"+p, func(b *testing.B) {
				bk := lookup(b, fam+":"+p)
				cfg := Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "bench", OracleBits: 256, Sigma: SigmaFormula, Shadow: ShadowDD}
				r, err := newRunner(bk, &cfg)
				if err != nil {
					b.Fatal(err)
				}
				sk, _, err := falcon.Keygen(lookup(b, "emu64"), 9, derive("key", cfg.Seed, 0))
				if err != nil {
					b.Fatal(err)
				}
				// One signature first: the format's tables are computed once.
				if _, err := r.sign(sk, Message(cfg.Seed, -1), derive("signature", cfg.Seed, -1), -1, 0); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for j := range b.N {
					if _, err := r.sign(sk, Message(cfg.Seed, j), derive("signature", cfg.Seed, j), j, 0); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// benchShadowed measures one signature per iteration on one goroutine at
// degree 2^logn, for native and triword: shadowed by dd, compare's default
// exact side ("dd"; the record is finished and the signature verified, as
// in a campaign), and unshadowed ("plain": the same backend, messages and
// randomness through falcon.Sign), so that the ratio of the two is the
// shadow's cost. The key comes from emu64, as in a triword campaign. Each
// reports, beside the wall time, the process's CPU time per signature
// (cpu-ns/op, garbage collection included), which a loaded machine
// inflates less.
func benchShadowed(b *testing.B, logn uint) {
	const seed = "bench"
	sk, _, err := falcon.Keygen(lookup(b, "emu64"), logn, derive("key", seed, 0))
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"native", "triword"} {
		bk := lookup(b, name)
		b.Run(name+"/dd", func(b *testing.B) {
			cfg := Config{LogN: logn, Signatures: 1, Keys: 1, Seed: seed, OracleBits: 256, Sigma: SigmaFormula, Shadow: ShadowDD}
			r, err := newRunner(bk, &cfg)
			if err != nil {
				b.Fatal(err)
			}
			cpuLoop(b, func(j int) error {
				_, err := r.sign(sk, Message(seed, j), derive("signature", seed, j), j, 0)
				return err
			})
		})
		b.Run(name+"/plain", func(b *testing.B) {
			cpuLoop(b, func(j int) error {
				_, err := falcon.Sign(bk, sk, Message(seed, j), falcon.Compressed, derive("signature", seed, j))
				return err
			})
		})
	}
}

// cpuLoop runs f(-1) once untimed (tables computed on first use), then
// f(0), f(1), ... as the benchmark's iterations, and reports the process's
// CPU time (user and system) per iteration as cpu-ns/op.
func cpuLoop(b *testing.B, f func(j int) error) {
	if err := f(-1); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	t0 := cpuTime(b)
	j := 0
	for b.Loop() {
		if err := f(j); err != nil {
			b.Fatal(err)
		}
		j++
	}
	b.ReportMetric(float64(cpuTime(b)-t0)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's CPU time so far, in nanoseconds.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkShadowedSign1024 and BenchmarkShadowedSign512 are benchShadowed
// at Falcon-1024 and Falcon-512:
//
//	go test -run='^$' -bench='ShadowedSign(512|1024)' -count=5 ./analysis/shadow
func BenchmarkShadowedSign1024(b *testing.B) { benchShadowed(b, 10) }
func BenchmarkShadowedSign512(b *testing.B)  { benchShadowed(b, 9) }
