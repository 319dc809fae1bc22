package arith

import (
	"sync"
	"testing"
)

// TestLn2Concurrent computes ln 2 at precisions above 1024 bits from
// several goroutines at once, where github.com/ALTree/bigfloat rewrites its
// global cache of pi; under the race detector (go test -race) this fails
// unless Ln2 serialises those calls. The values must also agree with a
// serial evaluation and with each other.
func TestLn2Concurrent(t *testing.T) {
	precs := []uint{1100, 1500, 2100, 2600}
	got := make([]string, len(precs))
	var wg sync.WaitGroup
	for i, p := range precs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = Ln2(p).Text('p', 0)
		}()
	}
	wg.Wait()
	for i, p := range precs {
		if want := Ln2(p).Text('p', 0); got[i] != want {
			t.Errorf("Ln2(%d) concurrently = %s, serially %s", p, got[i], want)
		}
		if i > 0 {
			lo := Ln2(precs[0])
			if d := Ln2(p).SetPrec(precs[0]); d.Cmp(lo) != 0 {
				t.Errorf("Ln2(%d) rounded to %d bits differs from Ln2(%d)", p, precs[0], precs[0])
			}
		}
	}
}
