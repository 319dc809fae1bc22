package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
	"github.com/fprlab/fprlab/fndsa"
)

// tallyArith is emu64 with a tally of its own per method, written apart
// from accel.Counting (which forwards through arith.Forward) so that the
// two counts are independent.
type tallyArith struct {
	emu64.Arith
	n map[string]uint64
}

func (t tallyArith) Of(i int64) emu64.FPR { t.n["of"]++; return t.Arith.Of(i) }
func (t tallyArith) Scaled(i int64, e int) emu64.FPR {
	t.n["scaled"]++
	return t.Arith.Scaled(i, e)
}
func (t tallyArith) Add(x, y emu64.FPR) emu64.FPR  { t.n["add"]++; return t.Arith.Add(x, y) }
func (t tallyArith) Sub(x, y emu64.FPR) emu64.FPR  { t.n["sub"]++; return t.Arith.Sub(x, y) }
func (t tallyArith) Neg(x emu64.FPR) emu64.FPR     { t.n["neg"]++; return t.Arith.Neg(x) }
func (t tallyArith) Half(x emu64.FPR) emu64.FPR    { t.n["half"]++; return t.Arith.Half(x) }
func (t tallyArith) Double(x emu64.FPR) emu64.FPR  { t.n["double"]++; return t.Arith.Double(x) }
func (t tallyArith) Mul(x, y emu64.FPR) emu64.FPR  { t.n["mul"]++; return t.Arith.Mul(x, y) }
func (t tallyArith) Sqr(x emu64.FPR) emu64.FPR     { t.n["sqr"]++; return t.Arith.Sqr(x) }
func (t tallyArith) Inv(x emu64.FPR) emu64.FPR     { t.n["inv"]++; return t.Arith.Inv(x) }
func (t tallyArith) Div(x, y emu64.FPR) emu64.FPR  { t.n["div"]++; return t.Arith.Div(x, y) }
func (t tallyArith) Sqrt(x emu64.FPR) emu64.FPR    { t.n["sqrt"]++; return t.Arith.Sqrt(x) }
func (t tallyArith) Rint(x emu64.FPR) int64        { t.n["rint"]++; return t.Arith.Rint(x) }
func (t tallyArith) Floor(x emu64.FPR) int64       { t.n["floor"]++; return t.Arith.Floor(x) }
func (t tallyArith) Trunc(x emu64.FPR) int64       { t.n["trunc"]++; return t.Arith.Trunc(x) }
func (t tallyArith) Lt(x, y emu64.FPR) bool        { t.n["lt"]++; return t.Arith.Lt(x, y) }
func (t tallyArith) ExpmP63(x, c emu64.FPR) uint64 { t.n["expm_p63"]++; return t.Arith.ExpmP63(x, c) }

