package falcon

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	mrand "math/rand/v2"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/triword"
	"github.com/fprlab/fprlab/internal/samplerprng"
)

// The native, emu64 and triword backends run generated, non-generic
// copies of the Falcon code (zz_*_gen.go); every other backend runs the
// generic code. The tests below run the same inputs through both paths of
// each instance and compare SHA-256 digests of all outputs: the generic
// path is the same arithmetic behind another type (genericNative, ...),
// which newEngine gives the generic code, with exactly the same
// operations.

// genericNative, genericEmu64 and genericTriword are arithmetics that
// newEngine does not recognise as a generated instance: each is an
// arith.Arith of its value type and runs the generic code.
type (
	genericNative  struct{ native.Arith }
	genericEmu64   struct{ emu64.Arith }
	genericTriword struct{ triword.Arith }
)

// genInstance is a backend that runs a generated instance, with the same
// arithmetic for the generic path and the engine type newEngine must give
// the backend. A backend that cannot generate keys (triword's exponent
// range stops short of NTRUSolve's 2^±341) signs with keys generated on
// native; a slow one runs a subset of the vectors with -short.
type genInstance struct {
	backend string
	generic any
	engine  string
	keygen  bool
	slow    bool
}

var genInstances = []genInstance{
	{"native", genericNative{}, "*falcon.engineOfNative", true, false},
	{"emu64", genericEmu64{}, "*falcon.engineOfEmu64", true, false},
	{"triword", genericTriword{}, "falcon.triwordEngine", false, true},
	{"triword-acc", genericTriword{triword.Arith{Accurate: true}}, "falcon.triwordEngine", false, true},
	{"triword-b64const", genericTriword{triword.Arith{B64Const: true}}, "falcon.triwordEngine", false, true},
	{"triword-acc-b64const", genericTriword{triword.Arith{Accurate: true, B64Const: true}}, "falcon.triwordEngine", false, true},
}

// short reports whether the instance runs the -short subset.
func (gi genInstance) short() bool { return gi.slow && testing.Short() }

// paths returns the backend (generated code) and the same arithmetic on
// the generic code.
func (gi genInstance) paths(t testing.TB) [2]arith.Backend {
	gen := mustBackend(t, gi.backend)
	return [2]arith.Backend{gen, {Name: gi.backend + "-generic", Bits: gen.Bits, Description: gen.Description, Impl: gi.generic}}
}

// pathDigest is what a comparison hashes on each path: the number of bytes
// and their SHA-256.
//
// The pinned binary64 values were produced by this repository's code at
// the state where both native paths reproduce all NIST KATs and the
// reference's test vectors bit for bit (main at 1e8181a, before the
// sampler's generator moved to internal/samplerprng), so that a change
// made to both paths alike, which the comparison of the two cannot see, is
// caught. emu64 must hash exactly the same bytes as native (every output
// is hashed in binary64 form) except where its ExpmP63 differs (the
// sampler test). The triword-b64const values were produced by the generic
// path (the code that existed before the generated triword instance,
// under the name "triword") and pin its results the same way; the
// triword values (72-bit constants) were produced by both paths when the
// constants moved to 72 bits, after the generic path had been checked
// against the reference's signatures (TestKATTriwordSigning). Every
// triword variant's signatures of the 120 vectors and of the KAT records
// (signed with native keys) are the reference's, so those pins are the
// binary64 ones for all four.
type pathDigest struct {
	bytes  int64
	sha256 string
}

// pins are the pinned digests of one comparison, by backend.
type pins map[string]pathDigest

// binary64Pins pins native and emu64 to d and the binary64-constant
// triword backends to tw and twAcc (a zero pathDigest: the test does not
// run them).
func binary64Pins(d, tw, twAcc pathDigest) pins {
	return pins{"native": d, "emu64": d, "triword-b64const": tw, "triword-acc-b64const": twAcc}
}

// with72 adds the pins of the 72-bit-constant triword backends.
func (p pins) with72(tw, twAcc pathDigest) pins {
	p["triword"], p["triword-acc"] = tw, twAcc
	return p
}

