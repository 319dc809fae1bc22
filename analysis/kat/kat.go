// Package kat replays the round-3 NIST known-answer test of Falcon over
// arithmetic backends: it regenerates the response file's records (key
// generation over one backend, signing over another), compares them with a
// reference file, keeps a checkpoint of the records made, and finds where
// the first differing record parts from emu64 (analysis/shadow). fprlab
// kat parses its flags, calls it and prints. A scheme's own known-answer test
// (FN-DSA's, go-fn-dsa's records) is the scheme's: scheme.KATReplayer.
package kat

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
	"github.com/fprlab/fprlab/internal/checkpoint"
	"github.com/fprlab/fprlab/internal/safefile"
)

// Result is the --json output of fprlab kat for one backend. Scripts
// depend on it: the field names and meanings are stable.
type Result struct {
	Backend string `json:"backend"`
	// KeygenBackend is the backend that generated the keys: the same as
	// Backend unless that one cannot run NTRUSolve (triword), in which
	// case keys come from the binary64 emulation and only signing runs on
	// Backend, or unless --keygen-backend chose another.
	KeygenBackend string `json:"keygen_backend"`
	// Mode is "tree" when the signatures came from the expanded key
	// (falcon_sign_tree) instead of crypto_sign's falcon_sign_dyn, and
	// empty for the default.
	Mode          string    `json:"mode,omitempty"`
	Params        int       `json:"params"`
	Records       int       `json:"records"`
	MatchPK       int       `json:"match_pk"`
	MatchSK       int       `json:"match_sk"`
	MatchSM       int       `json:"match_sm"`
	SHA256        string    `json:"sha256"`
	FirstMismatch *Mismatch `json:"first_mismatch"`
	// FirstDivergence is where the run of the first mismatching record
	// first decided differently from emu64 along the same inputs (found by
	// running the backend beside emu64); null when every record matches.
	FirstDivergence *shadow.Divergence `json:"first_divergence"`
	// Error is present only when the backend could not produce a record
	// (for instance a backend whose exponent range is too small for key
	// generation). The run stops there: first_mismatch names that
	// record's pk at offset 0, and sha256 covers the records before it.
	Error string `json:"error,omitempty"`
}

// Mismatch locates the first difference from the reference.
type Mismatch struct {
	Record int    `json:"record"`
	Field  string `json:"field"`
	Offset int    `json:"offset"`
}

// Run is the outcome of regenerating the KAT over one backend: the result
// and the generated response file.
type Run struct {
	Result   Result
	Response []byte
}

// AllMatch reports whether every record equals the reference's.
func (r *Run) AllMatch() bool { return r.Result.FirstMismatch == nil }

// Reference is a KAT response file to compare with: its name (the file
// given, or the published file's), the SHA-256 of its bytes, its records.
type Reference struct {
	Name    string
	SHA256  string
	Records []falcon.KATRecord
}

// ParseReference reads a response file named name (the file given, or
// the published one) for degree 2^logn.
func ParseReference(name string, data []byte, logn uint) (*Reference, error) {
	ref := Reference{Name: name}
	sum := sha256.Sum256(data)
	ref.SHA256 = hex.EncodeToString(sum[:])
	algo, recs, err := falcon.ParseKAT(data)
	if err != nil {
		return nil, fmt.Errorf("reference %s: %w", ref.Name, err)
	}
	if want, _ := falcon.KATName(logn); algo != "" && algo != want {
		return nil, fmt.Errorf("reference %s is a %s file, not %s (--params %d)", ref.Name, algo, want, 1<<logn)
	}
	ref.Records = recs
	return &ref, nil
}

// maxReferenceFile caps a --ref file: the published Falcon-1024 response
// file is about 1.6 MB, so 64 MiB only stops a mistaken device or disk
// image.
const maxReferenceFile = 64 << 20

// LoadReference reads the reference of degree 2^logn: the response file
// at path ("-": in), or the published file embedded in katref when path
// is empty.
func LoadReference(in io.Reader, path string, logn uint) (*Reference, error) {
	if path != "" {
		data, err := safefile.Read(in, path, maxReferenceFile)
		if err != nil {
			return nil, fmt.Errorf("--ref: %w", err)
		}
		return ParseReference(path, data, logn)
	}
	data, err := katref.Response(logn)
	if err != nil {
		return nil, err
	}
	f, _ := katref.Lookup(logn)
	return ParseReference("published "+f.Name+" (embedded)", data, logn)
}

