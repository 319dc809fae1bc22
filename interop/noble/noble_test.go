package noble

import (
	"bufio"
	"bytes"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	_ "github.com/fprlab/fprlab/valuetype"
)

// The test exchanges keys and signatures between fprlab and
// @noble/post-quantum for Falcon-512 and Falcon-1024, in every signature
// format both implement: the falcon.h compressed and padded detached
// formats and the round-3 NIST signed-message layout ("attached"; noble has
// no ct format). Keys come from both sides; fprlab signs with the native,
// emu64, triword and dd backends (binary64 in hardware and emulated,
// triple-word binary32, double-word binary64). Every signature must verify on both sides,
// and the same signature with one bit flipped, or checked against another
// message, must be rejected on both sides.

// envRequire set to 1 turns a missing node or package into a failure.
const envRequire = "FPRLAB_INTEROP"

// formats are the signature formats noble implements (noble.mjs names).
var formats = []string{"compressed", "padded", "attached"}

// signBackends are the fprlab backends that sign in the test.
var signBackends = []string{"native", "emu64", "triword", "dd"}

// peer is a running noble.mjs.
type peer struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startPeer starts testdata/noble.mjs, or skips the test (fails it when
// FPRLAB_INTEROP=1) when node or the pinned package is missing.
func startPeer(t *testing.T) *peer {
	t.Helper()
	unavailable := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv(envRequire) == "1" {
			t.Fatalf("%s (%s=1: the interop test must run)", msg, envRequire)
		}
		t.Skipf("%s; set %s=1 to make this a failure", msg, envRequire)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		unavailable("node is not installed: %v", err)
	}
	want, err := pinnedVersion()
	if err != nil {
		t.Fatal(err)
	}
	installed := filepath.Join("testdata", "node_modules", "@noble", "post-quantum", "package.json")
	if _, err := os.Stat(installed); err != nil {
		unavailable("@noble/post-quantum is not installed (run: npm ci --prefix interop/noble/testdata): %v", err)
	}
	cmd := exec.Command(node, "noble.mjs")
	cmd.Dir = "testdata"
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting node: %v", err)
	}
	p := &peer{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	p.out.Buffer(nil, 1<<20)
	t.Cleanup(func() {
		in.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("node: %v", err)
		}
	})
	var v struct{ Version string }
	p.call(t, map[string]any{"op": "version"}, &v)
	if v.Version != want {
		t.Fatalf("installed @noble/post-quantum is %s, testdata/package.json pins %s (run npm ci)", v.Version, want)
	}
	t.Logf("peer: @noble/post-quantum %s under %s", v.Version, node)
	return p
}

// pinnedVersion is the exact @noble/post-quantum version of
// testdata/package.json.
func pinnedVersion() (string, error) {
	raw, err := os.ReadFile(filepath.Join("testdata", "package.json"))
	if err != nil {
		return "", err
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		return "", fmt.Errorf("testdata/package.json: %v", err)
	}
	v := pkg.Dependencies["@noble/post-quantum"]
	if v == "" || v[0] < '0' || v[0] > '9' {
		return "", fmt.Errorf("testdata/package.json: @noble/post-quantum %q is not an exact version", v)
	}
	return v, nil
}

// call sends req and decodes the answer into resp; a peer error or a dead
// peer fails the test.
func (p *peer) call(t *testing.T, req map[string]any, resp any) {
	t.Helper()
	line, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.in.Write(append(line, '\n')); err != nil {
		t.Fatalf("writing to node: %v", err)
	}
	if !p.out.Scan() {
		t.Fatalf("node closed its output (request %s): %v", line, p.out.Err())
	}
	var e struct{ Error string }
	if err := json.Unmarshal(p.out.Bytes(), &e); err != nil {
		t.Fatalf("node answered %q: %v", p.out.Bytes(), err)
	}
	if e.Error != "" {
		t.Fatalf("node: %s (request op %v)", e.Error, req["op"])
	}
	if err := json.Unmarshal(p.out.Bytes(), resp); err != nil {
		t.Fatalf("node answered %q: %v", p.out.Bytes(), err)
	}
}

// hexBytes is a byte string that travels as hex in JSON.
type hexBytes []byte

func (h *hexBytes) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := hex.DecodeString(s)
	*h = v
	return err
}

