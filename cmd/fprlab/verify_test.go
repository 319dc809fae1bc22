package main

import (
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cli"
)

// verifyFixture is a Falcon-512 key pair and a padded signature of a
// message, made once with the native backend from a fixed seed.
var verifyFixture struct {
	once         sync.Once
	pk, msg, sig []byte
	err          error
}

func verifyFiles(t *testing.T) (dir string, pk, msg, sig []byte) {
	t.Helper()
	f := &verifyFixture
	f.once.Do(func() {
		b, err := lookupBackend("native")
		if err != nil {
			f.err = err
			return
		}
		rng := sha3.NewSHAKE256()
		rng.Write([]byte("fprlab verify command test"))
		sk, pub, err := falcon.Keygen(b, 9, rng)
		if err != nil {
			f.err = err
			return
		}
		f.msg = []byte("message for the verify command\n")
		f.sig, f.err = falcon.Sign(b, sk, f.msg, falcon.Padded, rng)
		f.pk = pub.Encode()
	})
	if f.err != nil {
		t.Fatal(f.err)
	}
	dir = t.TempDir()
	for name, data := range map[string][]byte{"pk": f.pk, "msg": f.msg, "sig": f.sig} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		hx := []byte(hex.EncodeToString(data) + "\n")
		if err := os.WriteFile(filepath.Join(dir, name+".hex"), hx, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, f.pk, f.msg, f.sig
}

func TestVerifyCommandValid(t *testing.T) {
	dir, _, _, _ := verifyFiles(t)
	p := func(n string) string { return filepath.Join(dir, n) }
	code, out, errs := runCLI(t, "verify", "--pk", p("pk"), "--msg", p("msg"), "--sig", p("sig"))
	if code != cli.ExitOK || out != "valid\n" || errs != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = runCLI(t, "verify", "--hex", "--pk", p("pk.hex"), "--msg", p("msg.hex"), "--sig", p("sig.hex"))
	if code != cli.ExitOK || out != "valid\n" {
		t.Fatalf("--hex: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, _ = runCLI(t, "verify", "--json", "--pk", p("pk"), "--msg", p("msg"), "--sig", p("sig"))
	var v verifyJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != cli.ExitOK {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if !v.Valid || v.Degree != 512 || v.Format != "padded" || v.Reason != "" {
		t.Fatalf("--json verdict %+v", v)
	}
}

func TestVerifyCommandInvalid(t *testing.T) {
	dir, _, msg, sig := verifyFiles(t)
	p := func(n string) string { return filepath.Join(dir, n) }
	// A flipped nonce bit keeps the signature well formed but invalid.
	flipped := append([]byte(nil), sig...)
	flipped[5] ^= 0x10
	if err := os.WriteFile(p("flipped"), flipped, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p("other"), append(msg, '!'), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]string{
		{"--pk", p("pk"), "--msg", p("msg"), "--sig", p("flipped")},
		{"--pk", p("pk"), "--msg", p("other"), "--sig", p("sig")},
	} {
		code, out, errs := runCLI(t, append([]string{"verify"}, c...)...)
		if code != cli.ExitFalse || out != "" || !strings.Contains(errs, "does not verify") || !strings.Contains(errs, "invalid signature") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c, code, out, errs)
		}
	}
	code, out, _ := runCLI(t, "verify", "--json", "--pk", p("pk"), "--msg", p("other"), "--sig", p("sig"))
	var v verifyJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != cli.ExitFalse || v.Valid || v.Reason == "" {
		t.Fatalf("--json invalid: exit %d, %v, %+v", code, err, v)
	}
}

func TestVerifyCommandErrors(t *testing.T) {
	dir, pk, _, sig := verifyFiles(t)
	p := func(n string) string { return filepath.Join(dir, n) }
	write := func(name string, data []byte) string {
		if err := os.WriteFile(p(name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p(name)
	}
	badPadding := append([]byte(nil), sig...)
	badPadding[len(badPadding)-1] = 0xFF
	badKey := append([]byte(nil), pk...)
	badKey[0] = 0x19
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"truncated signature", []string{"--pk", p("pk"), "--msg", p("msg"), "--sig", write("short", sig[:30])}, "malformed signature"},
		{"nonzero padding", []string{"--pk", p("pk"), "--msg", p("msg"), "--sig", write("badpad", badPadding)}, "padding byte"},
		{"malformed key", []string{"--pk", write("badkey", badKey), "--msg", p("msg"), "--sig", p("sig")}, "public key file"},
		{"truncated key", []string{"--pk", write("shortkey", pk[:100]), "--msg", p("msg"), "--sig", p("sig")}, "100 bytes, want 897"},
		{"missing file", []string{"--pk", p("nonexistent"), "--msg", p("msg"), "--sig", p("sig")}, "reading pk"},
		{"missing flag", []string{"--pk", p("pk"), "--msg", p("msg")}, "missing --sig"},
		{"bad hex message", []string{"--hex", "--pk", p("pk"), "--msg", p("msg"), "--sig", p("sig.hex")}, "msg file"},
		{"positional argument", []string{"--pk", p("pk"), "--msg", p("msg"), "--sig", p("sig"), "extra"}, "unknown command"},
		{"unknown flag", []string{"--pk", p("pk"), "--msg", p("msg"), "--sig", p("sig"), "--format", "ct"}, "unknown flag"},
	} {
		code, out, errs := runCLI(t, append([]string{"verify"}, c.args...)...)
		if code != cli.ExitUsage || out != "" || !strings.HasPrefix(errs, "fprlab: ") || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q (want %q)", c.name, code, out, errs, c.want)
		}
	}
}

// TestVerifyJSONAlwaysComplete checks that --json always has every
// documented key (reason "" for a valid signature) and prints an object
// for malformed input too, with exit 2.
func TestVerifyJSONAlwaysComplete(t *testing.T) {
	dir, _, _, sig := verifyFiles(t)
	p := func(n string) string { return filepath.Join(dir, n) }
	code, out, _ := runCLI(t, "verify", "--json", "--pk", p("pk"), "--msg", p("msg"), "--sig", p("sig"))
	var raw map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	for _, k := range []string{"valid", "degree", "format", "reason", "malformed"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("valid verdict lacks %q: %s", k, out)
		}
	}
	if raw["reason"] != "" || raw["valid"] != true || raw["malformed"] != false {
		t.Errorf("valid verdict: %s", out)
	}
	short := filepath.Join(dir, "short")
	if err := os.WriteFile(short, sig[:30], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--pk", p("pk"), "--msg", p("msg"), "--sig", short},
		{"--pk", p("nonexistent"), "--msg", p("msg"), "--sig", p("sig")},
		{"--pk", p("pk"), "--msg", p("msg")},
	} {
		code, out, errs := runCLI(t, append([]string{"verify", "--json"}, args...)...)
		var v verifyJSON
		if err := json.Unmarshal([]byte(out), &v); err != nil || code != cli.ExitUsage || v.Valid || !v.Malformed || v.Reason == "" || errs == "" {
			t.Errorf("%v: exit %d, stdout %q (%v), stderr %q", args, code, out, err, errs)
		}
	}
}

