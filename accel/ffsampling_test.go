package accel

import (
	"context"
	"strings"
	"testing"
)

// TestFFSamplingText prints accel ffsampling on Falcon-512 record 0, one
// signature (one attempt with this seed): the three checks true, and the
// Falcon tree's figures by hand -- 9 frames deep (log2 512), 8 words a
// frame (72 words), a workspace of 9n = 4,608 words (4,680 in all),
// 6(n-1) + 2n = 4,090 transitions and 512 leaves. A result whose record
// differs prints false in its line.
func TestFFSamplingText(t *testing.T) {
	res, err := CompareFFSampling(context.Background(), 9, 0, 1, "fprlab accel ffsampling")
	if err != nil {
		t.Fatal(err)
	}
	text := writeText(t, func(b *strings.Builder) error { return res.WriteText(b) })
	wantText(t, text, "Falcon-512, key and message of NIST KAT record 0, 1 signatures (emu64)",
		"KAT record with the state machine = published:   true\n",
		"signatures equal to the recursive ffSampling's:  true\n",
		"every result and sampler output equal:           true\n",
		"  state machine: "+res.Digest.String()+"\n",
		"maximum stack depth (frames):                    9\n",
		"stack at the peak (8 words per frame):           72 words\n",
		"(t0, t1, Gram matrix, scratch: 9n):    4608 floating-point words\n",
		"memory held at the deepest point:                4680 words\n",
		"state transitions per signature:                 4090.0 (1.00 attempts, 512 leaves)\n")
	res.KATMatch = false
	text = writeText(t, func(b *strings.Builder) error { return res.WriteText(b) })
	wantText(t, text, "KAT record with the state machine = published:   false\n")
}
