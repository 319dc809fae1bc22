package falcon

import "github.com/fprlab/fprlab/arith"

// ffSampling with the LDL tree batched level by level, for arithmetics
// with batches (arith.Vector: a plugin called through the C ABI, and the
// shadow's pair over one).
//
// ffSamplingDyn decomposes each node's Gram matrix (polyLDLFFT) and
// splits d00 and d11 into its children's matrices (ffsBeforeRight) on its
// way down the tree. That work depends on the key only, not on the
// samples, and at the lower levels a node holds one to four values: over
// a plugin, the tree's 511 inner nodes (Falcon-512) cost about a dozen
// calls each for a handful of values. Here it is done first, one level at
// a time for all the level's nodes together -- the LDL step is pointwise
// in the FFT domain, so the level's nodes are one long polynomial to it,
// and the splits of all the level's matrices are one batch per operation
// -- and the recursion then samples with the stored results. Every value
// is the same operation on the same operands as in ffSamplingDyn, and
// the observer sees the same events in the same order with the same
// values (the LDL stage's l10 and d11 are kept for it), so signatures and
// shadow records are ffSamplingDyn's bit for bit: only the order in which
// the key-dependent values are computed differs, which arith.Vector's
// contract allows. FN-DSA's self-adjoint LDL and splits have no batches
// and keep ffSamplingDyn.

// vecFFSampling runs ffSamplingLevels when a has batches and the scheme
// is round 3's, and reports whether it did. A hook like those of
// fft_vec.go: the monogen instances' copies are stubs.
func vecFFSampling[F any, A arith.Arith[F]](a A, s *sampler[F, A], t0, t1, g00, g01, g11 []F, logn uint, tmp []F) bool {
	v, ok := any(a).(vecArith[F])
	if !ok || s.fips206 || logn == 0 {
		return false
	}
	ffSamplingLevels(a, v, s, t0, t1, g00, g01, g11, logn, tmp)
	return true
}

// ffsLevels is the LDL tree of one signature: per level L (1..logn) the
// l10 and d11 of its 2^(logn-L) nodes, node i at [i 2^L, (i+1) 2^L), and
// the leaves' g00.
type ffsLevels[F any] struct {
	l10, d11 [][]F // indexed by L
	leaf     []F
	// run, when the arithmetic runs programs, runs the small nodes' steps
	// as traced programs (ffsampling_trace.go) through trace's scratch.
	run      arith.Runner[F]
	trace    traceScratch[F]
	leafRegs [4]F
	v        vecArith[F]
}