// TestHexIsForTheMessage: --hex makes the message hex text and leaves
// keys and signatures to detection, so binary ones still verify (--hex
// used to force hex on them too, against its help text).
func TestHexIsForTheMessage(t *testing.T) {
	dir, _, _, _ := verifyFiles(t)
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, args := range [][]string{
		{"--pk", p("pk"), "--msg", p("msg.hex"), "--sig", p("sig"), "--hex"},
		{"--pk", p("pk.hex"), "--msg", p("msg.hex"), "--sig", p("sig"), "--hex"},
		{"--pk", p("pk"), "--msg", p("msg.hex"), "--sig", p("sig.hex"), "--hex"},
	} {
		if code, out, stderr := runCLI(t, append([]string{"verify"}, args...)...); code != 0 || out != "valid\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
	f := newSignFixture(t)
	msgHex := f.write(t, "msg.hex", cli.HexOutput(f.msg))
	out := filepath.Join(f.dir, "s.hex")
	if code, _, stderr := runCLI(t, "sign", "--sk", f.skPath, "--msg", msgHex, "--out", out, "--hex"); code != 0 {
		t.Fatalf("sign --hex with a binary key: exit %d, %s", code, stderr)
	}
	if err := falcon.Verify(f.pk, f.msg, mustHex(t, string(readFile(t, out)))); err != nil {
		t.Error(err)
	}
}
