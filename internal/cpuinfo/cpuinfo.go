// Package cpuinfo names the processor a benchmark ran on, from Linux's
// /proc/cpuinfo: timings of the same code differ between CPU models and
// vendors (on an Intel core a vector kernel that leaves the AVX upper
// state dirty slows all the scalar code after it, on an AMD core much
// less), so every figure needs its CPU named beside it.
package cpuinfo

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
)

// Model returns a one-line description of the CPU: the model name, the
// vendor, family and model numbers where the system gives them, the
// number of logical CPUs, and the vector extensions that matter to the
// GOEXPERIMENT=simd build (AVX2, AVX-512F). Where /proc/cpuinfo cannot be
// read it says so and gives the architecture.
func Model() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return fmt.Sprintf("unknown %s CPU (%v), %d logical CPUs", runtime.GOARCH, err, runtime.NumCPU())
	}
	defer f.Close()
	d, err := Parse(f)
	if err != nil {
		return fmt.Sprintf("unknown %s CPU (reading /proc/cpuinfo: %v), %d logical CPUs", runtime.GOARCH, err, runtime.NumCPU())
	}
	return d.String()
}

// Desc is what Parse reads from the first processor of a cpuinfo file.
type Desc struct {
	Name    string   // "model name" (x86), or the implementer and part (arm64)
	Vendor  string   // vendor_id, e.g. GenuineIntel, AuthenticAMD
	Family  string   // cpu family
	Model   string   // model number
	Logical int      // processor entries
	Vector  []string // the vector extensions present among AVX2, AVX-512F
}

func (d Desc) String() string {
	var b strings.Builder
	b.WriteString(d.Name)
	if b.Len() == 0 {
		b.WriteString("unnamed CPU")
	}
	if d.Vendor != "" {
		fmt.Fprintf(&b, " (%s, family %s, model %s)", d.Vendor, d.Family, d.Model)
	}
	fmt.Fprintf(&b, ", %d logical CPUs", d.Logical)
	if len(d.Vector) > 0 {
		b.WriteString(", " + strings.Join(d.Vector, ", "))
	}
	return b.String()
}

// Parse reads a /proc/cpuinfo listing: "key<tabs>: value" lines, one
// block per logical CPU. The description is of the first block; the count
// is of all blocks.
func Parse(r io.Reader) (Desc, error) {
	var d Desc
	var implementer, part string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if key == "processor" {
			d.Logical++
		}
		if d.Logical > 1 {
			continue
		}
		switch key {
		case "model name":
			d.Name = val
		case "vendor_id":
			d.Vendor = val
		case "cpu family":
			d.Family = val
		case "model":
			d.Model = val
		case "CPU implementer":
			implementer = val
		case "CPU part":
			part = val
		case "flags":
			flags := strings.Fields(val)
			for _, f := range []struct{ flag, name string }{{"avx2", "AVX2"}, {"avx512f", "AVX-512F"}} {
				if slices.Contains(flags, f.flag) {
					d.Vector = append(d.Vector, f.name)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return Desc{}, err
	}
	if d.Name == "" && implementer != "" {
		d.Name = fmt.Sprintf("CPU implementer %s, part %s", implementer, part)
	}
	if d.Logical == 0 {
		return Desc{}, fmt.Errorf("no processor entries")
	}
	return d, nil
}
