package shadow

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"math"
	"math/big"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/triword"
	"github.com/fprlab/fprlab/falcon"
)

// TestPinnedRecords pins the records of small campaigns bit for bit: the
// SHA-256 of their JSON (timings zeroed), which holds every histogram bin,
// extreme, decision count, flip and margin. The digests were computed
// before the shadow's arithmetic, events and histograms were made faster;
// any change of a measured number fails here.
func TestPinnedRecords(t *testing.T) {
	cases := []struct {
		backend string
		cfg     Config
		short   bool
		want    string
	}{
		// Shadowed key generation (native generates its keys) and 24
		// signatures over two keys.
		{"native", Config{LogN: 9, Signatures: 24, Keys: 2, Shadow: ShadowDD}, false, "544d9ec0c952da11426558108a8b884a12e6c1fd17217e51667841b605d4b8c5"},
		{"native", Config{LogN: 8, Signatures: 6, Keys: 1, Shadow: ShadowDD}, true, "3c8802e1c5e91b70a4ba5f67ae9870d3936f73305a08f1521d8bd0463ecef390"},
		{"native", Config{LogN: 10, Signatures: 4, Keys: 1, Shadow: ShadowDD}, false, "143f40696726d462fab15d217c80070485fc9e5946d2da21ba6b1c44d062b44f"},
		{"triword-b64const", Config{LogN: 9, Signatures: 8, Keys: 1, Shadow: ShadowDD}, false, "0a0728ffae48d1d65dab2ce29dc93af21fbbc28df8bafb7a161e000d6d52ad0f"},
		{"triword-b64const", Config{LogN: 8, Signatures: 3, Keys: 1, Shadow: ShadowDD}, true, "4bfcf9785a50ca6a8fa526e38cd9704f246a31f8f0b26895c5d009c431cdcea7"},
		{"triword-b64const", Config{LogN: 10, Signatures: 2, Keys: 1, Shadow: ShadowDD}, false, "204a67dfe36aa1e41938e2cf7dcc0a30e79ba4896d0961eddec6e39c12109c62"},
		{"native", Config{LogN: 9, Signatures: 2, Keys: 1, Shadow: ShadowOracle, Sigma: SigmaReference}, false, "bb9f0ce7dbeab5d49f735d5f284c42186b0c3e4350a6ef76cfd1a534e8c0fc64"},
		{"triword-b64const", Config{LogN: 8, Signatures: 1, Keys: 1, Shadow: ShadowOracle}, false, "e48079e84323e55b7f209756275de6c1ca9574f035b8348216ce99d44180b316"},
		{"emu64", Config{LogN: 8, Signatures: 4, Keys: 1, Shadow: ShadowDD}, true, "c8194de091a6d5257b3a217c54d3d306e85c3d14eb8d9b7a299ef859eb582453"},
		{"vprec:80", Config{LogN: 8, Signatures: 2, Keys: 1, Shadow: ShadowDD}, true, "016a5e520bfa3803a7c8cfd564d9b15c8b043ce38bb3c2c539cf67400f3ba16a"},
	}
	for _, c := range cases {
		cfg := c.cfg
		cfg.Seed, cfg.OracleBits, cfg.Workers = "pinned", 256, 2
		if cfg.Sigma == "" {
			cfg.Sigma = SigmaFormula
		}
		name := fmt.Sprintf("%s/%s/logn%d/%d", c.backend, cfg.Shadow, cfg.LogN, cfg.Signatures)
		if testing.Short() && !c.short {
			continue
		}
		recs := run(t, lookup(t, c.backend), cfg)
		sum := sha256.Sum256(recordsJSON(t, recs))
		if got := hex.EncodeToString(sum[:]); got != c.want {
			t.Errorf("%s: records digest %s, pinned %s", name, got, c.want)
		}
	}
}

