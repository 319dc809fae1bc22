package accel

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
)

// refCounts is testdata/opcounts_record0.json: the per-phase counts of an
// instrumented reference build (Falcon-impl-20211101, FALCON_FPEMU) on
// NIST KAT record 0.
type refCounts struct {
	Counters   []string                     `json:"counters"`
	Falcon512  map[string]map[string]uint64 `json:"falcon512"`
	Falcon1024 map[string]map[string]uint64 `json:"falcon1024"`
}

// integerCounters are the reference's counters of integer Montgomery
// products, which are not fpr operations and not counted by Counting.
var integerCounters = []string{"modp_montymul", "mq_montymul"}

func loadRefCounts(t *testing.T) *refCounts {
	t.Helper()
	data, err := os.ReadFile("testdata/opcounts_record0.json")
	if err != nil {
		t.Fatal(err)
	}
	var r refCounts
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func (r *refCounts) degree(logn uint) map[string]map[string]uint64 {
	if logn == 9 {
		return r.Falcon512
	}
	return r.Falcon1024
}

// asMap returns the counters by their reference names, through the JSON
// field tags (so the tags are checked too).
func asMap(t *testing.T, c Counts) map[string]uint64 {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]uint64{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCounterNames checks that Counts has exactly the reference's
// floating-point counters, in its order, under its names.
func TestCounterNames(t *testing.T) {
	ref := loadRefCounts(t)
	var want []string
	for _, n := range ref.Counters {
		if !slices.Contains(integerCounters, n) {
			want = append(want, n)
		}
	}
	if !slices.Equal(CounterNames, want) {
		t.Fatalf("CounterNames = %v, want %v", CounterNames, want)
	}
	var c Counts
	v := reflect.ValueOf(&c).Elem()
	for i := range v.NumField() {
		v.Field(i).SetUint(uint64(100 + i))
	}
	m := asMap(t, c)
	if len(m) != len(CounterNames) {
		t.Fatalf("Counts has %d JSON fields, want %d", len(m), len(CounterNames))
	}
	for i, x := range c.Values() {
		if m[CounterNames[i]] != x {
			t.Errorf("Values()[%d] = %d, but JSON field %q is %d", i, x, CounterNames[i], m[CounterNames[i]])
		}
	}
}

// TestReferenceIdentities checks, on the reference's own counts, the two
// identities the model derives FPR and FPR_NORM64 from: the reference
// counted FPR at the packing routine and FPR_NORM64 at the normaliser,
// independently of the per-operation counters.
func TestReferenceIdentities(t *testing.T) {
	ref := loadRefCounts(t)
	for _, logn := range []uint{9, 10} {
		for phase, m := range ref.degree(logn) {
			if fpr := m["scaled"] + m["add"] + m["mul"] + m["div"] + m["sqrt"]; m["FPR"] != fpr {
				t.Errorf("logn %d %s: reference FPR %d, scaled+add+mul+div+sqrt %d", logn, phase, m["FPR"], fpr)
			}
			if n64 := m["scaled"] + m["add"]; m["FPR_NORM64"] != n64 {
				t.Errorf("logn %d %s: reference FPR_NORM64 %d, scaled+add %d", logn, phase, m["FPR_NORM64"], n64)
			}
		}
	}
}

// TestKATRecord0 runs the NIST KAT flow of record 0 with counted emu64
// arithmetic and compares every floating-point counter of every phase
// with the reference's instrumented counts, checks that the record is
// still the published one, and checks the totals HORCRUX Table II reports.
func TestKATRecord0(t *testing.T) {
	ref := loadRefCounts(t)
	// Totals (keygen + sign + verify) of record 0, written out here, not
	// read from the counts file: Falcon-512's are the call counts HORCRUX
	// publishes (Table II, FPR and FPR_NORM), Falcon-1024's those of the
	// reference's instrumented FPEMU build (Falcon-impl-20211101).
	published := map[uint][2]uint64{9: {731119, 388031}, 10: {2076366, 1119879}}
	for _, logn := range []uint{9, 10} {
		k, err := CountKATRecord(logn, 0)
		if err != nil {
			t.Fatalf("logn %d: %v", logn, err)
		}
		checkPublishedRecord(t, logn, &k.Record)

		want := ref.degree(logn)
		for _, ph := range []struct {
			name string
			got  Counts
		}{{"keypair", k.Keypair}, {"sign", k.Sign}, {"open", k.Open}, {"total", k.Total()}} {
			got := asMap(t, ph.got)
			for _, n := range CounterNames {
				if got[n] != want[ph.name][n] {
					t.Errorf("logn %d %s: %s = %d, reference %d", logn, ph.name, n, got[n], want[ph.name][n])
				}
			}
		}
		tot := k.Total()
		if p := published[logn]; tot.FPR != p[0] || tot.FPRNorm64 != p[1] {
			t.Errorf("logn %d: total FPR %d, FPR_NORM64 %d; published %d, %d", logn, tot.FPR, tot.FPRNorm64, p[0], p[1])
		}
		// Operations that are no fpr call and no reference counter.
		if c := k.KeypairCalls; c.Big != 0 || c.Div != 0 {
			t.Errorf("logn %d keypair: Big %d, Div %d calls, want 0 (every division is an Inv)", logn, c.Big, c.Div)
		}
		if c := k.SignCalls; c.FromFloat64 != 0 || c.Float64 != 0 || c.Big != 0 || c.Div != 0 {
			t.Errorf("logn %d sign: FromFloat64 %d, Float64 %d, Big %d, Div %d calls, want 0", logn, c.FromFloat64, c.Float64, c.Big, c.Div)
		}
	}
}

// publishedMismatch compares a generated record with record r.Count of the
// published KAT file and returns the first difference (nil: equal).
func publishedMismatch(t *testing.T, logn uint, r *falcon.KATRecord) *falcon.KATMismatch {
	t.Helper()
	data, err := katref.Response(logn)
	if err != nil {
		t.Fatal(err)
	}
	_, recs, err := falcon.ParseKAT(data)
	if err != nil {
		t.Fatal(err)
	}
	return falcon.CompareKATRecord(r, &recs[r.Count])
}

// checkPublishedRecord compares a generated record with record r.Count of
// the published KAT file: counting must not change any result.
func checkPublishedRecord(t *testing.T, logn uint, r *falcon.KATRecord) {
	t.Helper()
	if m := publishedMismatch(t, logn, r); m != nil {
		t.Errorf("logn %d: counted record %d differs from the published one in %s at byte %d", logn, m.Record, m.Field, m.Offset)
	}
}

// TestNativeSameCalls runs record 0 of Falcon-512 over a counted native
// backend: Falcon's engine must accept a Counting[float64] as well, and
// since native and emu64 compute the same record, Falcon must make the
// same calls in the same number.
func TestNativeSameCalls(t *testing.T) {
	nb, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	kc := NewCounting[float64](native.Arith{})
	sc := NewCounting[float64](native.Arith{})
	rec := falcon.KATRequests(1)[0]
	if err := falcon.GenerateKAT(9, &rec, falcon.KATOptions{Keygen: kc.Backend(nb), Sign: sc.Backend(nb)}); err != nil {
		t.Fatal(err)
	}
	checkPublishedRecord(t, 9, &rec)
	e, err := CountKATRecord(9, 0)
	if err != nil {
		t.Fatal(err)
	}
	if kc.Calls() != e.KeypairCalls || sc.Calls() != e.SignCalls {
		t.Errorf("native calls differ from emu64's:\nkeypair %+v\n   emu64 %+v\nsign %+v\nemu64 %+v",
			kc.Calls(), e.KeypairCalls, sc.Calls(), e.SignCalls)
	}
}

// TestCountingForwards checks on random operands that every method
// returns exactly what the wrapped backend returns and increments its own
// counter and no other.
func TestCountingForwards(t *testing.T) {
	var a emu64.Arith
	c := NewCounting[emu64.FPR](a)
	rng := rand.New(rand.NewPCG(1, 2))
	val := func() emu64.FPR {
		return emu64.FPR(math.Float64bits((rng.Float64() + 0.5) * math.Ldexp(1, rng.IntN(40)-20)))
	}
	small := func() emu64.FPR { return emu64.FPR(math.Float64bits(rng.Float64() * 0.69)) }
	type result any
	// x, y are operands, s is in [0, 0.69) (ExpmP63's range), i an integer.
	type operands struct {
		x, y, s emu64.FPR
		i       int64
	}
	cases := []struct {
		field string
		call  func(ar arith.Arith[emu64.FPR], o operands) result
	}{
		{"Of", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Of(o.i) }},
		{"Scaled", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Scaled(o.i, int(o.i%50)) }},
		{"FromFloat64", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.FromFloat64(float64(o.i) / 3) }},
		{"Const", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Const(arith.Log2) }},
		{"GM", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.GM(int(uint64(o.i) % 2048)) }},
		{"Add", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Add(o.x, o.y) }},
		{"Sub", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Sub(o.x, o.y) }},
		{"Neg", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Neg(o.x) }},
		{"Half", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Half(o.x) }},
		{"Double", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Double(o.x) }},
		{"Mul", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Mul(o.x, o.y) }},
		{"Sqr", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Sqr(o.x) }},
		{"Inv", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Inv(o.x) }},
		{"Div", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Div(o.x, o.y) }},
		{"Sqrt", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Sqrt(o.x) }},
		{"Rint", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Rint(o.x) }},
		{"Floor", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Floor(ar.Neg(o.x)) }},
		{"Trunc", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Trunc(o.x) }},
		{"Lt", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Lt(o.x, o.y) }},
		{"ExpmP63", func(ar arith.Arith[emu64.FPR], o operands) result {
			return ar.ExpmP63(o.s, emu64.FPR(math.Float64bits(0.75)))
		}},
		{"Float64", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Float64(o.x) }},
		{"Big", func(ar arith.Arith[emu64.FPR], o operands) result { return ar.Big(o.x).String() }},
	}
	if len(cases) != reflect.TypeFor[Calls]().NumField() {
		t.Fatalf("%d cases for %d Calls fields", len(cases), reflect.TypeFor[Calls]().NumField())
	}
	const rounds = 200
	for _, tc := range cases {
		c.Reset()
		for r := range rounds {
			o := operands{val(), val(), small(), rng.Int64() >> rng.IntN(64)}
			want := tc.call(a, o)
			if got := tc.call(c, o); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s round %d: wrapped %v, backend %v", tc.field, r, got, want)
			}
		}
		calls := reflect.ValueOf(c.Calls())
		for j := range calls.NumField() {
			name := calls.Type().Field(j).Name
			want := uint64(0)
			switch {
			case name == tc.field:
				want = rounds
			case tc.field == "Floor" && name == "Neg":
				want = rounds // the case negates its operand through the wrapper
			}
			if got := calls.Field(j).Uint(); got != want {
				t.Errorf("after %d %s calls: %s counter %d, want %d", rounds, tc.field, name, got, want)
			}
		}
	}
}

