package main

import (
	"crypto/sha3"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	draft "github.com/fprlab/fprlab/fndsa2026"
	"github.com/fprlab/fprlab/internal/cli"
)

// Two arithmetics that are bit for bit the same (native and the integer
// emulation of binary64) never sign differently; the text leads with the
// answer.
func TestDivergeIdentical(t *testing.T) {
	code, out, errs := runCLI(t, "diverge", "--backend", "native", "--against", "emu64", "--params", "512", "--signatures", "3", "--seed", "cmd test")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	lines := strings.Split(out, "\n")
	if lines[0] != "no signature differs: no pair reveals the secret key" || !strings.Contains(lines[1], "0 of 3 signatures differ") {
		t.Fatalf("output:\n%s", out)
	}
}

// vprec:22 parts from binary64 often; --json carries each pair with the
// signatures for leak.
func TestDivergeJSON(t *testing.T) {
	code, out, errs := runCLI(t, "diverge", "--backend", "native", "--against", "vprec:22", "--params", "512", "--signatures", "6", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var doc struct {
		Compared, Differing int
		Rate                float64
		RateCI95            [2]float64 `json:"rate_ci95"`
		Pairs               []json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Compared != 6 || doc.Differing == 0 || len(doc.Pairs) != doc.Differing || doc.RateCI95[0] > doc.Rate || doc.RateCI95[1] < doc.Rate {
		t.Fatalf("document %+v", doc)
	}
}

func TestDivergeBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--backend", "native", "--params", "512", "--signatures", "1"}, "--against"},
		{[]string{"--backend", "native", "--against", "nosuch", "--params", "512", "--signatures", "1"}, "--against"},
		{[]string{"--backend", "native:forest", "--against", "native", "--params", "512", "--signatures", "1"}, "--backend"},
		{[]string{"--backend", "native", "--against", "emu64", "--params", "300", "--signatures", "1"}, "300"},
		{[]string{"--backend", "native", "--against", "emu64", "--params", "512", "--signatures", "0"}, "want 1 to 2147483647"},
		{[]string{"--backend", "native", "--against", "emu64", "--params", "512", "--signatures", "9000000000000000000"}, "want 1 to 2147483647"},
		{[]string{"--backend", "native", "--against", "native", "--params", "512", "--signatures", "10"}, "both sides are native"},
		{[]string{"--backend", "native", "--against", "emu64", "--params", "512", "--signatures", "10", "--keys", "1", "--shard", "0/20"}, "cannot fill 20 shards"},
	} {
		code, _, errs := runCLI(t, append([]string{"diverge"}, c.args...)...)
		if code != cli.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, errs, c.want)
		}
	}
}

