package falcon

import "github.com/fprlab/fprlab/arith"

// The ffLDL tree and the expanded private key (Falcon specification v1.2,
// Algorithms 8-9 and 11; Falcon-impl-20211101 sign.c, expand_privkey and
// ffSampling_fft).
//
// Signing samples a short vector of the lattice spanned by the secret basis
// B = [[g, -f], [G, -F]] with "fast Fourier sampling": the Gram matrix
// B B* is decomposed as L D L* recursively, each level splitting its
// polynomials into halves of half the degree, which yields a binary tree
// (the ffLDL tree). An internal node at degree n holds the n values of its
// L factor l10; a leaf holds one value derived from D. The expanded key
// stores B in FFT form and the tree, so that each signature only runs
// ffSampling; the dynamic path (sign.go) recomputes the tree on the fly
// instead, to save memory.

// treeSize is the number of values of an ffLDL tree for polynomials of
// degree 2^logn: s(0) = 1 and s(logn) = 2^logn + 2 s(logn-1), i.e.
// (logn+1) 2^logn.
func treeSize(logn uint) int { return int(logn+1) << logn }

// expandedKey is the precomputed signing key (Zf(expand_privkey)): the
// basis B = [[b00, b01], [b10, b11]] = [[g, -f], [G, -F]] in FFT form,
// and the normalised ffLDL tree, whose leaves hold sqrt(leaf)/sigma, the
// inverse standard deviation the sampler takes.
type expandedKey[F any] struct {
	logn               uint
	b00, b01, b10, b11 []F
	tree               []F
}

// smallToFFT sets dst to the FFT of the polynomial x with small integer
// coefficients (smallints_to_fpr, then FFT).
func smallToFFT[F any, A arith.Arith[F]](a A, dst []F, x []int8, logn uint) {
	if !vecOfInt8(a, dst[:1<<logn], x) {
		for u := range 1 << logn {
			dst[u] = a.Of(int64(x[u]))
		}
	}
	fft(a, dst, logn)
}

// basisFFT fills b00, b01, b10, b11 with B = [[g, -f], [G, -F]] in FFT
// form, in the reference's order (f, g, F, G converted, transformed, then
// f and F negated).
func basisFFT[F any, A arith.Arith[F]](a A, b00, b01, b10, b11 []F, f, g, bigF, bigG []int8, logn uint) {
	smallToFFT(a, b01, f, logn)
	smallToFFT(a, b00, g, logn)
	smallToFFT(a, b11, bigF, logn)
	smallToFFT(a, b10, bigG, logn)
	polyNeg(a, b01, logn)
	polyNeg(a, b11, logn)
}

// expandPrivkey computes the expanded key from f, g, F, G.
func expandPrivkey[F any, A arith.Arith[F]](a A, f, g, bigF, bigG []int8, logn uint) *expandedKey[F] {
	n := 1 << logn
	buf := make([]F, 4*n+treeSize(logn))
	ek := &expandedKey[F]{
		logn: logn,
		b00:  buf[0*n : 1*n],
		b01:  buf[1*n : 2*n],
		b10:  buf[2*n : 3*n],
		b11:  buf[3*n : 4*n],
		tree: buf[4*n:],
	}
	st, _ := any(a).(Staged)
	enterStage(st, PlanFFT)
	basisFFT(a, ek.b00, ek.b01, ek.b10, ek.b11, f, g, bigF, bigG, logn)
	enterStage(st, PlanGram)

	// Gram matrix G = B B* (upper triangle; g10 = adj(g01)):
	//   g00 = b00 adj(b00) + b01 adj(b01)
	//   g01 = b00 adj(b10) + b01 adj(b11)
	//   g11 = b10 adj(b10) + b11 adj(b11)
	// tmp holds g00, g01, g11, then three polynomials of scratch space
	// (the first of which, gxx, also serves for the second terms).
	tmp := make([]F, 6*n)
	g00, g01, g11, gxx := tmp[0:n], tmp[n:2*n], tmp[2*n:3*n], tmp[3*n:]

	copy(g00, ek.b00)
	polyMulselfadjFFT(a, g00, logn)
	copy(gxx, ek.b01)
	polyMulselfadjFFT(a, gxx, logn)
	polyAdd(a, g00, gxx, logn)

	copy(g01, ek.b00)
	polyMuladjFFT(a, g01, ek.b10, logn)
	copy(gxx, ek.b01)
	polyMuladjFFT(a, gxx, ek.b11, logn)
	polyAdd(a, g01, gxx, logn)

	copy(g11, ek.b10)
	polyMulselfadjFFT(a, g11, logn)
	copy(gxx, ek.b11)
	polyMulselfadjFFT(a, gxx, logn)
	polyAdd(a, g11, gxx, logn)

	enterStage(st, PlanLDL)
	ffLDL(a, ek.tree, g00, g01, g11, logn, gxx)
	enterStage(st, PlanLeaf)
	normalizeTree(a, ek.tree, logn, logn)
	return ek
}

