package falcon

import "fmt"

// Observers: a window on a Falcon run for measurement tools.
//
// An Observer receives events from inside signing and key generation: the
// values each stage of the floating-point computation produces, every
// SamplerZ call with the centre and inverse standard deviation it was given,
// every Bernoulli trial of the sampler, and the end of every signing
// attempt. The shadow execution of package analysis/shadow is an observer
// over a pair arithmetic (the backend's value and an exact value side by
// side), which turns these events into the error measures of the Falcon
// specification's precision analysis (delta_c, delta_sigma), per-stage
// errors and decision flips.
//
// A nil Observer costs one predictable branch per event site; the events
// sit outside the arithmetic kernels (per polynomial, per sampler call), so
// signing without an observer runs at full speed.

// Stage names a step of Falcon's floating-point computation.
type Stage int

// The stages, in the order a signature (then a key generation) meets them.
// Level is the degree exponent of the polynomials a stage produces (0 at
// the leaves); Iter numbers repetitions where there are some.
const (
	// StageBasis: the basis B = [[g, -f], [G, -F]] in FFT form (four
	// polynomials).
	StageBasis Stage = iota
	// StageGram: the Gram matrix B B* (g00, g01, g11).
	StageGram
	// StageLDL: one LDL* step of the ffLDL tree at a level: l10 (and d11
	// on the dynamic path).
	StageLDL
	// StageLeaf: a leaf of the tree normalised to sqrt(leaf)/sigma, the
	// inverse standard deviation the sampler receives.
	StageLeaf
	// StageTarget: the target t = (hm, 0) B^-1 (t0, t1) in FFT form.
	StageTarget
	// StageSplit: ffSampling splits a target at a level (the two halves).
	StageSplit
	// StageMerge: ffSampling merges a sampled half (z1 or z0) at a level.
	StageMerge
	// StageUpdate: ffSampling's updated target tb0 = t0 + (t1 - z1) l10.
	StageUpdate
	// StageLattice: the lattice point (z0, z1) B back in coefficient form
	// (after the final inverse FFT), which is rounded into s1 and s2.
	StageLattice
	// StageCandidate marks the start of a key-generation candidate (f, g)
	// that reached the floating-point checks; Iter counts them from 0.
	// It carries no values.
	StageCandidate
	// StageGSNorm: key generation's squared Gram-Schmidt norm of (f, g),
	// compared with 16822.4121 (one value).
	StageGSNorm
	// StageBabai marks the end of one Babai reduction step of NTRUSolve at
	// depth Level, iteration Iter (the decisions taken since the previous
	// event belong to it: range checks and rint of each coefficient). It
	// carries the quotient values that were rounded.
	StageBabai
	// NumStages is the number of stages.
	NumStages
)

var stageNames = [NumStages]string{
	"basis_fft", "gram", "ffldl", "leaf", "target",
	"ffsampling_split", "ffsampling_merge", "ffsampling_update", "lattice_ifft",
	"keygen_candidate", "keygen_gs_norm", "keygen_babai",
}

// String returns the stage's name as reports spell it, e.g. "ffldl".
func (s Stage) String() string {
	if s < 0 || s >= NumStages {
		return fmt.Sprintf("Stage(%d)", int(s))
	}
	return stageNames[s]
}

// Observer receives the events of a Falcon run over values of type F. The
// slices it is given are the run's own buffers: it must read them during
// the call and neither keep nor modify them.
type Observer[F any] interface {
	// Stage reports the values stage st produced (see Stage for level and
	// iter). Decisions the arithmetic took since the previous event belong
	// to this stage.
	Stage(st Stage, level, iter int, values ...[]F)
	// Sample reports one SamplerZ call, after it returned z: the centre mu
	// and the inverse standard deviation isigma it was given, and how many
	// candidates it rejected before accepting. Calls come in pairs per
	// leaf of the ffSampling tree (the two coordinates of the leaf's
	// target, which share isigma). The decisions since the previous event
	// (floor of mu, the Bernoulli trials' reductions) belong to this call.
	Sample(mu, isigma F, z int64, rejections int)
	// BerExp reports one Bernoulli trial of the sampler (BerExp): expm is
	// the backend's ExpmP63 result, shift the capped exponent, so that the
	// threshold was ((2 expm - 1) >> shift); the nbytes random bytes drawn
	// for the lazy comparison are the top bytes of drawn (most significant
	// first); accept is the outcome.
	BerExp(expm uint64, shift uint, drawn uint64, nbytes int, accept bool)
	// Attempt reports the end of a signing attempt.
	Attempt(at *Attempt)
}

// KeygenCounter is implemented by an Observer that also wants the integer
// work of key generation, which no floating-point stage shows. Package
// accel counts with it the Montgomery products of the reference's
// instrumented build (modp_montymul in NTRUSolve, mq_montymul in
// compute_public): how many of them a candidate costs depends on where the
// integer code stopped. Key generation looks for the interface once per
// run; an observer without it, or no observer, costs nothing.
type KeygenCounter interface {
	// ComputePublic reports h = g/f mod q for a candidate (f, g): f and
	// g went through the NTT mod q, and divided is the number of slots
	// divided before the first zero slot of f's transform, where the
	// reference's compute_public gives up (n = 2^logn when f is
	// invertible modulo q; h is then complete).
	ComputePublic(logn uint, divided int)
	// NTRUSolve reports one run of NTRUSolve on a candidate: the number of
	// Montgomery products modulo the 31-bit RNS primes it made, in the
	// reference's sequence (modp_montymul), and whether it found F, G.
	NTRUSolve(logn uint, modpMontymul uint64, ok bool)
}