// Check checks that the first n records of the reference are
// complete records of degree 2^logn, numbered from 0: anything else is a
// malformed reference (exit 2), which a comparison would misreport as the
// backend's mismatch.
func (ref *Reference) Check(logn uint, n int) error {
	p, err := falcon.ParamsFor(logn)
	if err != nil {
		return err
	}
	for i, r := range ref.Records[:n] {
		bad := ""
		switch {
		case r.Count != i:
			bad = fmt.Sprintf("has count %d", r.Count)
		case len(r.Seed) == 0 || len(r.PK) == 0 || len(r.SK) == 0 || len(r.SM) == 0:
			bad = "is incomplete (a seed, pk, sk or sm is missing: a truncated file?)"
		case len(r.PK) != p.PublicKeySize || r.PK[0] != byte(logn):
			bad = fmt.Sprintf("has a %d-byte pk with header 0x%02x, not a Falcon-%d public key (%d bytes, header 0x%02x)", len(r.PK), r.PK[0], p.N, p.PublicKeySize, logn)
		case len(r.SK) != p.PrivateKeySize || r.SK[0] != 0x50+byte(logn):
			bad = fmt.Sprintf("has a %d-byte sk, not a Falcon-%d private key (%d bytes)", len(r.SK), p.N, p.PrivateKeySize)
		case len(r.SM) < len(r.Msg)+2+falcon.NonceSize+1:
			bad = fmt.Sprintf("has a %d-byte sm, too short for its %d-byte message and a signature", len(r.SM), len(r.Msg))
		}
		if bad != "" {
			return fmt.Errorf("reference %s: record %d %s", ref.Name, i, bad)
		}
	}
	return nil
}

// Checkpoint is the checkpoint payload of kat: the records generated
// so far for each (signing backend, key backend) pair. A record depends
// only on its index, the degree and the backends, so the state serves any
// --records and --backend.
type Checkpoint struct {
	Done map[string][]falcon.KATRecord `json:"done"`
}

// key names a (signing backend, key backend) pair in a Checkpoint.
func key(sign, keys string) string { return sign + " keys:" + keys }

// Identity is the identity of a kat checkpoint written by version: the
// degree is the only flag its records depend on besides the backends,
// which key the records.
func Identity(logn uint, version string) checkpoint.Identity {
	return checkpoint.Identity{Command: "kat", Flags: map[string]string{"params": strconv.Itoa(1 << logn)}, Version: version}
}

// Regenerate regenerates the first n records, keys over backend kb and
// signatures over backend b in the given mode, and compares them with ref, reporting its
// progress on progress. A record the backends cannot produce ends the run
// and is reported in the result's Error. With a checkpoint, records
// already in it are reused and each new one is saved to ckptPath (under
// Identity(logn, version)) as soon as it is made. It stops with ctx's
// error when ctx is cancelled between records.
func Regenerate(ctx context.Context, kb, b arith.Backend, mode falcon.Mode, logn uint, n int, ref []falcon.KATRecord, progress io.Writer, ckpt *Checkpoint, ckptPath, version string) (*Run, error) {
	recs := falcon.KATRequests(n)
	res := Result{Backend: b.Name, KeygenBackend: kb.Name, Params: 1 << logn, Records: n}
	if kb.Name != b.Name {
		fmt.Fprintf(progress, "kat: %s Falcon-%d: keys generated with %s, signatures with %s\n", b.Name, 1<<logn, kb.Name, b.Name)
	}
	var done []falcon.KATRecord
	k := key(b.Name, kb.Name)
	if mode != falcon.Dyn {
		// Records of another procedure are other records.
		res.Mode = mode.String()
		k = key(b.Name+" mode:"+mode.String(), kb.Name)
	}
	resumed := 0 // records taken from the checkpoint
	if ckpt != nil {
		if ckpt.Done == nil {
			// A checkpoint file may hold "done": null.
			ckpt.Done = map[string][]falcon.KATRecord{}
		}
		done = ckpt.Done[k]
		// Only the leading records that answer their own requests are
		// taken: a record that does not (a checkpoint edited by hand,
		// its checksum recomputed) is made again, and so is every one
		// after it.
		for resumed < min(len(done), n) && sameRequest(&done[resumed], &recs[resumed]) {
			resumed++
		}
		if resumed < min(len(done), n) {
			fmt.Fprintf(progress, "kat: %s Falcon-%d: the checkpoint's record %d does not answer request %d: it and those after it are generated again\n", b.Name, 1<<logn, resumed, resumed)
			done = done[:resumed]
		}
		if resumed > 0 {
			fmt.Fprintf(progress, "kat: %s Falcon-%d: %d records taken from the checkpoint\n", b.Name, 1<<logn, resumed)
		}
	}
	for i := range recs {
		var err error
		generated := false
		if i < resumed {
			recs[i] = done[i]
		} else if ctx.Err() != nil {
			return nil, ctx.Err()
		} else if err = generateKAT(i, logn, &recs[i], falcon.KATOptions{Keygen: kb, Sign: b, Mode: mode}); err == nil {
			generated = true
			if ckpt != nil && i >= len(done) {
				done = append(done, recs[i])
				ckpt.Done[k] = done
				if err := checkpoint.Save(ckptPath, Identity(logn, version), ckpt); err != nil {
					return nil, err
				}
			}
		}
		if err != nil {
			res.Error = fmt.Sprintf("record %d: %v", i, err)
			if res.FirstMismatch == nil {
				res.FirstMismatch = &Mismatch{Record: ref[i].Count, Field: "pk", Offset: 0}
			}
			fmt.Fprintf(progress, "kat: %s Falcon-%d: stopped at record %d: %v\n", b.Name, 1<<logn, i, err)
			recs = recs[:i]
			break
		}
		got, want := &recs[i], &ref[i]
		if bytes.Equal(got.PK, want.PK) {
			res.MatchPK++
		}
		if bytes.Equal(got.SK, want.SK) {
			res.MatchSK++
		}
		if bytes.Equal(got.SM, want.SM) {
			res.MatchSM++
		}
		if m := falcon.CompareKATRecord(got, want); m != nil && res.FirstMismatch == nil {
			res.FirstMismatch = &Mismatch{Record: m.Record, Field: m.Field, Offset: m.Offset}
		}
		if generated && ((i+1)%10 == 0 || i+1 == n) {
			if resumed > 0 {
				fmt.Fprintf(progress, "kat: %s Falcon-%d: %d/%d records (%d generated now, %d from the checkpoint)\n", b.Name, 1<<logn, i+1, n, i+1-resumed, resumed)
			} else {
				fmt.Fprintf(progress, "kat: %s Falcon-%d: %d/%d records\n", b.Name, 1<<logn, i+1, n)
			}
		}
	}
	var buf bytes.Buffer
	if err := falcon.WriteKAT(&buf, logn, recs); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(buf.Bytes())
	res.SHA256 = hex.EncodeToString(sum[:])
	return &Run{Result: res, Response: buf.Bytes()}, nil
}

