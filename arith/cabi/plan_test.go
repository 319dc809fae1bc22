package cabi_test

import (
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// TestTruncStagesAsVPrecStages: a plan stage computed by the truncating
// plugin at P bits (examples/trunc.c, which computes what vprec:P:e11:rz
// computes) gives the signatures and shadowed records of the same plan
// with that stage in vprec:P:e11:rz: operands enter the plugin's stage
// rounded by its fprlab_from_parts as a vprec stage rounds them (toward
// zero, binary64's range without subnormals), the stage's operations and
// decisions are the plugin's, and results leave exactly. The stages
// include the sampler (rint, floor, trunc and lt decided by the plugin)
// and expm (the plugin's arithmetic evaluates expm_p63).
func TestTruncStagesAsVPrecStages(t *testing.T) {
	lib := plugin(t, "../../examples/trunc.c")
	cases := []struct {
		stage string
		p     int
	}{{"ldl", 40}, {"sampler", 33}, {"expm", 24}, {"fft", 45}, {"target", 36}, {"ffsampling", 38}, {"all", 44}}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		rest := "+all=vprec:53:e11"
		if c.stage == "all" {
			rest = ""
		}
		b := lookup(t, fmt.Sprintf("plan:%s=so:%s@%d%s", c.stage, lib, c.p, rest))
		want := lookup(t, fmt.Sprintf("plan:%s=vprec:%d:e11:rz%s", c.stage, c.p, rest))
		sameSignatures(t, b, want, 9, 4, false)
		sameRecords(t, b, want, "emu64", 2, 0)
	}
}

// TestDoublePlanAsBinary64: a plan of the double plugin (examples/double.c)
// alone signs as native and as the plan all=binary64 do, key generation
// included, with the same shadowed records as all=binary64; a plan with
// only its sampler in the plugin, the rest binary64, too (the plugin's
// values are binary64's and its operations binary64's).
func TestDoublePlanAsBinary64(t *testing.T) {
	lib := plugin(t, "../../examples/double.c")
	b64 := lookup(t, "plan:all=binary64")
	n := 6
	if testing.Short() {
		n = 3
	}
	all := lookup(t, "plan:all=so:"+lib)
	sameSignatures(t, all, lookup(t, "native"), 9, n, true)
	sameSignatures(t, all, b64, 9, n, true)
	sameRecords(t, all, b64, "", 2, 0)
	sampler := lookup(t, "plan:sampler=so:"+lib+"+all=binary64")
	sameSignatures(t, sampler, b64, 9, n, false)
	sameRecords(t, sampler, b64, "emu64", 2, 0)
}

// TestBinary64StagesFedFromWider: a stage of the binary64 example plugins
// (examples/double.c, examples/datapath.cpp) in a plan whose other stages
// are wider, vprec:64:e11, receives operands of up to 64 bits, which its
// fprlab_from_parts rounds to nearest even as binary64 does; the plan
// then signs, and records, as the same plan with that stage in
// vprec:53:e11. (vprec:53:e11 is binary64's rounding and exponent range
// but flushes results below 2^-1022 to zero where the plugins keep
// subnormals; Falcon's values never come near 2^-1022, so the two agree
// on signing.) examples/trunc.c at P bits likewise against
// vprec:P:e11:rz.
func TestBinary64StagesFedFromWider(t *testing.T) {
	double := plugin(t, "../../examples/double.c")
	datapath := plugin(t, "../../examples/datapath.cpp")
	trunc := plugin(t, "../../examples/trunc.c")
	const rest = "+all=vprec:64:e11"
	cases := []struct{ stage, lib, want string }{
		{"sampler", "so:" + double, "vprec:53:e11"},
		{"ldl", "so:" + double, "vprec:53:e11"},
		{"ffsampling", "so:" + datapath, "vprec:53:e11"},
		{"sampler", "so:" + trunc + "@40", "vprec:40:e11:rz"},
		{"fft", "so:" + double, "vprec:53:e11"},
		{"expm", "so:" + double, "vprec:53:e11"},
		{"target", "so:" + datapath, "vprec:53:e11"},
	}
	if testing.Short() {
		cases = cases[:4]
	}
	for _, c := range cases {
		b := lookup(t, "plan:"+c.stage+"="+c.lib+rest)
		want := lookup(t, "plan:"+c.stage+"="+c.want+rest)
		sameSignatures(t, b, want, 9, 3, false)
		sameRecords(t, b, want, "emu64", 2, 0)
	}
}

