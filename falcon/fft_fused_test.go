package falcon

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/nativefma"
)

// splitMix64 is the generator of testdata/fused_kernels.txt's inputs.
type splitMix64 uint64

func (s *splitMix64) next() uint64 {
	*s += 0x9E3779B97F4A7C15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// fill sets p to values with full 53-bit significands in [-2^12, 2^12).
func (s *splitMix64) fill(p []float64) {
	for i := range p {
		p[i] = float64(int64(s.next()>>10)-1<<53) * 0x1p-41
	}
}

// kernelDigests runs the kernels of testdata/fused_kernels.txt over a in
// the file's order and returns the SHA-256 of each (kernel, logn)'s outputs.
func kernelDigests[A arith.Arith[float64]](a A) map[string]string {
	hs := map[string]hash.Hash{}
	var order []string
	out := func(name string, logn uint, p []float64) {
		key := name + " " + strconv.Itoa(int(logn))
		h, ok := hs[key]
		if !ok {
			h = sha256.New()
			hs[key] = h
			order = append(order, key)
		}
		for _, v := range p {
			h.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)))
		}
	}
	var buf [6][1024]float64
	pa, pb, pc, pd, pe, pf := buf[0][:], buf[1][:], buf[2][:], buf[3][:], buf[4][:], buf[5][:]
	rng := splitMix64(1)
	for logn := uint(1); logn <= 10; logn++ {
		n := 1 << logn
		hn := n >> 1
		a1, b1, c1, d1, e1, f1 := pa[:n], pb[:n], pc[:n], pd[:n], pe[:n], pf[:n]
		for range 4 {
			rng.fill(a1)
			fft(a, a1, logn)
			out("fft", logn, a1)
			rng.fill(a1)
			ifft(a, a1, logn)
			out("ifft", logn, a1)
			rng.fill(a1)
			rng.fill(b1)
			polyMulFFT(a, a1, b1, logn)
			out("mul", logn, a1)
			rng.fill(a1)
			rng.fill(b1)
			polyMuladjFFT(a, a1, b1, logn)
			out("muladj", logn, a1)
			rng.fill(a1)
			polyMulselfadjFFT(a, a1, logn)
			out("mulselfadj", logn, a1)
			rng.fill(a1)
			rng.fill(b1)
			polyInvnorm2FFT(a, d1, a1, b1, logn)
			out("invnorm2", logn, d1[:hn])
			rng.fill(a1)
			rng.fill(b1)
			rng.fill(c1)
			rng.fill(e1)
			polyAddMuladjFFT(a, d1, a1, b1, c1, e1, logn)
			out("addmuladj", logn, d1)
			rng.fill(a1)
			rng.fill(b1)
			rng.fill(c1)
			polyLDLFFT(a, a1, b1, c1, logn)
			out("ldl", logn, b1)
			out("ldl11", logn, c1)
			rng.fill(a1)
			rng.fill(b1)
			rng.fill(c1)
			polyLDLmvFFT(a, d1, e1, a1, b1, c1, logn)
			out("ldlmv", logn, e1)
			out("ldlmv11", logn, d1)
			rng.fill(a1)
			polySplitFFT(a, d1[:hn], e1[:hn], a1, logn)
			out("split0", logn, d1[:hn])
			out("split1", logn, e1[:hn])
			rng.fill(a1[:hn])
			rng.fill(b1[:hn])
			polyMergeFFT(a, f1, a1[:hn], b1[:hn], logn)
			out("merge", logn, f1)
		}
	}
	sums := map[string]string{}
	for _, k := range order {
		sums[k] = hex.EncodeToString(hs[k].Sum(nil))
	}
	return sums
}

// TestFusedKernels checks every FFT-domain kernel, at every degree from 2
// to 1024, against the reference C: over native, the outputs of its plain
// build; over native-fma, those of its AVX2+FMA build
// (testdata/fused_kernels.txt, 4 seeded inputs per kernel and degree).
// The file holds 140 (kernel, degree) rows; on 94 of them the two builds
// differ, so each fused site -- every kernel where that build fuses, at the
// degrees where it does -- is pinned by the native-fma half.
func TestFusedKernels(t *testing.T) {
	f, err := os.Open("testdata/fused_kernels.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := [2]map[string]string{{}, {}}
	differ := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fs := strings.Fields(sc.Text())
		if len(fs) != 4 {
			t.Fatalf("bad row %q", sc.Text())
		}
		key := fs[0] + " " + fs[1]
		want[0][key], want[1][key] = fs[2], fs[3]
		if fs[2] != fs[3] {
			differ++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(want[0]) != 140 || differ != 94 {
		t.Fatalf("the file has %d rows, %d differing between the builds; want 140 and 94", len(want[0]), differ)
	}
	for build, got := range []map[string]string{kernelDigests(native.Arith{}), kernelDigests(nativefma.Arith{})} {
		name := [2]string{"native (plain build)", "native-fma (AVX2+FMA build)"}[build]
		if len(got) != len(want[build]) {
			t.Errorf("%s: %d rows computed, the file has %d", name, len(got), len(want[build]))
		}
		for k, w := range want[build] {
			if got[k] != w {
				t.Errorf("%s: kernel %s differs from the reference's", name, k)
			}
		}
	}
}
