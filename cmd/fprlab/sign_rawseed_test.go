package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSignRawSeed reproduces rust-fn-dsa 0.4.0's signatures of
// fndsa2026/testdata/vectors.txt from the 40-byte seeds its sign read
// (Falcon-512, under a context, raw and pre-hashed), on native and emu64;
// --raw-seed is refused for a scheme that reads a stream, and in any
// other length.
func TestSignRawSeed(t *testing.T) {
	f, err := os.Open("../../fndsa2026/testdata/vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && n < 3 {
		v := strings.Split(sc.Text(), " ")
		// logn, key seed, sign seed, context, pre-hash, data, sk, vk, sig
		if len(v) != 9 || v[0] != "9" || v[3] == "" {
			continue
		}
		n++
		sk, msg := filepath.Join(dir, "sk"), filepath.Join(dir, "msg")
		if err := os.WriteFile(sk, []byte(v[6]), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(msg, []byte(v[5]), 0o600); err != nil {
			t.Fatal(err)
		}
		ph := v[4]
		if ph == "raw" {
			ph = "none"
		}
		for _, b := range []string{"native", "emu64"} {
			code, out, errs := runCLI(t, "sign", "--scheme", "fn-dsa-2026", "--backend", b, "--sk", sk, "--msg", msg, "--hex",
				"--context", v[3], "--prehash", ph, "--raw-seed", v[2], "--out", "-")
			if code != 0 {
				t.Fatalf("vector %d on %s: exit %d: %s", n, b, code, errs)
			}
			if strings.TrimSpace(out) != v[8] {
				t.Errorf("vector %d (%s) on %s: not rust-fn-dsa's signature", n, v[4], b)
			}
		}
	}
	if n != 3 {
		t.Fatalf("%d Falcon-512 vectors with a context in the file", n)
	}
	sk := filepath.Join(dir, "sk")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--scheme", "fn-dsa-2026", "--raw-seed", "00"}, "exactly 40 bytes"},
		{[]string{"--scheme", "fn-dsa-2026", "--raw-seed", strings.Repeat("00", 40), "--seed", "01"}, "give one"},
		{[]string{"--scheme", "fn-dsa", "--raw-seed", strings.Repeat("00", 40)}, "applies to --scheme fn-dsa-2026"},
	} {
		code, _, errs := runCLI(t, append([]string{"sign", "--sk", sk, "--msg", filepath.Join(dir, "msg"), "--hex", "--out", filepath.Join(dir, "sig")}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit 2 mentioning %q", c.args, code, errs, c.want)
		}
	}
}
