package report

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/analysis/results"
)

// FuzzDocuments feeds arbitrary bytes as one document (compare, sweep in
// both its shapes, arith errors or tune JSON) and a manifest through the
// reader, every figure, the report and the diff of the campaign with
// itself: each must return an error or a result, without
// a panic and within a bounded time (a crafted histogram once made the
// figures lay out ticks forever). CI runs it for a bounded time
// (.ci/run); the seeds are the documents of the test data.
func FuzzDocuments(f *testing.F) {
	manifest, err := os.ReadFile(filepath.Join(campaignDir, results.ManifestName))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range []string{
		filepath.Join(campaignDir, "compare-512.json"),
		filepath.Join(campaignDir, "sweep-512.json"),
		"../results/testdata/real/compare-512.json",
		"../results/testdata/real/arith-errors.json",
		"../plot/testdata/tune-result.json",
	} {
		b, err := readMaybeGzip(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, manifest)
		f.Add(b, []byte(nil))
	}
	// The sweep document ({"formats", "pstar"}) around the example's
	// points.
	sweep, err := os.ReadFile(filepath.Join(campaignDir, "sweep-512.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`{"formats": `+string(sweep)+`, "pstar": [{"curve": "Falcon-512 rn e11", "criterion": "worst", "bits": 64, "known": true, "min_bits": 24, "max_bits": 64}]}`), manifest)
	f.Add([]byte(`{"formats": [], "pstar": [], "shard": "0/2"}`), []byte(nil))
	f.Add([]byte(`[{"backend":"x","per_leaf":{"sum":{"histogram":[{"log2":1e308,"count":1},{"log2":-1e308,"count":1}]}}}]`), []byte(nil))
	f.Add([]byte(`[{"format":"vprec:9","bits":9,"per_leaf":{"sum":{"median_log2":-1e300}}}]`), []byte(nil))
	f.Fuzz(func(t *testing.T, doc, manifest []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "doc.json"), doc, 0o644); err != nil {
			t.Fatal(err)
		}
		if len(manifest) > 0 {
			if err := os.WriteFile(filepath.Join(dir, results.ManifestName), manifest, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		finished := make(chan struct{})
		go func() {
			defer close(finished)
			c, err := results.Read(dir)
			if err != nil {
				return
			}
			// The expm figure measures, it reads nothing: one backend on
			// a small grid keeps each input quick.
			po := plot.Options{ExpmBackends: []string{"native"}, ExpmPoints: 2}
			for _, k := range plot.Kinds {
				if k.Kind == plot.KindExpm {
					continue
				}
				if fig, err := plot.Draw(k.Kind, c, po); err == nil {
					if _, err := fig.Bytes("svg"); err != nil {
						t.Errorf("%s: drawn, but not written: %v", k.Kind, err)
					}
				}
			}
			_, _ = Build(c, Options{Plot: po})
			_, _ = Build(c, Options{Plot: po, Baseline: c})
		}()
		select {
		case <-finished:
		case <-time.After(20 * time.Second):
			t.Fatalf("reading, plotting and reporting the document took over 20 s:\n%q", doc)
		}
	})
}

func readMaybeGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if filepath.Ext(path) != ".gz" {
		return io.ReadAll(f)
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}