// TestFPEMUModel checks the derivation of the reference's counters from
// method calls on hand-computed values.
func TestFPEMUModel(t *testing.T) {
	k := Calls{
		Of: 1, Scaled: 2, FromFloat64: 1000, Const: 1000, GM: 1000,
		Add: 3, Sub: 4, Neg: 5, Half: 6, Double: 7,
		Mul: 8, Sqr: 9, Inv: 10, Div: 11, Sqrt: 12,
		Rint: 13, Floor: 14, Trunc: 15, Lt: 16, ExpmP63: 17,
		Float64: 1000, Big: 1000,
	}
	want := Counts{
		Scaled: 3, // 1 of + 2 scaled
		Add:    7, // 3 add + 4 sub
		Sub:    4,
		Mul:    51, // 8 mul + 9 sqr + 2*17 inside expm_p63
		Sqr:    9,
		Div:    21, // 11 div + 10 inv
		Inv:    10,
		Sqrt:   12, ExpmP63: 17, Rint: 13, Floor: 14,
		Trunc: 49, // 15 + 2*17 inside expm_p63
		Half:  6, Double: 7, Neg: 5, Lt: 16, Of: 1,
		FPR:       94, // 3 + 7 + 51 + 21 + 12
		FPRNorm64: 10, // 3 + 7
	}
	if got := k.FPEMU(); got != want {
		t.Errorf("FPEMU() = %+v\nwant      %+v", got, want)
	}
	if got := want.Plus(want); got.FPR != 188 || got.Trunc != 98 || got.Of != 2 {
		t.Errorf("Plus: %+v", got)
	}
}

