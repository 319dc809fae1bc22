package accel

import "fmt"

// FPGA resources of the multiplier designs: DSP blocks on the two Xilinx
// DSP slices Falcon hardware runs on, the adders and pipeline depth of the
// cost model, a frequency class, and area x time.
//
// Peregrino (section IV-E) targets an Artix-7 XC7A200T, whose DSP48E1
// multiplies 25x18 two's-complement operands into a 48-bit accumulator, so
// that "for one large number multiplication up to four DSPs are needed",
// done in one cycle, "but the concatenation of several DSPs increases the
// logic delay"; its two versions, Karatsuba on 64 bits only and on 64 and
// 32 bits, close timing at 75 and 80 MHz (section VI). HORCRUX (section
// VI-B) and the pipelined SamplerZ of Vojacek and Novotny (TCHES 2026/4)
// run on a Zynq UltraScale+ (ZCU104), whose DSP48E2 widens port A to 27
// bits. An unsigned operand uses one bit less than a signed port.
//
// The frequency class ranks designs by the longest DSP cascade one block
// puts in a pipeline stage (a block product in one cycle, its DSPs
// chained through the cascade adders): class A is one DSP per stage, B a
// cascade of two, C of three or four, D longer. It orders designs, it does
// not predict MHz; Peregrino's two measured clocks are printed beside it.

// DSPFamily is a DSP slice's multiplier.
type DSPFamily struct {
	Name string `json:"name"`
	// A and B are the signed port widths, AccBits the accumulator's.
	A, B, AccBits int
	Devices       string `json:"devices"`
	Source        string `json:"source"`
}

// The DSP slices.
var (
	DSP48E1 = DSPFamily{Name: "DSP48E1", A: 25, B: 18, AccBits: 48, Devices: "7 series (Peregrino's Artix-7 XC7A200T)",
		Source: "Peregrino section IV-E (25x18 two's complement, 48-bit accumulator); Xilinx UG479"}
	DSP48E2 = DSPFamily{Name: "DSP48E2", A: 27, B: 18, AccBits: 48, Devices: "UltraScale+ (ZCU104: HORCRUX, the pipelined SamplerZ)",
		Source: "Xilinx UG579 (27x18 two's complement multiplier, 48-bit accumulator)"}
)

// DSPFamilies lists the slices in report order.
var DSPFamilies = []DSPFamily{DSP48E1, DSP48E2}

// Tiles is the number of DSPs an unsigned wa x wb product takes on f, the
// better of the two orientations of the operands on the ports.
func (f DSPFamily) Tiles(wa, wb int) int {
	if wa <= 0 || wb <= 0 {
		return 0
	}
	a, b := f.A-1, f.B-1
	return min(ceilDivInt(wa, a)*ceilDivInt(wb, b), ceilDivInt(wb, a)*ceilDivInt(wa, b))
}

// Adders is the number of accumulator-wide DSP adders a w-bit addition
// takes.
func (f DSPFamily) Adders(w int) int { return ceilDivInt(w, f.AccBits) }

// DesignResources are a multiplier design's resources on one DSP slice.
type DesignResources struct {
	Design string `json:"design"`
	Width  int    `json:"width"`
	Family string `json:"family"`
	// DSPs over all blocks; MaxCascade the DSPs of the largest block.
	DSPs       int    `json:"dsps"`
	MaxCascade int    `json:"max_cascade"`
	FmaxClass  string `json:"fmax_class"`
	Adders     int    `json:"adders"`
	AdderDepth int    `json:"adder_depth"`
	Pipeline   int    `json:"pipeline_depth"`
	// DSPCyclesPerProduct is area x time per product at full throughput
	// (DSPs x issue interval).
	DSPCyclesPerProduct int `json:"dsp_cycles_per_product"`
}

// fmaxClass names the frequency class of a design whose largest block
// cascades n DSPs.
func fmaxClass(n int) string {
	switch {
	case n <= 1:
		return "A"
	case n == 2:
		return "B"
	case n <= 4:
		return "C"
	}
	return "D"
}

// Resources returns m's resources on f.
func (m *Multiplier) Resources(f DSPFamily) (DesignResources, error) {
	if len(m.Operands) == 0 {
		return DesignResources{}, fmt.Errorf("accel: design %s has no block sizes", m.Name)
	}
	r := DesignResources{Design: m.Name, Width: m.Width, Family: f.Name, Adders: m.Cost.Adders, AdderDepth: m.Cost.AdderDepth, Pipeline: m.Cost.LatencyCycles}
	for _, o := range m.Operands {
		t := f.Tiles(o[0], o[1])
		r.DSPs += t
		r.MaxCascade = max(r.MaxCascade, t)
	}
	r.FmaxClass = fmaxClass(r.MaxCascade)
	r.DSPCyclesPerProduct = r.DSPs * m.Cost.IssueCycles
	return r, nil
}

// PeregrinoClock is the clock Peregrino's implementation of a design
// closed timing at (section VI: Karatsuba on 64 bits only 75 MHz, on 64
// and 32 bits 80 MHz), zero for the designs it did not build.
func PeregrinoClock(design string) float64 {
	switch design {
	case "karatsuba64":
		return 75
	case "karatsuba64+32":
		return 80
	}
	return 0
}
