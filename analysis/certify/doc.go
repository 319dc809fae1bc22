// Package certify proves, per key, a bound on the precision quantities of
// the Falcon specification's analysis (v1.2, section 2.6) that holds for
// every signature: for every hashed point (n integers in [0, q)) and every
// output of the sampler in its support -- not a sample maximum.
//
// # What is computed
//
// For a key sk, a backend B with an error model (Model) and the exact side
// X, the oracle at P = 256 bits (what `compare --shadow oracle` measures
// against):
//
//   - delta_sigma, exactly: max over leaves of |isigma_B - isigma_X| /
//     isigma_X. The leaves depend on the key alone, so this is the value
//     compare's shadow measures at every sampler call of every signature
//     with the key (tested).
//   - delta_c, certified: for every sampler call j an upper bound on
//     |mu_B(j) - mu_X(j)|, where both sides follow the same integer samples
//     z (as in the shadow), valid for every hashed point and every z in the
//     sampler's support; and its maximum over j with the call's tree path.
//   - the verdict: proven when bound(delta_c) + delta_sigma <= 2^-46.
//
// # The method, step by step
//
// Step 1: the key's values, read exactly. Signing once over B and once over
// X (falcon.Instantiate with an observer, dynamic path, any hashed point:
// these values do not depend on it) records the basis polynomials the
// target uses (-f, -F in FFT form), l10 of every inner node of the ffLDL
// tree, the leaves' isigma, the twiddle table and 1/q, each converted
// exactly to big.Float (Arith.Big). delta_sigma is computed from the
// leaves with big.Float (exact difference, then one division at 256 bits).
//
// Step 2: the reference run R. Define R as ffSampling in real arithmetic
// with the exact side's key values (X's basis and l10), the true roots of
// unity as twiddles, the true 1/q, the same hashed point and the same
// integer samples z as B. Then |mu_B - mu_X| <= |mu_B - mu_R| +
// |mu_X - mu_R|, and both terms are bounded by the same analysis: B with
// its model and its key values' differences from X's (measured in step 1),
// X with the oracle's model (relative 2^-P per operation, unbounded
// exponent) and no key-value differences. The twiddles' differences from
// the true roots are measured against arith.GMExact at 640 bits (assumed
// within 2^-600 of the roots), 1/q's exactly with big.Rat.
//
// Step 3: norm bounds. Every intermediate of ffSampling is a vector of
// complex values (a polynomial in FFT form). For each, the analysis keeps
// an upper bound m on the Euclidean norm of R's vector and bounds e_k, one
// per stage k (target, split, merge, update, key values, constants, exact
// side), whose sum bounds the norm of B's vector minus R's plus X's minus
// R's. For a single value the norm is the modulus, and a sampler's centre
// is a real or imaginary part of one value at level 1, so its error is at
// most the bound of that value.
//
// Step 4: the operations. For an operation that B computes with its
// operands x', y' (R: x, y) the error of the result splits into the
// propagated part and the operation's own rounding:
//
//   - sums x +- y, componentwise: propagated e_x + e_y; rounding at most
//     AddRel |x' +- y'| + Abs per component, i.e. in norm AddRel (m + e) +
//     Abs sqrt(2h) for h complex values.
//   - products by key values or twiddles c (max modulus cmax over the
//     vector in R, backend copies within ce of R's): x'c' - xc = x'(c' -
//     c) + (x' - x)c, so e <= (m_x + e_x) ce + e_x cmax; the complex
//     product of the reference (four products, two sums) errs in modulus by
//     at most (sqrt2 MulRel + AddRel (1 + sqrt2 MulRel)) |x'||c'| (the
//     products' errors form a vector of modulus <= sqrt2 MulRel |x'||c'|),
//     plus six absolute terms.
//   - butterflies (x + y, x - y) -- the FFT layers, split and merge -- are
//     linear maps of norm sqrt2 on (x, y): R's norm and every e_k are
//     multiplied by sqrt2 (in R the twiddled half keeps its norm, |w| = 1),
//     then rounded as sums. Halving is exact up to Abs.
//   - Of(z) is exact for |z| < 2^IntBits (checked; otherwise rounded; a
//     plan's leaf stage, where Of runs, holds ffSampling's format, below).
//
// Step 5: the target, for every hashed point. hm has norm at most sqrt(n)
// (q - 1); the FFT's logn - 1 layers are butterflies of the twiddled half
// with the other; then t1 = (FFT(hm) b01) (-1/q), t0 = (FFT(hm) b11) (1/q).
//
// Step 6: ffSampling, for every sampler output. At an inner node of level
// L (targets t0, t1 of 2^(L-1) complex values): t1 is split (f0 = (a+b)/2,
// f1 = (a-b) conj(w)/2: norms |t|/sqrt2 each), the right child is bounded
// recursively and returns the merged samples z1 and a bound on |D1| =
// |t1 - z1| in R; then d = t1 - z1 (rounded; its R norm is |D1|, so its
// rounding scales with |D1|, not with |t1| + |z1|), the update tb0 = t0 +
// d l10 (l10 of the node: cmax and ce over its values), the left child on
// tb0. At a leaf, the sampler's support keeps the backend's centre within
// 19 of the integer returned: z = floor(mu_B) + b + (2b - 1) z0 with z0 in
// {0..18} and b in {0, 1} (sampler.go), so z - mu_B lies in (-19, 19];
// hence |mu_R - z| <= 19 + |mu_B - mu_R|. Merging is linear, and in R merge
// inverts split exactly (true roots), so D = t - z of a target split into
// the pair (t0, t1) is the merge of (t0 - z0, t1 - z1), of norm sqrt2
// |(t0 - z0, t1 - z1)|. z0 is sampled around the updated t0' = t0 + D1
// l10, not around t0, so t0 - z0 = (t0' - z0) - D1 l10, of norm at most
// |t0' - z0| + max|l10| |D1|: the update's term counts at every level
// (TestNodeNorms checks these norms against signing attempts, and fails
// without it). R's merged samples have norm at most |t| + |D|,
// which also bounds the magnitude the merge's own roundings scale with.
// The merged samples' errors are also bounded affinely, A tau + B, in
// the actual norm tau of their subtree's target in R (mergeAff): at a leaf
// A = 0 (integers); a merge of halves split from t, whose norms tau_a,
// tau_b satisfy hypot(tau_a, tau_b) = tau/sqrt2 exactly in R, combines
// their bounds as max(A_a, A_y) tau/sqrt2 + hypot(B_a, B_y) (Minkowski),
// times sqrt2, plus the twiddle product's and the butterfly's roundings,
// which scale with tau_b + |Db| and tau + |D|. Bounding each half at the
// whole |t|/sqrt2, as the norm bound does, overstates the merge errors by
// up to sqrt2 per level. The left child's bound, in the norm of tb0, is
// turned into one in |t0| with |tb0| <= |t0| + |p|.
//
// Step 7: the path bound of each sampler call (path.go). Steps 3 to 6
// bound the error reaching a centre by products of per-step norms, the
// update's by the largest |l10| of the node. Instead, fix the integer
// samples z (the same in B, X and R). Then in R every centre is an affine
// function of the target of each node above it: splits are linear, the
// update tb0 = t0 + (t1 - z1) l10 is linear in (t0, t1) since z1 is fixed,
// and the centre of a call is the real or imaginary part of one value of
// its level-1 target. So the error of a centre is exactly the sum, over
// the error sources, of a real-linear functional phi(x) = Re sum conj(g_j)
// x_j applied to the source's error vector, whose size is at most |g|
// times the source's norm bound (Cauchy-Schwarz). The backend's operations
// are R's linear maps on the errors plus local terms (x'c' - xc = (x' - x)c
// + x'(c' - c) + rounding; the split's twiddle likewise), so the sources
// are the local terms alone, with the norm bounds of steps 4 to 6:
//
//   - entering t0 and t1 of a node: the own roundings of the split that
//     made them (the same split of a vector with no error and the
//     backend's magnitude), or, at the root, the target's errors, weighed
//     slot by slot (below);
//   - entering d = t1 - z1: the merged z1's errors (merges of the same
//     integers: their roundings alone; the smaller of their norm bound
//     and the affine one of step 6 at t1's norm bound) and d's rounding;
//   - entering tb0: the product's own terms (the backend's l10 errors times
//     d', its rounding) and tb0's rounding.
//
// g is computed from the call upward: g = 1 (real part) or i (imaginary
// part) on the level-1 target; at a node reached from its right child the
// functional on (t0, t1) is (0, g), from its left child (g, conj(l10) g),
// with l10 R's values slot by slot; pulled back through the split that
// made (t0, t1) from the parent's target T it is merge(g0, g1)/2 (f0 =
// (a + b)/2, f1 = (a - b) conj(w)/2 gives (g0 + w g1)/2 on a and
// (g0 - w g1)/2 on b, polyMergeFFT's layout). The sum of |g| times the
// sources' bounds is the call's path bound; each call keeps the smaller of
// it and the norm bound of step 6 (both are upper bounds). The
// functionals are computed in float64; beside each computed g~ a bound on
// |g~ - g| is carried (one product by l10 adds at most 2^-51 lmax |g~|, one
// pull-back at most 2^-51 (|g0~| + |g1~|), and carries the previous errors
// through a map of norm 1 or 1/sqrt2, see path.go), and |g~| plus that
// bound is what multiplies a source. This is where the bound gains over
// steps 3 to 6: |conj(l10) g| weighs each slot's l10 by the functional's
// weight there, where the norm analysis takes max |l10| (about 18 at the
// root for KAT key 0), at every node of the path.
//
// At the root the target's errors meet the functional (ga, gb) on (t0,
// t1) slot by slot too (target.go, rootTerms). FFT(hm)'s errors dF reach
// t0 and t1 through the same products, t0 = FFT(hm) b11 / q and t1 =
// -FFT(hm) b01 / q, so their contribution is Re sum conj(G_u) dF_u / q with
// G_u = ga_u conj(b11_u) - gb_u conj(b01_u): the two halves combined, at
// most |G| |dF| / q, where the norm analysis has |ga| max|b11| + |gb|
// max|b01|. For a centre reached through the root's left child gb =
// conj(l10) ga, so G = ga conj(b11 - l10 b01): the basis' second row less
// its projection on the first (Gram-Schmidt), far shorter than b11 (the
// target's share of KAT key 0's worst Falcon-512 call drops from 34 % of
// the bound to 3 % for binary64). The products' roundings, which scale
// with |F'_u| |b'_u| slot by slot, are weighed by |F'| |(|g_u| (|b_u| +
// ce))_u| (Cauchy-Schwarz); the backend's errors in b and 1/q and the
// absolute terms by the functional's norm, as before. G and that weight
// are computed in float64 with a carried bound on their own rounding, as
// the functionals are.
//
// Step 8: the rounding of the bound computation itself. All bounds are
// non-negative float64 values computed with every operation rounded
// toward +Inf: each result of Go's round-to-nearest arithmetic is moved one
// ulp up (math.Nextafter), which lies above the exact result; big.Float
// values are converted to float64 rounding up. So every number the analysis
// writes is an upper bound of the quantity it names.
//
// # What the bound assumes
//
// The backend meets its Model on every operation ffSampling and the
// target perform (add, sub, mul, half, neg, Of); the built-in models and
// their sources are listed at ModelFor, and the model test checks each
// against the per-operation maxima `arith errors` measures. The triword
// model's absolute term is declared from that measurement, not proven.
//
// A precision plan whose target and ffsampling stages are vprec formats is
// analysed with each stage's model: the target's operations (step 5, and
// its terms in step 7) meet the target format's, ffSampling's (steps 6
// and 7) ffSampling's. Each value those stages take from another stage
// (the basis, l10) is converted into the using stage's format as an
// operand, one rounding within ConvRel |v| that step 1's measured
// differences do not include and the bound adds to them (a uniform plan
// converts nothing). When the target has a format of its own, t0 and t1
// are converted into ffSampling's where ffSampling first uses them: one
// more rounding of each component, ConvRel |t_s| + Abs sqrt(2h) in norm,
// added to the target's errors in step 5's norm bound and in step 7's
// terms that do not scale with the basis (rest). The twiddles and 1/q are
// not converted: a plan computes them in each stage's own format, and step
// 1 reads them there (the target's and ffSampling's twiddle tables, 1/q in
// the target's), so their errors are measured, not bounded. What leaves
// ffSampling is read in other stages: the integer samples are converted
// (Of) in the leaf stage's format, the leaves' 1/sigma computed there, and
// the sampler reads the centre and 1/sigma in its own. The bound is on the
// centre as ffSampling hands it over and delta_sigma is measured on the
// leaf stage's values, so those conversions must be exact: the plan is
// refused unless the leaf stage's format holds every value of
// ffSampling's, and the sampler stage's every value of both (at least as
// many bits, an exponent range at least as wide). The batched
// kernels of an arith.Vector backend (triword in the GOEXPERIMENT=simd
// build) compute each element with the operations of the scalar code, so
// the same model holds.
//
// # Schemes
//
// Options.Scheme chooses whose signing is analysed (scheme.Attempter):
// Falcon round 3, or an FN-DSA profile. Step 1 then reads the key's values
// from one of the scheme's own attempts, so they are its own: FN-DSA
// builds the ffLDL tree with a self-adjoint LDL and normalises the leaves
// with its own 1/sigma table (which both sides take as exact, as compare's
// shadow does). Steps 2 to 6 hold for every scheme here unchanged: the
// target, ffSampling's splits, merges and updates are round 3's operation
// for operation in both FN-DSA profiles, and the sampler's support is
// the same -- the 2026 draft's base sampler has a new 79-bit table, still
// of 18 entries, so z0 still lies in {0..18}.
//
// # How tight it is
//
// Closer than the norm analysis alone by about 5 bits (step 7, the
// slot-by-slot target and the affine merge bound of step 6), still far
// from the samples: over KAT keys 0 to 9 and 1,000 signatures each the
// bound sits 9.1 to 10.7 bits above binary64's sampled maximum at
// Falcon-512, 9.8 to 11.0 at Falcon-1024, 13.6 to 15.8 bits above
// triword's (docs/certify.md). What is left is mostly the worst case
// itself: every rounding is taken at its model's bound and aligned with
// the call's functional, the magnitudes the roundings scale with are the
// largest over all hashed points, and every sample is taken 19 from its
// centre, the edge of the sampler's support (the merges are half to two
// thirds of the bound), where a sampled run meets random-signed
// roundings, typical targets and samples close to their centres.
//
// Part of that distance is not slack but the difference between the
// inputs a signer meets and those the bound must cover. CheckChosen signs
// hashed points chosen for the key (chosen.go), whose targets are three
// to four times larger than any hashed message's, with every sample at
// the edge of the sampler's support (z0 = 18, falcon.WithEdgeSamples):
// their delta_c lies 1.3 to 3.5 bits above that of as many hashed
// messages, per key, so the true worst case lies at least that far above
// the samples; the bound stays 7.4 to 8.2 bits above it for binary64
// (docs/certify.md).
package certify