// TestCountingConcurrent checks that concurrent calls are all counted
// (run with -race to check the absence of data races as well).
func TestCountingConcurrent(t *testing.T) {
	c := NewCounting[float64](native.Arith{})
	const workers, each = 8, 1000
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				c.Add(1, 2)
				c.Mul(3, 4)
			}
		})
	}
	wg.Wait()
	if k := c.Calls(); k.Add != workers*each || k.Mul != workers*each {
		t.Errorf("Add %d, Mul %d calls counted, want %d each", k.Add, k.Mul, workers*each)
	}
	c.Reset()
	if k := c.Calls(); k != (Calls{}) {
		t.Errorf("after Reset: %+v", k)
	}
}

// TestCountKATRecordErrors: bad degrees and record numbers are errors, and
// a huge record number is refused before anything is allocated for it.
func TestCountKATRecordErrors(t *testing.T) {
	if _, err := CountKATRecord(8, 0); err == nil {
		t.Error("Falcon-256: no error")
	}
	for _, count := range []int{-1, falcon.MaxKATRequests, 1 << 40, math.MaxInt} {
		if _, err := CountKATRecord(9, count); err == nil || !strings.Contains(err.Error(), "numbered") {
			t.Errorf("record %d: error %v, want one naming the valid record numbers", count, err)
		}
	}
}

// TestNilReceivers: the read-only methods have safe zero values on nil.
func TestNilReceivers(t *testing.T) {
	var c *Counting[float64]
	c.Reset()
	if k := c.Calls(); k != (Calls{}) {
		t.Errorf("nil Counting: Calls %+v", k)
	}
	if k := c.Counts(); k != (Counts{}) {
		t.Errorf("nil Counting: Counts %+v", k)
	}
	var k *KATCounts
	if tot := k.Total(); tot != (Counts{}) {
		t.Errorf("nil KATCounts: Total %+v", tot)
	}
}
