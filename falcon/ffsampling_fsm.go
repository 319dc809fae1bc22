package falcon

import (
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/internal/ffsfsm"
	"github.com/fprlab/fprlab/internal/samplerprng"
)

// ffSampling as hardware runs it: a state machine with an explicit stack
// instead of recursion (Peregrino, section IV-F: an actuation module that
// computes, and a state-control module with a custom stack that stores
// the memory addresses, the polynomial degree and a checkpoint in its
// states S_RIGHT and S_LEFT, enables the actuation module in
// S_FFSAMPLING at one of three entry points -- before the first
// recursive call, between the two, after the second -- and ascends to the
// parent when a call is complete).
//
// The machine runs the dynamic-tree ffSampling of the round-3 NIST API
// (ffSamplingDyn, Zf(ffSampling_fft_dyntree)) on one workspace addressed
// by offsets, as a hardware memory is: each frame holds the six region
// addresses (t0, t1, g00, g01, g11, tmp), the degree and the checkpoint.
// It is doSignDyn's ffSampling step (fsmStep), and its actuation module
// runs the node steps that ffSamplingDyn runs (sign.go), so signatures are
// bit for bit those of Sign; the tests check it on the signing vectors.

// ffsState is a state of the control module.
type ffsState uint8

const (
	// sFFSampling enables the actuation module at the frame's checkpoint.
	sFFSampling ffsState = iota
	// sRight and sLeft push the frame (with the checkpoint to resume at)
	// and descend into the right or left child; the right child (t1) is
	// sampled first.
	sRight
	sLeft
	// sAscend pops the parent frame, or finishes at the root.
	sAscend
	sDone
)

// Checkpoints of a frame: the three entry points of the actuation module.
const (
	ckBeforeRight uint8 = iota
	ckBetween
	ckAfterLeft
)

// ffsFrame is one entry of the custom stack.
type ffsFrame struct {
	t0, t1, g00, g01, g11, tmp int // addresses in the workspace
	logn                       uint
	checkpoint                 uint8
}

// ffsFrameWords is the number of memory words of a stack frame: six
// addresses, the degree and the checkpoint.
const ffsFrameWords = 8

// ffsStats is the statistics the state machine accumulates over one
// signature; package ffsfsm declares it for the callers outside falcon.
type ffsStats = ffsfsm.Stats

// ffSamplingFSM is ffSamplingDyn as a state machine over workspace w: the
// root frame's regions hold the target and the Gram matrix, and the result
// replaces the target as in ffSamplingDyn.
func ffSamplingFSM[F any, A arith.Arith[F]](a A, s *sampler[F, A], w []F, root ffsFrame, origLogn uint, st *ffsStats) {
	stack := make([]ffsFrame, 0, root.logn)
	cur := root
	cur.checkpoint = ckBeforeRight
	state := sFFSampling
	for state != sDone {
		st.Transitions++
		n := 1 << cur.logn
		hn := n >> 1
		switch state {
		case sFFSampling:
			state = ffsActuate(a, s, w, &cur, origLogn, st)
		case sRight, sLeft:
			// Push the frame with the checkpoint to resume at and
			// descend: the regions of the child are those ffSamplingDyn
			// passes to its recursive calls.
			var child ffsFrame
			if state == sRight {
				cur.checkpoint = ckBetween
				z1 := cur.tmp + n
				child = ffsFrame{t0: z1, t1: z1 + hn, g00: cur.g11, g01: cur.g11 + hn, g11: cur.g01 + hn, tmp: z1 + n}
			} else {
				cur.checkpoint = ckAfterLeft
				z0 := cur.tmp
				child = ffsFrame{t0: z0, t1: z0 + hn, g00: cur.g00, g01: cur.g00 + hn, g11: cur.g01, tmp: z0 + n}
			}
			stack = append(stack, cur)
			st.MaxDepth = max(st.MaxDepth, len(stack))
			child.logn = cur.logn - 1
			child.checkpoint = ckBeforeRight
			cur = child
			state = sFFSampling
		case sAscend:
			if len(stack) == 0 {
				state = sDone
				break
			}
			cur = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			state = sFFSampling
		}
	}
}

// ffsActuate is the actuation module: the step of ffSamplingDyn for the
// frame's checkpoint (the node steps of sign.go, which ffSamplingDyn runs
// too, with the same observer events and plan stages), returning the next
// state.
func ffsActuate[F any, A arith.Arith[F]](a A, s *sampler[F, A], w []F, f *ffsFrame, origLogn uint, st *ffsStats) ffsState {
	n := 1 << f.logn
	reg := func(off, size int) []F { return w[off : off+size] }
	t0, t1 := reg(f.t0, n), reg(f.t1, n)
	g00, g01, g11 := reg(f.g00, n), reg(f.g01, n), reg(f.g11, n)
	tmp := w[f.tmp:]
	if f.logn == 0 {
		st.Leaves++
		ffsLeaf(a, s, t0, t1, g00, origLogn)
		return sAscend
	}
	switch f.checkpoint {
	case ckBeforeRight:
		ffsBeforeRight(a, s, t1, g00, g01, g11, f.logn, tmp)
		return sRight
	case ckBetween:
		ffsBetween(a, s, t0, t1, f.logn, tmp)
		return sLeft
	default: // ckAfterLeft
		ffsAfterLeft(a, s, t0, f.logn, tmp)
		return sAscend
	}
}

