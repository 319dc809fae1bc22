package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cli"
)

// signFixture holds a Falcon-512 key pair and a message, written to files
// in a temporary directory.
type signFixture struct {
	dir            string
	sk             *falcon.PrivateKey
	pk             *falcon.PublicKey
	msg            []byte
	skPath, pkPath string
	msgPath        string
}

func newSignFixture(t *testing.T) *signFixture {
	t.Helper()
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	var seed [32]byte
	seed[0] = 42
	sk, pk, err := falcon.Keygen(b, 9, mrand.NewChaCha8(seed))
	if err != nil {
		t.Fatal(err)
	}
	f := &signFixture{dir: t.TempDir(), sk: sk, pk: pk, msg: []byte("message to sign\n")}
	f.skPath = f.write(t, "key.sk", sk.Encode())
	f.pkPath = f.write(t, "key.pk", pk.Encode())
	f.msgPath = f.write(t, "msg.txt", f.msg)
	return f
}

func (f *signFixture) write(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(f.dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSignCLIFormats signs in each format and backend and checks the
// output file with falcon.Verify and the format's size.
func TestSignCLIFormats(t *testing.T) {
	f := newSignFixture(t)
	p := falcon.Falcon512
	for _, backend := range []string{"native", "emu64"} {
		for _, format := range []string{"compressed", "padded", "ct"} {
			out := filepath.Join(f.dir, backend+"-"+format+".sig")
			code, stdout, stderr := runCLI(t, "sign", "--sk", f.skPath, "--msg", f.msgPath,
				"--format", format, "--backend", backend, "--out", out)
			if code != 0 {
				t.Fatalf("%s %s: exit %d, stderr %q", backend, format, code, stderr)
			}
			if !strings.Contains(stdout, format) || !strings.Contains(stdout, backend) {
				t.Errorf("%s %s: stdout %q", backend, format, stdout)
			}
			if stderr != "" {
				t.Errorf("%s %s: unexpected stderr %q", backend, format, stderr)
			}
			sig := readFile(t, out)
			if err := falcon.Verify(f.pk, f.msg, sig); err != nil {
				t.Fatalf("%s %s: %v", backend, format, err)
			}
			if (format == "padded" && len(sig) != p.SigPaddedSize) || (format == "ct" && len(sig) != p.SigCTSize) {
				t.Errorf("%s %s: %d bytes", backend, format, len(sig))
			}
		}
	}
}

// TestSignCLIDefaultsAndHex uses the default format and backend with hex
// files.
func TestSignCLIDefaultsAndHex(t *testing.T) {
	f := newSignFixture(t)
	skHex := f.write(t, "key.sk.hex", []byte(hex.EncodeToString(f.sk.Encode())+"\n"))
	msgHex := f.write(t, "msg.hex", []byte(hex.EncodeToString(f.msg)))
	out := filepath.Join(f.dir, "sig.hex")
	code, stdout, stderr := runCLI(t, "sign", "--sk", skHex, "--msg", msgHex, "--out", out, "--hex")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "compressed") || !strings.Contains(stdout, "native") {
		t.Errorf("stdout %q does not name the default format and backend", stdout)
	}
	sig, err := hex.DecodeString(strings.TrimSpace(string(readFile(t, out))))
	if err != nil {
		t.Fatal(err)
	}
	if err := falcon.Verify(f.pk, f.msg, sig); err != nil {
		t.Fatal(err)
	}
}

// TestSignCLISeeded checks that --seed warns on stderr, makes the
// signature reproducible, and reproduces across the binary64 backends
// (which is exactly the situation the warning is about).
func TestSignCLISeeded(t *testing.T) {
	f := newSignFixture(t)
	var sigs [][]byte
	for i, backend := range []string{"native", "native", "emu64"} {
		out := filepath.Join(f.dir, "seeded"+string(rune('0'+i))+".sig")
		code, _, stderr := runCLI(t, "sign", "--sk", f.skPath, "--msg", f.msgPath, "--out", out,
			"--backend", backend, "--seed", "00112233")
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		if !strings.Contains(stderr, "Do Not Disturb a Sleeping Falcon") || !strings.Contains(stderr, "never use --seed with a real key") {
			t.Errorf("seeded run did not warn: stderr %q", stderr)
		}
		sigs = append(sigs, readFile(t, out))
	}
	if !bytes.Equal(sigs[0], sigs[1]) || !bytes.Equal(sigs[0], sigs[2]) {
		t.Error("seeded signatures differ between runs or binary64 backends")
	}
	if err := falcon.Verify(f.pk, f.msg, sigs[0]); err != nil {
		t.Fatal(err)
	}
	// Unseeded signatures use fresh nonces.
	outA, outB := filepath.Join(f.dir, "a.sig"), filepath.Join(f.dir, "b.sig")
	for _, out := range []string{outA, outB} {
		if code, _, stderr := runCLI(t, "sign", "--sk", f.skPath, "--msg", f.msgPath, "--out", out); code != 0 || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
	}
	if bytes.Equal(readFile(t, outA)[1:41], readFile(t, outB)[1:41]) {
		t.Error("two unseeded signatures share a nonce")
	}
}

// TestSignCLIErrors checks that each bad input is reported with exit code
// 2 and a message naming it, and that no output file is left behind.
func TestSignCLIErrors(t *testing.T) {
	f := newSignFixture(t)
	bad := f.write(t, "bad.sk", []byte{0x59, 1, 2, 3})
	out := filepath.Join(f.dir, "never.sig")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no out", []string{"--sk", f.skPath, "--msg", f.msgPath}, "--out"},
		{"no sk", []string{"--msg", f.msgPath, "--out", out}, "--sk"},
		{"no msg", []string{"--sk", f.skPath, "--out", out}, "--msg"},
		{"missing sk", []string{"--sk", filepath.Join(f.dir, "nope"), "--msg", f.msgPath, "--out", out}, "nope"},
		{"corrupt sk", []string{"--sk", bad, "--msg", f.msgPath, "--out", out}, "bad.sk"},
		{"public key as sk", []string{"--sk", f.pkPath, "--msg", f.msgPath, "--out", out}, "key.pk"},
		{"format", []string{"--sk", f.skPath, "--msg", f.msgPath, "--out", out, "--format", "tiny"}, "--format"},
		{"backend", []string{"--sk", f.skPath, "--msg", f.msgPath, "--out", out, "--backend", "abacus"}, "abacus"},
		{"seed", []string{"--sk", f.skPath, "--msg", f.msgPath, "--out", out, "--seed", "xyz"}, "--seed"},
		{"empty seed", []string{"--sk", f.skPath, "--msg", f.msgPath, "--out", out, "--seed", ""}, "--seed"},
		{"hex sk", []string{"--sk", f.skPath, "--msg", f.msgPath, "--out", out, "--hex"}, "not valid hex"},
		{"out dir", []string{"--sk", f.skPath, "--msg", f.msgPath, "--out", filepath.Join(f.dir, "no", "such", "x.sig")}, "x.sig"},
		{"args", []string{"extra", "--sk", f.skPath, "--msg", f.msgPath, "--out", out}, "unknown command"},
		{"out is sk", []string{"--sk", f.skPath, "--msg", f.msgPath, "--out", f.skPath}, "would replace it"},
		{"out is msg", []string{"--sk", f.skPath, "--msg", f.msgPath, "--out", f.msgPath}, "would replace it"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(t, append([]string{"sign"}, c.args...)...)
		if code != cli.ExitUsage || !strings.HasPrefix(stderr, "fprlab: ") || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q (want exit 2 mentioning %q)", c.name, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("failed runs left %s behind", out)
	}
	if sk, err := falcon.DecodePrivateKey(mustRead(t, f.skPath)); err != nil || sk == nil {
		t.Errorf("the private key file was damaged: %v", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSignThenVerifyCLI signs and verifies through the command line, in
// every format, with raw and hex files.
func TestSignThenVerifyCLI(t *testing.T) {
	f := newSignFixture(t)
	other := f.write(t, "other.txt", []byte("another message"))
	for _, format := range []string{"compressed", "padded", "ct"} {
		out := filepath.Join(f.dir, format+".sig")
		if code, _, stderr := runCLI(t, "sign", "--sk", f.skPath, "--msg", f.msgPath, "--out", out, "--format", format); code != 0 {
			t.Fatalf("sign %s: exit %d, stderr %q", format, code, stderr)
		}
		if code, stdout, stderr := runCLI(t, "verify", "--pk", f.pkPath, "--msg", f.msgPath, "--sig", out); code != 0 || stdout != "valid\n" {
			t.Fatalf("verify %s: exit %d, stdout %q, stderr %q", format, code, stdout, stderr)
		}
		if code, _, _ := runCLI(t, "verify", "--pk", f.pkPath, "--msg", other, "--sig", out); code != cli.ExitFalse {
			t.Fatalf("verify %s of another message: exit %d, want %d", format, code, cli.ExitFalse)
		}
	}

	pkHex := f.write(t, "key.pk.hex", []byte(hex.EncodeToString(f.pk.Encode())))
	skHex := f.write(t, "key.sk.hex", []byte(hex.EncodeToString(f.sk.Encode())))
	msgHex := f.write(t, "msg.hex", []byte(hex.EncodeToString(f.msg)))
	out := filepath.Join(f.dir, "hex.sig")
	if code, _, stderr := runCLI(t, "sign", "--hex", "--sk", skHex, "--msg", msgHex, "--out", out, "--backend", "emu64"); code != 0 {
		t.Fatalf("sign --hex: exit %d, stderr %q", code, stderr)
	}
	if code, stdout, stderr := runCLI(t, "verify", "--hex", "--pk", pkHex, "--msg", msgHex, "--sig", out); code != 0 {
		t.Fatalf("verify --hex: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestSignCLIJSON checks the --json summary.
func TestSignCLIJSON(t *testing.T) {
	f := newSignFixture(t)
	out := filepath.Join(f.dir, "j.sig")
	code, stdout, stderr := runCLI(t, "sign", "--sk", f.skPath, "--msg", f.msgPath, "--out", out,
		"--format", "padded", "--backend", "emu64", "--seed", "01", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got signJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("decoding %q: %v", stdout, err)
	}
	want := signJSON{Out: out, Bytes: falcon.Falcon512.SigPaddedSize, Format: "padded", Degree: 512, Backend: "emu64", Seeded: true, Scheme: "falcon"}
	if got != want {
		t.Fatalf("summary %+v, want %+v", got, want)
	}
	if len(readFile(t, out)) != want.Bytes {
		t.Fatal("summary size differs from the file")
	}
}