// leak recovers a key from a pair whose s2 differ by 3 x^5 f -- the shape
// the published attack exploits -- writes it beside, and refuses to write
// over a file.
func TestLeakRecoversFabricatedPair(t *testing.T) {
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	kr := sha3.NewSHAKE256()
	kr.Write([]byte("cmd leak key"))
	sk, pk, err := falcon.Keygen(b, 9, kr)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("one message")
	sr := sha3.NewSHAKE256()
	sr.Write([]byte("cmd leak sign"))
	raw, err := falcon.Sign(b, sk, msg, falcon.Compressed, sr)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := falcon.DecodeSignature(raw)
	if err != nil {
		t.Fatal(err)
	}
	// s2 + 3 x^5 f (negacyclic).
	s2 := append([]int16(nil), sig.S2...)
	for i, v := range sk.SmallF {
		j, sign := i+5, int16(1)
		if j >= len(s2) {
			j, sign = j-len(s2), -1
		}
		s2[j] += sign * 3 * int16(v)
	}
	other, err := falcon.EncodeSignature(falcon.Compressed, 9, sig.Nonce, s2)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pkf, msgf := write("pk", pk.Encode()), write("msg", msg)
	af, bf := write("a.sig", raw), write("b.sig", other)
	out := filepath.Join(dir, "recovered.sk")
	code, stdout, errs := runCLI(t, "leak", "--pk", pkf, "--msg", msgf, "--sig", af, "--sig", bf, "--out", out)
	if code != 0 || !strings.HasPrefix(stdout, "private key recovered: s2_A - s2_B = 3 x^k f") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rk, err := falcon.DecodePrivateKey(data)
	if err != nil {
		t.Fatal(err)
	}
	rpk, err := rk.Public()
	if err != nil {
		t.Fatal(err)
	}
	for i := range pk.H {
		if rpk.H[i] != pk.H[i] {
			t.Fatal("the recovered key belongs to another public key")
		}
	}
	// The same run again must not replace the key it wrote.
	code, _, errs = runCLI(t, "leak", "--pk", pkf, "--msg", msgf, "--sig", af, "--sig", bf, "--out", out)
	if code == 0 || !strings.Contains(errs, "exists") {
		t.Errorf("second run over --out: exit %d, stderr %q", code, errs)
	}
	// --out - prints the key (the same bytes) and reports on stderr.
	code, stdout, errs = runCLI(t, "leak", "--pk", pkf, "--msg", msgf, "--sig", af, "--sig", bf, "--out", "-")
	if code != 0 || stdout != string(data) || !strings.HasPrefix(errs, "private key recovered") {
		t.Errorf("--out -: exit %d, %d bytes on stdout (want the %d of the key), stderr %q", code, len(stdout), len(data), errs)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("--out - wrote a file named -")
	}
	// The signature with itself reveals nothing: exit 1.
	code, stdout, _ = runCLI(t, "leak", "--pk", pkf, "--msg", msgf, "--sig", af, "--sig", af)
	if code != cli.ExitFalse || !strings.HasPrefix(stdout, "key not recovered") {
		t.Errorf("a signature against itself: exit %d, stdout %q", code, stdout)
	}
	// One signature is a usage error.
	if code, _, errs := runCLI(t, "leak", "--pk", pkf, "--msg", msgf, "--sig", af); code != cli.ExitUsage || !strings.Contains(errs, "--sig twice") {
		t.Errorf("one --sig: exit %d, stderr %q", code, errs)
	}
}