// countingHash is a hash that counts the bytes written to it.
type countingHash struct {
	hash.Hash
	n int64
}

func (c *countingHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.Hash.Write(p)
}

// comparePaths runs fn, for each generated instance, over the generated
// and the generic path, each writing its outputs to a hash, and fails
// unless both paths hashed the same bytes and those are the pinned want
// for the backend (a comparison of two empty hashes would pass without
// testing anything).
func comparePaths(t *testing.T, want pins, fn func(t *testing.T, gi genInstance, b arith.Backend, h hash.Hash)) {
	t.Helper()
	for _, gi := range genInstances {
		t.Run(gi.backend, func(t *testing.T) {
			var got [2]pathDigest
			for i, b := range gi.paths(t) {
				h := &countingHash{Hash: sha256.New()}
				fn(t, gi, b, h)
				got[i] = pathDigest{h.n, hex.EncodeToString(h.Sum(nil))}
			}
			if got[0] != got[1] {
				t.Fatalf("generated path hashed %d bytes, SHA-256 %s; generic path %d bytes, %s", got[0].bytes, got[0].sha256, got[1].bytes, got[1].sha256)
			}
			if got[0].bytes == 0 {
				t.Fatal("nothing was hashed on either path")
			}
			if got[0] != want[gi.backend] {
				t.Fatalf("both paths hashed %d bytes, SHA-256 %s; pinned: %d bytes, %s", got[0].bytes, got[0].sha256, want[gi.backend].bytes, want[gi.backend].sha256)
			}
			t.Logf("both paths: %d bytes, SHA-256 %s", got[0].bytes, got[0].sha256)
		})
	}
}

// shortOr returns short under -short, else full.
func shortOr(short, full pathDigest) pathDigest {
	if testing.Short() {
		return short
	}
	return full
}

