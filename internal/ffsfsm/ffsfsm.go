// Package ffsfsm holds the entry points of package falcon's ffSampling
// state machine (ffSampling run as hardware runs it: an explicit stack of
// frames instead of recursion, Peregrino section IV-F) for the hardware
// models of package accel and the command line, without making them part
// of falcon's public API, which is the scheme's. The implementation uses
// falcon's internals and stays in package falcon (ffsampling_fsm.go),
// whose init function installs it here; importing falcon is what makes
// Sign and KAT non-nil.
package ffsfsm

import (
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
)

// Stats describes the state machine's runs over one signature
// (all its attempts).
type Stats struct {
	// Attempts is the number of signing attempts, each one run of
	// ffSampling.
	Attempts int
	// MaxDepth is the largest number of frames on the stack.
	MaxDepth int
	// StackWords is the stack at its peak, MaxDepth frames of
	// 8 words (six addresses, the degree and the checkpoint); WorkspaceWords the floating-point values of the
	// workspace the machine addresses (t0, t1 and the Gram matrix, 5n,
	// plus 4n of scratch, as ffSampling_fft_dyntree needs). PeakWords is
	// their sum, the memory held at the deepest point.
	StackWords, WorkspaceWords, PeakWords int
	// Transitions counts the states entered, over all attempts.
	Transitions int
	// Leaves is the number of leaves sampled (two SamplerZ calls each).
	Leaves int
}

// Sign signs msg with the private key encoded in sk (falcon's
// PrivateKey.Encode), a compressed signature over arithmetic a on emu64's
// values (emu64 itself, or a wrapper such as accel's counting and
// digesting arithmetics) by the dynamic path (falcon_sign_dyn) with
// ffSampling run by the state machine: falcon.Sign's signature bit for
// bit, and the machine's statistics over all attempts. obs, when not nil,
// must be a falcon.Observer[emu64.FPR] (typed any here: falcon imports this
// package) and sees the events falcon.Sign reports.
var Sign func(a arith.Arith[emu64.FPR], obs any, sk, msg []byte, rng io.Reader) ([]byte, *Stats, error)

// KAT computes the pk, sk and sm of the NIST KAT record of degree 2^logn
// with the given seed and message, as falcon.GenerateKAT does, with keys
// over backend kb and crypto_sign's signature over backend b with
// ffSampling run by the state machine: the published record bit for bit,
// and the machine's statistics over the signature's attempts.
var KAT func(kb, b arith.Backend, logn uint, count int, seed, msg []byte) (pk, sk, sm []byte, st *Stats, err error)
