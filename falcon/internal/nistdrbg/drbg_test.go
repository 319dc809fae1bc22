package nistdrbg

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// kitSeed returns the entropy input of the NIST KAT generator: bytes 0..47.
func kitSeed() *[SeedSize]byte {
	var s [SeedSize]byte
	for i := range s {
		s[i] = byte(i)
	}
	return &s
}

// TestFirstSeeds checks the first two record seeds of every NIST PQC KAT
// request file (they do not depend on the scheme).
func TestFirstSeeds(t *testing.T) {
	d := New(kitSeed())
	want := []string{
		"061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1",
		"64335BF29E5DE62842C941766BA129B0643B5E7121CA26CFC190EC7DC3543830557FDD5C03CF123A456D48EFEA43C868",
	}
	for i, w := range want {
		seed := make([]byte, 48)
		d.Generate(seed)
		if got := strings.ToUpper(hex.EncodeToString(seed)); got != w {
			t.Fatalf("seed %d = %s, want %s", i, got, w)
		}
		d.Generate(make([]byte, 33*(i+1))) // the record's message
	}
}

// TestRequestFile regenerates the whole 100-record request file of the
// round-3 Falcon KAT (the same for Falcon-512 and Falcon-1024) and compares
// its SHA-256 with the published file's.
func TestRequestFile(t *testing.T) {
	const wantSHA = "81ff60e3ef698751e5572f0bb7f831f069605229c220ee1cf27a92572d6ebc7e"
	d := New(kitSeed())
	var buf bytes.Buffer
	for i := range 100 {
		seed := make([]byte, 48)
		d.Generate(seed)
		msg := make([]byte, 33*(i+1))
		d.Generate(msg)
		fmt.Fprintf(&buf, "count = %d\nseed = %X\nmlen = %d\nmsg = %X\npk =\nsk =\nsmlen =\nsm =\n\n", i, seed, len(msg), msg)
	}
	sum := sha256.Sum256(buf.Bytes())
	if got := hex.EncodeToString(sum[:]); got != wantSHA {
		t.Fatalf("request file SHA-256 %s, want %s (%d bytes)", got, wantSHA, buf.Len())
	}
}

// TestSplitMatters documents that requests are not a byte stream: one
// 32-byte request differs from two 16-byte requests after the first block.
func TestSplitMatters(t *testing.T) {
	a, b := New(kitSeed()), New(kitSeed())
	x := make([]byte, 32)
	a.Generate(x)
	y := make([]byte, 32)
	b.Generate(y[:16])
	b.Generate(y[16:])
	if !bytes.Equal(x[:16], y[:16]) || bytes.Equal(x[16:], y[16:]) {
		t.Fatal("split requests should share the first block only")
	}
}
