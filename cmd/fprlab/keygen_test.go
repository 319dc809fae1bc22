package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cli"
)

func TestKeygenSeedReproducible(t *testing.T) {
	dir := t.TempDir()
	var pks [][]byte
	for i, backend := range []string{"emu64", "native", "emu64"} {
		pk := filepath.Join(dir, "pk"+backend+string(rune('0'+i)))
		sk := filepath.Join(dir, "sk"+backend+string(rune('0'+i)))
		code, out, errs := runCLI(t, "keygen", "--params", "512", "--backend", backend,
			"--seed", "00112233445566778899", "--pk", pk, "--sk", sk, "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var res keygenJSON
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("decoding %q: %v", out, err)
		}
		if res.Params != 512 || res.Backend != backend || res.PKBytes != 897 || res.SKBytes != 1281 {
			t.Errorf("unexpected summary %+v", res)
		}
		pkb, err := os.ReadFile(pk)
		if err != nil {
			t.Fatal(err)
		}
		skb, err := os.ReadFile(sk)
		if err != nil {
			t.Fatal(err)
		}
		pub, err := falcon.DecodePublicKey(pkb)
		if err != nil {
			t.Fatal(err)
		}
		priv, err := falcon.DecodePrivateKey(skb)
		if err != nil {
			t.Fatal(err)
		}
		derived, err := priv.Public()
		if err != nil || !bytes.Equal(derived.Encode(), pub.Encode()) {
			t.Fatalf("public key file is not the private key's public key")
		}
		pks = append(pks, pkb)
	}
	if !bytes.Equal(pks[0], pks[1]) || !bytes.Equal(pks[0], pks[2]) {
		t.Error("the same seed gave different keys")
	}
}

func TestKeygenHexAndRandom(t *testing.T) {
	dir := t.TempDir()
	pk, sk := filepath.Join(dir, "pk.hex"), filepath.Join(dir, "sk.hex")
	code, out, errs := runCLI(t, "keygen", "--params", "16", "--pk", pk, "--sk", sk, "--hex")
	if code != 0 || !strings.Contains(out, "Falcon-16") {
		t.Fatalf("exit %d, out %q, stderr %q", code, out, errs)
	}
	text, err := os.ReadFile(pk)
	if err != nil {
		t.Fatal(err)
	}
	b, err := hex.DecodeString(strings.TrimSpace(string(text)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := falcon.DecodePublicKey(b); err != nil {
		t.Fatal(err)
	}
}

func TestKeygenErrors(t *testing.T) {
	dir := t.TempDir()
	pk, sk := filepath.Join(dir, "pk"), filepath.Join(dir, "sk")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"keygen", "--params", "500", "--pk", pk, "--sk", sk}, "--params"},
		{[]string{"keygen", "--pk", pk, "--sk", sk}, "--params"},
		{[]string{"keygen", "--params", "512", "--sk", sk}, "--pk"},
		{[]string{"keygen", "--params", "512", "--pk", pk, "--sk", sk, "--seed", "xyz"}, "hex"},
		{[]string{"keygen", "--params", "16", "--pk", pk, "--sk", sk, "--seed", ""}, "--seed is empty"},
		{[]string{"keygen", "--params", "16", "--pk", pk, "--sk", sk, "--seed", " "}, "--seed is empty"},
		{[]string{"keygen", "--params", "512", "--pk", pk, "--sk", sk, "--backend", "nope"}, "unknown backend"},
		// The public key cannot be written: the private key must not be either.
		{[]string{"keygen", "--params", "16", "--pk", filepath.Join(dir, "missing", "pk"), "--sk", sk, "--seed", "01"}, "missing"},
	} {
		code, _, errs := runCLI(t, c.args...)
		if code != cli.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, errs, c.want)
		}
	}
	for _, f := range []string{pk, sk} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("a failed run left %s", f)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestKeygenRefusesSamePath: with --pk and --sk naming one file, the
// second rename would replace the first and the private key would be lost.
func TestKeygenRefusesSamePath(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "key")
	for _, sk := range []string{key, filepath.Join(dir, ".", "key")} {
		code, _, errs := runCLI(t, "keygen", "--params", "2", "--seed", "00", "--pk", key, "--sk", sk)
		if code != cli.ExitUsage || !strings.Contains(errs, "same file") {
			t.Errorf("--pk %s --sk %s: exit %d, stderr %q", key, sk, code, errs)
		}
		if _, err := os.Stat(key); err == nil {
			t.Errorf("--pk %s --sk %s: a file was written", key, sk)
		}
	}
}

