package diverge_test

import (
	"context"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/diverge"
	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
	_ "github.com/fprlab/fprlab/valuetype"
)

func side(t *testing.T, name string) diverge.Side {
	t.Helper()
	s, err := diverge.ParseSide(name, arith.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func run(t *testing.T, a, b string, logn uint, sigs int) *diverge.Result {
	t.Helper()
	res, err := diverge.Run(context.Background(), diverge.Config{LogN: logn, Signatures: sigs, Keys: 2, Seed: "diverge test", Workers: 2, A: side(t, a), B: side(t, b), KeyBackend: side(t, "native").Backend}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Identical arithmetics never part: emu64 is the reference's integer
// emulation of binary64, bit for bit native's.
func TestIdenticalArithmeticsNeverDiffer(t *testing.T) {
	res := run(t, "native", "emu64", 9, 6)
	if res.Compared != 6 || res.Differing != 0 || res.KeyRevealing != 0 || len(res.Pairs) != 0 {
		t.Fatalf("native vs emu64: %d of %d differ", res.Differing, res.Compared)
	}
	if res.RateCI95[0] != 0 || res.RateCI95[1] <= 0 {
		t.Errorf("rate interval %v at 0 of 6", res.RateCI95)
	}
}

// vprec:22 rounds to 22 bits: it parts from binary64 in a sizeable share
// of signatures, at a decision of the sampler (a floor of mu or a
// Bernoulli trial), and with such a gap the two s2 are far apart.
func TestLowPrecisionDiffers(t *testing.T) {
	res := run(t, "native", "vprec:22", 9, 10)
	if res.Differing == 0 {
		t.Fatalf("native vs vprec:22: no differing signature in %d", res.Compared)
	}
	for _, p := range res.Pairs {
		switch p.Parting.Kind {
		case diverge.KindFloor, diverge.KindBerExp:
		default:
			t.Errorf("signature %d parts at %+v, want a sampler decision", p.Index, p.Parting)
		}
		if p.Parting.Call < 0 || p.Parting.Call >= 2*512 || p.Parting.Leaf != p.Parting.Call/2 {
			t.Errorf("signature %d: call %d leaf %d", p.Index, p.Parting.Call, p.Parting.Leaf)
		}
		if p.Diff.Norm <= 0 {
			t.Errorf("signature %d: difference norm %v", p.Index, p.Diff.Norm)
		}
	}
}

func TestParseSide(t *testing.T) {
	s := side(t, "vprec:40:tree")
	if s.Backend.Name != "vprec:40" || s.Mode != falcon.Tree || s.Name() != "vprec:40:tree" {
		t.Errorf("vprec:40:tree parsed as %s mode %v", s.Backend.Name, s.Mode)
	}
	if s := side(t, "native"); s.Mode != falcon.Dyn {
		t.Errorf("native parsed as mode %v", s.Mode)
	}
	if _, err := diverge.ParseSide("nosuch:tree", arith.Lookup); err == nil {
		t.Error("nosuch:tree accepted")
	}
}

func TestWilson(t *testing.T) {
	// Wilson's interval for 0 of 10 is [0, z^2/(n + z^2)] = [0, 0.2775].
	w := diverge.Wilson(0, 10)
	if w[0] != 0 || w[1] < 0.2775 || w[1] > 0.2776 {
		t.Errorf("Wilson(0, 10) = %v", w)
	}
	// 5 of 10: 0.5 +- 0.3034 / ... = [0.2366, 0.7634].
	w = diverge.Wilson(5, 10)
	if w[0] < 0.2365 || w[0] > 0.2367 || w[1] < 0.7633 || w[1] > 0.7635 {
		t.Errorf("Wilson(5, 10) = %v", w)
	}
}

// keyAndSig makes a key of degree 2^logn and a padded signature of msg.
func keyAndSig(t *testing.T, logn uint, msg []byte) (*falcon.PrivateKey, *falcon.PublicKey, *falcon.Signature) {
	t.Helper()
	native := side(t, "native").Backend
	kr := sha3.NewSHAKE256()
	kr.Write([]byte("leak test key"))
	sk, pk, err := falcon.Keygen(native, logn, kr)
	if err != nil {
		t.Fatal(err)
	}
	sr := sha3.NewSHAKE256()
	sr.Write([]byte("leak test sign"))
	sig, err := falcon.Sign(native, sk, msg, falcon.Padded, sr)
	if err != nil {
		t.Fatal(err)
	}
	d, err := falcon.DecodeSignature(sig)
	if err != nil {
		t.Fatal(err)
	}
	return sk, pk, d
}

// shifted returns s2 + c x^k p.
func shifted(s2 []int16, p []int8, c, k int) []int16 {
	n := len(s2)
	out := append([]int16(nil), s2...)
	for i, v := range p {
		j, sign := i+k, 1
		if j >= n {
			j, sign = j-n, -1
		}
		out[j] += int16(sign * c * int(v))
	}
	return out
}

// A pair whose s2 differ by c x^k f gives the key back: Recover must find
// a private key of the same public key (it signs, and its h is pk's) and
// Structure must name c and k.
func TestRecoverFabricatedPair(t *testing.T) {
	msg := []byte("the same message")
	sk, pk, sa := keyAndSig(t, 9, msg)
	native := side(t, "native").Backend
	for _, ck := range [][2]int{{1, 0}, {-1, 17}, {3, 300}, {-6, 511}} {
		s2b := shifted(sa.S2, sk.SmallF, ck[0], ck[1])
		d := diverge.Structure(sk, sa.S2, s2b)
		if d.Kind != "f" || d.C != -ck[0] || d.K != ck[1] {
			t.Errorf("c %d k %d: structure %+v", ck[0], ck[1], d)
		}
		a, _ := falcon.EncodeSignature(falcon.Compressed, 9, sa.Nonce, sa.S2)
		b, err := falcon.EncodeSignature(falcon.Compressed, 9, sa.Nonce, s2b)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := diverge.Recover(native, round3Reader(t), pk, msg, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Key == nil {
			t.Fatalf("c %d k %d: not recovered: %s", ck[0], ck[1], rec.Reveals)
		}
		got, err := rec.Key.Public()
		if err != nil {
			t.Fatal(err)
		}
		for i := range got.H {
			if got.H[i] != pk.H[i] {
				t.Fatalf("c %d k %d: recovered key has another public key", ck[0], ck[1])
			}
		}
		if rec.C != abs(ck[0]) {
			t.Errorf("c %d: recovered content %d", ck[0], rec.C)
		}
	}
	// A difference of two rotations of f, (x + x^2) f, is short and so is
	// h times it, but it is no key: (1 + x) divides it, so NTRUSolve
	// cannot complete it (both resultants are even).
	s2b := shifted(shifted(sa.S2, sk.SmallF, 1, 1), sk.SmallF, 1, 2)
	a, _ := falcon.EncodeSignature(falcon.Compressed, 9, sa.Nonce, sa.S2)
	b, _ := falcon.EncodeSignature(falcon.Compressed, 9, sa.Nonce, s2b)
	rec, err := diverge.Recover(native, round3Reader(t), pk, msg, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Key != nil || rec.Reveals == "" {
		t.Errorf("a two-coefficient difference recovered a key (%q)", rec.Reveals)
	}
	if d := diverge.Structure(sk, sa.S2, s2b); d.KeyRevealing() || d.Kind != "other" {
		t.Errorf("structure %+v", d)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestRecoverBadInputs(t *testing.T) {
	msg := []byte("m")
	_, pk, sa := keyAndSig(t, 9, msg)
	_, pk10, _ := keyAndSig(t, 10, msg)
	native := side(t, "native").Backend
	good, _ := falcon.EncodeSignature(falcon.Compressed, 9, sa.Nonce, sa.S2)
	otherNonce := append([]byte(nil), sa.Nonce...)
	otherNonce[0] ^= 1
	renonced, _ := falcon.EncodeSignature(falcon.Compressed, 9, otherNonce, sa.S2)
	for name, c := range map[string]struct {
		pk   *falcon.PublicKey
		a, b []byte
		is   error
	}{
		"malformed signature": {pk, good, []byte{0x39, 1, 2}, falcon.ErrMalformed},
		"other degree":        {pk10, good, good, diverge.ErrNotAPair},
		"different nonces":    {pk, good, renonced, diverge.ErrNotAPair},
	} {
		_, err := diverge.Recover(native, round3Reader(t), c.pk, msg, c.a, c.b)
		if !errors.Is(err, c.is) {
			t.Errorf("%s: error %v, want %v", name, err, c.is)
		}
	}
	// The same signature twice reveals nothing.
	rec, err := diverge.Recover(native, round3Reader(t), pk, msg, good, good)
	if err != nil || rec.Key != nil {
		t.Errorf("same signature twice: %v %v", rec, err)
	}
}

// TestRangesMerge: a campaign run as three ranges, merged (in any order),
// is the campaign run whole; a range merged twice and results of other
// campaigns are refused.
func TestRangesMerge(t *testing.T) {
	c := diverge.Config{LogN: 9, Signatures: 10, Keys: 2, Seed: "diverge test", Workers: 2, A: side(t, "native"), B: side(t, "vprec:22"), KeyBackend: side(t, "native").Backend}
	whole, err := diverge.Run(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Differing == 0 {
		t.Fatal("no differing pair to merge")
	}
	cp, err := diverge.Prepare(c)
	if err != nil {
		t.Fatal(err)
	}
	var parts []*diverge.Result
	for _, r := range [][2]int{{7, 10}, {0, 3}, {3, 7}} {
		p, err := cp.Range(context.Background(), r[0], r[1], nil)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	merged, err := diverge.Merge(parts...)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(merged, whole) {
		t.Errorf("merged ranges:\n%+v\nwhole:\n%+v", merged, whole)
	}
	withPair := parts[0]
	for _, p := range parts {
		if len(p.Pairs) > 0 {
			withPair = p
		}
	}
	if _, err := diverge.Merge(append(parts, withPair)...); err == nil || !strings.Contains(err.Error(), "two of the results") {
		t.Errorf("a range merged twice: %v", err)
	}
	other := *parts[0]
	other.Seed = "another"
	if _, err := diverge.Merge(parts[1], &other); err == nil || !strings.Contains(err.Error(), "cannot merge") {
		t.Errorf("another campaign merged: %v", err)
	}
	if _, err := cp.Range(context.Background(), 5, 11, nil); err == nil {
		t.Error("a range past the campaign accepted")
	}
}

// TestRunDirResumes: a directory run interrupted after some checkpoints
// continues from them and ends with the result of the campaign run whole;
// other flags are refused, and a finished directory is not run again.
func TestRunDirResumes(t *testing.T) {
	defer diverge.SetChunk(3)()
	c := diverge.Config{LogN: 9, Signatures: 10, Keys: 2, Seed: "diverge test", Workers: 1, A: side(t, "native"), B: side(t, "vprec:22"), KeyBackend: side(t, "native").Backend}
	whole, err := diverge.Run(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := diverge.Prepare(c)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "camp")
	flags := map[string]string{"signatures": "10", "seed": "diverge test"}
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := cp.RunDir(ctx, dir, flags, "v1", "", 0, 10, func(done, total int) {
		if done == 7 {
			cancel()
		}
	}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, diverge.ResultName)); err == nil {
		t.Fatal("an interrupted run wrote its result")
	}
	var resumedFrom int
	got, err := cp.RunDir(context.Background(), dir, flags, "v1", "", 0, 10, func(done, total int) {
		if resumedFrom == 0 {
			resumedFrom = done
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if resumedFrom != 7 {
		t.Errorf("the resumed run's first progress is %d signatures done, want 7 (the two chunks of 3 kept, and one more)", resumedFrom)
	}
	if !reflect.DeepEqual(got, whole) {
		t.Errorf("resumed:\n%+v\nwhole:\n%+v", got, whole)
	}
	if _, err := cp.RunDir(context.Background(), dir, map[string]string{"signatures": "11", "seed": "diverge test"}, "v1", "", 0, 10, nil); err == nil || !strings.Contains(err.Error(), "it has --signatures 10, this run --signatures 11") {
		t.Errorf("other flags: %v", err)
	}
	// A directory of other files is not taken for a new campaign: nothing
	// of the campaign is written into it (the lock file aside).
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := cp.RunDir(context.Background(), other, flags, "v1", "", 0, 10, nil); err == nil || !strings.Contains(err.Error(), "holds notes.txt") {
		t.Errorf("a directory of other files: %v", err)
	}
	if ents, _ := os.ReadDir(other); len(ents) != 2 { // notes.txt and the lock
		t.Errorf("the refused directory now holds %d entries", len(ents))
	}
}

// TestJudgeSaysWhichSideWasRight takes two differing pairs found by
// campaigns of 10^6 signatures (native against its tree mode, and against
// native-fma, Falcon-512). Both part at the last sampler call, at a centre
// that is an integer to 1024-bit precision: a tie, which neither the dd
// shadow nor the 256-bit oracle resolves, and which the judge settles at
// TieBits. The verdict is checked against an independent signer: the
// 256-bit oracle backend signs the same input, floors that centre to the
// integer, and so must sign exactly the signature of the side called
// right, not the other's. Both exact sides (dd and the oracle as shadow)
// must agree.
func TestJudgeSaysWhichSideWasRight(t *testing.T) {
	if testing.Short() {
		t.Skip("two campaigns' key generation and a 256-bit signature")
	}
	for _, c := range []struct {
		against, seed string
		index         int
	}{
		{"native:tree", "fprlab", 156440},
		{"native-fma", "fma512", 36314},
	} {
		oracle := side(t, "oracle")
		for _, sh := range []shadow.Kind{shadow.ShadowDD, shadow.ShadowOracle} {
			cfg := diverge.Config{LogN: 9, Signatures: 1_000_000, Keys: 1, Seed: c.seed, Workers: 1,
				A: side(t, "native"), B: side(t, c.against), KeyBackend: side(t, "native").Backend, Shadow: sh}
			cp, err := diverge.Prepare(cfg)
			if err != nil {
				t.Fatal(err)
			}
			res, err := cp.Range(context.Background(), c.index, c.index+1, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Pairs) != 1 || res.Pairs[0].Exact == nil {
				t.Fatalf("native vs %s, signature %d: %d pairs, want 1 judged", c.against, c.index, len(res.Pairs))
			}
			p := res.Pairs[0]
			j := p.Exact
			exact, err := cp.SignIndex(oracle, c.index)
			if err != nil {
				t.Fatal(err)
			}
			right := map[string]string{diverge.RightA: p.SigA, diverge.RightB: p.SigB}[j.Right]
			wrong := map[string]string{diverge.RightA: p.SigB, diverge.RightB: p.SigA}[j.Right]
			if right == "" || right != hex.EncodeToString(exact) || wrong == hex.EncodeToString(exact) {
				t.Errorf("native vs %s, signature %d, %s shadow: verdict %q (flips %d / %d), but the oracle signs as %s",
					c.against, c.index, sh, j.Right, j.FlipsA, j.FlipsB,
					map[bool]string{true: "A", false: "B (or neither)"}[hex.EncodeToString(exact) == p.SigA])
			}
			if res.Right[j.Right] != 1 {
				t.Errorf("result's counts %v", res.Right)
			}
			if !j.Tie {
				t.Errorf("native vs %s, signature %d: not decided at a tie (%+v)", c.against, c.index, j)
			}
			t.Logf("native vs %s, signature %d, %s shadow: right %s (tie %v); first flips %q / %q", c.against, c.index, sh, j.Right, j.Tie, j.FirstA, j.FirstB)
		}
	}
}

// TestResultReadsBack writes a campaign's result as JSON and reads it with
// package results, the reader of report and plot: every count and every
// pair's classification and verdict must come back, so that the two types
// cannot drift apart unnoticed.
func TestResultReadsBack(t *testing.T) {
	cfg := diverge.Config{LogN: 9, Signatures: 40, Keys: 1, Seed: "report", Workers: 2,
		A: side(t, "native"), B: side(t, "vprec:24"), KeyBackend: side(t, "native").Backend, Shadow: shadow.ShadowDD}
	r, err := diverge.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Differing == 0 || r.Right == nil {
		t.Fatalf("no judged differing pair to read back (%d differing)", r.Differing)
	}
	// vprec:24's thresholds differ from binary64's in their third byte:
	// some of its Bernoulli trials draw more bytes than exact arithmetic
	// would, which the shadow must count (berexp_fewer_bytes), or the pair
	// is left undecided with no flip on either side.
	if r.Right[diverge.RightUndecided] != 0 {
		t.Errorf("verdicts %v: a pair undecided", r.Right)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "result.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := results.Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diverges) != 1 {
		t.Fatalf("read %d diverge documents", len(c.Diverges))
	}
	d := c.Diverges[0]
	if d.Backend != r.Backend || d.Against != r.Against || d.N != r.N || d.Compared != r.Compared || d.Differing != r.Differing ||
		d.Rate != r.Rate || d.RateCI95 != r.RateCI95 || d.KeyRevealing != r.KeyRevealing || !maps.Equal(d.Right, r.Right) || d.Ties != r.Ties {
		t.Errorf("read back %+v\nfrom %+v", d, r)
	}
	for i, q := range d.Pairs {
		w := r.Pairs[i]
		if q.Index != w.Index || q.Parting.Kind != w.Parting.Kind || q.Parting.Call != w.Parting.Call || q.Diff.Kind != w.Diff.Kind ||
			q.Diff.Norm != w.Diff.Norm || q.Exact == nil || q.Exact.Right != w.Exact.Right || q.Exact.Tie != w.Exact.Tie {
			t.Errorf("pair %d read back as %+v, written %+v", i, q, w)
		}
	}
}

// round3Reader is Falcon round 3 as Recover reads its signatures.
func round3Reader(t *testing.T) scheme.SignatureReader {
	t.Helper()
	return reader(t, scheme.Default)
}

// reader looks scheme name up as a SignatureReader.
func reader(t *testing.T, name string) scheme.SignatureReader {
	t.Helper()
	sc, err := scheme.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := scheme.ReaderOf(sc)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