// TestPlanPluginRefusals: a plugin stage whose values the plan's carrier
// cannot hold is refused naming the plugin and the carrier (the
// declaration decides: testdata/wide.c declares the width of its
// configuration); a wide plugin is accepted where the plan carries
// big.Float values; a path cut by the plan's separators, or a '%' that
// escapes nothing, is refused with the spelling to use.
func TestPlanPluginRefusals(t *testing.T) {
	wide := plugin(t, "testdata/wide.c")
	trunc := plugin(t, "../../examples/trunc.c")
	for _, c := range []struct{ name, want string }{
		{"plan:ldl=so:" + wide + "@200:11+all=vprec:53", "has 200-bit significands, wider than the 128 bits of the plan's carrier vfloat.V"},
		{"plan:ldl=so:" + wide + "@200:11+all=vprec:53", "write the other stages as vprecbig:"},
		{"plan:ldl=so:" + wide + "@53:0+all=vprec:53", "declares an unbounded exponent range (exponent_bits 0), beyond the plan's carrier vfloat.V"},
		{"plan:ldl=so:" + wide + "@53:0+all=vprecbig:53", "unbounded exponent range (exponent_bits 0), beyond the plan's carrier *big.Float"},
		{"plan:ldl=so:" + wide + "@53:0+all=vprecbig:53", "so:" + wide + "@53:0"},
		{"plan:ldl=so:/nonexistent/lib+x.so@40+all=vprec:53", "no such file"},
		{"plan:ldl=so:/nonexistent/lib+x.so@40+all=vprec:53", "%2B"},
		{"plan:ldl=so:" + trunc + "@40,x.so+all=vprec:53", "want stage=FORMAT (after \"ldl=so:"},
		{"plan:ldl=so:" + trunc + "@40+c=d+all=vprec:53", `unknown stage "c"`},
		{"plan:ldl=so:" + trunc + "@40+c=d+all=vprec:53", "%2C"},
		{"plan:ldl=so:./100%.so+all=vprec:53", "is not followed by two hex digits (inside a plan, a '+' or ',' of a plugin's path or configuration is written %2B or %2C, and '%' as %25)"},
		{"plan:ldl=so:" + trunc + "@99+all=vprec:53", "FPRLAB_ERR_CONFIG"},
	} {
		_, err := lookupErr(c.name)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	// An entry of a known stage whose format is wrong, after a plugin
	// stage, is not the rest of a cut path: its error says nothing of
	// escapes.
	for _, name := range []string{"plan:sampler=so:" + trunc + "@40+all=vprec:300", "plan:ldl=so:" + trunc + "@40,fft=triword,all=vprec:53"} {
		_, err := lookupErr(name)
		if err == nil || strings.Contains(err.Error(), "%2B") || !strings.Contains(err.Error(), "plan entry") {
			t.Errorf("%s: error %v, want one about the format alone", name, err)
		}
	}
	for _, name := range []string{"plan:ldl=so:" + wide + "@200:11+all=vprecbig:53:e11", "plan:all=so:" + wide + "@200:11"} {
		b := lookup(t, name)
		if _, isBig := b.Impl.(arith.Arith[*big.Float]); !isBig || b.Bits != 200 {
			t.Errorf("%s: runs on %T with %d bits, want big.Float and 200", name, b.Impl, b.Bits)
		}
	}
}

// TestPlanPluginPathEscapes: a library whose path holds the plan's
// separators and '%' is named with them escaped; the plan's name spells
// them so and names the same backend again, and it computes as the plan
// with the plain path.
func TestPlanPluginPathEscapes(t *testing.T) {
	lib := plugin(t, "../../examples/trunc.c")
	data, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(t.TempDir(), "lib+t,r% u=nc.so")
	if err := os.WriteFile(odd, data, 0o755); err != nil {
		t.Fatal(err)
	}
	esc := strings.NewReplacer("%", "%25", "+", "%2B", ",", "%2C").Replace(odd)
	b := lookup(t, "plan:ldl=so:"+esc+"@40+all=binary64")
	if want := "plan:ldl=so:" + strings.ReplaceAll(esc, " ", "%20") + "@40+all=vprec:53:e11"; b.Name != want {
		t.Fatalf("name %q, want %q", b.Name, want)
	}
	if again := lookup(t, b.Name); again.Name != b.Name {
		t.Fatalf("the name %q names %q", b.Name, again.Name)
	}
	sameSignatures(t, b, lookup(t, "plan:ldl=so:"+lib+"@40+all=binary64"), 9, 2, false)
}

// lookupErr is arith.Lookup's error.
func lookupErr(name string) (arith.Backend, error) { return arith.Lookup(name) }
