package main

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/cli"
)

// testdata/fndsa_cli.json: signatures go-fn-dsa (commit e24833f) made with
// its TestSign key and the 40 signing bytes read from SHAKE256(seed), as
// sign --seed does (the driver's "cli" mode, fndsa/testdata/gofndsa).
type fndsaCLIVector struct {
	SKey, VKey, Ctx, Hash, Data, Seed, Sig string
}

func fndsaCLIVectors(t *testing.T) []fndsaCLIVector {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "fndsa_cli.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []fndsaCLIVector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 {
		t.Fatalf("%d vectors, want 2", len(vs))
	}
	return vs
}

// TestFNDSASignVerifyCommands: sign --scheme fn-dsa --seed reproduces
// go-fn-dsa's signatures byte for byte on native and emu64, verify
// --scheme fn-dsa accepts them and rejects a corrupted one (exit 1), and
// round-3 verification rejects them (FN-DSA hashes differently).
func TestFNDSASignVerifyCommands(t *testing.T) {
	dir := t.TempDir()
	write := func(name, hexData string, raw bool) string {
		p := filepath.Join(dir, name)
		data := []byte(hexData)
		if raw {
			b, err := hex.DecodeString(hexData)
			if err != nil {
				t.Fatal(err)
			}
			data = b
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for i, v := range fndsaCLIVectors(t) {
		sk, pk := write("sk", v.SKey, false), write("pk", v.VKey, false)
		msg := write("msg", v.Data, true)
		args := []string{"--scheme", "fn-dsa", "--prehash", v.Hash}
		if v.Ctx != "" {
			args = append(args, "--context", v.Ctx)
		}
		for _, b := range []string{"native", "emu64"} {
			out := filepath.Join(dir, "sig-"+b)
			code, _, errs := runCLI(t, append([]string{"sign", "--sk", sk, "--msg", msg, "--out", out, "--backend", b, "--seed", v.Seed}, args...)...)
			if code != 0 {
				t.Fatalf("vector %d %s: sign exit %d: %s", i, b, code, errs)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if hex.EncodeToString(got) != v.Sig {
				t.Fatalf("vector %d %s: signature differs from go-fn-dsa's", i, b)
			}
		}
		sig := write("sig", v.Sig, true)
		if code, out, errs := runCLI(t, append([]string{"verify", "--pk", pk, "--msg", msg, "--sig", sig}, args...)...); code != 0 || out != "valid\n" {
			t.Fatalf("vector %d: verify exit %d %q %q", i, code, out, errs)
		}
		if code, _, _ := runCLI(t, "verify", "--pk", pk, "--msg", msg, "--sig", sig); code != cli.ExitFalse {
			t.Fatalf("vector %d: round-3 verify of an FN-DSA signature: exit %d, want %d", i, code, cli.ExitFalse)
		}
		bad, _ := hex.DecodeString(v.Sig)
		bad[100] ^= 4
		badSig := write("bad", hex.EncodeToString(bad), true)
		if code, _, errs := runCLI(t, append([]string{"verify", "--pk", pk, "--msg", msg, "--sig", badSig}, args...)...); code != cli.ExitFalse || !strings.Contains(errs, "invalid signature") {
			t.Fatalf("vector %d: corrupted signature: exit %d %q", i, code, errs)
		}
	}
}

// TestFNDSABadFlags: what --scheme fn-dsa cannot do is a clear error
// (exit 2), and the FN-DSA flags are refused with round 3.
func TestFNDSABadFlags(t *testing.T) {
	dir := t.TempDir()
	v := fndsaCLIVectors(t)[0]
	sk := filepath.Join(dir, "sk")
	msg := filepath.Join(dir, "msg")
	if err := os.WriteFile(sk, []byte(v.SKey), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(msg, []byte("m"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"keygen", "--scheme", "fn-dsa", "--params", "512", "--pk", out, "--sk", out + "2", "--backend", "native"}, "--backend does not apply"},
		{[]string{"keygen", "--scheme", "fn-dsa", "--params", "512", "--pk", out, "--sk", out + "2", "--raw-seed", "00"}, "exactly 32"},
		{[]string{"keygen", "--scheme", "fn-dsa", "--params", "2", "--pk", out, "--sk", out + "2"}, "4 to 1024"},
		{[]string{"keygen", "--scheme", "fn-dsa", "--params", "500", "--pk", out, "--sk", out + "2"}, `--params "500": FN-DSA degrees are powers of two from 4 to 1024`},
		{[]string{"keygen", "--scheme", "fn-dsa", "--params", "3", "--pk", out, "--sk", out + "2"}, "from 4 to 1024"},
		{[]string{"keygen", "--scheme", "fn-dsa", "--params", "512", "--pk", out}, "--sk"},
		{[]string{"kat", "--scheme", "fn-dsa", "--ref", out}, "--ref applies"},
		{[]string{"kat", "--scheme", "fn-dsa", "--checkpoint", out}, "--checkpoint applies"},
		{[]string{"kat", "--scheme", "fn-dsa", "--params", "2"}, "4 to 1024"},
		{[]string{"kat", "--scheme", "fn-dsa", "--records", "91"}, "--records 91: want 1..90"},
		{[]string{"kat", "--scheme", "fn-dsa", "--params", "512", "--records", "11"}, "want 1..10"},
		{[]string{"kat", "--scheme", "fn-dsa", "--backend", "nope"}, "unknown backend"},
		{[]string{"sign", "--scheme", "fn-dsa-87", "--sk", sk, "--msg", msg, "--out", out}, "--scheme"},
		{[]string{"sign", "--scheme", "", "--sk", sk, "--msg", msg, "--out", out}, `invalid argument "" for "--scheme" flag: empty`},
		{[]string{"certify", "--scheme", "", "--backend", "native", "--params", "512", "--kat-records", "0:1"}, `invalid argument "" for "--scheme" flag: empty`},
		{[]string{"compare", "--scheme", " ", "--backend", "native", "--params", "512"}, "empty: want falcon"},
		{[]string{"sign", "--sk", sk, "--msg", msg, "--out", out, "--context", "00"}, "fn-dsa or fn-dsa-2026 only"},
		{[]string{"sign", "--scheme", "fn-dsa", "--sk", sk, "--msg", msg, "--out", out, "--format", "ct"}, "falcon only"},
		{[]string{"sign", "--scheme", "fn-dsa", "--sk", sk, "--msg", msg, "--out", out, "--context", "zz"}, "hex"},
		{[]string{"sign", "--scheme", "fn-dsa", "--sk", sk, "--msg", msg, "--out", out, "--prehash", "md5"}, "pre-hash"},
		{[]string{"sign", "--scheme", "fn-dsa", "--sk", sk, "--msg", msg, "--out", out, "--context", strings.Repeat("00", 256)}, "more than 255"},
		{[]string{"compare", "--scheme", "fn-dsa", "--backend", "native", "--params", "512", "--kat-records", "0:1"}, "KAT"},
		{[]string{"compare", "--scheme", "fn-dsa", "--backend", "native", "--params", "512", "--signatures", "1", "--exact-sigma", "formula"}, "not supported"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, errs, tc.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused command wrote %s", out)
	}
}
