package avxcheck

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// listing builds a compiler listing of instructions (mnemonic and
// operands, tab-separated) under one function header, in the format of
// go build -gcflags=-S; instruction k (from 0) is at pc k+1, the target
// of a jump written "JMP\t<k+1>".
func listing(fn string, instrs ...string) string {
	var b strings.Builder
	b.WriteString(fn + " STEXT size=64 args=0x10 locals=0x0 funcid=0x0 align=0x0\n")
	b.WriteString("\t0x0000 00000 (/x/f.go:1)\tTEXT\t" + fn + "(SB), ABIInternal, $0-16\n")
	for k, in := range instrs {
		fmt.Fprintf(&b, "\t0x%04x %05d (/x/f.go:%d)\t%s\n", k+1, k+1, k+2, in)
	}
	b.WriteString("\t0x0000 c3                                               .\n")
	return b.String()
}

func TestCheckRules(t *testing.T) {
	cases := []struct {
		name   string
		instrs []string
		want   []string // the Why prefixes of the findings, in order
		wide   bool
	}{
		{"scalar code", []string{"MOVSD\t(AX), X0", "ADDSD\tX1, X0", "RET"}, nil, false},
		{"128-bit VEX only", []string{"VPADDQ\tX1, X2, X3", "MOVQ\tDX, X4", "RET"}, nil, false},
		{"legacy shift count inside AVX code", []string{"VPSUBQ\tY3, Y0, Y3", "MOVQ\tDX, X4", "VPSRLQ\tX4, Y3, Y3", "VZEROUPPER", "RET"},
			[]string{"legacy-SSE"}, true},
		{"returns dirty", []string{"VPADDQ\tY3, Y2, Y2", "VPEXTRQ\t$0, X0, CX", "RET"}, []string{"returns"}, true},
		{"clean exit", []string{"MOVUPS\tX15, (CX)", "VPADDQ\tY3, Y2, Y2", "VZEROUPPER", "MOVSD\tX0, (AX)", "RET"}, nil, true},
		{"call while dirty", []string{"VMOVDQU\t(AX), Y1", "CALL\tsync.(*Once).doSlow(SB)", "VZEROUPPER", "RET"}, []string{"calls"}, true},
		{"tail jump while dirty", []string{"VMOVDQU\t(AX), Y1", "JMP\tpkg.g(SB)"}, []string{"jumps"}, true},
		{"panic and morestack calls", []string{"VMOVDQU\t(AX), Y1", "CALL\truntime.panicIndex(SB)", "CALL\truntime.morestack_noctxt(SB)", "VZEROUPPER", "RET"}, nil, true},
		{"scalar path jumped around the vector one", []string{"CMPB\tp.hasAVX2(SB), $0", "JEQ\t6", "VMOVDQU\t(AX), Y1", "VZEROUPPER", "RET", "XORPS\tX0, X0", "RET"},
			nil, true},
		{"dirty on one path of two", []string{"CMPB\tp.hasAVX2(SB), $0", "JEQ\t4", "VMOVDQU\t(AX), Y1", "MOVSD\t(AX), X0", "VZEROUPPER", "RET"},
			[]string{"legacy-SSE"}, true},
		{"loop back edge", []string{"VMOVDQU\t(AX), Y1", "MOVQ\tDX, X4", "VPSRLQ\tX4, Y1, Y1", "JLT\t1", "VZEROUPPER", "RET"},
			[]string{"legacy-SSE"}, true},
		{"indirect jump", []string{"JEQ\t4", "VMOVDQU\t(AX), Y1", "JMP\tAX", "VZEROUPPER", "MOVSD\t(AX), X0", "RET"},
			[]string{"legacy-SSE", "returns"}, true},
		{"Z registers", []string{"VPADDQ\tZ3, Z2, Z2", "RET"}, []string{"returns"}, true},
	}
	for _, c := range cases {
		rep, err := Check(strings.NewReader(listing("p.f", c.instrs...)))
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Funcs) != 1 || rep.Funcs[0].Name != "p.f" || rep.Funcs[0].Wide != c.wide {
			t.Errorf("%s: funcs %+v, want p.f with Wide %v", c.name, rep.Funcs, c.wide)
		}
		var got []string
		for _, f := range rep.Findings {
			got = append(got, f.Why)
		}
		ok := len(got) == len(c.want)
		for k := 0; ok && k < len(got); k++ {
			ok = strings.HasPrefix(got[k], c.want[k])
		}
		if !ok {
			t.Errorf("%s: findings %q, want prefixes %q", c.name, got, c.want)
		}
	}
}

