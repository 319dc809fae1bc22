package falcon

import (
	"sync"

	"github.com/fprlab/fprlab/arith"
)

// The sampler's arithmetic as programs (arith.Program), for arithmetics
// that run a program in one step (arith.Runner: a plugin called through
// the C ABI, and the shadow's pair over one).
//
// Each candidate of the rejection loop costs thirteen dependent
// operations (sample and berExp), and each sample six more before its
// first candidate; over a plugin every one is a call into C, and the
// sampler's calls were most of a shadowed signature's once the polynomial
// loops were batched. samplerFirst is the sample's operations followed
// by its first candidate's, samplerNext a further candidate's: the same
// operations on the same operands in the same order as draw and berExp,
// so the results are theirs bit for bit (arith.Runner's contract; the
// tests compare signatures and shadow records with and without programs).
// The random draws of a candidate come before its arithmetic here and
// after the sample's in draw, which nothing observes: the arithmetic
// reads no random bytes.

// Value registers: inputs, then the results of samplerFirst's sample part,
// then those of a candidate.
const (
	rMu = iota
	rIsigma
	rSigmaMin
	rInv2SqrSigma0
	rInvLog2
	rLog2
	rC   // Of(c)
	rR   // mu - c
	rIsq // isigma^2
	rDss // isigma^2 / 2
	rCcs // isigma * sigma_min
	rZ   // Of(z)
	rZR  // z - r
	rZR2 // (z - r)^2
	rX1  // (z - r)^2 dss
	rZ0  // Of(z0^2)
	rZ0S // z0^2 / (2 sigma0^2)
	rX   // x
	rXL  // x / ln 2
	rT   // Of(t)
	rTL  // t ln 2
	rRem // x - t ln 2
	numSamplerValueRegs
)

// Integer registers.
const (
	iZ    = iota // z = b + (2b-1) z0 (input)
	iZ0Sq        // z0^2 (input)
	iC           // floor(mu)
	iT           // trunc(x / ln 2)
	iExpm        // ExpmP63(x - t ln 2, ccs)
	numSamplerIntRegs
)

// samplerRegs are the registers of one sampler's programs.
type samplerRegs[F any] struct {
	v [numSamplerValueRegs]F
	i [numSamplerIntRegs]int64
}

// samplerCandidate is a candidate's arithmetic (draw's x, berExp's t and
// remainder, then ExpmP63).
var samplerCandidate = []arith.Insn{
	{Op: arith.OpOf, Dst: rZ, A: iZ},
	{Op: arith.OpSub, Dst: rZR, A: rZ, B: rR},
	{Op: arith.OpSqr, Dst: rZR2, A: rZR},
	{Op: arith.OpMul, Dst: rX1, A: rZR2, B: rDss},
	{Op: arith.OpOf, Dst: rZ0, A: iZ0Sq},
	{Op: arith.OpMul, Dst: rZ0S, A: rZ0, B: rInv2SqrSigma0},
	{Op: arith.OpSub, Dst: rX, A: rX1, B: rZ0S},
	{Op: arith.OpMul, Dst: rXL, A: rX, B: rInvLog2},
	{Op: arith.OpTrunc, Dst: iT, A: rXL},
	{Op: arith.OpOf, Dst: rT, A: iT},
	{Op: arith.OpMul, Dst: rTL, A: rT, B: rLog2},
	{Op: arith.OpSub, Dst: rRem, A: rX, B: rTL},
	{Op: arith.OpExpmP63, Dst: iExpm, A: rRem, B: rCcs},
}

var (
	samplerFirst = arith.MustProgram(append([]arith.Insn{
		{Op: arith.OpFloor, Dst: iC, A: rMu},
		{Op: arith.OpOf, Dst: rC, A: iC},
		{Op: arith.OpSub, Dst: rR, A: rMu, B: rC},
		{Op: arith.OpSqr, Dst: rIsq, A: rIsigma},
		{Op: arith.OpHalf, Dst: rDss, A: rIsq},
		{Op: arith.OpMul, Dst: rCcs, A: rIsigma, B: rSigmaMin},
	}, samplerCandidate...)...)
	samplerNext = arith.MustProgram(samplerCandidate...)
)

// drawProgram is draw through programs, when s's arithmetic runs them and
// the trial is the round-3 BerExp (FN-DSA's ApproxExp and the acceptance
// models of acceptance.go compute their own way): it sets *z to the
// sample and returns true, or returns false to leave the sample to draw.
func drawProgram[F any, A arith.Arith[F]](s *sampler[F, A], mu, isigma F, z *int64) bool {
	run, ok := arith.RunnerOf[F](s.a)
	if !ok || s.acc != nil || s.fips206 || s.fipsExpm != nil {
		return false
	}
	r := &s.regs
	r.v[rMu], r.v[rIsigma] = mu, isigma
	r.v[rSigmaMin], r.v[rInv2SqrSigma0], r.v[rInvLog2], r.v[rLog2] = s.sigmaMin, s.inv2SqrSigma0, s.invLog2, s.log2
	prog := samplerFirst
	for iter := range maxIter {
		lo := s.u64()
		z0 := int32(gaussian0(lo, s.u8()))
		b := int32(s.u8() & 1)
		zc := b + (2*b-1)*z0
		r.i[iZ], r.i[iZ0Sq] = int64(zc), int64(z0*z0)
		run.Run(prog, r.v[:], r.i[:])
		prog = samplerNext
		c := int32(r.i[iC])
		if s.bernoulli(int32(r.i[iT]), uint64(r.i[iExpm])) {
			if s.obs != nil {
				s.obs.Sample(mu, isigma, int64(c+zc), iter)
			}
			*z = int64(c + zc)
			return true
		}
	}
	s.stuck = true
	*z = int64(int32(r.i[iC]))
	return true
}

// rintChunk is the most roundings of one program of vecRint.
const rintChunk = 128

// rintPrograms caches the programs of vecRint by length: instruction k
// rounds value register k into integer register k.
var rintPrograms sync.Map

func rintProgram(n int) *arith.Program {
	if p, ok := rintPrograms.Load(n); ok {
		return p.(*arith.Program)
	}
	insns := make([]arith.Insn, n)
	for k := range insns {
		insns[k] = arith.Insn{Op: arith.OpRint, Dst: uint8(k), A: uint8(k)}
	}
	p, _ := rintPrograms.LoadOrStore(n, arith.MustProgram(insns...))
	return p.(*arith.Program)
}

// vecRint sets *r to the roundings a.Rint of t0's n values then t1's, in
// that order, through programs of up to rintChunk roundings when a runs
// programs, and reports whether it did (finishAttempt's roundings: 2n
// calls into a plugin otherwise). A hook: the monogen instances' copies
// are stubs.
func vecRint[F any, A arith.Arith[F]](a A, r *[]int64, t0, t1 []F, n int) bool {
	run, ok := arith.RunnerOf[F](a)
	if !ok {
		return false
	}
	*r = make([]int64, 2*n)
	for k, src := range [2][]F{t0[:n], t1[:n]} {
		dst := (*r)[k*n : (k+1)*n]
		for lo := 0; lo < n; lo += rintChunk {
			hi := min(lo+rintChunk, n)
			run.Run(rintProgram(hi-lo), src[lo:hi], dst[lo:hi])
		}
	}
	return true
}