func (p *peer) keygen(t *testing.T, n int, seed []byte) (pk, sk []byte) {
	t.Helper()
	req := map[string]any{"op": "keygen", "n": n}
	if seed != nil {
		req["seed"] = hex.EncodeToString(seed)
	}
	var r struct{ PK, SK hexBytes }
	p.call(t, req, &r)
	return r.PK, r.SK
}

func (p *peer) sign(t *testing.T, n int, format string, sk, msg []byte) []byte {
	t.Helper()
	var r struct{ Sig hexBytes }
	p.call(t, map[string]any{"op": "sign", "n": n, "format": format,
		"sk": hex.EncodeToString(sk), "msg": hex.EncodeToString(msg)}, &r)
	return r.Sig
}

func (p *peer) verify(t *testing.T, n int, format string, pk, msg, sig []byte) bool {
	t.Helper()
	var r struct{ Valid *bool }
	p.call(t, map[string]any{"op": "verify", "n": n, "format": format,
		"pk": hex.EncodeToString(pk), "msg": hex.EncodeToString(msg), "sig": hex.EncodeToString(sig)}, &r)
	if r.Valid == nil {
		t.Fatal("node: verify answer without valid")
	}
	return *r.Valid
}

// fprlabSign signs msg with ek in one of the noble formats.
func fprlabSign(ek *falcon.ExpandedKey, format string, msg []byte, rng io.Reader) ([]byte, error) {
	switch format {
	case "compressed":
		return ek.Sign(msg, falcon.Compressed, rng)
	case "padded":
		return ek.Sign(msg, falcon.Padded, rng)
	}
	// attached: the NIST signed message holds the compressed s2 after a
	// 0x20+logn header, within a bound slightly below the falcon.h
	// compressed maximum, so a rare signature that does not fit is signed
	// again.
	for range 10 {
		sig, err := ek.Sign(msg, falcon.Compressed, rng)
		if err != nil {
			return nil, err
		}
		s, err := falcon.DecodeSignature(sig)
		if err != nil {
			return nil, err
		}
		sm, err := falcon.EncodeSM(ek.LogN(), s.Nonce, msg, s.S2)
		if err == nil {
			return sm, nil
		}
	}
	return nil, errors.New("10 signatures in a row too long for the NIST signed-message format")
}

// fprlabVerify is nil if fprlab accepts sig of msg under pk in format.
func fprlabVerify(pk *falcon.PublicKey, format string, msg, sig []byte) error {
	if format != "attached" {
		return falcon.Verify(pk, msg, sig)
	}
	opened, err := falcon.OpenSM(pk, sig)
	if err != nil {
		return err
	}
	if !bytes.Equal(opened, msg) {
		return errors.New("the signed message holds another message")
	}
	return nil
}

// testKey is a key pair in both representations.
type testKey struct {
	origin string
	pkb    []byte
	pk     *falcon.PublicKey
	sk     *falcon.PrivateKey
	skb    []byte
}

// counts tallies the checks of one degree.
type counts struct {
	fprlabSigned, nobleSigned, rejected int
}

func TestInterop(t *testing.T) {
	p := startPeer(t)
	keysPerSide, msgsPerCase := 2, 2
	if testing.Short() {
		keysPerSide, msgsPerCase = 1, 1
	}
	var total counts
	for _, n := range []int{512, 1024} {
		t.Run(fmt.Sprintf("falcon%d", n), func(t *testing.T) {
			c := interopDegree(t, p, n, keysPerSide, msgsPerCase)
			t.Logf("%d fprlab signatures and %d noble signatures accepted by both sides, %d corrupted cases rejected by both",
				c.fprlabSigned, c.nobleSigned, c.rejected)
			total.fprlabSigned += c.fprlabSigned
			total.nobleSigned += c.nobleSigned
			total.rejected += c.rejected
		})
	}
	t.Logf("total: %d signatures verified on both sides, %d corrupted cases rejected on both",
		total.fprlabSigned+total.nobleSigned, total.rejected)
}