// TestPinnedSamplerValues pins, bit for bit, what the shadow sees at every
// event of shadowed signatures: at each sampler call the centre and the
// inverse standard deviation on both sides (backend and exact) with the
// call's delta_c and delta_sigma, and at each stage event every pair value
// with its absolute and relative error. The digests were computed before
// the shadow was made faster.
func TestPinnedSamplerValues(t *testing.T) {
	cases := []struct {
		backend string
		logn    uint
		sigs    int
		short   bool
		want    string
	}{
		{"native", 9, 12, false, "998303adf832f881d8c1e7fde0e7bd6b81438836edeaa06f36d3b1c26eca5dd3"},
		{"native", 8, 4, true, "724020c746a49f9a5f26eee5357e625046955b967f888d1864cf20d44e5c4f2f"},
		{"native", 10, 2, false, "e07bc50867b5045d3b03bfb303e6f2c3673497be09093a77a1992511fa2eb7c1"},
		{"triword-b64const", 9, 4, false, "2b6df4689d67df74cf6ad71ca933f1adefafc0b74adbd377fa0c1ec70226120a"},
		{"triword-b64const", 8, 2, true, "8f4ca81db974ca7194f55d006f69d94b0fd447c060de3d37c0b3e45e2915364d"},
		{"triword-b64const", 10, 1, false, "e0913bd7b589ce78e5c691ffd97234d229e105b02d10a1e76e0e5905c09b695d"},
	}
	for _, c := range cases {
		if testing.Short() && !c.short {
			continue
		}
		cfg := Config{LogN: c.logn, Signatures: c.sigs, Keys: 1, Seed: "pinned", OracleBits: 256, Sigma: SigmaFormula, Shadow: ShadowDD}
		r, err := newRunner(lookup(t, c.backend), &cfg)
		if err != nil {
			t.Fatal(err)
		}
		sk, _, err := falcon.Keygen(lookup(t, "emu64"), c.logn, derive("key", cfg.Seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for j := range c.sigs {
			msg, rng := Message(cfg.Seed, j), derive("signature", cfg.Seed, j)
			switch r := r.(type) {
			case *pairRunner[float64, ddouble.DD, native.Arith, ddouble.Arith]:
				err = tapSign(r, h, sk, msg, rng, j)
			case *pairRunner[triword.TW, ddouble.DD, arith.Arith[triword.TW], ddouble.Arith]:
				err = tapSign(r, h, sk, msg, rng, j)
			default:
				t.Fatalf("%s: runner %T not covered", c.backend, r)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != c.want {
			t.Errorf("%s logn %d, %d signatures: digest %s, pinned %s", c.backend, c.logn, c.sigs, got, c.want)
		}
	}
}

// tapSign signs msg shadowed by r, with the observer wrapped so that every
// sampler call's and stage's values go into h, then the record's JSON.
func tapSign[F, X any, A arith.Arith[F], AX Exact[X]](r *pairRunner[F, X, A, AX], h hash.Hash, sk *falcon.PrivateKey, msg []byte, rng interface{ Read([]byte) (int, error) }, j int) error {
	p := r.pair()
	o := newObserver(p, "signature", j, 0)
	tap := &tapObserver[F, X, A, AX]{observer: o, h: h}
	if _, err := falcon.Sign(r.inst(r.b, p, tap), sk, msg, falcon.Compressed, rng); err != nil {
		return err
	}
	rec := o.finish()
	rec.Seconds = 0
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	h.Write(b)
	return nil
}

// tapObserver hashes the values of the events it passes on to observer.
type tapObserver[F, X any, A arith.Arith[F], AX Exact[X]] struct {
	*observer[F, X, A, AX]
	h hash.Hash
}

func (o *tapObserver[F, X, A, AX]) Sample(mu, isigma Pair[F, X], z int64, rejections int) {
	o.pair(mu)
	o.pair(isigma)
	dc, _ := o.p.errs(mu)
	_, ds := o.p.errs(isigma)
	o.f64(dc, ds, float64(z), float64(rejections))
	o.observer.Sample(mu, isigma, z, rejections)
}

func (o *tapObserver[F, X, A, AX]) Stage(st falcon.Stage, level, iter int, values ...[]Pair[F, X]) {
	o.f64(float64(st), float64(level), float64(iter))
	for _, vs := range values {
		for _, v := range vs {
			o.pair(v)
			abs, rel := o.p.errs(v)
			o.f64(abs, rel)
		}
	}
	o.observer.Stage(st, level, iter, values...)
}

func (o *tapObserver[F, X, A, AX]) pair(v Pair[F, X]) {
	o.value(v.B)
	o.value(v.X)
}

func (o *tapObserver[F, X, A, AX]) f64(vs ...float64) {
	var b [8]byte
	for _, v := range vs {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		o.h.Write(b[:])
	}
}

// value hashes the bits of one value of either side.
func (o *tapObserver[F, X, A, AX]) value(v any) {
	switch v := v.(type) {
	case float64:
		o.f64(v)
	case ddouble.DD:
		o.f64(v.Hi, v.Lo)
	case triword.TW:
		o.f64(float64(v.Hi), float64(v.Mid), float64(v.Lo))
	case *big.Float:
		fmt.Fprintf(o.h, "%s/%d;", v.Text('p', 0), v.Prec())
	default:
		panic(fmt.Sprintf("value of type %T", v))
	}
}
