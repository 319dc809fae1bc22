package falcon

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"slices"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/falcon/katref"
)

// TestSignFSMVectors signs the 120 padded signing vectors (n = 2 to 1024;
// -short: the subset of TestSignKATPadded) with ffSampling run by the
// state machine over emu64: every signature is the published one byte for
// byte, the accumulated SHA-256 matches, and the machine's statistics have
// the values the tree's shape dictates -- a depth of logn frames, and per
// attempt 2^logn leaves, 6 state entries per internal node (FFSAMPLING
// three times, RIGHT, LEFT, ASCEND) and 2 per leaf (FFSAMPLING, ASCEND).
func TestSignFSMVectors(t *testing.T) {
	vs := signKATSubset(loadSignKAT(t))
	got, want := sha256.New(), sha256.New()
	for _, v := range vs {
		sig := mustHex(t, v.Sig)
		rng := bytes.NewReader(v.stream(t))
		s, st, err := signFSM(emu64.Arith{}, nil, v.key(), []byte(v.Message), Padded, rng)
		if err != nil {
			t.Fatalf("vector %d: %v", v.Index, err)
		}
		got.Write(s)
		want.Write(sig)
		if !bytes.Equal(s, sig) {
			t.Errorf("vector %d (n = %d): signature differs", v.Index, v.N)
		}
		n, att := 1<<v.LogN, len(v.PRNGSeeds)
		wantT := att * (6*(n-1) + 2*n)
		if st.Attempts != att || st.MaxDepth != int(v.LogN) || st.Leaves != att*n || st.Transitions != wantT ||
			st.PeakWords != 8*int(v.LogN)+9*n {
			t.Errorf("vector %d (n = %d, %d attempts): %+v, want %d transitions", v.Index, v.N, att, st, wantT)
		}
	}
	if !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
		t.Errorf("accumulated SHA-256 over %d signatures differs", len(vs))
	}
}

// TestSignHashedDynFSM checks the NIST API path: s2 equals SignHashedDyn's
// on the vectors' keys and streams (seeds only, no nonce in the stream).
func TestSignHashedDynFSM(t *testing.T) {
	vs := signKATSubset(loadSignKAT(t))
	b := mustBackend(t, "emu64")
	for _, v := range vs[:min(len(vs), 40)] {
		hm := HashToPoint(mustHex(t, v.Nonce), []byte(v.Message), v.LogN)
		seeds := v.stream(t)[NonceSize:]
		wantS2, err := SignHashedDyn(b, v.key(), hm, bytes.NewReader(seeds))
		if err != nil {
			t.Fatal(err)
		}
		s2, _, err := signHashedDynFSM(emu64.Arith{}, nil, v.key(), hm, bytes.NewReader(seeds))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s2, wantS2) {
			t.Errorf("vector %d: s2 differs", v.Index)
		}
	}
	if _, _, err := signHashedDynFSM(emu64.Arith{}, nil, vs[0].key(), []uint16{1}, bytes.NewReader(nil)); err == nil {
		t.Error("a hashed point of the wrong length was accepted")
	}
}

// eventDigest is an Observer that hashes every event, a value by its
// bits.
type eventDigest[F any] struct {
	h    hash.Hash
	bits func(F) uint64
}

func newEventDigest[F any](bits func(F) uint64) *eventDigest[F] {
	return &eventDigest[F]{sha256.New(), bits}
}

// emu64Bits and float64Bits are the bits of a value of emu64 and native.
func emu64Bits(v emu64.FPR) uint64 { return uint64(v) }

var float64Bits = math.Float64bits

func (d *eventDigest[F]) word(v uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	d.h.Write(b[:])
}

func (d *eventDigest[F]) Stage(st Stage, level, iter int, values ...[]F) {
	d.word(uint64(st)<<32 | uint64(level)<<16 | uint64(iter))
	for _, vs := range values {
		d.word(uint64(len(vs)))
		for _, v := range vs {
			d.word(d.bits(v))
		}
	}
}

func (d *eventDigest[F]) Sample(mu, isigma F, z int64, rejections int) {
	d.word(d.bits(mu))
	d.word(d.bits(isigma))
	d.word(uint64(z))
	d.word(uint64(rejections))
}

func (d *eventDigest[F]) BerExp(expm uint64, shift uint, drawn uint64, nbytes int, accept bool) {
	d.word(expm)
	d.word(uint64(shift))
	d.word(drawn)
	d.word(uint64(nbytes))
	if accept {
		d.word(1)
	}
}

func (d *eventDigest[F]) Attempt(at *Attempt) { d.word(uint64(at.SqNorm)) }