func interopDegree(t *testing.T, p *peer, n, keysPerSide, msgsPerCase int) counts {
	logn := uint(9)
	if n == 1024 {
		logn = 10
	}
	native := lookup(t, "native")
	rng := mrand.New(mrand.NewPCG(uint64(n), 1))
	var keys []testKey

	// fprlab keys, from SHAKE256 of a 48-byte seed as falcon.h's
	// falcon_keygen_make does; noble's keygen(seed) derives its key the
	// same way, so both must produce the same bytes.
	for i := range keysPerSide {
		seed := make([]byte, 48)
		for j := range seed {
			seed[j] = byte(rng.Uint32())
		}
		h := sha3.NewSHAKE256()
		h.Write(seed)
		sk, pk, err := falcon.Keygen(native, logn, h)
		if err != nil {
			t.Fatal(err)
		}
		k := testKey{origin: fmt.Sprintf("fprlab key %d", i), pkb: pk.Encode(), pk: pk, sk: sk, skb: sk.Encode()}
		npk, nsk := p.keygen(t, n, seed)
		if !bytes.Equal(npk, k.pkb) || !bytes.Equal(nsk, k.skb) {
			t.Errorf("%s: noble's keygen from the same seed %x gives another key", k.origin, seed)
		}
		keys = append(keys, k)
	}
	// noble keys from noble's own randomness, decoded by fprlab.
	for i := range keysPerSide {
		pkb, skb := p.keygen(t, n, nil)
		pk, err := falcon.DecodePublicKey(pkb)
		if err != nil {
			t.Fatalf("noble key %d: fprlab rejects its public key: %v", i, err)
		}
		sk, err := falcon.DecodePrivateKey(skb)
		if err != nil {
			t.Fatalf("noble key %d: fprlab rejects its private key: %v", i, err)
		}
		if !bytes.Equal(sk.Encode(), skb) || !bytes.Equal(pk.Encode(), pkb) {
			t.Fatalf("noble key %d: fprlab re-encodes it differently", i)
		}
		h, err := falcon.ComputePublic(sk.SmallF, sk.SmallG, logn)
		if err != nil || !bytes.Equal((&falcon.PublicKey{LogN: logn, H: h}).Encode(), pkb) {
			t.Fatalf("noble key %d: fprlab computes another public key from its private key (%v)", i, err)
		}
		keys = append(keys, testKey{origin: fmt.Sprintf("noble key %d", i), pkb: pkb, pk: pk, sk: sk, skb: skb})
	}

	var c counts
	msg := func() []byte {
		m := make([]byte, rng.IntN(200))
		for i := range m {
			m[i] = byte(rng.Uint32())
		}
		return m
	}
	// both checks one signature on both sides, then one corruption of it:
	// a single flipped bit, or (alternately) another message.
	both := func(who string, k testKey, format string, m, sig []byte) {
		t.Helper()
		if err := fprlabVerify(k.pk, format, m, sig); err != nil {
			t.Errorf("%s: fprlab rejects it: %v", who, err)
		}
		if !p.verify(t, n, format, k.pkb, m, sig) {
			t.Errorf("%s: noble rejects it", who)
		}
		bad, badMsg := bytes.Clone(sig), m
		if rng.IntN(4) == 0 {
			badMsg = append(bytes.Clone(m), 0)
			who += " checked against another message"
		} else {
			bit := rng.IntN(8 * len(bad))
			bad[bit/8] ^= 1 << (bit % 8)
			who = fmt.Sprintf("%s with bit %d flipped", who, bit)
		}
		if fprlabVerify(k.pk, format, badMsg, bad) == nil {
			t.Errorf("%s: fprlab accepts it", who)
		}
		if p.verify(t, n, format, k.pkb, badMsg, bad) {
			t.Errorf("%s: noble accepts it", who)
		}
		c.rejected++
	}
	for ki, k := range keys {
		for bi, name := range signBackends {
			ek, err := falcon.ExpandPrivateKey(lookup(t, name), k.sk)
			if err != nil {
				t.Fatal(err)
			}
			// A separate stream per key and backend: the same key, nonce
			// and message must not be signed on two backends (Lin et al.,
			// Eurocrypt 2025).
			srng := mrand.NewChaCha8([32]byte{byte(n >> 8), byte(ki), byte(bi)})
			for _, format := range formats {
				for range msgsPerCase {
					m := msg()
					sig, err := fprlabSign(ek, format, m, srng)
					if err != nil {
						t.Fatalf("%s, %s, %s: %v", k.origin, name, format, err)
					}
					both(fmt.Sprintf("%s signed by fprlab %s, %s", k.origin, name, format), k, format, m, sig)
					c.fprlabSigned++
				}
			}
		}
		for _, format := range formats {
			for range 2 * msgsPerCase {
				m := msg()
				sig := p.sign(t, n, format, k.skb, m)
				both(fmt.Sprintf("%s signed by noble, %s", k.origin, format), k, format, m, sig)
				c.nobleSigned++
			}
		}
	}
	return c
}

func lookup(t *testing.T, name string) arith.Backend {
	t.Helper()
	b, err := arith.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