// TestKeygenDirectoryTargetKeepsOldKeys: when the public key cannot be put
// in place (its path is a directory), the private key file already there
// must stay as it was, not be replaced by a key whose public half is lost.
func TestKeygenDirectoryTargetKeepsOldKeys(t *testing.T) {
	dir := t.TempDir()
	pkDir, sk := filepath.Join(dir, "pkdir"), filepath.Join(dir, "sk")
	if err := os.Mkdir(pkDir, 0o755); err != nil {
		t.Fatal(err)
	}
	old := []byte("previous private key")
	if err := os.WriteFile(sk, old, 0o600); err != nil {
		t.Fatal(err)
	}
	// Without --force the private key is refused at once; with it, the
	// failed public key write must still leave it.
	code, _, errs := runCLI(t, "keygen", "--params", "2", "--seed", "00", "--pk", filepath.Join(dir, "pk"), "--sk", sk)
	if code != cli.ExitUsage || !strings.Contains(errs, "--sk "+sk+" exists") {
		t.Fatalf("an existing --sk without --force: exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "pk")); err == nil {
		t.Error("the refused run wrote the public key")
	}
	code, _, errs = runCLI(t, "keygen", "--params", "2", "--seed", "00", "--pk", pkDir, "--sk", sk, "--force")
	if code != cli.ExitUsage || !strings.Contains(errs, pkDir) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if got, _ := os.ReadFile(sk); !bytes.Equal(got, old) {
		t.Errorf("failed run replaced %s", sk)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestKeygenPKKeepsPrivateKey: a --pk file that holds a private key (raw
// or hex) is not replaced without --force; one that holds a public key
// is.
func TestKeygenPKKeepsPrivateKey(t *testing.T) {
	dir := t.TempDir()
	pk, sk := filepath.Join(dir, "pk"), filepath.Join(dir, "sk")
	if code, _, errs := runCLI(t, "keygen", "--params", "16", "--pk", pk, "--sk", sk, "--seed", "02"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	private := mustRead(t, sk)
	hexKey := filepath.Join(dir, "sk.hex")
	writeFile(t, hexKey, []byte(hex.EncodeToString(private)+"\n"))
	for _, key := range []string{sk, hexKey} {
		before := mustRead(t, key)
		code, _, errs := runCLI(t, "keygen", "--params", "16", "--pk", key, "--sk", filepath.Join(dir, "new.sk"), "--seed", "03")
		if code != cli.ExitUsage || !strings.Contains(errs, "--pk "+key+" holds a private key") {
			t.Errorf("--pk %s: exit %d, stderr %q", key, code, errs)
		}
		if !bytes.Equal(mustRead(t, key), before) {
			t.Errorf("%s was replaced", key)
		}
	}
	if code, _, errs := runCLI(t, "keygen", "--params", "16", "--pk", pk, "--sk", filepath.Join(dir, "other.sk"), "--seed", "03"); code != 0 {
		t.Errorf("an existing public key as --pk: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCLI(t, "keygen", "--params", "16", "--pk", sk, "--sk", filepath.Join(dir, "third.sk"), "--seed", "03", "--force"); code != 0 {
		t.Errorf("--force: exit %d, stderr %q", code, errs)
	}
}

// TestKeygenFileModes checks that the private key is readable by its owner
// only and the public key by everyone.
func TestKeygenFileModes(t *testing.T) {
	dir := t.TempDir()
	pk, sk := filepath.Join(dir, "pk"), filepath.Join(dir, "sk")
	if code, _, errs := runCLI(t, "keygen", "--params", "16", "--pk", pk, "--sk", sk, "--seed", "02"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, c := range []struct {
		path string
		mode os.FileMode
	}{{sk, 0o600}, {pk, 0o644}} {
		fi, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != c.mode {
			t.Errorf("%s: mode %v, want %v", c.path, fi.Mode().Perm(), c.mode)
		}
	}
}

// TestKeygenProgress checks the elapsed-time display used for long key
// generations (cli.ShowElapsed): shown with --progress, silent otherwise
// (stderr in tests is not a terminal).
func TestKeygenProgress(t *testing.T) {
	old := cli.ElapsedEvery
	cli.ElapsedEvery = 5 * time.Millisecond
	defer func() { cli.ElapsedEvery = old }()
	dir := t.TempDir()
	for _, progress := range []bool{false, true} {
		args := []string{"keygen", "--params", "256", "--backend", "oracle", "--seed", "02", "--pk", filepath.Join(dir, "pk"), "--sk", filepath.Join(dir, "sk"), "--force"}
		if progress {
			args = append(args, "--progress")
		}
		code, _, stderr := runCLI(t, args...)
		if code != 0 || progress != strings.Contains(stderr, "elapsed") {
			t.Errorf("--progress %v: exit %d, stderr %q", progress, code, stderr)
		}
	}
}

// TestKeygenBothOrNeither: a key pair whose public key cannot be written
// (a full device) leaves no private key file and prints no private key.
func TestKeygenBothOrNeither(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	sk := filepath.Join(dir, "a.sk")
	code, _, errOut := runCLI(t, "keygen", "--params", "64", "--pk", "/dev/full", "--sk", sk, "--seed", "01")
	if code != cli.ExitUsage || !strings.Contains(errOut, "/dev/full") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(sk); err == nil {
		t.Error("a.sk was written although the public key was not")
	}
	code, out, errOut := runCLI(t, "keygen", "--params", "64", "--pk", "/dev/full", "--sk", "-", "--seed", "01")
	if code != cli.ExitUsage || out != "" {
		t.Errorf("--sk -: exit %d, %d bytes on stdout, stderr %q", code, len(out), errOut)
	}
}

// TestCompareShowsKeygenProgress: compare --progress shows the elapsed
// time while the keys are generated (it used to print nothing until the
// first key was done: minutes over a slow backend), then the unit counts,
// and no elapsed-time line once units are counted.
func TestCompareShowsKeygenProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("a shadowed key generation")
	}
	old := cli.ElapsedEvery
	cli.ElapsedEvery = time.Millisecond
	defer func() { cli.ElapsedEvery = old }()
	code, _, errOut := runCLI(t, "compare", "--backend", "native", "--params", "512", "--signatures", "1", "--progress", "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	first := strings.Index(errOut, "compare: native: generating keys: ")
	units := strings.Index(errOut, "compare: native: 1/2 units")
	if first < 0 || units < 0 || first > units {
		t.Fatalf("no key generation progress before the first unit:\n%s", errOut)
	}
	if strings.Contains(errOut[units:], "generating keys") {
		t.Errorf("key generation progress after the first unit:\n%s", errOut)
	}
}