// ffSamplingLevels is ffSamplingDyn over the batched LDL tree (see above);
// g00, g01 and g11 are read, not consumed.
func ffSamplingLevels[F any, A arith.Arith[F]](a A, v vecArith[F], s *sampler[F, A], t0, t1, g00, g01, g11 []F, logn uint, tmp []F) {
	n := 1 << logn
	// Scratch: l10 and d11 of every level, the leaves, two levels of
	// matrices (current and next) and the gathered LDL operands.
	size := 2*n*int(logn) + n + 6*n + 5*n
	sp, pool := batchScratch[F](size)
	buf := *sp
	take := func(k int) []F {
		p := buf[:k:k]
		buf = buf[k:]
		return p
	}
	lv := &ffsLevels[F]{l10: make([][]F, logn+1), d11: make([][]F, logn+1)}
	lv.run, _ = arith.RunnerOf[F](a)
	lv.v = v
	for L := uint(1); L <= logn; L++ {
		lv.l10[L], lv.d11[L] = take(n), take(n)
	}
	lv.leaf = take(n)
	c00, c01, c11 := take(n), take(n), take(n)
	n00, n01, n11 := take(n), take(n), take(n)
	v00, v01, v11, vd, vl := take(n), take(n), take(n), take(n), take(n)
	copy(c00, g00[:n])
	copy(c01, g01[:n])
	copy(c11, g11[:n])

	prev := enterStage(s.st, PlanLDL)
	for L := logn; L >= 1; L-- {
		nl := 1 << L
		hl := nl >> 1
		k := n / nl // nodes at level L
		// The LDL step over the level's nodes as one polynomial of n
		// values: real parts of all nodes, then imaginary parts.
		gather := func(dst, src []F) {
			for i := range k {
				copy(dst[i*hl:(i+1)*hl], src[i*nl:i*nl+hl])
				copy(dst[n/2+i*hl:n/2+(i+1)*hl], src[i*nl+hl:(i+1)*nl])
			}
		}
		scatter := func(dst, src []F) {
			for i := range k {
				copy(dst[i*nl:i*nl+hl], src[i*hl:(i+1)*hl])
				copy(dst[i*nl+hl:(i+1)*nl], src[n/2+i*hl:n/2+(i+1)*hl])
			}
		}
		gather(v00, c00)
		gather(v01, c01)
		gather(v11, c11)
		batchLDL(v, vd, vl, v00, v01, v11, logn)
		scatter(lv.d11[L], vd)
		scatter(lv.l10[L], vl)

		// Children: node i's left child 2i is split(d00), its right
		// child 2i+1 split(d11); a child's matrix is (f0, f1, f0).
		f0s, f1s, fs := make([][]F, 2*k), make([][]F, 2*k), make([][]F, 2*k)
		for i := range k {
			for side, src := range [2][]F{c00[i*nl : (i+1)*nl], lv.d11[L][i*nl : (i+1)*nl]} {
				ch := 2*i + side
				fs[ch] = src
				f0s[ch], f1s[ch] = n00[ch*hl:(ch+1)*hl], n01[ch*hl:(ch+1)*hl]
			}
		}
		batchSplitMany(v, f0s, f1s, fs, L)
		copy(n11, n00)
		c00, n00 = n00, c00
		c01, n01 = n01, c01
		c11, n11 = n11, c11
	}
	copy(lv.leaf, c00)
	enterStage(s.st, prev)

	ffsLevelsNode(a, s, lv, t0, t1, logn, logn, 0, tmp)
	pool.Put(sp)
}

// ffsLevelsNode is ffSamplingDyn's node i of level L over the stored tree:
// ffsBeforeRight's events and the split of t1, then as ffSamplingDyn.
func ffsLevelsNode[F any, A arith.Arith[F]](a A, s *sampler[F, A], lv *ffsLevels[F], t0, t1 []F, origLogn, L uint, i int, tmp []F) {
	if L == 0 {
		ffsLevelsLeaf(a, s, lv, t0, t1, lv.leaf[i], origLogn)
		return
	}
	n := 1 << L
	hn := n >> 1
	l10, d11 := lv.l10[L][i*n:(i+1)*n], lv.d11[L][i*n:(i+1)*n]
	enterStage(s.st, PlanLDL)
	if s.obs != nil {
		s.obs.Stage(StageLDL, int(L), 0, l10, d11)
	}
	copy(tmp[:n], l10)
	z1 := tmp[n:]
	enterStage(s.st, PlanFFSampling)
	if !ffsStep(a, s, lv, stepSplitTarget, L, t1[:n], z1[:n], nil) {
		runStep(a, s, stepSplitTarget, L, [][]F{t1[:n], z1[:n]})
	}
	ffsLevelsNode(a, s, lv, z1[:hn], z1[hn:], origLogn, L-1, 2*i+1, z1[n:])
	if !ffsStep(a, s, lv, stepBetween, L, t0[:n], t1[:n], tmp[:3*n]) {
		ffsBetween(a, s, t0, t1, L, tmp)
	}
	ffsLevelsNode(a, s, lv, tmp[:hn], tmp[hn:], origLogn, L-1, 2*i, tmp[n:])
	if !ffsStep(a, s, lv, stepAfterLeft, L, t0[:n], tmp[:n], nil) {
		ffsAfterLeft(a, s, t0, L, tmp)
	}
}

// ffsStep runs step st of a node of level L with memory m0, m1 (and m2)
// as a traced program when the arithmetic runs programs and the level is
// traced, and reports whether it did.
func ffsStep[F any, A arith.Arith[F]](a A, s *sampler[F, A], lv *ffsLevels[F], st traceStep, L uint, m0, m1, m2 []F) bool {
	if lv.run == nil || L > maxTracedLevel {
		return false
	}
	sc := &lv.trace
	sc.mem = [3][]F{m0, m1, m2}
	m := sc.mem[:2]
	if m2 != nil {
		m = sc.mem[:3]
	}
	return runTraced(a, lv.run, s, sc, st, L, m)
}

