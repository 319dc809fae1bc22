package shakeprng

import (
	"crypto/sha3"
	"encoding/binary"
	"testing"
)

// TestStream checks that mixed reads of every width, across many buffer
// boundaries, return consecutive bytes of the SHAKE256 stream.
func TestStream(t *testing.T) {
	seed := []byte("shakeprng stream test")
	want := make([]byte, 5000)
	h := sha3.NewSHAKE256()
	h.Write(seed)
	h.Read(want)

	p := New(seed)
	pos := 0
	for k := 0; pos+8 <= len(want); k++ {
		switch k % 5 {
		case 0, 3:
			if got, w := p.U64(), binary.LittleEndian.Uint64(want[pos:]); got != w {
				t.Fatalf("U64 at byte %d: %#x, want %#x", pos, got, w)
			}
			pos += 8
		case 1:
			if got, w := p.U16(), binary.LittleEndian.Uint16(want[pos:]); got != w {
				t.Fatalf("U16 at byte %d: %#x, want %#x", pos, got, w)
			}
			pos += 2
		default:
			if got := p.U8(); got != uint32(want[pos]) {
				t.Fatalf("U8 at byte %d: %#x, want %#x", pos, got, want[pos])
			}
			pos++
		}
	}
	p.Reset(seed)
	if got := p.U8(); got != uint32(want[0]) {
		t.Fatalf("after Reset: %#x, want %#x", got, want[0])
	}
}