// TestGeneratedEngineDispatch checks which code each backend gets: the
// exact arithmetic types of the generated instances their generated
// engine, any other Arith (the same arithmetic wrapped, the operation
// counter) the generic one.
func TestGeneratedEngineDispatch(t *testing.T) {
	for _, gi := range genInstances {
		bs := gi.paths(t)
		e, err := newEngine(bs[0])
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%T", e); got != gi.engine {
			t.Errorf("%s backend: engine %s, want %s", gi.backend, got, gi.engine)
		}
		e, err = newEngine(bs[1])
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%T", e); !strings.HasPrefix(got, "*falcon.engineOf[") {
			t.Errorf("%s: engine %s, want the generic engine", bs[1].Name, got)
		}
	}
	e, err := newEngine(arith.Backend{Name: "wrapped", Bits: 53, Impl: failingRint{native.Arith{}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.(*engineOf[float64, arith.Arith[float64]]); !ok {
		t.Errorf("failingRint: engine %T, want the generic engine", e)
	}
}

// expandedTester exposes an expanded key's floating-point values.
type expandedTester interface {
	// expandedParts returns the basis in FFT form and the ffLDL tree of
	// an expanded key made by the engine ([]F each).
	expandedParts(key any) []any
}

func (e *engineOf[F, A]) expandedParts(key any) []any {
	k := key.(*expandedKey[F])
	return []any{k.b00, k.b01, k.b10, k.b11, k.tree}
}

// writeAttempt writes an attempt's outcome to h.
func writeAttempt(h hash.Hash, at *Attempt) {
	binary.Write(h, binary.LittleEndian, at.S1)
	binary.Write(h, binary.LittleEndian, at.S2)
	binary.Write(h, binary.LittleEndian, at.SqNorm)
	binary.Write(h, binary.LittleEndian, at.Short)
}

// The pinned digests of the comparisons below (see pathDigest), with and
// without -short where the test has a -short size (functions: -short is
// only known once the tests run).

func digestSignVectors() pins {
	return binary64Pins(pathDigest{269606, "f9571d9ab92912d63bc5bd8fd0c24f36b92337221dff7d625342eddeffd55d61"},
		shortOr(pathDigest{30060, "a9db724bfe41cd8db31fd4d03abe0bab6cf773daf0e372c96f4b2a485611e76c"}, pathDigest{269606, "f9571d9ab92912d63bc5bd8fd0c24f36b92337221dff7d625342eddeffd55d61"}),
		shortOr(pathDigest{30060, "a9db724bfe41cd8db31fd4d03abe0bab6cf773daf0e372c96f4b2a485611e76c"}, pathDigest{269606, "f9571d9ab92912d63bc5bd8fd0c24f36b92337221dff7d625342eddeffd55d61"})).with72(
		shortOr(pathDigest{30060, "a9db724bfe41cd8db31fd4d03abe0bab6cf773daf0e372c96f4b2a485611e76c"}, pathDigest{269606, "f9571d9ab92912d63bc5bd8fd0c24f36b92337221dff7d625342eddeffd55d61"}),
		shortOr(pathDigest{30060, "a9db724bfe41cd8db31fd4d03abe0bab6cf773daf0e372c96f4b2a485611e76c"}, pathDigest{269606, "f9571d9ab92912d63bc5bd8fd0c24f36b92337221dff7d625342eddeffd55d61"}))
}

func digestExpandedKeys() pins {
	return binary64Pins(pathDigest{2751744, "c9612b3213a639f1036e3cd3be826abf7da8ebe367ffbdb171661f50ea3d79d9"},
		shortOr(pathDigest{1031904, "eb8e362a5d2cfa81c3e60833dd73ba4aa025b13b773c52730ee8e3328e171420"}, pathDigest{4127616, "51a6571799a976d9df4ed0f441a7155e0859a4f28e27014568a73abb61c5078f"}),
		shortOr(pathDigest{1031904, "e8d9709a01b991d68787004b0e0953845adcf82d7e411bfb9cad815cd2315ac0"}, pathDigest{4127616, "0c352d954714b93e8d4eaac721ac6b3ad3a0e73813de7f7cf5d895bb24ec171a"})).with72(
		shortOr(pathDigest{1031904, "e45fb4f2d79bc4ac3c3e2e532afc8d489731c348558db97a9adf32d7bf74cd69"}, pathDigest{4127616, "d4a64a2d1bc5d112ae70cb4ea52665bccb4829247ae36b27a0154e28cf10ce77"}),
		shortOr(pathDigest{1031904, "89dc9908eca4b2a531a2d50f944fa7cb162637f7d00b7a217705e0d469d8f28c"}, pathDigest{4127616, "f14bd05c23ece8bbc10ed0b2137b85ce104a51bdce0831c0a2f1a09ef33c230c"}))
}

func digestKAT(logn uint) pins {
	if logn == 9 {
		return binary64Pins(shortOr(pathDigest{5772, "33dd2b9d93df84ded4552a4fb753142149fbb8e7ba3ea3a89ad3521e2ccd930f"},
			pathDigest{63627, "699863f212ac369faea7906d7f09d65039e3aa425b23a78e72e0593028a588af"}),
			shortOr(pathDigest{5772, "33dd2b9d93df84ded4552a4fb753142149fbb8e7ba3ea3a89ad3521e2ccd930f"}, pathDigest{63627, "699863f212ac369faea7906d7f09d65039e3aa425b23a78e72e0593028a588af"}),
			shortOr(pathDigest{5772, "33dd2b9d93df84ded4552a4fb753142149fbb8e7ba3ea3a89ad3521e2ccd930f"}, pathDigest{63627, "699863f212ac369faea7906d7f09d65039e3aa425b23a78e72e0593028a588af"})).with72(
			shortOr(pathDigest{5772, "33dd2b9d93df84ded4552a4fb753142149fbb8e7ba3ea3a89ad3521e2ccd930f"}, pathDigest{63627, "699863f212ac369faea7906d7f09d65039e3aa425b23a78e72e0593028a588af"}),
			shortOr(pathDigest{5772, "33dd2b9d93df84ded4552a4fb753142149fbb8e7ba3ea3a89ad3521e2ccd930f"}, pathDigest{63627, "699863f212ac369faea7906d7f09d65039e3aa425b23a78e72e0593028a588af"}))
	}
	return binary64Pins(shortOr(pathDigest{10841, "d204f62f452251f89c4b1225cfd3293a071359b7321db483b3f67139423f715e"},
		pathDigest{55512, "77e3531ba49fef1eda4565c720acabe224bc50946b010515d308c9f794b22b32"}),
		shortOr(pathDigest{10841, "d204f62f452251f89c4b1225cfd3293a071359b7321db483b3f67139423f715e"}, pathDigest{55512, "77e3531ba49fef1eda4565c720acabe224bc50946b010515d308c9f794b22b32"}),
		shortOr(pathDigest{10841, "d204f62f452251f89c4b1225cfd3293a071359b7321db483b3f67139423f715e"}, pathDigest{55512, "77e3531ba49fef1eda4565c720acabe224bc50946b010515d308c9f794b22b32"})).with72(
		shortOr(pathDigest{10841, "d204f62f452251f89c4b1225cfd3293a071359b7321db483b3f67139423f715e"}, pathDigest{55512, "77e3531ba49fef1eda4565c720acabe224bc50946b010515d308c9f794b22b32"}),
		shortOr(pathDigest{10841, "d204f62f452251f89c4b1225cfd3293a071359b7321db483b3f67139423f715e"}, pathDigest{55512, "77e3531ba49fef1eda4565c720acabe224bc50946b010515d308c9f794b22b32"}))
}

func digestKeygen() pins {
	return binary64Pins(shortOr(pathDigest{4654, "26d191bf3ca0431afca0b9bdcdd5798468c402a7b5c3b9e50feb4ed573755bf1"},
		pathDigest{25857, "23aa2387ef70b61e70f70469510d7c36bd250302f63263738ef40033771bcd20"}),
		pathDigest{},
		pathDigest{}).with72(pathDigest{}, pathDigest{})
}

func digestSolveNTRU() pins {
	return binary64Pins(shortOr(pathDigest{5584, "45349a43e88a896a126ef32726bb9e42702f77c2db7eef9ade1548f6a7769c7e"},
		pathDigest{17088, "24bf7b1b9284e6c40199645fba6998555f83f656ac1db38452d9028fe4bf058e"}),
		shortOr(pathDigest{80, "5b6fb58e61fa475939767d68a446f97f1bff02c0e5935a3ea8bb51e6515783d8"}, pathDigest{320, "7b6436b0c98f62380866d9432c2af0ee08ce16a171bda6951aecd95ee1307d61"}),
		shortOr(pathDigest{80, "5b6fb58e61fa475939767d68a446f97f1bff02c0e5935a3ea8bb51e6515783d8"}, pathDigest{320, "7b6436b0c98f62380866d9432c2af0ee08ce16a171bda6951aecd95ee1307d61"})).with72(
		shortOr(pathDigest{80, "5b6fb58e61fa475939767d68a446f97f1bff02c0e5935a3ea8bb51e6515783d8"}, pathDigest{320, "7b6436b0c98f62380866d9432c2af0ee08ce16a171bda6951aecd95ee1307d61"}),
		shortOr(pathDigest{80, "5b6fb58e61fa475939767d68a446f97f1bff02c0e5935a3ea8bb51e6515783d8"}, pathDigest{320, "7b6436b0c98f62380866d9432c2af0ee08ce16a171bda6951aecd95ee1307d61"}))
}

func digestSampler() pins {
	p := binary64Pins(shortOr(pathDigest{80000, "e65a134f2f8351a3942244360feccb4fc2af5382d4672563c4574b3624e8e96f"},
		pathDigest{800000, "ecb3c0a138d212642036362b98931cdec6d66e854e83ee4afe939fb464bf2aca"}),
		shortOr(pathDigest{80000, "ad6cc630b14965148f9a4598ecc81726e996256fbfd85481fc2f5bf17b8248d8"}, pathDigest{800000, "8510bfe3910c9cfd90058cce10bfa63ace738b4d26684bec0ebe892fc5922056"}),
		shortOr(pathDigest{80000, "ad6cc630b14965148f9a4598ecc81726e996256fbfd85481fc2f5bf17b8248d8"}, pathDigest{800000, "8510bfe3910c9cfd90058cce10bfa63ace738b4d26684bec0ebe892fc5922056"})).with72(
		shortOr(pathDigest{80000, "ad6cc630b14965148f9a4598ecc81726e996256fbfd85481fc2f5bf17b8248d8"}, pathDigest{800000, "8510bfe3910c9cfd90058cce10bfa63ace738b4d26684bec0ebe892fc5922056"}),
		shortOr(pathDigest{80000, "ad6cc630b14965148f9a4598ecc81726e996256fbfd85481fc2f5bf17b8248d8"}, pathDigest{800000, "8510bfe3910c9cfd90058cce10bfa63ace738b4d26684bec0ebe892fc5922056"}))
	// emu64's ExpmP63 is the reference's integer-only FPEMU routine, which
	// differs from the native one in its last bits: over random centres
	// some Bernoulli trials decide differently.
	p["emu64"] = shortOr(pathDigest{80000, "f323eef2ccb5585a18f861f7cc289478eb1df0753b3f2668feda875e1d4882bf"}, pathDigest{800000, "bf820ea10e945520a2c7d1ac5b983abdbfb2be037d639f953a5dbe951d1320ed"})
	return p
}

func digestFFT() pins {
	return binary64Pins(pathDigest{98208, "c4aba97481c24aa166b59fd277f24e9ed4b9c548dd0e7d0351abba47233eb8a4"},
		pathDigest{98208, "b643713ee655171b3b857a11c5854aec16dabca301c39d283b3aab380d4983bd"},
		pathDigest{98208, "8676755c7485df5590a70610465712eb98a3c912a2ca9e2ee29358e2e44ff07f"}).with72(
		pathDigest{98208, "01696e686fab31ddc0a81e202c8d655ecadf24ed3f8f10ffe4158fead106696d"},
		pathDigest{98208, "01696e686fab31ddc0a81e202c8d655ecadf24ed3f8f10ffe4158fead106696d"})
}

// TestGeneratedSignVectors signs all 120 padded signing vectors (n = 2 to
// 1024) on both paths, dynamic and expanded-key, and replays every
// attempt (rejected ones included) with its seed; the digests of the
// signatures and of all attempts (s1, s2, norm) must agree. (triword with
// -short: every 8th vector.)
func TestGeneratedSignVectors(t *testing.T) {
	vs := loadSignKAT(t)
	comparePaths(t, digestSignVectors(), func(t *testing.T, gi genInstance, b arith.Backend, h hash.Hash) {
		attempts := 0
		for _, v := range vs {
			if gi.short() && v.Index%8 != 0 {
				continue
			}
			sk := v.key()
			msg := []byte(v.Message)
			sig, err := Sign(b, sk, msg, Padded, bytes.NewReader(v.stream(t)))
			if err != nil {
				t.Fatalf("%s vector %d: %v", b.Name, v.Index, err)
			}
			h.Write(sig)
			ek, err := ExpandPrivateKey(b, sk)
			if err != nil {
				t.Fatal(err)
			}
			sig, err = ek.Sign(msg, Padded, bytes.NewReader(v.stream(t)))
			if err != nil {
				t.Fatalf("%s vector %d (expanded key): %v", b.Name, v.Index, err)
			}
			h.Write(sig)
			hm := HashToPoint(mustHex(t, v.Nonce), msg, v.LogN)
			for _, s := range v.PRNGSeeds {
				seed := mustHex(t, s)
				at, err := SignAttemptDyn(b, sk, hm, seed)
				if err != nil {
					t.Fatal(err)
				}
				writeAttempt(h, at)
				if at, err = ek.SignAttempt(hm, seed); err != nil {
					t.Fatal(err)
				}
				writeAttempt(h, at)
				attempts++
			}
		}
		if !gi.short() && attempts != 143 {
			t.Fatalf("%s: replayed %d attempts, want 143", b.Name, attempts)
		}
	})
}

// TestGeneratedExpandedKeys compares, bit for bit, the floating-point
// values of the expanded keys (basis in FFT form and normalised ffLDL
// tree) of the 120 signing vectors' keys. Signatures are integers rounded
// from these values and would hide most one-ulp differences; the tree
// does not.
func TestGeneratedExpandedKeys(t *testing.T) {
	vs := loadSignKAT(t)
	comparePaths(t, digestExpandedKeys(), func(t *testing.T, gi genInstance, b arith.Backend, h hash.Hash) {
		for _, v := range vs {
			if gi.short() && v.Index%4 != 0 {
				continue
			}
			ek, err := ExpandPrivateKey(b, v.key())
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ek.e.(expandedTester).expandedParts(ek.key) {
				if err := binary.Write(h, binary.LittleEndian, p); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// TestGeneratedKAT regenerates NIST KAT records (keys, then signed
// messages) on both paths: the first 2 records of each parameter set with
// -short, 20 of Falcon-512 and 10 of Falcon-1024 without. triword signs
// with keys generated on native.
func TestGeneratedKAT(t *testing.T) {
	counts := map[uint]int{9: 20, 10: 10}
	if testing.Short() {
		counts = map[uint]int{9: 2, 10: 2}
	}
	for _, logn := range []uint{9, 10} {
		t.Run(fmt.Sprint(1<<logn), func(t *testing.T) {
			comparePaths(t, digestKAT(logn), func(t *testing.T, gi genInstance, b arith.Backend, h hash.Hash) {
				kb := b
				if !gi.keygen {
					kb = mustBackend(t, "native")
				}
				for _, r := range katRecords(t, kb, b, logn, counts[logn]) {
					h.Write(r.PK)
					h.Write(r.SK)
					h.Write(r.SM)
				}
			})
		})
	}
}

// TestGeneratedKeygen generates keys of every degree 2..1024 (up to 256
// with -short) from several seeds on both paths. Small degrees reject most
// candidates in the floating-point stages (Gram-Schmidt bound, Babai
// reduction), so the rejection paths are compared too: the digest includes
// the number of random bytes each key consumed.
func TestGeneratedKeygen(t *testing.T) {
	maxLogn, seeds := uint(10), 3
	if testing.Short() {
		maxLogn, seeds = 8, 2
	}
	comparePaths(t, digestKeygen(), func(t *testing.T, gi genInstance, b arith.Backend, h hash.Hash) {
		if !gi.keygen {
			t.Skipf("%s does not generate keys", gi.backend)
		}
		for logn := uint(1); logn <= maxLogn; logn++ {
			for s := range seeds {
				sh := sha3.NewSHAKE256()
				fmt.Fprintf(sh, "native generated vs generic %d %d", logn, s)
				cr := &countingReader{r: sh}
				sk, pk, err := Keygen(b, logn, cr)
				if err != nil {
					t.Fatalf("%s logn %d: %v", b.Name, logn, err)
				}
				h.Write(sk.Encode())
				h.Write(pk.Encode())
				binary.Write(h, binary.LittleEndian, uint64(cr.n))
			}
		}
	})
}

// TestGeneratedSolveNTRU runs NTRUSolve alone on random (f, g), most of
// which it rejects, and compares (F, G, ok) on both paths.
func TestGeneratedSolveNTRU(t *testing.T) {
	trials := 40
	if testing.Short() {
		trials = 10
	}
	comparePaths(t, digestSolveNTRU(), func(t *testing.T, gi genInstance, b arith.Backend, h hash.Hash) {
		e, err := newEngine(b)
		if err != nil {
			t.Fatal(err)
		}
		rng := mrand.New(mrand.NewPCG(1, 2))
		for logn := uint(2); logn <= 9; logn++ {
			for range trials {
				n := 1 << logn
				f, g := make([]int8, n), make([]int8, n)
				for u := range n {
					f[u] = int8(rng.IntN(9) - 4)
					g[u] = int8(rng.IntN(9) - 4)
				}
				bigF, bigG, ok := e.solveNTRU(logn, f, g)
				binary.Write(h, binary.LittleEndian, ok)
				binary.Write(h, binary.LittleEndian, bigF)
				binary.Write(h, binary.LittleEndian, bigG)
			}
		}
	})
}

// TestGeneratedSampler draws from SamplerZ with random centres and
// deviations over the whole range signing uses, and compares the samples
// (and so the random bytes each consumed) on both paths.
func TestGeneratedSampler(t *testing.T) {
	count := 100000
	if testing.Short() {
		count = 10000
	}
	comparePaths(t, digestSampler(), func(t *testing.T, gi genInstance, b arith.Backend, h hash.Hash) {
		st := engineFor(t, b).(samplerTester)
		rng := mrand.New(mrand.NewPCG(3, 4))
		var seed [samplerprng.SeedSize]byte
		var p samplerprng.PRNG
		p.Init(&seed)
		for i := range count {
			logn := uint(9 + i%2)
			mu := (rng.Float64() - 0.5) * 4096
			isigma := 1 / (1.2 + 0.6*rng.Float64())
			binary.Write(h, binary.LittleEndian, st.samplerZ(&p, logn, mu, isigma, 0))
		}
	})
}

// TestGeneratedFFT compares the FFT-domain helpers on random real
// polynomials of every degree, bit for bit.
func TestGeneratedFFT(t *testing.T) {
	comparePaths(t, digestFFT(), func(t *testing.T, gi genInstance, b arith.Backend, h hash.Hash) {
		ft := engineFor(t, b).(fftTester)
		rng := mrand.New(mrand.NewPCG(5, 6))
		put := func(xs ...[]float64) {
			for _, x := range xs {
				for _, v := range x {
					binary.Write(h, binary.LittleEndian, math.Float64bits(v))
				}
			}
		}
		for logn := uint(1); logn <= 10; logn++ {
			n := 1 << logn
			x, y := make([]float64, n), make([]float64, n)
			for u := range n {
				x[u] = rng.NormFloat64() * 1e3
				y[u] = rng.NormFloat64()
			}
			put(ft.fftRoundTrip(x, logn), ft.fftProduct(x, y, logn), ft.fftAdj(x, logn))
			put(ft.fftSplitMerge(x, logn))
		}
	})
}

// BenchmarkGeneratedPaths measures each generated instance against the
// generic code over the same arithmetic: Falcon-512 and Falcon-1024
// signing on the dynamic and expanded-key paths, and Falcon-512 key
// generation (native and emu64 only: triword's key generation is not a
// configuration anyone measures). Sub-benchmark names carry
// backend=..., path=generated or path=generic, for benchstat -col /path.
func BenchmarkGeneratedPaths(b *testing.B) {
	keys := katKeys(b)
	msg := []byte("benchmark message")
	for _, gi := range genInstances[:3] {
		bs := gi.paths(b)
		for _, logn := range []uint{9, 10} {
			for _, mode := range []string{"dyn", "tree"} {
				for i, be := range bs {
					name := fmt.Sprintf("backend=%s/op=sign%d-%s/path=%s", gi.backend, 1<<logn, mode, [2]string{"generated", "generic"}[i])
					b.Run(name, func(b *testing.B) {
						sk := keys[logn]
						rng := seededRand(9)
						sign := func() error { _, err := Sign(be, sk, msg, Compressed, rng); return err }
						if mode == "tree" {
							ek, err := ExpandPrivateKey(be, sk)
							if err != nil {
								b.Fatal(err)
							}
							sign = func() error { _, err := ek.Sign(msg, Compressed, rng); return err }
						}
						for b.Loop() {
							if err := sign(); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			}
		}
		if gi.backend == "triword" {
			continue
		}
		for i, be := range bs {
			b.Run(fmt.Sprintf("backend=%s/op=keygen512/path=%s", gi.backend, [2]string{"generated", "generic"}[i]), func(b *testing.B) {
				n := 0
				for b.Loop() {
					sh := sha3.NewSHAKE256()
					fmt.Fprintf(sh, "bench %d", n)
					n++
					if _, _, err := Keygen(be, 9, sh); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
