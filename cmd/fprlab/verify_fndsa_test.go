package main

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/cli"
)

// TestVerifyFNDSAMalformed: an FN-DSA signature of the wrong length or
// header is an invalid signature (exit 1) described in FN-DSA's terms --
// its one size and header -- not round 3's decoder's words ("trailing
// bytes", "unused bits") with exit 2 for some lengths.
func TestVerifyFNDSAMalformed(t *testing.T) {
	v := fndsaCLIVectors(t)[0] // no pre-hash, no context, degree 512
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sig, _ := hex.DecodeString(v.Sig)
	data, _ := hex.DecodeString(v.Data)
	pk, msg := write("pk", []byte(v.VKey)), write("msg", data)
	header := append([]byte(nil), sig...)
	header[0] = 0x38
	for i, c := range []struct {
		sig  []byte
		want string
	}{
		{sig[:665], "665 bytes, want 666 for degree 512"},
		{sig[:656], "656 bytes, want 666 for degree 512"},
		{append(append([]byte(nil), sig...), 0), "667 bytes, want 666 for degree 512"},
		{header, "header byte 0x38, want 0x39"},
	} {
		code, _, errOut := runCLI(t, "verify", "--scheme", "fn-dsa", "--pk", pk, "--msg", msg, "--sig", write("sig", c.sig))
		if code != cli.ExitFalse || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "trailing") || strings.Contains(errOut, "unused bits") {
			t.Errorf("case %d: exit %d, want %d with %q: %s", i, code, cli.ExitFalse, c.want, errOut)
		}
	}
	// A key that does not decode is bad input, told in FN-DSA's words.
	code, _, errOut := runCLI(t, "verify", "--scheme", "fn-dsa", "--pk", write("short.pk", []byte(v.VKey[:100])), "--msg", msg, "--sig", write("sig", sig))
	if code != cli.ExitUsage || !strings.Contains(errOut, "fndsa: malformed verifying key") || strings.Contains(errOut, "falcon:") {
		t.Errorf("a truncated verifying key: exit %d: %s", code, errOut)
	}
}

// TestFNDSAPrehashLength: with --prehash the message file must hold a
// digest of that hash's length; sign and verify refuse other lengths
// (exit 2) naming the file and both lengths.
func TestFNDSAPrehashLength(t *testing.T) {
	v := fndsaCLIVectors(t)[1] // sha256
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sig, _ := hex.DecodeString(v.Sig)
	sk, pk, s := write("sk", []byte(v.SKey)), write("pk", []byte(v.VKey)), write("sig", sig)
	short := write("msg12", make([]byte, 12))
	want := "holds 12 bytes, but a --prehash sha256 digest is 32 bytes"
	if code, _, errOut := runCLI(t, "verify", "--scheme", "fn-dsa", "--prehash", "sha256", "--context", v.Ctx, "--pk", pk, "--msg", short, "--sig", s); code != cli.ExitUsage || !strings.Contains(errOut, want) {
		t.Errorf("verify: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "sign", "--scheme", "fn-dsa", "--prehash", "sha256", "--sk", sk, "--msg", short, "--out", filepath.Join(dir, "out")); code != cli.ExitUsage || !strings.Contains(errOut, want) {
		t.Errorf("sign: exit %d: %s", code, errOut)
	}
}
