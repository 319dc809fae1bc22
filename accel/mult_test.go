package accel

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// multOperands returns edge operands of width n (zero, one, powers of two
// and their neighbours, all ones, alternating patterns, 53-bit mantissas
// with the implicit bit) followed by random ones, count in all.
func multOperands(n, count int, seed uint64) []uint64 {
	top := uint64(1)<<n - 1
	if n == 64 {
		top = ^uint64(0)
	}
	var v []uint64
	for k := range n {
		p := uint64(1) << k
		v = append(v, p, p-1, p+1, top-p, top^p)
	}
	v = append(v, 0, top, 0x5555555555555555&top, 0xAAAAAAAAAAAAAAAA&top, 1<<52, 1<<53-1, 0xFFFFFFFF, 1<<32, 0x1FFFFFFFF)
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	for len(v) < count {
		switch len(v) % 3 {
		case 0:
			v = append(v, rng.Uint64()&top)
		case 1: // a binary64 mantissa, implicit bit set
			v = append(v, rng.Uint64()&(1<<52-1)|1<<52)
		default: // few bits set or few clear: long carry chains
			x := top
			for range rng.IntN(4) {
				x &^= 1 << rng.IntN(n)
			}
			if rng.IntN(2) == 0 {
				x = top ^ x
			}
			v = append(v, x)
		}
	}
	return v
}

// TestMultipliersExact checks every design at both widths against
// math/bits.Mul64: 1,000,000 operand pairs each (edge values against each
// other and random pairs), 20,000 with -short.
func TestMultipliersExact(t *testing.T) {
	pairs := 1000000
	if testing.Short() {
		pairs = 20000
	}
	for _, w := range []int{53, 64} {
		ops := multOperands(w, 2000, 7)
		for _, name := range MultiplierDesigns {
			m, err := NewMultiplier(name, w)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(11, uint64(w)))
			for i := range pairs {
				var x, y uint64
				if i < 400*400 && i < pairs/2 {
					x, y = ops[i/400], ops[i%400]
				} else {
					x, y = ops[rng.IntN(len(ops))], rng.Uint64()>>(64-w)
				}
				hi, lo := m.Product(x, y)
				whi, wlo := bits.Mul64(x, y)
				if hi != whi || lo != wlo {
					t.Fatalf("%s/%d: %#x * %#x = %#x:%#x, want %#x:%#x", name, w, x, y, hi, lo, whi, wlo)
				}
			}
		}
	}
}

// TestMultiplierPorts checks that a 53-bit design reads only its 53 port
// bits.
func TestMultiplierPorts(t *testing.T) {
	m, err := NewMultiplier("karatsuba64", 53)
	if err != nil {
		t.Fatal(err)
	}
	hi, lo := m.Product(1<<60|3, 1<<53|5)
	if hi != 0 || lo != 15 {
		t.Errorf("high bits reached the product: %#x:%#x", hi, lo)
	}
	if _, err := NewMultiplier("wallace", 64); err == nil {
		t.Error("unknown design accepted")
	}
	if _, err := NewMultiplier("comba", 32); err == nil {
		t.Error("width 32 accepted")
	}
}

// TestMultiplierCosts pins the structure counts the cost model derives,
// against counts made by hand from each design's definition.
func TestMultiplierCosts(t *testing.T) {
	for _, c := range []struct {
		name                   string
		w                      int
		blocks, pp, add, depth int
		latency                int
	}{
		{"schoolbook", 64, 4, 4, 3, 2, 3},
		{"schoolbook", 53, 4, 4, 3, 2, 3},
		{"dsp25x18", 64, 12, 12, 11, 4, 5}, // 3 chunks of 24 x 4 of 17
		{"dsp25x18", 53, 12, 12, 11, 4, 5},
		{"comba", 64, 1, 16, 23, 1, 18},
		{"karatsuba64", 64, 3, 3, 5, 4, 5},
		{"karatsuba64+32", 64, 9, 9, 20, 8, 9},
	} {
		m, err := NewMultiplier(c.name, c.w)
		if err != nil {
			t.Fatal(err)
		}
		k := m.Cost
		if k.Blocks != c.blocks || k.PartialProducts != c.pp || k.Adders != c.add || k.AdderDepth != c.depth || k.LatencyCycles != c.latency {
			t.Errorf("%s/%d: %+v", c.name, c.w, k)
		}
	}
}

func BenchmarkMultiplier(b *testing.B) {
	for _, name := range MultiplierDesigns {
		m, _ := NewMultiplier(name, 64)
		b.Run(name, func(b *testing.B) {
			var s uint64
			x, y := uint64(0x123456789ABCDEF1), uint64(0xFEDCBA9876543211)
			for b.Loop() {
				hi, lo := m.Product(x, y)
				s += hi ^ lo
				x += lo
			}
			sinkMult = s
		})
	}
}

var sinkMult uint64

// TestMultiplierCostsRecord0 checks the product counts of KAT record 0
// against the reference's counters (mul, expm_p63) and the cycle bounds
// against the design's per-product cost.
func TestMultiplierCostsRecord0(t *testing.T) {
	ref := loadRefCounts(t)
	k, err := record0Counts(9)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := AllMultipliers()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		for i, p := range MultiplierCosts(k, m) {
			r := ref.Falcon512[[]string{"keypair", "sign"}[i]]
			served := r["mul"]
			if m.Width == 64 {
				served += 13 * r["expm_p63"]
			}
			if p.MantProducts != r["mul"] || p.FixedProducts != 13*r["expm_p63"] || p.Served != served ||
				p.LatencyBound != served*uint64(m.Cost.LatencyCycles) || p.IssueBound != served*uint64(m.Cost.IssueCycles) {
				t.Errorf("%s/%d %s: %+v", m.Name, m.Width, p.Phase, p)
			}
		}
	}
}
