package falcon

import (
	"reflect"
	"sync"

	"github.com/fprlab/fprlab/arith"
)

// Batched forms of the FFT-domain kernels, for arithmetics implementing
// arith.Vector (a plugin called through the C ABI, and the shadow's pair
// arithmetic over one): the generic hooks of fft_vec.go run them instead
// of the scalar loops of fft.go, so that a plugin receives one call per
// batch instead of one per value.
//
// Each kernel gathers the operands of its scalar loop into contiguous
// arrays, applies the element-wise operations one array at a time, and
// scatters the results to where the loop writes them. Every value is the
// same scalar operation on the same operands as in the loop (the
// contract of arith.Vector), so the results are bit for bit the loop's --
// TestBatchedKernels and the plugin's record tests check it; only the
// order in which values are computed differs. The twiddle factors and
// constants come from the arithmetic's tables (a.GM, a.Const) as in the
// loops; a negated twiddle is a NegN over the gathered twiddles, as the
// loop negates each one.
//
// The batched kernels are not copied by monogen (their only type
// parameter is the value type, and the hooks' copies for the bundled
// backends are stubs or hand-written), so the generated instances keep
// their loops untouched.

// vecArith is an arithmetic with batches.
type vecArith[F any] interface {
	arith.Arith[F]
	arith.Vector[F]
}

// batchPools holds, per value type (reflect.Type of F), a *sync.Pool of
// *[]F: the kernels' scratch, so that a batch allocates nothing in the
// steady state (the kernels run for every node of ffSampling).
var batchPools sync.Map

// batchScratch returns a scratch slice of n values and the pool to put it
// back in when the kernel is done with it.
func batchScratch[F any](n int) (*[]F, *sync.Pool) {
	t := reflect.TypeFor[F]()
	pv, ok := batchPools.Load(t)
	if !ok {
		pv, _ = batchPools.LoadOrStore(t, new(sync.Pool))
	}
	pool := pv.(*sync.Pool)
	s, _ := pool.Get().(*[]F)
	if s == nil {
		s = new([]F)
	}
	if cap(*s) < n {
		*s = make([]F, n)
	}
	*s = (*s)[:n]
	return s, pool
}

// cmulN is cmul element-wise: re[k], im[k] = cmul(xr[k], xi[k], yr[k],
// yi[k]) for k < len(re), in three batches (the four products in one).
// buf needs 8 len(re) values; re and im may be operands (every operand
// is read before a result is written) but not buf.
func cmulN[F any](a vecArith[F], re, im, xr, xi, yr, yi, buf []F) {
	m := len(re)
	l, r := buf[:4*m], buf[4*m:8*m]
	copy(l[0*m:], xr[:m])
	copy(l[1*m:], xi[:m])
	copy(l[2*m:], xr[:m])
	copy(l[3*m:], xi[:m])
	copy(r[0*m:], yr[:m])
	copy(r[1*m:], yi[:m])
	copy(r[2*m:], yi[:m])
	copy(r[3*m:], yr[:m])
	a.MulN(l, l, r)                     // xr*yr | xi*yi | xr*yi | xi*yr
	a.SubN(re[:m], l[:m], l[m:2*m])     // xr*yr - xi*yi
	a.AddN(im[:m], l[2*m:3*m], l[3*m:]) // xr*yi + xi*yr
}

// A layer of butterflies (of the FFT or its inverse) pairs f[j] with
// f[j+span] (and their imaginary parts f[j+hn], f[j+span+hn]) for j in
// groups [j1, j1+span), j1 = 0, step, 2 step, ... < hn; every group
// shares one twiddle. The layer's m = hn/2 butterflies are gathered into
// xs (the f[j]) and ys (the f[j+span]), real parts then imaginary parts,
// in the loops' order, and their results scattered back from lo and hi.

// gatherLayer fills xs and ys, and tw with each butterfly's twiddle
// (twr[g], twi[g] of its group g).
func gatherLayer[F any](f, xs, ys, tw, twr, twi []F, hn, step, span int) {
	m := hn >> 1
	k := 0
	for g, j1 := 0, 0; j1 < hn; g, j1 = g+1, j1+step {
		for j := j1; j < j1+span; j++ {
			xs[k], xs[m+k] = f[j], f[j+hn]
			ys[k], ys[m+k] = f[j+span], f[j+span+hn]
			tw[k], tw[m+k] = twr[g], twi[g]
			k++
		}
	}
}

// scatterLayer writes lo to the f[j] and hi to the f[j+span].
func scatterLayer[F any](f, lo, hi []F, hn, step, span int) {
	m := hn >> 1
	k := 0
	for j1 := 0; j1 < hn; j1 += step {
		for j := j1; j < j1+span; j++ {
			f[j], f[j+hn] = lo[k], lo[m+k]
			f[j+span], f[j+span+hn] = hi[k], hi[m+k]
			k++
		}
	}
}

