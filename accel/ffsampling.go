package accel

import (
	"bytes"
	"context"
	"crypto/sha3"
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/ffsfsm"
)

// FFSamplingComparison is the result of CompareFFSampling (and the --json
// output of fprlab accel ffsampling).
type FFSamplingComparison struct {
	Params     int `json:"params"`
	Record     int `json:"record"`
	Signatures int `json:"signatures"`
	// KATMatch: the record regenerated with crypto_sign's ffSampling run
	// by the state machine equals the published one. BitExact: every
	// further signature equals falcon.Sign's over emu64 with the same
	// random stream.
	KATMatch bool `json:"kat_match"`
	BitExact bool `json:"bit_exact"`
	// SignaturesEqual: the signatures are equal. Digest and
	// RecursiveDigest digest every arithmetic result and sampler output
	// of the state machine's and the recursive version's signatures;
	// BitExact is SignaturesEqual and equal digests.
	SignaturesEqual bool         `json:"signatures_equal"`
	Digest          ResultDigest `json:"digest"`
	RecursiveDigest ResultDigest `json:"recursive_digest"`
	// Per signature (the last one for MaxDepth and the words, which do
	// not vary; means for the others).
	MaxDepth                int     `json:"max_stack_depth"`
	StackWords              int     `json:"stack_words"`
	WorkspaceWords          int     `json:"workspace_words"`
	PeakWords               int     `json:"peak_words"`
	TransitionsPerSignature float64 `json:"transitions_per_signature"`
	AttemptsPerSignature    float64 `json:"attempts_per_signature"`
	LeavesPerSignature      float64 `json:"leaves_per_signature"`
}

// CompareFFSampling checks ffSampling as a state machine with an explicit
// stack (package ffsfsm, the shape hardware runs) against Falcon's
// recursive ffSampling, over emu64: it regenerates NIST KAT record record
// of degree 2^logn with the state machine and checks it against the
// published file, then signs the record's message with its key signatures
// more times with each version (nonce and sampler seeds from
// SHAKE256(seed || "||" || i) for signature i), comparing the signatures
// and the digests of every result and sampler output, and measures the
// state machine's stack, memory and transitions. It stops with ctx's
// error when ctx is cancelled between signatures.
func CompareFFSampling(ctx context.Context, logn uint, record, signatures int, seed string) (*FFSamplingComparison, error) {
	b, err := arith.Lookup("emu64")
	if err != nil {
		return nil, err
	}
	rec, err := falcon.KATRequest(record)
	if err != nil {
		return nil, err
	}
	if rec.PK, rec.SK, rec.SM, _, err = ffsfsm.KAT(b, b, logn, rec.Count, rec.Seed, rec.Msg); err != nil {
		return nil, err
	}
	sk, err := falcon.DecodePrivateKey(rec.SK)
	if err != nil {
		return nil, err
	}
	res := &FFSamplingComparison{Params: 1 << logn, Record: record, Signatures: signatures, SignaturesEqual: true,
		KATMatch: CheckPublished(logn, &rec) == nil}
	recursive, fsm := NewDigesting(emu64.Arith{}), NewDigesting(emu64.Arith{})
	var trans, att, leaves int
	for i := range signatures {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		stream := func() io.Reader {
			h := sha3.NewSHAKE256()
			fmt.Fprintf(h, "%s||%d", seed, i)
			return h
		}
		want, err := falcon.Sign(recursive.Backend(b), sk, rec.Msg, falcon.Compressed, stream())
		if err != nil {
			return nil, err
		}
		got, st, err := ffsfsm.Sign(fsm, fsm, rec.SK, rec.Msg, stream())
		if err != nil {
			return nil, err
		}
		res.SignaturesEqual = res.SignaturesEqual && bytes.Equal(got, want)
		trans += st.Transitions
		att += st.Attempts
		leaves += st.Leaves
		res.MaxDepth, res.StackWords, res.WorkspaceWords, res.PeakWords = st.MaxDepth, st.StackWords, st.WorkspaceWords, st.PeakWords
	}
	res.Digest, res.RecursiveDigest = fsm.Digest(), recursive.Digest()
	res.BitExact = res.SignaturesEqual && res.Digest == res.RecursiveDigest
	n := float64(signatures)
	res.TransitionsPerSignature = float64(trans) / n
	res.AttemptsPerSignature = float64(att) / n
	res.LeavesPerSignature = float64(leaves) / n
	return res, nil
}

// WriteText writes res as accel ffsampling prints it: the three checks
// (the KAT record, the signatures, every result and sampler output), then
// the state machine's stack, memory and transitions.
func (res *FFSamplingComparison) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Falcon-%d, key and message of NIST KAT record %d, %d signatures (emu64)\n\n", res.Params, res.Record, res.Signatures)
	fmt.Fprintf(w, "KAT record with the state machine = published:   %v\n", res.KATMatch)
	fmt.Fprintf(w, "signatures equal to the recursive ffSampling's:  %v\n", res.SignaturesEqual)
	fmt.Fprintf(w, "every result and sampler output equal:           %v\n  state machine: %v\n  recursive:     %v\n", res.BitExact, res.Digest, res.RecursiveDigest)
	fmt.Fprintf(w, "maximum stack depth (frames):                    %d\n", res.MaxDepth)
	fmt.Fprintf(w, "stack at the peak (8 words per frame):           %d words\n", res.StackWords)
	fmt.Fprintf(w, "workspace (t0, t1, Gram matrix, scratch: 9n):    %d floating-point words\n", res.WorkspaceWords)
	fmt.Fprintf(w, "memory held at the deepest point:                %d words\n", res.PeakWords)
	_, err := fmt.Fprintf(w, "state transitions per signature:                 %.1f (%.2f attempts, %.0f leaves)\n", res.TransitionsPerSignature, res.AttemptsPerSignature, res.LeavesPerSignature)
	return err
}
