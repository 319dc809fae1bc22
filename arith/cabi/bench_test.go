package cabi_test

import (
	"crypto/sha3"
	"runtime"
	"testing"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/cabi"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cputime"
)

// benchAdd runs one addition per iteration through arith.Arith[F], as
// generic Falcon code calls a backend.
func benchAdd[F any](b *testing.B, a arith.Arith[F]) {
	x, one := a.Of(0), a.Of(1)
	t0 := cpuTime(b)
	for b.Loop() {
		x = a.Add(x, one)
	}
	b.ReportMetric(float64(cpuTime(b)-t0)/float64(b.N), "cpu-ns/op")
	if a.Float64(x) != float64(b.N) {
		b.Fatalf("sum %g after %d additions", a.Float64(x), b.N)
	}
}

// BenchmarkCall measures one addition through the interface: over native
// (a Go function call) and over the C double plugin (the per-call cost of
// a plugin: scratch from the pool, the operands copied, purego's call
// into C and back), with the process's CPU time per call (cpu-ns/op), which
// a loaded machine inflates less than wall time.
//
//	go test -run='^$' -bench=Call -count=5 ./arith/cabi
func BenchmarkCall(b *testing.B) {
	for _, name := range []string{"native", "so:double"} {
		b.Run(name, func(b *testing.B) {
			switch a := benchBackend(b, name).Impl.(type) {
			case arith.Arith[float64]:
				benchAdd(b, a)
			case arith.Arith[cabi.Value]:
				benchAdd(b, a)
			case arith.Arith[cabi.Value8]:
				benchAdd(b, a)
			}
		})
	}
}

// benchBackend returns native, the double plugin ("so:double") or the
// double plugin without vector functions ("so:scalaronly").
func benchBackend(b *testing.B, name string) arith.Backend {
	switch name {
	case "so:double":
		return lookup(b, "so:"+plugin(b, "../../examples/double.c"))
	case "so:scalaronly":
		return lookup(b, "so:"+plugin(b, "testdata/scalaronly.c"))
	}
	return lookup(b, name)
}

// BenchmarkShadowedSign512 measures shadowed Falcon-512 signing (dd
// shadow, compare's default; one goroutine) over native, over the C
// double plugin, and over the same plugin without its vector functions
// and fprlab_run (testdata/scalaronly.c: one call per operation, as
// before they existed). Each iteration signs the same eight messages of
// benchConfig's campaign with one key generated beforehand (native,
// unshadowed, outside the timing), and the process's CPU time per
// signature is reported (cpu-ns/sig, which a loaded machine inflates less
// than wall time).
//
//	go test -run='^$' -bench=ShadowedSign512 -count=5 ./arith/cabi
func BenchmarkShadowedSign512(b *testing.B) {
	cfg := benchConfig()
	sk, _, err := falcon.Keygen(lookup(b, "native"), cfg.LogN, sha3.NewSHAKE256())
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"native", "so:double", "so:scalaronly"} {
		b.Run(name, func(b *testing.B) {
			s, err := shadow.NewSigner(benchBackend(b, name), cfg)
			if err != nil {
				b.Fatal(err)
			}
			sign := func() {
				for j := 1; j <= cfg.Signatures; j++ {
					if _, err := s.Sign(sk, j); err != nil {
						b.Fatal(err)
					}
				}
			}
			sign()
			runtime.GC()
			t0 := cpuTime(b)
			for b.Loop() {
				sign()
			}
			b.ReportMetric(float64(cpuTime(b)-t0)/float64(b.N*cfg.Signatures), "cpu-ns/sig")
		})
	}
}

// BenchmarkShadowedSignRatio512 is BenchmarkShadowedSign512's native and
// double plugin interleaved: each iteration signs the eight messages over
// native, then over the plugin, and the CPU time of each is summed, so
// that a machine whose speed drifts during the run (a shared one) slows
// both alike. It reports both per signature and their ratio
// (plugin/native): the figure docs/findings.md gives.
//
//	go test -run='^$' -bench=ShadowedSignRatio512 -count=5 ./arith/cabi
func BenchmarkShadowedSignRatio512(b *testing.B) {
	cfg := benchConfig()
	sk, _, err := falcon.Keygen(lookup(b, "native"), cfg.LogN, sha3.NewSHAKE256())
	if err != nil {
		b.Fatal(err)
	}
	var signers [2]*shadow.Signer
	for k, name := range []string{"native", "so:double"} {
		if signers[k], err = shadow.NewSigner(benchBackend(b, name), cfg); err != nil {
			b.Fatal(err)
		}
	}
	cpu := interleaved(b, cfg, sk, func(k int) *shadow.Signer { return signers[k] })
	sigs := float64(b.N * cfg.Signatures)
	b.ReportMetric(float64(cpu[0])/sigs, "native-cpu-ns/sig")
	b.ReportMetric(float64(cpu[1])/sigs, "plugin-cpu-ns/sig")
	b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "ratio")
}