// sameRequest reports whether record r answers request req: the same
// count, seed and message.
func sameRequest(r, req *falcon.KATRecord) bool {
	return r.Count == req.Count && bytes.Equal(r.Seed, req.Seed) && bytes.Equal(r.Msg, req.Msg)
}

// generateKAT is falcon.GenerateKAT of record i, noted as the unit under
// way (arith.StartUnit).
func generateKAT(i int, logn uint, r *falcon.KATRecord, opts falcon.KATOptions) error {
	defer arith.StartUnit(fmt.Sprintf("record %d", i))()
	return falcon.GenerateKAT(logn, r, opts)
}

// Locate runs the first differing record of r (if any, and if b could sign
// every record) over b beside emu64 (kb generates its keys) and records
// where the two first part (shadow.FirstDivergence), saying so on
// progress first.
func (r *Run) Locate(b, kb arith.Backend, logn uint, progress io.Writer) error {
	m := r.Result.FirstMismatch
	if m == nil || r.Result.Error != "" {
		return nil
	}
	fmt.Fprintf(progress, "kat: %s Falcon-%d: record %d differs; running it beside emu64 to find where\n", b.Name, 1<<logn, m.Record)
	d, err := shadow.FirstDivergence(b, kb, logn, falcon.KATRequests(m.Record + 1)[m.Record])
	if err != nil {
		return fmt.Errorf("backend %s: finding the first divergence of record %d: %w", b.Name, m.Record, err)
	}
	r.Result.FirstDivergence = d
	return nil
}

// FallbackKeygenBackend generates the keys for backends that cannot run
// NTRUSolve.
const FallbackKeygenBackend = "emu64"

// KeygenBackend returns the backend that generates keys for signing
// backend b: b itself if it can run NTRUSolve, else FallbackKeygenBackend
// (looked up with lookup) when b's exponent range is what stops it
// (falcon.ErrKeygenRange: triword), else the reason b cannot.
func KeygenBackend(b arith.Backend, lookup func(string) (arith.Backend, error)) (arith.Backend, error) {
	err := falcon.KeygenSupported(b)
	if err == nil {
		return b, nil
	}
	if !errors.Is(err, falcon.ErrKeygenRange) {
		return arith.Backend{}, err
	}
	return lookup(FallbackKeygenBackend)
}