// TestDivergeShardsMerge: three shards in their directories, merged, give
// the JSON of the campaign run whole in one process; a missing shard and
// an unfinished one are named.
func TestDivergeShardsMerge(t *testing.T) {
	args := func(extra ...string) []string {
		return append([]string{"diverge", "--backend", "native", "--against", "vprec:22", "--params", "512", "--signatures", "8", "--keys", "2", "--seed", "shards", "--json"}, extra...)
	}
	code, whole, errs := runCLI(t, args()...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	base := t.TempDir()
	var dirs []string
	for i := range 3 {
		d := filepath.Join(base, fmt.Sprint("s", i))
		dirs = append(dirs, d)
		code, out, errs := runCLI(t, args("--shard", fmt.Sprintf("%d/3", i), "--out", d)...)
		if code != 0 || !strings.Contains(out, fmt.Sprintf(`"shard": "%d/3"`, i)) {
			t.Fatalf("shard %d: exit %d: %s\n%s", i, code, errs, out)
		}
	}
	code, merged, errs := runCLI(t, "merge", dirs[0], dirs[1], dirs[2], "--out", filepath.Join(base, "m"), "--json")
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	if merged != whole {
		t.Errorf("merged shards:\n%s\nwhole:\n%s", merged, whole)
	}
	code, _, errs = runCLI(t, "merge", dirs[0], dirs[2], "--out", filepath.Join(base, "m2"))
	if code == 0 || !strings.Contains(errs, "missing shards 1/3") {
		t.Errorf("a missing shard: exit %d: %s", code, errs)
	}
	if err := os.Remove(filepath.Join(dirs[1], "result.json")); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCLI(t, "merge", dirs[0], dirs[1], dirs[2], "--out", filepath.Join(base, "m3"))
	if code == 0 || !strings.Contains(errs, "not finished") {
		t.Errorf("an unfinished shard: exit %d: %s", code, errs)
	}
}

// diverge --scheme fn-dsa-2026 keeps its campaign in a directory that
// records the scheme and finds the key-revealing pair of signature 183
// (analysis/diverge's TestFNDSA2026KeyRevealingPair); leak --scheme
// fn-dsa-2026 recovers a key from it in the draft's encoding, and leak
// reading it as round 3's refuses it.
func TestDivergeLeakFNDSA2026(t *testing.T) {
	dir := t.TempDir()
	camp := filepath.Join(dir, "campaign")
	// Shard 91 of 200 of 400 signatures is signatures 182 and 183.
	code, _, errs := runCLI(t, "diverge", "--scheme", "fn-dsa-2026", "--backend", "native", "--against", "vprec:28", "--params", "512",
		"--signatures", "400", "--shard", "91/200", "--shadow", "none", "--out", camp)
	if code != 0 {
		t.Fatalf("diverge: exit %d, stderr %q", code, errs)
	}
	if id := readJSONFile(t, camp, "run.json"); !strings.Contains(fmt.Sprint(id), "scheme:fn-dsa-2026") {
		t.Errorf("run.json does not record the scheme: %v", id)
	}
	data, err := os.ReadFile(filepath.Join(camp, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Scheme string `json:"scheme"`
		Pairs  []struct {
			Index     int    `json:"index"`
			PublicKey string `json:"public_key"`
			Message   string `json:"message"`
			SigA      string `json:"sig_a"`
			SigB      string `json:"sig_b"`
		} `json:"pairs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Scheme != "fn-dsa-2026" || len(doc.Pairs) != 1 || doc.Pairs[0].Index != 183 {
		t.Fatalf("result: %s", data)
	}
	pr := doc.Pairs[0]
	write := func(name, hexText string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(hexText), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pkf, msgf, af, bf := write("vk", pr.PublicKey), write("msg", pr.Message), write("a", pr.SigA), write("b", pr.SigB)
	out := filepath.Join(dir, "recovered.sk")
	code, stdout, errs := runCLI(t, "leak", "--scheme", "fn-dsa-2026", "--pk", pkf, "--msg", msgf, "--hex", "--sig", af, "--sig", bf, "--out", out)
	if code != 0 || !strings.HasPrefix(stdout, "private key recovered: s2_A - s2_B = 1 x^k f") {
		t.Fatalf("leak: exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
	skb, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	k, err := draft.DecodeSigningKey(skb, false)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%x", k.VerifyingKey()) != pr.PublicKey {
		t.Error("the recovered key's verifying key is not the campaign's")
	}
	code, _, errs = runCLI(t, "leak", "--pk", pkf, "--msg", msgf, "--hex", "--sig", af, "--sig", bf)
	if code != cli.ExitUsage || !strings.Contains(errs, "--pk") {
		t.Errorf("the draft's key read as round 3's: exit %d, stderr %q", code, errs)
	}
	// --from --pair reads the same pair, and its scheme, from the result
	// (its directory, its result.json, or a copy under another name): the
	// same key, printed with --out -.
	copied := filepath.Join(dir, "saved-result.json")
	if err := os.WriteFile(copied, data, 0o644); err != nil {
		t.Fatal(err)
	}
	notResult := write("other.json", `{"results": []}`)
	for _, from := range []string{camp, filepath.Join(camp, "result.json"), copied} {
		code, stdout, errs = runCLI(t, "leak", "--from", from, "--pair", "183", "--out", "-")
		if code != 0 || stdout != string(skb) || !strings.HasPrefix(errs, "private key recovered: s2_A - s2_B = 1 x^k f") {
			t.Errorf("leak --from %s --pair 183: exit %d, %d bytes out, stderr %q", from, code, len(stdout), errs)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", camp, "--pair", "182"}, "signature 182 is not a differing pair; the pairs are signatures 183"},
		{[]string{"--from", camp}, "go together"},
		{[]string{"--pair", "183"}, "go together"},
		{[]string{"--from", camp, "--pair", "183", "--sig", af}, "exclude --pk"},
		{[]string{"--from", camp, "--pair", "183", "--scheme", "falcon"}, "was signed with --scheme fn-dsa-2026"},
		{[]string{"--from", dir, "--pair", "183"}, "no result.json"},
		{[]string{"--from", notResult, "--pair", "183"}, "other.json is not a diverge result: json: unknown field \"results\""},
		{[]string{"--from", "/dev/zero", "--pair", "183"}, "/dev/zero is not JSON: it begins with byte 0x00"},
	} {
		if code, _, errs := runCLI(t, append([]string{"leak"}, c.args...)...); code != cli.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("leak %v: exit %d, stderr %q (want %q)", c.args, code, errs, c.want)
		}
	}
}
