package campaign

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
)

// TestSweepPoints: a shard measures the formats of its index modulo the
// shard count, references marked as such and formats with the rounding
// their names give; a second run over the same directory takes every
// finished format from it without measuring; a failing format is named.
func TestSweepPoints(t *testing.T) {
	bs := []arith.Backend{{Name: "native", Bits: 53}, {Name: "vprec:40", Bits: 40}, {Name: "vprec:41:e11:rz", Bits: 41, ExpBits: 11}, {Name: "vprec:42:e11:sr=3", Bits: 42, ExpBits: 11}}
	var measured []string
	sw := &Sweep{Backends: bs, References: 1, Dir: filepath.Join(t.TempDir(), "sweep"), Run: "abc", Version: "v1",
		Measure: func(_ context.Context, _ shadow.Config, b arith.Backend, dir string) (*shadow.Summary, error) {
			measured = append(measured, b.Name)
			if dir != "" && dir != FormatDir(filepath.Dir(dir), b.Name) {
				t.Errorf("%s measured in %s", b.Name, dir)
			}
			return &shadow.Summary{Backend: b.Name, Signatures: 3}, nil
		}}
	var heard []int
	sw.Measured = func(i int, pt *shadow.Point) { heard = append(heard, i) }
	pts, err := sw.Points(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"reference", "rn", "rz", "sr=3"}
	if len(pts) != 4 || strings.Join(measured, " ") != "native vprec:40 vprec:41:e11:rz vprec:42:e11:sr=3" || len(heard) != 4 {
		t.Fatalf("measured %v, heard %v, %d points", measured, heard, len(pts))
	}
	for i, pt := range pts {
		if pt.Rounding != want[i] || pt.Format != bs[i].Name || pt.Signatures != 3 {
			t.Errorf("point %d: %s %s %d", i, pt.Format, pt.Rounding, pt.Signatures)
		}
	}

	measured, heard = nil, nil
	again, err := sw.Points(context.Background())
	if err != nil || len(measured) != 0 || len(again) != 4 || again[2].Format != "vprec:41:e11:rz" {
		t.Errorf("rerun: measured %v, %d points, %v", measured, len(again), err)
	}

	shard := *sw
	shard.Dir, shard.ShardI, shard.ShardN = "", 1, 3
	measured = nil
	if pts, err := shard.Points(context.Background()); err != nil || len(pts) != 1 || strings.Join(measured, " ") != "vprec:40" {
		t.Errorf("shard 1/3: measured %v, %d points, %v", measured, len(pts), err)
	}

	fail := *sw
	fail.Dir = ""
	fail.Measure = func(context.Context, shadow.Config, arith.Backend, string) (*shadow.Summary, error) {
		return nil, errors.New("boom")
	}
	if _, err := fail.Points(context.Background()); err == nil || !strings.Contains(err.Error(), "format native: boom") {
		t.Errorf("failing format: %v", err)
	}
}