// TestSignFSMObserver checks that an observer sees the same events, with
// the same values, from the state machine as from the recursive
// ffSampling, on a few vectors.
func TestSignFSMObserver(t *testing.T) {
	vs := loadSignKAT(t)
	for _, v := range []signKATVector{vs[0], vs[60], vs[len(vs)-1]} {
		rec, fsm := newEventDigest(emu64Bits), newEventDigest(emu64Bits)
		b := Instantiate(mustBackend(t, "emu64"), emu64.Arith{}, Observer[emu64.FPR](rec))
		if _, err := Sign(b, v.key(), []byte(v.Message), Padded, bytes.NewReader(v.stream(t))); err != nil {
			t.Fatal(err)
		}
		if _, _, err := signFSM(emu64.Arith{}, Observer[emu64.FPR](fsm), v.key(), []byte(v.Message), Padded, bytes.NewReader(v.stream(t))); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(rec.h.Sum(nil), fsm.h.Sum(nil)) {
			t.Errorf("vector %d (n = %d): observer events differ", v.Index, v.N)
		}
	}
}

// TestKATRecordsFSM regenerates NIST KAT records with crypto_sign's
// ffSampling run by the state machine and compares them with the
// published files: the first two Falcon-512 records with -short, the
// first 20 of each degree otherwise.
func TestKATRecordsFSM(t *testing.T) {
	kb := mustBackend(t, "emu64")
	for _, ref := range katref.Files {
		n := 20
		if testing.Short() {
			if ref.LogN != 9 {
				continue
			}
			n = 2
		}
		data, err := katref.Response(ref.LogN)
		if err != nil {
			t.Fatal(err)
		}
		_, want, err := ParseKAT(data)
		if err != nil {
			t.Fatal(err)
		}
		recs := KATRequests(n)
		for i := range recs {
			st, err := generateKATRecordFSM(kb, emu64.Arith{}, ref.LogN, &recs[i])
			if err != nil {
				t.Fatalf("logn %d record %d: %v", ref.LogN, i, err)
			}
			if m := CompareKATRecord(&recs[i], &want[i]); m != nil {
				t.Errorf("logn %d record %d: first difference in %s at byte %d", ref.LogN, i, m.Field, m.Offset)
			}
			if st.MaxDepth != int(ref.LogN) || st.Attempts < 1 {
				t.Errorf("logn %d record %d: %+v", ref.LogN, i, st)
			}
		}
	}
}

// stageLog is binary64 (native) that records, as a Staged arithmetic, the
// plan stages it is told to enter and the number of additions and
// multiplications between two boundaries: the trace a precision plan
// computes by.
type stageLog struct {
	native.Arith
	h   hash.Hash
	cur PlanStage
	ops int
	// entered counts the boundaries per stage.
	entered [NumPlanStages]int
}

func newStageLog() *stageLog { return &stageLog{h: sha256.New()} }

func (l *stageLog) EnterStage(s PlanStage) PlanStage {
	fmt.Fprintf(l.h, "%d:%d ", l.ops, s)
	l.ops = 0
	l.entered[s]++
	prev := l.cur
	l.cur = s
	return prev
}

func (l *stageLog) Add(x, y float64) float64 { l.ops++; return l.Arith.Add(x, y) }
func (l *stageLog) Sub(x, y float64) float64 { l.ops++; return l.Arith.Sub(x, y) }
func (l *stageLog) Mul(x, y float64) float64 { l.ops++; return l.Arith.Mul(x, y) }

// TestSignFSMPlanStages signs with the recursion (Sign) and with the state
// machine (SignFSM) over a Staged arithmetic: the sequence of plan-stage
// boundaries, with the operations between them, is the same -- so a
// precision plan computes every value of ffSampling in the same format
// on both paths -- and the signatures are equal. The trace must have
// visited every stage of dynamic signing (the leaf stage 2^logn times per
// attempt at least).
func TestSignFSMPlanStages(t *testing.T) {
	v := signKATSubset(loadSignKAT(t))
	for _, vec := range v[len(v)-2:] {
		rec, fsm := newStageLog(), newStageLog()
		b := Instantiate(arith.Backend{Name: "stagelog", Bits: 53}, rec, nil)
		want, err := Sign(b, vec.key(), []byte(vec.Message), Padded, bytes.NewReader(vec.stream(t)))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := signFSM(fsm, nil, vec.key(), []byte(vec.Message), Padded, bytes.NewReader(vec.stream(t)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("vector %d: signatures differ", vec.Index)
		}
		if !bytes.Equal(rec.h.Sum(nil), fsm.h.Sum(nil)) || rec.entered != fsm.entered {
			t.Errorf("vector %d: plan-stage traces differ: recursion %v, state machine %v", vec.Index, rec.entered, fsm.entered)
		}
		for _, st := range []PlanStage{PlanFFT, PlanGram, PlanLDL, PlanLeaf, PlanTarget, PlanFFSampling, PlanSampler, PlanLattice} {
			if rec.entered[st] == 0 {
				t.Errorf("vector %d: stage %s never entered", vec.Index, st)
			}
		}
		if n := 1 << vec.LogN; rec.entered[PlanLeaf] < n {
			t.Errorf("vector %d: the leaf stage entered %d times, want at least %d", vec.Index, rec.entered[PlanLeaf], n)
		}
	}
}