// batchFFT is fft's loop, one layer at a time: the butterflies of a layer
// are independent, so each of its operations is one batch over the
// layer's hn/2 butterflies.
func batchFFT[F any](a vecArith[F], f []F, logn uint) {
	hn := 1 << logn >> 1
	m := hn >> 1 // butterflies per layer
	if m == 0 {
		return
	}
	sp, pool := batchScratch[F](20 * m)
	s := *sp
	xs, ys, tw, buf := s[:2*m], s[2*m:4*m], s[4*m:6*m], s[6*m:14*m]
	sum, dif, twr, twi := s[14*m:16*m], s[16*m:18*m], s[18*m:19*m], s[19*m:20*m]
	t := hn
	for u, mm := uint(1), 2; u < logn; u, mm = u+1, mm<<1 {
		hm := mm >> 1
		for i1 := range hm {
			twr[i1], twi[i1] = a.GM((mm+i1)<<1), a.GM(((mm+i1)<<1)+1)
		}
		gatherLayer(f, xs, ys, tw, twr, twi, hn, t, t>>1)
		cmulN(a, ys[:m], ys[m:], ys[:m], ys[m:], tw[:m], tw[m:], buf)
		a.AddN(sum, xs, ys)
		a.SubN(dif, xs, ys)
		scatterLayer(f, sum, dif, hn, t, t>>1)
		t >>= 1
	}
	pool.Put(sp)
}

// batchIFFT is ifft's loop, one layer at a time (each group's imaginary
// twiddle negated, as the loop negates it, in one batch), then the
// scaling by 2^(1-logn) as one batch.
func batchIFFT[F any](a vecArith[F], f []F, logn uint) {
	n := 1 << logn
	hn := n >> 1
	if m := hn >> 1; m > 0 {
		sp, pool := batchScratch[F](20 * m)
		s := *sp
		xs, ys, tw, buf := s[:2*m], s[2*m:4*m], s[4*m:6*m], s[6*m:14*m]
		sum, dif, twr, twi := s[14*m:16*m], s[16*m:18*m], s[18*m:19*m], s[19*m:20*m]
		t := 1
		for u, hm := logn, hn; u > 1; u, hm = u-1, hm>>1 {
			groups := hn / (t << 1)
			for i1 := range groups {
				twr[i1], twi[i1] = a.GM((hm+i1)<<1), a.GM(((hm+i1)<<1)+1)
			}
			a.NegN(twi[:groups], twi[:groups])
			gatherLayer(f, xs, ys, tw, twr, twi, hn, t<<1, t)
			a.AddN(sum, xs, ys)
			a.SubN(dif, xs, ys)
			cmulN(a, dif[:m], dif[m:], dif[:m], dif[m:], tw[:m], tw[m:], buf)
			scatterLayer(f, sum, dif, hn, t<<1, t)
			t <<= 1
		}
		pool.Put(sp)
	}
	if logn > 0 {
		batchMulconst(a, f[:n], a.Const(arith.P2(logn)))
	}
}

// int64s holds the integers of batchOf's conversions.
var int64s sync.Pool // *[]int64

// batchOf sets dst[u] = Of(x[u]) for the small integers x (the key's or
// the hashed message's coefficients) in one batch.
func batchOf[F any, I int8 | uint16](a vecArith[F], dst []F, x []I) {
	sp, _ := int64s.Get().(*[]int64)
	if sp == nil {
		sp = new([]int64)
	}
	if cap(*sp) < len(dst) {
		*sp = make([]int64, len(dst))
	}
	is := (*sp)[:len(dst)]
	for u := range is {
		is[u] = int64(x[u])
	}
	a.OfN(dst, is)
	int64s.Put(sp)
}

// batchMulconst sets x[u] = x[u] * c.
func batchMulconst[F any](a vecArith[F], x []F, c F) {
	sp, pool := batchScratch[F](len(x))
	cs := *sp
	for i := range cs {
		cs[i] = c
	}
	a.MulN(x, x, cs)
	pool.Put(sp)
}

// batchMulFFT sets x = x * y (FFT representation), negating y's imaginary
// parts first when adj is set (polyMuladjFFT).
func batchMulFFT[F any](a vecArith[F], x, y []F, logn uint, adj bool) {
	n := 1 << logn
	hn := n >> 1
	sp, pool := batchScratch[F](9 * hn)
	s := *sp
	yi := y[hn:n]
	if adj {
		yi = s[8*hn:]
		a.NegN(yi, y[hn:n])
	}
	cmulN(a, x[:hn], x[hn:n], x[:hn], x[hn:n], y[:hn], yi, s[:8*hn])
	pool.Put(sp)
}

// batchMulselfadjFFT is polyMulselfadjFFT: x[u] = x[u]^2 + x[u+hn]^2, the
// imaginary half zero.
func batchMulselfadjFFT[F any](a vecArith[F], x []F, logn uint) {
	n := 1 << logn
	hn := n >> 1
	sp, pool := batchScratch[F](n)
	sq := *sp
	a.SqrN(sq, x[:n])
	a.AddN(x[:hn], sq[:hn], sq[hn:])
	zero := a.Const(arith.Zero)
	for u := hn; u < n; u++ {
		x[u] = zero
	}
	pool.Put(sp)
}