// fsmStep returns doSignDyn's ffSampling step run by the state machine,
// accumulating its statistics into st. The root frame addresses the
// workspace as doSignDyn lays it out.
func fsmStep[F any, A arith.Arith[F]](a A, s *sampler[F, A], st *ffsStats) func(ws []F, logn uint) {
	return func(ws []F, logn uint) {
		n := 1 << logn
		root := ffsFrame{t0: 5 * n, t1: 6 * n, g00: 0, g01: n, g11: 2 * n, tmp: 7 * n, logn: logn}
		ffSamplingFSM(a, s, ws, root, logn, st)
		st.Attempts++
		st.StackWords = st.MaxDepth * ffsFrameWords
		st.WorkspaceWords = 9 * n
		st.PeakWords = st.StackWords + st.WorkspaceWords
	}
}

// fsmAttempt returns the attempt function of the state-machine path over
// a, reporting to obs (nil for none) and accumulating into st.
func fsmAttempt[F any, A arith.Arith[F]](a A, obs Observer[F], sk *PrivateKey, hNTT []uint16, st *ffsStats) attemptFunc {
	return func(hm []uint16, seed *[SeedSize]byte) (*Attempt, error) {
		var p samplerprng.PRNG
		p.Init(seed)
		s := newSampler(a, &p, sk.LogN, obs)
		at := doSignDyn(a, s, sk, hNTT, hm, fsmStep(a, s, st))
		if s.stuck {
			return nil, ErrSamplerStuck
		}
		if obs != nil {
			obs.Attempt(at)
		}
		return at, nil
	}
}

// The entry points of package ffsfsm run the emu64 instance (FPEMU, the
// reference's integer emulation of binary64, which a hardware datapath
// implements); the tests run the generic code over other arithmetics.
func init() {
	ffsfsm.Sign = func(a arith.Arith[emu64.FPR], obs any, skEnc, msg []byte, rng io.Reader) ([]byte, *ffsStats, error) {
		sk, err := DecodePrivateKey(skEnc)
		if err != nil {
			return nil, nil, err
		}
		var o Observer[emu64.FPR]
		if obs != nil {
			var ok bool
			if o, ok = obs.(Observer[emu64.FPR]); !ok {
				return nil, nil, fmt.Errorf("falcon: the state machine's observer %T is not a falcon.Observer[emu64.FPR]", obs)
			}
		}
		if e, ok := a.(emu64.Arith); ok {
			return signFSMEmu64(e, o, sk, msg, Compressed, rng)
		}
		// A wrapper of emu64 (accel's counting or digesting arithmetic)
		// runs the generic code.
		return signFSM[emu64.FPR](a, o, sk, msg, Compressed, rng)
	}
	ffsfsm.KAT = func(kb, b arith.Backend, logn uint, count int, seed, msg []byte) (pk, sk, sm []byte, st *ffsStats, err error) {
		a, ok := b.Impl.(emu64.Arith)
		if !ok {
			return nil, nil, nil, nil, fmt.Errorf("falcon: the ffSampling state machine runs over emu64, not backend %q", b.Name)
		}
		r := KATRecord{Count: count, Seed: seed, Msg: msg}
		st, err = generateKATRecordFSMEmu64(kb, a, logn, &r)
		return r.PK, r.SK, r.SM, st, err
	}
}

// signFSM is Sign (the dynamic path, falcon_sign_dyn) over arithmetic a
// with ffSampling run by the hardware-style state machine: the same
// signature bit for bit, and the machine's statistics over all attempts.
// obs (nil for none) sees the events Sign reports.
func signFSM[F any, A arith.Arith[F]](a A, obs Observer[F], sk *PrivateKey, msg []byte, format SigFormat, rng io.Reader) ([]byte, *ffsStats, error) {
	full, hNTT, err := completeKeyNTT(sk)
	if err != nil {
		return nil, nil, err
	}
	st := &ffsStats{}
	sig, err := signMessage(full.LogN, msg, format, rng, fsmAttempt(a, obs, full, hNTT, st))
	if err != nil {
		return nil, nil, err
	}
	return sig, st, nil
}

// signHashedDynFSM is SignHashedDyn over arithmetic a with ffSampling run
// by the state machine: s2 of the round-3 NIST API's crypto_sign, bit for
// bit, and the machine's statistics.
func signHashedDynFSM[F any, A arith.Arith[F]](a A, obs Observer[F], sk *PrivateKey, hm []uint16, rng io.Reader) ([]int16, *ffsStats, error) {
	full, hNTT, err := completeKeyNTT(sk)
	if err != nil {
		return nil, nil, err
	}
	if err := checkHashed(hm, full.LogN); err != nil {
		return nil, nil, err
	}
	st := &ffsStats{}
	budget := maxAttempts
	s2, err := signLoop(hm, rng, fsmAttempt(a, obs, full, hNTT, st), &budget)
	if err != nil {
		return nil, nil, err
	}
	return s2, st, nil
}

// generateKATRecordFSM is GenerateKAT with keys over backend kb and
// crypto_sign's signature made over arithmetic a with ffSampling run by
// the state machine: the published record, bit for bit, and the machine's
// statistics over the signature's attempts.
func generateKATRecordFSM[F any, A arith.Arith[F]](kb arith.Backend, a A, logn uint, r *KATRecord) (*ffsStats, error) {
	var st *ffsStats
	err := generateKATRecord(kb, logn, r, nil, func(sk *PrivateKey, hm []uint16, rng io.Reader) ([]int16, error) {
		s2, s, err := signHashedDynFSM(a, nil, sk, hm, rng)
		st = s
		return s2, err
	}, maxKeygenFailures)
	if err != nil {
		return nil, err
	}
	return st, nil
}
