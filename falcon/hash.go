package falcon

import "crypto/sha3"

// Hashing a message to a point of Z_q[X]/(X^n + 1) (Falcon spec v1.2,
// Algorithm 3, HashToPoint). SHAKE256(nonce || message) is read as 16-bit
// big-endian words; a word w below 5q = 61445 yields the coefficient
// w mod q, larger words are skipped so every residue is equally likely.

// hashRejectBound is 5q, the largest multiple of q that fits 16 bits.
const hashRejectBound = 5 * Q

// HashToPoint returns the n = 2^logn coefficients (in 0..q-1) of the point
// SHAKE256(nonce || msg) hashes to. Its running time depends on how many
// words are rejected, which reveals nothing to whoever knows the nonce and
// message; hashToPointCT gives the same result in time independent of the
// data. It returns nil if logn is outside 1..10.
func HashToPoint(nonce, msg []byte, logn uint) []uint16 {
	p, err := ParamsFor(logn)
	if err != nil {
		return nil
	}
	x := make([]uint16, p.N)
	hashToPointInto(x, nonce, msg)
	return x
}

// hashToPointInto is HashToPoint into x (n = len(x) coefficients, n a
// power of two up to 1024); it does not allocate.
func hashToPointInto(x []uint16, nonce, msg []byte) {
	var h sha3.SHAKE
	absorbNonceMsg(&h, nonce, msg)
	hashToPointFrom(&h, x)
}

// absorbNonceMsg absorbs nonce || msg into h, a zero sha3.SHAKE (which is
// SHAKE256): the state both hash-to-point variants squeeze.
func absorbNonceMsg(h *sha3.SHAKE, nonce, msg []byte) {
	h.Write(nonce)
	h.Write(msg)
}

// hashToPointFrom squeezes len(x) coefficients from an absorbed SHAKE256
// into x.
func hashToPointFrom(h *sha3.SHAKE, x []uint16) {
	if len(x) == 0 {
		return
	}
	var buf [128]byte
	k := 0
	for {
		h.Read(buf[:])
		for i := 0; i < len(buf); i += 2 {
			w := uint32(buf[i])<<8 | uint32(buf[i+1])
			if w < hashRejectBound {
				x[k] = uint16(w % Q)
				k++
				if k == len(x) {
					return
				}
			}
		}
	}
}

// hashOversample[logn] is how many 16-bit words beyond n the constant-time
// variant squeezes: with each word accepted with probability
// 61445/65536 ~ 0.9376, n + hashOversample[logn] words contain n accepted
// ones except with probability below 2^-256 (the reference's table).
var hashOversample = [11]int{0, 65, 67, 71, 77, 86, 100, 122, 154, 205, 287}

// hashToPointCT computes HashToPoint(nonce, msg, logn) with a memory access
// pattern and branch sequence that depend only on logn. It squeezes a fixed
// number m = n + hashOversample[logn] of words, replaces the rejected ones
// by the marker 0xFFFF, and then moves the accepted ones down to the front
// in about log2(over) passes: pass p (p = 1, 2, 4, ...) moves every accepted
// value down by p slots when bit p of its remaining distance to its final
// position is set. The slot it moves into then holds a marker, so after the
// last pass the accepted values sit in order at the front. Every step is a
// masked swap.
func hashToPointCT(nonce, msg []byte, logn uint) []uint16 {
	p, err := ParamsFor(logn)
	if err != nil {
		return nil
	}
	x := make([]uint16, p.N)
	hashToPointCTInto(x, nonce, msg, logn)
	return x
}

// hashToPointCTInto is hashToPointCT into x (len(x) = 2^logn, logn in
// 1..10); it does not allocate.
func hashToPointCTInto(x []uint16, nonce, msg []byte, logn uint) {
	const maxWords = 1024 + 287 // n + hashOversample[10]
	var buf [2 * maxWords]byte
	var words [maxWords]uint16
	m := len(x) + hashOversample[logn]
	var h sha3.SHAKE
	absorbNonceMsg(&h, nonce, msg)
	h.Read(buf[:2*m])
	copy(x, ctSelectPointInto(words[:m], buf[:2*m], len(x)))
}

// ctSelectPoint is the data-independent selection of hashToPointCT: buf
// holds m = len(buf)/2 big-endian 16-bit words, of which the first n below
// 5q are reduced mod q and returned. If fewer than n words are below 5q the
// tail of the result holds markers (0xFFFF); with the oversampling of
// hashOversample that happens with probability below 2^-256.
func ctSelectPoint(buf []byte, n int) []uint16 {
	return ctSelectPointInto(make([]uint16, len(buf)/2), buf, n)
}

// ctSelectPointInto is ctSelectPoint with x (len(buf)/2 values) as its
// work space; it returns x[:n].
func ctSelectPointInto(x []uint16, buf []byte, n int) []uint16 {
	m := len(x)
	for i := range x {
		w := uint32(buf[2*i])<<8 | uint32(buf[2*i+1])
		// w mod q for w < 5q by three conditional subtractions
		// (2q, 2q, q), each selected by the sign of a difference.
		r := w
		r -= 2 * Q & ctGE(r, 2*Q)
		r -= 2 * Q & ctGE(r, 2*Q)
		r -= Q & ctGE(r, Q)
		// Rejected words become 0xFFFF (top bit set: the marker).
		r |= ctGE(w, hashRejectBound)
		x[i] = uint16(r)
	}
	for p := 1; p <= m-n; p <<= 1 {
		v := 0 // final position of the next accepted value
		for u := 0; u < m; u++ {
			sv := uint32(x[u])
			j := u - v
			// valid is all ones when x[u] is an accepted value.
			valid := sv>>15 - 1
			v += int(valid & 1)
			if u < p {
				continue
			}
			dv := uint32(x[u-p])
			// Swap when x[u] is valid and bit p of its jump is set.
			mask := valid & -(uint32(j&p) >> ctLog2(p))
			d := mask & (sv ^ dv)
			x[u] = uint16(sv ^ d)
			x[u-p] = uint16(dv ^ d)
		}
	}
	return x[:n:n]
}

// ctGE returns all ones if x >= y and zero otherwise, for x, y < 2^31,
// without a branch.
func ctGE(x, y uint32) uint32 { return ((x - y) >> 31) - 1 }

// ctLog2 returns log2(p) for a power of two p (p is public: the pass index).
func ctLog2(p int) uint {
	k := uint(0)
	for p > 1 {
		p >>= 1
		k++
	}
	return k
}