// ffLDL computes the ffLDL tree of the self-adjoint matrix
// [[g00, g01], [adj(g01), g11]] (FFT form) into tree (treeSize(logn)
// values). The inputs are not modified; tmp needs 3n values.
//
// The root holds l10. D's diagonal entries d00 = g00 and d11 are then
// split into halves, and each pair (d_0, d_1) is the first row of a
// half-degree quasi-cyclic Gram matrix [[d_0, d_1], [adj(d_1), d_0]]
// that is decomposed recursively: the left subtree (at tree[n:]) comes
// from d00, the right one from d11.
func ffLDL[F any, A arith.Arith[F]](a A, tree, g00, g01, g11 []F, logn uint, tmp []F) {
	n := 1 << logn
	if n == 1 {
		tree[0] = g00[0]
		return
	}
	hn := n >> 1
	d00, d11, tmp := tmp[:n], tmp[n:2*n], tmp[2*n:]

	copy(d00, g00[:n])
	polyLDLmvFFT(a, d11, tree, g00, g01, g11, logn)

	polySplitFFT(a, tmp[:hn], tmp[hn:], d00, logn)
	polySplitFFT(a, d00[:hn], d00[hn:], d11, logn)
	copy(d11, tmp[:n])
	ffLDLInner(a, tree[n:], d11[:hn], d11[hn:], logn-1, tmp)
	ffLDLInner(a, tree[n+treeSize(logn-1):], d00[:hn], d00[hn:], logn-1, tmp)
}

// ffLDLInner is ffLDL for the quasi-cyclic matrix [[g0, g1], [adj(g1), g0]]
// given by its first row; it overwrites g0 and g1 (used as scratch
// space) and needs n values of tmp.
func ffLDLInner[F any, A arith.Arith[F]](a A, tree, g0, g1 []F, logn uint, tmp []F) {
	n := 1 << logn
	if n == 1 {
		tree[0] = g0[0]
		return
	}
	hn := n >> 1

	// d00 = g0 stays in g0, d11 goes to tmp, l10 to the tree node.
	polyLDLmvFFT(a, tmp, tree, g0, g1, g0, logn)

	// d00 splits into g1 (both halves), d11 into g0.
	polySplitFFT(a, g1[:hn], g1[hn:], g0, logn)
	polySplitFFT(a, g0[:hn], g0[hn:], tmp, logn)

	ffLDLInner(a, tree[n:], g1[:hn], g1[hn:], logn-1, tmp)
	ffLDLInner(a, tree[n+treeSize(logn-1):], g0[:hn], g0[hn:], logn-1, tmp)
}

// normalizeTree replaces each leaf value x of the tree with
// sqrt(x)/sigma = sqrt(x) * (1/sigma), sigma being the signing standard
// deviation of degree 2^origLogn. The specification's leaf is
// sigma/sqrt(x); the reference stores its inverse, which is what the
// sampler takes, so that neither here nor there a division is needed.
func normalizeTree[F any, A arith.Arith[F]](a A, tree []F, origLogn, logn uint) {
	if logn == 0 {
		tree[0] = a.Mul(a.Sqrt(tree[0]), a.Const(arith.InvSigma(origLogn)))
		return
	}
	n := 1 << logn
	normalizeTree(a, tree[n:], origLogn, logn-1)
	normalizeTree(a, tree[n+treeSize(logn-1):], origLogn, logn-1)
}

// ffSamplingTree is Fast Fourier sampling with a precomputed tree
// (ffSampling_fft): given the target (t0, t1) in FFT form it writes the
// sampled (z0, z1) in FFT form. tmp needs 2n values. t1 is sampled first
// (right subtree), then t0 is corrected by (t1 - z1) l10 and sampled with
// the left subtree.
//
// The reference unrolls the last two levels (logn = 2 and 1), and there it
// computes the split and merge with the constants 1/sqrt(8) and 1/sqrt(2)
// instead of the twiddle table and halving. The rounding differs from the
// generic split, so the unrolled code is reproduced as written: it is what
// makes the expanded-key path bit-exact.
func ffSamplingTree[F any, A arith.Arith[F]](a A, s *sampler[F, A], z0, z1, tree, t0, t1 []F, logn uint, tmp []F) {
	switch logn {
	case 2:
		ffSamplingTree2(a, s, z0, z1, tree, t0, t1)
		return
	case 1:
		// A single complex value per polynomial: sample t1 with the
		// right leaf, correct t0, sample it with the left leaf.
		x0, x1 := t1[0], t1[1]
		sigma := tree[3]
		y0 := a.Of(s.sample(x0, sigma))
		y1 := a.Of(s.sample(x1, sigma))
		z1[0], z1[1] = y0, y1
		cr, ci := cmul(a, a.Sub(x0, y0), a.Sub(x1, y1), tree[0], tree[1])
		x0 = a.Add(cr, t0[0])
		x1 = a.Add(ci, t0[1])
		sigma = tree[2]
		z0[0] = a.Of(s.sample(x0, sigma))
		z0[1] = a.Of(s.sample(x1, sigma))
		return
	}

	n := 1 << logn
	hn := n >> 1
	tree0 := tree[n:]
	tree1 := tree[n+treeSize(logn-1):]

	// Right subtree on split(t1); z1 serves as scratch for the halves.
	polySplitFFT(a, z1[:hn], z1[hn:], t1, logn)
	ffSamplingTree(a, s, tmp[:hn], tmp[hn:], tree1, z1[:hn], z1[hn:], logn-1, tmp[n:])
	polyMergeFFT(a, z1, tmp[:hn], tmp[hn:], logn)

	// tb0 = t0 + (t1 - z1) l10, in tmp.
	copy(tmp[:n], t1[:n])
	polySub(a, tmp, z1, logn)
	polyMulFFT(a, tmp, tree, logn)
	polyAdd(a, tmp, t0, logn)

	// Left subtree on split(tb0).
	polySplitFFT(a, z0[:hn], z0[hn:], tmp, logn)
	ffSamplingTree(a, s, tmp[:hn], tmp[hn:], tree0, z0[:hn], z0[hn:], logn-1, tmp[n:])
	polyMergeFFT(a, z0, tmp[:hn], tmp[hn:], logn)
}