// vectorPackages are the packages with GOEXPERIMENT=simd code, each with
// functions that must come out of the compiler as 256-bit vector code
// (so that the guard below cannot pass by missing them), and the helpers
// that take or return vectors: their own compiled bodies return dirty (by
// the ABI, vectors travel in Y registers), which is allowed only because
// they are never called, always inlined -- the guard checks that too.
var vectorPackages = []struct {
	path       string
	funcs      []string
	inlineOnly []string
}{
	{"github.com/fprlab/fprlab/arith/triword", []string{
		"github.com/fprlab/fprlab/arith/triword.addRun",
		"github.com/fprlab/fprlab/arith/triword.mulRun",
	}, []string{
		"github.com/fprlab/fprlab/arith/triword.(*consts).initA",
		"github.com/fprlab/fprlab/arith/triword.(*consts).initB",
		"github.com/fprlab/fprlab/arith/triword.(*consts).initPerm",
		"github.com/fprlab/fprlab/arith/triword.(*consts).initInts",
		"github.com/fprlab/fprlab/arith/triword.(*consts).initMasks",
		"github.com/fprlab/fprlab/arith/triword.(*consts).initMasks2",
		"github.com/fprlab/fprlab/arith/triword.(*consts).initMod3",
		"github.com/fprlab/fprlab/arith/triword.ld3",
		"github.com/fprlab/fprlab/arith/triword.st3",
		"github.com/fprlab/fprlab/arith/triword.gather",
		"github.com/fprlab/fprlab/arith/triword.(*consts).heads",
		"github.com/fprlab/fprlab/arith/triword.(*consts).mids",
		"github.com/fprlab/fprlab/arith/triword.(*consts).lows",
		"github.com/fprlab/fprlab/arith/triword.scatter",
		"github.com/fprlab/fprlab/arith/triword.(*consts).out0",
		"github.com/fprlab/fprlab/arith/triword.(*consts).out1",
		"github.com/fprlab/fprlab/arith/triword.(*consts).out2",
		"github.com/fprlab/fprlab/arith/triword.pick",
		"github.com/fprlab/fprlab/arith/triword.twoSum8",
		"github.com/fprlab/fprlab/arith/triword.(*consts).twoProd8",
		"github.com/fprlab/fprlab/arith/triword.(*consts).neg8",
		"github.com/fprlab/fprlab/arith/triword.(*consts).step",
		"github.com/fprlab/fprlab/arith/triword.(*consts).end",
	}},
	{"github.com/fprlab/fprlab/internal/samplerprng", []string{
		"github.com/fprlab/fprlab/internal/samplerprng.(*PRNG).refillAVX2",
	}, nil},
	{"github.com/fprlab/fprlab/falcon", []string{
		"github.com/fprlab/fprlab/falcon.gaussian0",
		"github.com/fprlab/fprlab/falcon.polyNegNative", // vecPolyNegNative inlined
		"github.com/fprlab/fprlab/falcon.vecFFTNative",
		"github.com/fprlab/fprlab/falcon.vecIFFTNative",
		"github.com/fprlab/fprlab/falcon.vecPolyAddNative",
		"github.com/fprlab/fprlab/falcon.vecPolySubNative",
		"github.com/fprlab/fprlab/falcon.vecPolyNegNative",
		"github.com/fprlab/fprlab/falcon.vecPolyMulFFTNative",
		"github.com/fprlab/fprlab/falcon.vecPolyMuladjFFTNative",
		"github.com/fprlab/fprlab/falcon.vecPolyMulselfadjFFTNative",
		"github.com/fprlab/fprlab/falcon.vecPolyMulconstNative",
		"github.com/fprlab/fprlab/falcon.vecPolyLDLmvFFTNative",
		"github.com/fprlab/fprlab/falcon.vecPolySplitFFTNative",
		"github.com/fprlab/fprlab/falcon.vecPolyMergeFFTNative",
	}, []string{
		"github.com/fprlab/fprlab/falcon.ld",
		"github.com/fprlab/fprlab/falcon.st",
		"github.com/fprlab/fprlab/falcon.st2",
		"github.com/fprlab/fprlab/falcon.bc",
		"github.com/fprlab/fprlab/falcon.bcAt",
		"github.com/fprlab/fprlab/falcon.neg",
		"github.com/fprlab/fprlab/falcon.vcmul",
		"github.com/fprlab/fprlab/falcon.deint",
		"github.com/fprlab/fprlab/falcon.inter",
		"github.com/fprlab/fprlab/falcon.halves",
		"github.com/fprlab/fprlab/falcon.twiddles4",
		"github.com/fprlab/fprlab/falcon.twiddles2",
		"github.com/fprlab/fprlab/falcon.vldl",
	}},
}

// TestNoAVXSSETransitions compiles the vector packages as the GOEXPERIMENT=simd
// build does for amd64 (whatever the test itself was built for: only the
// compiler runs, so any host will do) and fails on every AVX-SSE
// transition in their code.
func TestNoAVXSSETransitions(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to compile the vector packages: %v", err)
	}
	for _, pkg := range vectorPackages {
		cmd := exec.Command(gobin, "build", "-gcflags="+pkg.path+"=-S", "-o", os.DevNull, pkg.path)
		cmd.Env = append(os.Environ(), "GOEXPERIMENT=simd", "GOOS=linux", "GOARCH=amd64", "GOFLAGS=", "CGO_ENABLED=0")
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg.path, err, stderr.Bytes())
		}
		rep, err := Check(&stderr)
		if err != nil {
			t.Fatal(err)
		}
		wide := map[string]bool{}
		for _, f := range rep.Funcs {
			wide[f.Name] = f.Wide
		}
		for _, fn := range pkg.funcs {
			if w, ok := wide[fn]; !ok {
				t.Errorf("%s: not in the compiler listing", fn)
			} else if !w {
				t.Errorf("%s: uses no 256-bit registers (no longer vector code?)", fn)
			}
		}
		inlineOnly := map[string]bool{}
		for _, fn := range pkg.inlineOnly {
			inlineOnly[fn] = true
			if _, ok := wide[fn]; !ok {
				t.Errorf("%s: not in the compiler listing", fn)
			}
			if n := rep.Calls[fn]; n > 0 {
				t.Errorf("%s: called %d times (not inlined: its vector results come back in dirty registers)", fn, n)
			}
		}
		for _, f := range rep.Findings {
			if inlineOnly[f.Func] && strings.HasPrefix(f.Why, "returns") {
				continue
			}
			t.Errorf("%v", f)
		}
	}
}
