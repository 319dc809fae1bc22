package accel

import "fmt"

// Multiplier cost over a real Falcon run: the number of products each
// phase asks of the multiplier (from the operation counts of a KAT
// record), times the design's per-product cost.
//
// fpr_mul (and fpr_sqr) makes one 53x53 mantissa product; every
// fpr_expm_p63 makes two more through fpr_mul (x and ccs scaled by 2^63,
// counted in the reference's mul counter) and thirteen 64x64 fixed-point
// products (twelve Horner steps and the final product by ccs), which only a
// 64-bit design can serve.

// expmFixedProducts is the number of 64x64 products per fpr_expm_p63.
const expmFixedProducts = 13

// MultPhaseCost is the multiplier work of one phase of a KAT record.
type MultPhaseCost struct {
	Phase string
	// MantProducts are 53x53 products, FixedProducts 64x64 ones.
	MantProducts, FixedProducts uint64
	// Served is the number of products the design serves: all of them
	// for a 64-bit design, the mantissa products for a 53-bit one.
	Served uint64
	// LatencyBound is Served x latency: the cycles when each product
	// waits for the one before (a data-dependent chain, the worst case).
	// IssueBound is Served x issue interval: the cycles when the products
	// are independent and stream through (the best case).
	LatencyBound, IssueBound uint64
}

// MultiplierCosts returns the multiplier work of m on each phase of k
// (keygen, sign; verification makes no fpr products).
func MultiplierCosts(k *KATCounts, m *Multiplier) []MultPhaseCost {
	phase := func(name string, c Counts) MultPhaseCost {
		p := MultPhaseCost{Phase: name, MantProducts: c.Mul, FixedProducts: expmFixedProducts * c.ExpmP63}
		p.Served = p.MantProducts
		if m.Width == 64 {
			p.Served += p.FixedProducts
		}
		p.LatencyBound = p.Served * uint64(m.Cost.LatencyCycles)
		p.IssueBound = p.Served * uint64(m.Cost.IssueCycles)
		return p
	}
	return []MultPhaseCost{phase("keygen", k.Keypair), phase("sign", k.Sign)}
}

// AllMultipliers returns every design at both widths, 53-bit first.
func AllMultipliers() ([]*Multiplier, error) {
	var ms []*Multiplier
	for _, w := range []int{53, 64} {
		for _, name := range MultiplierDesigns {
			m, err := NewMultiplier(name, w)
			if err != nil {
				return nil, fmt.Errorf("accel: %w", err)
			}
			ms = append(ms, m)
		}
	}
	return ms, nil
}
