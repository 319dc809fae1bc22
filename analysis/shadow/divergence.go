package shadow

import (
	"fmt"
	"math"
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

// Divergence is where a backend's run of a NIST KAT record first decides
// differently from the reference's binary64 arithmetic (emu64) along the
// same inputs.
type Divergence struct {
	Record int    `json:"record"`
	Phase  string `json:"phase"` // "keygen" or "sign"
	Where  string `json:"where"` // e.g. "keygen candidate 0, NTRUSolve depth 1, Babai iteration 0, rint #17"
	Kind   string `json:"kind"`  // the decision: rint, floor, trunc, lt, berexp, berexp_more_bytes, berexp_fewer_bytes
	B      int64  `json:"backend"`
	Ref    int64  `json:"emu64"`
}

// String describes the divergence in words.
func (d *Divergence) String() string {
	return fmt.Sprintf("record %d, %s: %s: %d vs %d (emu64)", d.Record, d.Phase, d.Where, d.B, d.Ref)
}

// emuSide is emu64 as the reference side of a divergence search. FromBig
// rounds through binary64; it is used only for error statistics, which a
// divergence search does not read.
type emuSide struct{ emu64.Arith }

func (e emuSide) FromBig(v *big.Float) emu64.FPR {
	f, _ := v.Float64()
	return e.FromFloat64(f)
}

// FirstDivergence runs KAT record req over backend b (keys from kb, which
// is b or a binary64 backend) beside emu64 and returns the first decision
// where the two arithmetics differ, or nil if none does. Every difference
// in a record's bytes starts at such a decision: between decisions the
// integer parts of Falcon are the same computation.
func FirstDivergence(b, kb arith.Backend, logn uint, req falcon.KATRecord) (*Divergence, error) {
	// Every difference counts: emu64 is the reference here, not an exact
	// value with a resolution.
	mk, err := runnersOf(b)
	if err != nil {
		return nil, err
	}
	return mk.emu(b, emuSide{}, map[arith.Constant]emu64.FPR{}, math.Inf(-1)).divergence(kb, logn, req)
}

// divergence implements FirstDivergence for one value type.
func (r *pairRunner[F, X, A, AX]) divergence(kb arith.Backend, logn uint, req falcon.KATRecord) (*Divergence, error) {
	var ko *observer[F, X, A, AX]
	if kb.Name == r.b.Name {
		kb, ko = r.instance("keygen", req.Count, req.Count)
	}
	sb, so := r.instance("signature", req.Count, req.Count)
	// The backend's run may fail (a key candidate the backend never
	// accepts): the decisions before the failure still tell where it
	// left the reference's path.
	runErr := falcon.GenerateKAT(logn, &req, falcon.KATOptions{Keygen: kb, Sign: sb})
	for _, o := range []*observer[F, X, A, AX]{ko, so} {
		if o == nil {
			continue
		}
		rec := o.finish()
		if len(rec.FlipDetail) > 0 {
			f := rec.FlipDetail[0]
			phase := "sign"
			if rec.Kind == "keygen" {
				phase = "keygen"
			}
			return &Divergence{Record: req.Count, Phase: phase, Where: f.Where, Kind: f.Kind, B: f.B, Ref: f.X}, nil
		}
	}
	if runErr != nil {
		return nil, runErr
	}
	return nil, nil
}