// batchLDL is polyLDLmvFFT's loop of ldlStep (polyLDLFFT's with d11 = g11
// and l10 = g01): every operand is read into the scratch before a result
// is written, so the outputs may be the inputs, and g11 may be g00.
func batchLDL[F any](a vecArith[F], d11, l10, g00, g01, g11 []F, logn uint) {
	n := 1 << logn
	hn := n >> 1
	sp, pool := batchScratch[F](18 * hn)
	s := *sp
	sq, neg, y, mu, x, buf := s[:n], s[n:2*n], s[2*n:3*n], s[3*n:4*n], s[4*n:5*n], s[5*n:9*n]
	// cdiv(g01, g00): m = 1/(g00r^2 + g00i^2); y = (g00r m, -g00i m).
	a.SqrN(sq, g00[:n])
	a.AddN(sq[:hn], sq[:hn], sq[hn:])
	a.InvN(sq[:hn], sq[:hn])
	copy(neg[:hn], g00[hn:n])
	copy(neg[hn:], g01[hn:n])
	a.NegN(neg, neg) // -g00i | -g01i
	copy(y[:hn], g00[:hn])
	copy(y[hn:], neg[:hn])
	copy(sq[hn:], sq[:hn])
	a.MulN(y, y, sq)
	// mu = g01 * y; x = mu * adj(g01).
	cmulN(a, mu[:hn], mu[hn:], g01[:hn], g01[hn:n], y[:hn], y[hn:], buf)
	cmulN(a, x[:hn], x[hn:], mu[:hn], mu[hn:], g01[:hn], neg[hn:], buf)
	// d11 = g11 - x; l10 = adj(mu).
	a.SubN(d11[:n], g11[:n], x)
	copy(l10[:hn], mu[:hn])
	a.NegN(l10[hn:n], mu[hn:])
	pool.Put(sp)
}

// splitScratch returns the scratch of split and merge at degree 2hn:
// size values, the first hn of which hold the twiddles of the qn = hn/2
// pairs of roots (real parts, then imaginary parts), as their loops read
// them from the table.
func splitScratch[F any](a vecArith[F], hn, size int) (tw, rest []F, sp *[]F, pool *sync.Pool) {
	sp, pool = batchScratch[F](size)
	tw, rest = (*sp)[:hn], (*sp)[hn:]
	qn := hn >> 1
	for u := range qn {
		tw[u], tw[qn+u] = a.GM((u+hn)<<1), a.GM(((u+hn)<<1)+1)
	}
	return tw, rest, sp, pool
}

// batchSplitFFT is polySplitFFT's loop. The halvings of both outputs are
// one batch.
func batchSplitFFT[F any](a vecArith[F], f0, f1, f []F, logn uint) {
	hn := 1 << logn >> 1
	qn := hn >> 1
	f0[0], f1[0] = f[0], f[hn]
	if qn == 0 {
		return
	}
	tw, s, sp, pool := splitScratch(a, hn, 18*qn)
	as, bs, h, buf := s[:hn], s[hn:2*hn], s[2*hn:4*hn], s[4*hn:8*hn]
	for u := range qn {
		as[u], as[qn+u] = f[u<<1], f[(u<<1)+hn]
		bs[u], bs[qn+u] = f[(u<<1)+1], f[(u<<1)+1+hn]
	}
	sum, c := h[:hn], h[hn:]
	a.AddN(sum, as, bs)
	a.SubN(c, as, bs)
	a.NegN(tw[qn:], tw[qn:])
	cmulN(a, c[:qn], c[qn:], c[:qn], c[qn:], tw[:qn], tw[qn:], buf)
	a.HalfN(h, h)
	copy(f0[:hn], sum)
	copy(f1[:hn], c)
	pool.Put(sp)
}

// batchMergeFFT is polyMergeFFT's loop.
func batchMergeFFT[F any](a vecArith[F], f, f0, f1 []F, logn uint) {
	hn := 1 << logn >> 1
	qn := hn >> 1
	f[0], f[hn] = f0[0], f1[0]
	if qn == 0 {
		return
	}
	tw, s, sp, pool := splitScratch(a, hn, 16*qn)
	b, sum, dif, buf := s[:hn], s[hn:2*hn], s[2*hn:3*hn], s[3*hn:7*hn]
	cmulN(a, b[:qn], b[qn:], f1[:qn], f1[qn:hn], tw[:qn], tw[qn:], buf)
	a.AddN(sum, f0[:hn], b)
	a.SubN(dif, f0[:hn], b)
	for u := range qn {
		f[u<<1], f[(u<<1)+hn] = sum[u], sum[qn+u]
		f[(u<<1)+1], f[(u<<1)+1+hn] = dif[u], dif[qn+u]
	}
	pool.Put(sp)
}