// TestAccelCountsFNDSA: accel counts --scheme fn-dsa gives the counted
// operations of an actual FN-DSA signature: the signature it names is the
// one fndsa makes with the record's keys (KAT record 3 of Falcon-512, whose
// published key it regenerates) and verifies, and its sign counters are an
// independent tally of that signature's emu64 calls under the reference's
// FPEMU inclusions (add includes sub, mul sqr, div inv, scaled of; FPR and
// FPR_NORM64 their sums). They differ from round 3's: no expm_p63, and
// the real-diagonal LDL halves the square products.
func TestAccelCountsFNDSA(t *testing.T) {
	code, out, errs := runCLI(t, "accel", "counts", "--params", "512", "--kat-record", "3", "--scheme", "fn-dsa", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Scheme          string            `json:"scheme"`
		Params          int               `json:"params"`
		Sign            map[string]uint64 `json:"sign"`
		Verify          map[string]uint64 `json:"verify"`
		SignKeccak      map[string]int64  `json:"sign_keccak"`
		VerifyKeccak    map[string]int64  `json:"verify_keccak"`
		Attempts        int64             `json:"sign_attempts"`
		Keygen          map[string]uint64 `json:"keygen"`
		SignatureSHA256 string            `json:"signature_sha256"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if r.Scheme != "fn-dsa" || r.Params != 512 {
		t.Fatalf("scheme %q params %d", r.Scheme, r.Params)
	}

	// The record's keys, from the published KAT (checked by accel counts).
	data, err := katref.Response(9)
	if err != nil {
		t.Fatal(err)
	}
	_, recs, err := falcon.ParseKAT(data)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := falcon.DecodePrivateKey(recs[3].SK)
	if err != nil {
		t.Fatal(err)
	}
	k, err := fndsa.NewSigningKey(sk, false)
	if err != nil {
		t.Fatal(err)
	}
	ta := tallyArith{n: map[string]uint64{}}
	b, err := arith.Lookup("emu64")
	if err != nil {
		t.Fatal(err)
	}
	b.Name, b.Impl = "emu64+tally", ta
	sig, err := k.SignSeeded(b, nil, fndsa.None, recs[3].Msg, recs[3].Seed)
	if err != nil {
		t.Fatal(err)
	}
	vk, err := fndsa.DecodeVerifyingKey(k.VerifyingKey(), false)
	if err != nil || vk.Verify(nil, fndsa.None, recs[3].Msg, sig) != nil {
		t.Fatalf("the tallied signature does not verify (%v)", err)
	}
	if h := sha256.Sum256(sig); hex.EncodeToString(h[:]) != r.SignatureSHA256 {
		t.Fatalf("signature SHA-256 %s, the command counted %s", hex.EncodeToString(h[:]), r.SignatureSHA256)
	}
	n := ta.n
	want := map[string]uint64{
		"of": n["of"], "scaled": n["of"] + n["scaled"], "sub": n["sub"], "add": n["add"] + n["sub"], "sqr": n["sqr"],
		"mul": n["mul"] + n["sqr"] + 2*n["expm_p63"], "inv": n["inv"], "div": n["div"] + n["inv"], "sqrt": n["sqrt"],
		"expm_p63": n["expm_p63"], "rint": n["rint"], "floor": n["floor"], "trunc": n["trunc"] + 2*n["expm_p63"],
		"half": n["half"], "double": n["double"], "neg": n["neg"], "lt": n["lt"],
	}
	want["FPR"] = want["scaled"] + want["add"] + want["mul"] + want["div"] + want["sqrt"]
	want["FPR_NORM64"] = want["scaled"] + want["add"]
	// The integer counters (derived by hand for record 0 in package
	// accel's TestCountFNDSARecord0): go-fn-dsa's mq_mmul of decoding the
	// signing key, 5 x 256 x 9 + 22 x 512, no NTRUSolve, and the Keccak
	// permutations of their four origins.
	sk3 := r.SignKeccak
	want["modp_montymul"], want["mq_montymul"] = 0, 22784
	want["keccak_f1600"] = uint64(sk3["key_digest"] + sk3["nonce_streams"] + sk3["hash_to_point"] + sk3["sampler_prng"])
	if sk3["key_digest"] != 7 || sk3["nonce_streams"] != r.Attempts || r.Attempts < 1 || sk3["sampler_prng"] != (sk3["sampler_bytes"]+135)/136 {
		t.Errorf("sign keccak %v, %d attempts", sk3, r.Attempts)
	}
	if vk := r.VerifyKeccak; r.Verify["mq_montymul"] != 7936 || vk["key_digest"] != 7 || r.Verify["keccak_f1600"] != uint64(vk["key_digest"]+vk["hash_to_point"]) || r.Verify["FPR"] != 0 {
		t.Errorf("verify %v, keccak %v", r.Verify, vk)
	}
	if len(r.Sign) != len(want) {
		t.Errorf("%d sign counters, want %d: %v", len(r.Sign), len(want), r.Sign)
	}
	for c, w := range want {
		if r.Sign[c] != w {
			t.Errorf("sign %s: %d, the tally gives %d", c, r.Sign[c], w)
		}
	}
	if n["expm_p63"] != 0 || n["lt"] == 0 || n["trunc"] == 0 {
		t.Errorf("FN-DSA's ApproxExp: expm_p63 %d, lt %d, trunc %d; want integer ApproxExp (no expm_p63, an lt and truncations per call)", n["expm_p63"], n["lt"], n["trunc"])
	}

	// Round 3's counts of the same record sign differently.
	code, out, errs = runCLI(t, "accel", "counts", "--params", "512", "--kat-record", "3", "--json")
	if code != 0 {
		t.Fatalf("round 3: exit %d: %s", code, errs)
	}
	var r3 struct {
		Phases map[string]map[string]uint64 `json:"phases"`
	}
	if err := json.Unmarshal([]byte(out), &r3); err != nil {
		t.Fatal(err)
	}
	if r3.Phases["sign"]["expm_p63"] == 0 || r3.Phases["sign"]["sqr"] <= r.Sign["sqr"] {
		t.Errorf("round-3 sign: expm_p63 %d, sqr %d (FN-DSA %d)", r3.Phases["sign"]["expm_p63"], r3.Phases["sign"]["sqr"], r.Sign["sqr"])
	}
	for c, v := range r3.Phases["keygen"] {
		if r.Keygen[c] != v {
			t.Errorf("keygen %s: %d, round 3's %d (the same keys)", c, r.Keygen[c], v)
		}
	}
	if code, _, errs := runCLI(t, "accel", "counts", "--params", "512", "--scheme", "fn-dsa2"); code != 2 || !strings.Contains(errs, "--scheme") {
		t.Errorf("bad --scheme: exit %d %q", code, errs)
	}
}