// leafProgram is ffsLeaf's normalisation, sqrt(g00) / sigma: registers
// 0 (g00) and 2 (1/sigma) in, 3 out.
var leafProgram = arith.MustProgram(
	arith.Insn{Op: arith.OpSqrt, Dst: 1, A: 0},
	arith.Insn{Op: arith.OpMul, Dst: 3, A: 1, B: 2},
)

// ffsLevelsLeaf is ffsLeaf (round 3's) with the normalisation one program
// when the arithmetic runs programs, and both samples converted by one
// batch after the second: Of depends on its integer only and notes no
// decision, so converting the first sample after drawing the second
// changes nothing but the number of calls.
func ffsLevelsLeaf[F any, A arith.Arith[F]](a A, s *sampler[F, A], lv *ffsLevels[F], t0, t1 []F, g00 F, origLogn uint) {
	enterStage(s.st, PlanLeaf)
	inv := a.Const(arith.InvSigma(origLogn))
	var leaf F
	if lv.run != nil {
		regs := &lv.leafRegs
		regs[0], regs[2] = g00, inv
		lv.run.Run(leafProgram, regs[:], nil)
		leaf = regs[3]
	} else {
		leaf = a.Mul(a.Sqrt(g00), inv)
	}
	if s.obs != nil {
		s.obs.Stage(StageLeaf, 0, 0, []F{leaf})
	}
	z := [2]int64{s.sample(t0[0], leaf), s.sample(t1[0], leaf)}
	var v [2]F
	lv.v.OfN(v[:], z[:])
	t0[0], t1[0] = v[0], v[1]
}

// batchSplitMany is batchSplitFFT of several polynomials of degree 2^logn
// at once: each operation is one batch over all of them. The outputs must
// not overlap the inputs.
func batchSplitMany[F any](a vecArith[F], f0s, f1s, fs [][]F, logn uint) {
	hn := 1 << logn >> 1
	qn := hn >> 1
	for k, f := range fs {
		f0s[k][0], f1s[k][0] = f[0], f[hn]
	}
	if qn == 0 {
		return
	}
	m := len(fs) * qn // complex points of all the polynomials
	tw1, s, sp, pool := splitScratch(a, hn, hn+18*m)
	a.NegN(tw1[qn:], tw1[qn:])
	as, bs, tw, h, buf := s[:2*m], s[2*m:4*m], s[4*m:6*m], s[6*m:10*m], s[10*m:18*m]
	for k, f := range fs {
		for u := range qn {
			j := k*qn + u
			as[j], as[m+j] = f[u<<1], f[(u<<1)+hn]
			bs[j], bs[m+j] = f[(u<<1)+1], f[(u<<1)+1+hn]
			tw[j], tw[m+j] = tw1[u], tw1[qn+u]
		}
	}
	sum, c := h[:2*m], h[2*m:]
	a.AddN(sum, as, bs)
	a.SubN(c, as, bs)
	cmulN(a, c[:m], c[m:], c[:m], c[m:], tw[:m], tw[m:], buf)
	a.HalfN(h, h)
	for k := range fs {
		for u := range qn {
			j := k*qn + u
			f0s[k][u], f0s[k][qn+u] = sum[j], sum[m+j]
			f1s[k][u], f1s[k][qn+u] = c[j], c[m+j]
		}
	}
	pool.Put(sp)
}

// vecKeepBasis sets *basis to a copy of the basis (b00, b01, b10, b11 in
// FFT form) when a has batches, and reports whether it did: doSignDyn
// then restores it for the final product instead of computing it a
// second time, as the reference does to save memory. Over an arithmetic
// with batches every operation's result depends on its operands only
// (arith.Vector's contract), so the second computation would give these
// values again, with four FFTs of calls into a plugin. A hook: the
// monogen instances' copies are stubs.
func vecKeepBasis[F any, A arith.Arith[F]](a A, basis *[]F, b []F) bool {
	if _, ok := any(a).(vecArith[F]); !ok {
		return false
	}
	*basis = append([]F(nil), b...)
	return true
}
