// Package accel models hardware datapaths for Falcon's floating-point
// ("fpr") layer and its neighbours: what a unit that accelerates the
// reference's emulated binary64 arithmetic executes, how often, and at
// what cost. Every model that computes is bit-exact and is replayed on
// real Falcon runs (NIST KAT records), which come out unchanged.
//
//   - Counting (count.go, kat.go, intcounts.go): operation counts per
//     phase of a KAT record in the structure of the reference's FPEMU
//     build, plus modp_montymul (counted in falcon's NTRUSolve), mq_montymul
//     and Keccak-f[1600] (counted structurally).
//   - The HORCRUX fpr-unit (horcrux.go): its six instructions on 32-bit
//     words, an emu64 whose packing and normalisation run on them, and the
//     fpr-unit alone as a cost table (horcrux_cycles.go).
//   - Cycle models (cycles.go, costs/*.json, verifypath.go): per phase,
//     counted operations times a platform's per-unit costs, averaged over
//     KAT records, beside the published figures; the verify path bottom up
//     in cycles and energy; a Cortex-M4F estimate (cortexm4.go).
//   - Mantissa multipliers (mult.go, multcost.go, resources.go): schoolbook,
//     25x18 DSP tiling, Comba, Karatsuba 64 and 64+32, at 53 and 64 bits,
//     with cost models and DSP48E1/DSP48E2 resources; they plug into emu64
//     through emu64.Datapath.
//   - Signing latency (latency.go, stagecount.go): cycles per signature of a
//     signer built from units, from operation counts per plan stage.
//   - SamplerZ (ripst.go, pipeline.go, acceptance.go, samplerobs.go): the
//     RIPST formulas of the pipelined-sampler comparison, a cycle-level
//     simulation of serial and alternating pipelines driven by the
//     accept/reject sequence of real signing (falcon's observer), and the
//     pipelined design's two-Bernoulli acceptance test.
//   - ffSampling as a state machine is implemented in package falcon,
//     which owns the internals it needs, and reached through the
//     module's internal package ffsfsm (fprlab accel ffsampling).
//   - the fpr-unit cycle breakdown and the RIPST comparison are drawn by
//     package analysis/plot (FPRUnit, RIPST) from these results.
//
// It is not a hardware simulator: cycle figures come from stated per-call
// costs and schedules, never from a model of gates or timing.
//
// # What is counted, and why in the FPEMU structure
//
// The wrapper records raw calls of the Arith methods ([Calls]). [Calls.FPEMU]
// turns them into the counters of the reference's instrumented build
// ([Counts]; the names of opcounts_record0.json): the counts an
// instrumented Falcon-impl-20211101 compiled with FALCON_FPEMU reports. That
// build is the one hardware fpr units (HORCRUX, Peregrino) reproduce in
// logic: every rounded operation ends in the same packing routine FPR(s, e,
// m), and the two additive ones also pass through the normaliser
// FPR_NORM64. Counting them tells a designer how often each datapath block
// fires. The model, call by call:
//
//	Of        one scaled (fpr_of is fpr_scaled(i, 0))
//	Sub       one add with y's sign flipped (no neg)
//	Sqr       one mul
//	Inv       one div (1/x)
//	ExpmP63   one expm_p63, plus two mul and two trunc inside it
//	          (x*2^63 and ccs*2^63, truncated to fixed point)
//	Neg, Half, Double, Rint, Floor, Trunc, Lt
//	          sign/exponent or integer work, no FPR packing
//
//	FPR        = scaled + add + mul + div + sqrt
//	FPR_NORM64 = scaled + add
//
// so add includes sub, mul includes sqr and the products inside expm_p63,
// div includes inv, scaled includes of, and trunc includes the two
// truncations inside expm_p63. The reference's integer Montgomery products
// (modp_montymul in key generation, mq_montymul modulo q) are not fpr
// operations and never go through Arith: modp_montymul is counted by
// falcon's NTRUSolve, which makes the reference's sequence of them, and
// reported through falcon.KeygenCounter; mq_montymul is counted
// structurally (intcounts.go) from the same reports.
//
// Const and GM are counted in [Calls] but contribute to no reference
// counter: the reference reads its constants and twiddle factors
// (fpr_gm_tab) from tables, which costs no fpr operation. FromFloat64,
// Float64 and Big are conversions outside the reference's datapath and are
// likewise counted only in Calls: Falcon's signing never calls them, and
// key generation calls FromFloat64 and Float64 twice each, in a check that
// the backend's exponent range reaches 2^±341 (a guard the reference does
// not have, kept free of arithmetic operations so that the counts stay
// comparable).
//
// The counters describe the FPEMU code structure, not the arithmetic of the
// wrapped backend: a Counting over the native backend records the same
// calls, but in a native reference build expm_p63 is computed in double
// arithmetic with no fpr_mul or fpr_trunc calls, and each other operation
// is a single hardware instruction with no packing or normalising step, so
// FPR and FPR_NORM64 have no hardware meaning there.
//
// The counts reproduce the reference's instrumented counts for NIST KAT
// record 0 of Falcon-512 and Falcon-1024 (this package's tests compare
// every floating-point counter per phase); for Falcon-512 key generation,
// signing and verification together: FPR 731,119 and FPR_NORM64 388,031,
// the figures of HORCRUX's Table II.
package accel
