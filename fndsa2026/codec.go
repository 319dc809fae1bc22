package fndsa2026

// The draft's encodings all pack values least-significant bit first: the
// first value's lowest bit is the lowest bit of the first byte.

// bitWriter appends bits, least significant first, to a fixed buffer.
type bitWriter struct {
	buf []byte
	pos int // next bit
}

// put writes the low n bits of v (n <= 32); it reports false when they
// do not fit in the buffer.
func (w *bitWriter) put(v uint32, n int) bool {
	if w.pos+n > 8*len(w.buf) {
		return false
	}
	for i := range n {
		if v>>i&1 != 0 {
			w.buf[w.pos>>3] |= 1 << (w.pos & 7)
		}
		w.pos++
	}
	return true
}

// bitReader reads bits, least significant first.
type bitReader struct {
	buf []byte
	pos int
}

// bit returns the next bit, or ok = false past the end.
func (r *bitReader) bit() (b uint32, ok bool) {
	if r.pos >= 8*len(r.buf) {
		return 0, false
	}
	b = uint32(r.buf[r.pos>>3]>>(r.pos&7)) & 1
	r.pos++
	return b, true
}

// bits returns the next n bits as an unsigned value.
func (r *bitReader) bits(n int) (v uint32, ok bool) {
	for i := range n {
		b, ok := r.bit()
		if !ok {
			return 0, false
		}
		v |= b << i
	}
	return v, true
}

// restZero reports whether every bit from the reader's position on is 0.
func (r *bitReader) restZero() bool {
	for {
		b, ok := r.bit()
		if !ok {
			return true
		}
		if b != 0 {
			return false
		}
	}
}

// encodeSmall packs the coefficients of f in two's complement on nbits
// bits each; every coefficient must lie in [-(2^(nbits-1)-1), 2^(nbits-1)-1].
func encodeSmall(f []int8, nbits int) []byte {
	w := bitWriter{buf: make([]byte, len(f)*nbits/8)}
	for _, x := range f {
		w.put(uint32(int32(x)), nbits)
	}
	return w.buf
}

// decodeSmall reads n coefficients of nbits bits each from the start of
// b; it returns them and the bytes read, or ok = false when b is short or
// a coefficient is -2^(nbits-1) (which no key holds).
func decodeSmall(b []byte, n, nbits int) (f []int8, used int, ok bool) {
	used = n * nbits / 8
	if len(b) < used {
		return nil, 0, false
	}
	r := bitReader{buf: b[:used]}
	f = make([]int8, n)
	for i := range f {
		v, _ := r.bits(nbits)
		x := int32(v<<(32-nbits)) >> (32 - nbits)
		if x == -1<<(nbits-1) {
			return nil, 0, false
		}
		f[i] = int8(x)
	}
	return f, used, true
}

// encodeModQ packs values in [0, q) on 14 bits each.
func encodeModQ(h []uint16) []byte {
	w := bitWriter{buf: make([]byte, len(h)*14/8)}
	for _, x := range h {
		w.put(uint32(x), 14)
	}
	return w.buf
}

// decodeModQ reads len(b)*8/14 values of 14 bits; b must be exactly n
// values long and every value below q.
func decodeModQ(b []byte, n int) ([]uint16, bool) {
	if len(b) != n*14/8 {
		return nil, false
	}
	r := bitReader{buf: b}
	h := make([]uint16, n)
	for i := range h {
		v, _ := r.bits(14)
		if v >= q {
			return nil, false
		}
		h[i] = uint16(v)
	}
	return h, true
}

// encodeS2 writes the compressed s into buf, zero-padded: per
// coefficient a sign bit, the seven low bits of |x|, then |x| >> 7 zero
// bits and a one. It reports false when a coefficient exceeds BInf in
// absolute value or the encoding does not fit.
func encodeS2(s []int16, buf []byte) bool {
	clear(buf)
	w := bitWriter{buf: buf}
	for _, x := range s {
		sign, m := uint32(0), int32(x)
		if m < 0 {
			sign, m = 1, -m
		}
		if m > BInf {
			return false
		}
		if !w.put(sign|uint32(m&0x7F)<<1, 8) || !w.put(1<<(m>>7), int(m>>7)+1) {
			return false
		}
	}
	return true
}

// decodeS2 reads n compressed coefficients from b. The encoding must be
// canonical: no magnitude above BInf, no negative zero, and every bit
// after the last coefficient zero.
func decodeS2(b []byte, n int) ([]int16, bool) {
	r := bitReader{buf: b}
	s := make([]int16, n)
	for i := range s {
		v, ok := r.bits(8)
		if !ok {
			return nil, false
		}
		sign, m := v&1, v>>1
		for hi := uint32(0); ; hi++ {
			bit, ok := r.bit()
			if !ok {
				return nil, false
			}
			if bit == 1 {
				m += hi << 7
				break
			}
			if m+(hi+1)<<7 > BInf {
				return nil, false
			}
		}
		if m > BInf || (sign == 1 && m == 0) {
			return nil, false
		}
		s[i] = int16(m)
		if sign == 1 {
			s[i] = -s[i]
		}
	}
	return s, r.restZero()
}