// ffSamplingTree2 is ffSamplingTree for logn = 2 with the logn = 1 level
// inlined, in the reference's operation order. Each polynomial has two
// complex values (re0, re1, im0, im1 in the usual layout).
func ffSamplingTree2[F any, A arith.Arith[F]](a A, s *sampler[F, A], z0, z1, tree, t0, t1 []F) {
	invSqrt8 := a.Const(arith.InvSqrt8)
	invSqrt2 := a.Const(arith.InvSqrt2)
	tree0 := tree[4:]
	tree1 := tree[8:]

	// split4 splits a degree-4 polynomial (p0 + i p2, p1 + i p3) into
	// w0 + i w1 (even half) and w2 + i w3 (odd half); the twiddle of the
	// odd half is (1 - i)/sqrt(2), which with the halving gives 1/sqrt(8).
	split4 := func(p0, p1, p2, p3 F) (w0, w1, w2, w3 F) {
		w0 = a.Half(a.Add(p0, p1))
		w1 = a.Half(a.Add(p2, p3))
		cr, ci := a.Sub(p0, p1), a.Sub(p2, p3)
		w2 = a.Mul(a.Add(cr, ci), invSqrt8)
		w3 = a.Mul(a.Sub(ci, cr), invSqrt8)
		return
	}
	// leaf2 samples the logn = 1 subtree sub on target (x0 + i x1 even,
	// y0 + i y1 odd) and returns the merged degree-4 result in the order
	// (value 0 re, value 1 re, value 0 im, value 1 im).
	leaf2 := func(sub []F, w0, w1, w2, w3 F) (r0, r1, r2, r3 F) {
		x0, x1 := w2, w3
		sigma := sub[3]
		w2 = a.Of(s.sample(x0, sigma))
		w3 = a.Of(s.sample(x1, sigma))
		cr, ci := cmul(a, a.Sub(x0, w2), a.Sub(x1, w3), sub[0], sub[1])
		x0 = a.Add(cr, w0)
		x1 = a.Add(ci, w1)
		sigma = sub[2]
		w0 = a.Of(s.sample(x0, sigma))
		w1 = a.Of(s.sample(x1, sigma))

		// Merge: the odd half is multiplied by (1 + i)/sqrt(2).
		br := a.Mul(a.Sub(w2, w3), invSqrt2)
		bi := a.Mul(a.Add(w2, w3), invSqrt2)
		return a.Add(w0, br), a.Sub(w0, br), a.Add(w1, bi), a.Sub(w1, bi)
	}

	w0, w1, w2, w3 := split4(t1[0], t1[1], t1[2], t1[3])
	r0, r1, r2, r3 := leaf2(tree1, w0, w1, w2, w3)
	z1[0], z1[1], z1[2], z1[3] = r0, r1, r2, r3

	// tb0 = t0 + (t1 - z1) l10, one complex product per value.
	d0, d1 := a.Sub(t1[0], r0), a.Sub(t1[1], r1)
	d2, d3 := a.Sub(t1[2], r2), a.Sub(t1[3], r3)
	e0, e2 := cmul(a, d0, d2, tree[0], tree[2])
	e1, e3 := cmul(a, d1, d3, tree[1], tree[3])
	e0 = a.Add(e0, t0[0])
	e1 = a.Add(e1, t0[1])
	e2 = a.Add(e2, t0[2])
	e3 = a.Add(e3, t0[3])

	w0, w1, w2, w3 = split4(e0, e1, e2, e3)
	z0[0], z0[1], z0[2], z0[3] = leaf2(tree0, w0, w1, w2, w3)
}