// interleaved signs the campaign cfg's messages with key sk over side(0),
// then over side(1), once to warm up and then once each per iteration of
// b, and returns the process CPU time each side took over the iterations:
// a machine whose speed drifts during the run slows both alike.
func interleaved(b *testing.B, cfg shadow.Config, sk *falcon.PrivateKey, side func(k int) *shadow.Signer) (cpu [2]int64) {
	sign := func(k int) {
		s := side(k)
		t0 := cpuTime(b)
		for j := 1; j <= cfg.Signatures; j++ {
			if _, err := s.Sign(sk, j); err != nil {
				b.Fatal(err)
			}
		}
		cpu[k] += cpuTime(b) - t0
	}
	sign(0)
	sign(1)
	cpu = [2]int64{}
	runtime.GC()
	for b.Loop() {
		sign(0)
		sign(1)
	}
	return cpu
}

// benchConfig is BenchmarkShadowedSign512's campaign: eight signatures
// over one key.
func benchConfig() shadow.Config {
	return shadow.Config{LogN: 9, Signatures: 8, Keys: 1, Seed: "bench", OracleBits: 256, Sigma: shadow.SigmaFormula,
		Shadow: shadow.ShadowDD, KeygenBackend: "native", Workers: 1}
}

// cpuTime is the process's CPU time so far, in nanoseconds.
func cpuTime(b *testing.B) int64 {
	t, ok := cputime.Now()
	if !ok {
		b.Skip("no process CPU time on this platform")
	}
	return int64(t)
}

// BenchmarkVectorCall measures one batched addition of 256 values
// through arith.Vector over the C double plugin (AddN: one call of
// fprlab_add_n, the operands packed and the results unpacked), and the
// same 256 additions one call each (Add), with the process's CPU time
// per value (cpu-ns/value).
//
//	go test -run='^$' -bench=VectorCall -count=5 ./arith/cabi
func BenchmarkVectorCall(b *testing.B) {
	const n = 256
	a := benchBackend(b, "so:double").Impl.(cabi.Arith8)
	x, y, dst := make([]cabi.Value8, n), make([]cabi.Value8, n), make([]cabi.Value8, n)
	for i := range x {
		x[i], y[i] = a.Of(int64(i)), a.Of(1)
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"AddN", func() { a.AddN(dst, x, y) }},
		{"Add", func() {
			for i := range dst {
				dst[i] = a.Add(x[i], y[i])
			}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			t0 := cpuTime(b)
			for b.Loop() {
				c.f()
			}
			b.ReportMetric(float64(cpuTime(b)-t0)/float64(b.N*n), "cpu-ns/value")
			if a.Float64(dst[n-1]) != n {
				b.Fatalf("last sum %g", a.Float64(dst[n-1]))
			}
		})
	}
}

// BenchmarkMonitorCost512 is the per-call part of isolation's cost:
// shadowed Falcon-512 signing over the C double plugin with the monitor
// page attached, as in a worker (each call into the plugin counted and
// named on it), interleaved with the same signing without the page. It
// reports both per signature and their ratio (monitored/plain); the
// guards around blocks handed to the plugin are in both. The fixed part
// (a second process, a second plugin load) is measured on the command
// line (docs/findings.md).
//
//	go test -run='^$' -bench=MonitorCost512 -count=5 ./arith/cabi
func BenchmarkMonitorCost512(b *testing.B) {
	cfg := benchConfig()
	sk, _, err := falcon.Keygen(lookup(b, "native"), cfg.LogN, sha3.NewSHAKE256())
	if err != nil {
		b.Fatal(err)
	}
	s, err := shadow.NewSigner(benchBackend(b, "so:double"), cfg)
	if err != nil {
		b.Fatal(err)
	}
	detach, err := cabi.SwitchMonitor(true)
	if err != nil {
		b.Fatal(err)
	}
	defer detach()
	cpu := interleaved(b, cfg, sk, func(k int) *shadow.Signer {
		if _, err := cabi.SwitchMonitor(k == 1); err != nil {
			b.Fatal(err)
		}
		return s
	})
	sigs := float64(b.N * cfg.Signatures)
	calls := cabi.MonitorCompleted()
	if calls == 0 {
		b.Fatal("the monitor page counted no call")
	}
	b.ReportMetric(float64(calls)/(sigs+float64(cfg.Signatures)), "monitored-calls/sig")
	b.ReportMetric(float64(cpu[0])/sigs, "plain-cpu-ns/sig")
	b.ReportMetric(float64(cpu[1])/sigs, "monitored-cpu-ns/sig")
	b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "ratio")
}
