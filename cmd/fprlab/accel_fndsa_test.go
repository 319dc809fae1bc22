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
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/internal/cli"
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

// TestAccelCountsFNDSA: accel counts --scheme fn-dsa --key-source falcon
// gives the counted operations of an actual FN-DSA signature: the
// signature it names is the one fndsa makes with the record's round-3 keys
// (NIST KAT record 3 of Falcon-512, whose published key it regenerates)
// and verifies, and its sign counters are an
// independent tally of that signature's emu64 calls under the reference's
// FPEMU inclusions (add includes sub, mul sqr, div inv, scaled of; FPR and
// FPR_NORM64 their sums). They differ from round 3's: no expm_p63, and
// the real-diagonal LDL halves the square products.
func TestAccelCountsFNDSA(t *testing.T) {
	code, out, errs := runCLI(t, "accel", "counts", "--params", "512", "--kat-record", "3", "--scheme", "fn-dsa", "--key-source", "falcon", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Scheme          string            `json:"scheme"`
		Params          int               `json:"params"`
		KeySource       string            `json:"key_source"`
		Record          *int              `json:"record"`
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
	if r.Scheme != "fn-dsa" || r.Params != 512 || r.KeySource != "falcon" || r.Record == nil || *r.Record != 3 {
		t.Fatalf("scheme %q params %d key source %q record %v", r.Scheme, r.Params, r.KeySource, r.Record)
	}

	// The record's keys, from the published KAT (checked by accel counts).
	recs := katRecords(t, 9)
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
	// fndsacount's TestCountFNDSARecord0): go-fn-dsa's mq_mmul of decoding the
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

// TestAccelCountsFNDSAKeys: accel counts --scheme fn-dsa counts, by
// default, a record of go-fn-dsa's own KAT with its FN-DSA keys; the
// signature whose SHA-256 it prints is go-fn-dsa's: fndsa.RunKAT over
// emu64 (no counting) makes it, and its SHA3-256(sk || vk || sig) is
// go-fn-dsa's pin of the record. The integer counters of
// FN-DSA-512 record 1 are those derived by hand in accel's
// TestCountFNDSAKAT (mq_mmul 22,784 and 7,936; verify's Keccak 7 key
// digest + 9 hash-to-point).
func TestAccelCountsFNDSAKeys(t *testing.T) {
	emu, err := arith.Lookup("emu64")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		logn uint
		j    int
	}{
		{[]string{"--params", "512"}, 9, 0},
		{[]string{"--params", "512", "--fn-dsa-record", "1"}, 9, 1},
		{[]string{"--fn-dsa-record", "9", "--key-source", "fn-dsa", "--params", "1024"}, 10, 9},
	} {
		args := append([]string{"accel", "counts", "--scheme", "fn-dsa", "--json"}, c.args...)
		code, out, errs := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var r struct {
			KeySource       string            `json:"key_source"`
			Params          int               `json:"params"`
			Record          *int              `json:"record"`
			FNDSARecord     *int              `json:"fn_dsa_record"`
			Keygen          map[string]uint64 `json:"keygen"`
			Sign            map[string]uint64 `json:"sign"`
			Verify          map[string]uint64 `json:"verify"`
			SignatureSHA256 string            `json:"signature_sha256"`
			KATPin          string            `json:"kat_pin"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		rec, ok, err := fndsa.KATRecordOf(c.logn, c.j)
		if err != nil || !ok {
			t.Fatalf("no go-fn-dsa record %d at logn %d", c.j, c.logn)
		}
		if r.KeySource != "fn-dsa" || r.Params != 1<<c.logn || r.Record != nil || r.FNDSARecord == nil || *r.FNDSARecord != c.j || r.Keygen != nil {
			t.Errorf("%v: key source %q, params %d, NIST record %v, go-fn-dsa record %v, keygen %v", args, r.KeySource, r.Params, r.Record, r.FNDSARecord, r.Keygen)
		}
		want, err := fndsa.RunKAT(emu, rec)
		if err != nil {
			t.Fatal(err)
		}
		// RunKAT's signature is go-fn-dsa's when the record's pin holds
		// (package fndsa's KAT tests; fndsacount's TestCountFNDSAKAT computes
		// the pin itself).
		h := sha256.Sum256(want.Signature)
		if !want.PinMatch || !want.KeysMatch || hex.EncodeToString(h[:]) != r.SignatureSHA256 || r.KATPin != hex.EncodeToString(rec.Pin[:]) {
			t.Errorf("%v: signature SHA-256 %s, go-fn-dsa's signature's %s (its pin holds: %v); kat_pin %s", args, r.SignatureSHA256, hex.EncodeToString(h[:]), want.PinMatch, r.KATPin)
		}
		if r.Sign["FPR"] == 0 || r.Sign["expm_p63"] != 0 || r.Verify["FPR"] != 0 {
			t.Errorf("%v: sign FPR %d, expm_p63 %d, verify FPR %d", args, r.Sign["FPR"], r.Sign["expm_p63"], r.Verify["FPR"])
		}
		if c.logn == 9 && c.j == 1 && (r.Sign["mq_montymul"] != 22784 || r.Verify["mq_montymul"] != 7936 || r.Verify["keccak_f1600"] != 16) {
			t.Errorf("record 1: sign %v, verify %v", r.Sign, r.Verify)
		}
	}
	code, text, errs := runCLI(t, "accel", "counts", "--params", "512", "--scheme", "fn-dsa", "--fn-dsa-record", "1")
	if code != 0 || !strings.HasPrefix(text, "FN-DSA-512 signing go-fn-dsa KAT record 1 of degree 512 with its FN-DSA keys") || !strings.Contains(text, "the record's pin") {
		t.Errorf("text: exit %d, %s, %.300q", code, errs, text)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--scheme", "fn-dsa", "--fn-dsa-record", "10"}, "--fn-dsa-record 10: want a record of go-fn-dsa's KAT, 0 to 9"},
		{[]string{"--scheme", "fn-dsa", "--fn-dsa-record", "-1"}, "0 to 9"},
		{[]string{"--scheme", "fn-dsa", "--kat-record", "3"}, "--key-source falcon"},
		{[]string{"--scheme", "fn-dsa", "--record", "3"}, "--key-source falcon"},
		{[]string{"--scheme", "fn-dsa", "--key-source", "falcon", "--fn-dsa-record", "1"}, "--fn-dsa-record"},
		{[]string{"--scheme", "fn-dsa", "--key-source", "falcon", "--kat-record", "100"}, "--kat-record 100"},
		{[]string{"--scheme", "fn-dsa", "--key-source", "ntru"}, "--key-source"},
		{[]string{"--fn-dsa-record", "1"}, "--scheme fn-dsa or fn-dsa-2026 only"},
		{[]string{"--key-source", "falcon"}, "--scheme fn-dsa or fn-dsa-2026 only"},
		{[]string{"--scheme", "fn-dsa-2026", "--fn-dsa-record", "10"}, "--fn-dsa-record 10: want a record of rust-fn-dsa's KAT, 0 to 9"},
	} {
		code, _, errs := runCLI(t, append([]string{"accel", "counts", "--params", "512"}, c.args...)...)
		if code != cli.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %q", c.args, code, errs, c.want)
		}
	}
}
