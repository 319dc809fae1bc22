package shadow

import (
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/nativefma"
	"github.com/fprlab/fprlab/arith/triword"
)

// fusedTW is triword with an FMA of its own: a backend with FMA over a
// value type the fused pairs are not instantiated for.
type fusedTW struct{ triword.Arith }

func (f fusedTW) FMA(x, y, z triword.TW) triword.TW { return f.Add(f.Mul(x, y), z) }

// A backend with FMA is shadowed only where the fused pairs carry its FMA
// (float64 values under the interface registration); any other is refused
// by name rather than shadowed without its fused operations.
func TestFusedPairsOnlyFloat64(t *testing.T) {
	RegisterValueType[triword.TW, fusedTW]()
	_, err := runnersOf(arith.Backend{Name: "fused-tw", Impl: fusedTW{}})
	if err == nil || !strings.Contains(err.Error(), `"fused-tw"`) || !strings.Contains(err.Error(), "FMA") {
		t.Errorf("triword with FMA: got %v, want a refusal naming the backend and its FMA", err)
	}
	RegisterValueType[float64, arith.Arith[float64]]()
	if _, err := runnersOf(arith.Backend{Name: "native-fma", Impl: nativefma.Arith{}}); err != nil {
		t.Errorf("native-fma: %v", err)
	}
	if !pairsFused[float64, arith.Arith[float64]]() || pairsFused[float64, nativefma.Arith]() || pairsFused[triword.TW, arith.Arith[triword.TW]]() {
		t.Error("pairsFused holds for other registrations than (float64, arith.Arith[float64])")
	}
}
