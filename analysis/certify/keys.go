package certify

import (
	"context"
	"fmt"
	"slices"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
	"github.com/fprlab/fprlab/scheme"
)

// The keys a certification covers, and the loops over (backend, key)
// pairs of the certify command and of compare --certify.

// Key is a key to certify and what the output calls it.
type Key struct {
	Ref KeyRef
	SK  *falcon.PrivateKey
}

// FileKey decodes a private key given in a file (path, for messages) in
// sc's encoding. With logn nonzero (--params given) the key must be of
// that degree; in any case of 512 or 1024, the degrees certify analyses.
func FileKey(sc scheme.Scheme, data []byte, path string, logn uint) (Key, error) {
	reader, err := scheme.ReaderOf(sc)
	if err != nil {
		return Key{}, fmt.Errorf("--sk: %w", err)
	}
	sk, err := reader.DecodePrivateKey(data)
	if err != nil {
		return Key{}, fmt.Errorf("--sk %s: %w", path, err)
	}
	if logn != 0 && sk.LogN != logn {
		return Key{}, fmt.Errorf("--sk %s holds a key of degree %d, --params says %d", path, 1<<sk.LogN, 1<<logn)
	}
	if sk.LogN != 9 && sk.LogN != 10 {
		return Key{}, fmt.Errorf("--sk %s holds a key of degree %d: certify analyses 512 and 1024", path, 1<<sk.LogN)
	}
	return Key{Ref: KeyRef{Source: "file"}, SK: sk}, nil
}

// KATKeys returns the private keys of the NIST KAT records from to to
// (excluded) of degree 2^logn.
func KATKeys(logn uint, from, to int) ([]Key, error) {
	rsp, err := katref.Response(logn)
	if err != nil {
		return nil, err
	}
	_, recs, err := falcon.ParseKAT(rsp)
	if err != nil {
		return nil, err
	}
	if from < 0 || to > len(recs) || from > to {
		return nil, fmt.Errorf("KAT records %d:%d: the file holds records 0 to %d", from, to, len(recs)-1)
	}
	var keys []Key
	for i := from; i < to; i++ {
		sk, err := falcon.DecodePrivateKey(recs[i].SK)
		if err != nil {
			return nil, fmt.Errorf("KAT record %d: %w", i, err)
		}
		keys = append(keys, Key{KeyRef{Source: "kat", Index: i}, sk})
	}
	return keys, nil
}

// SeededKeys returns the keys of the seeded campaign cfg over b, made as
// the campaign makes them (shadow.Config.SeededKey): its scheme's own
// when it signs with them.
func SeededKeys(cfg shadow.Config, b arith.Backend) ([]Key, error) {
	keys := make([]Key, cfg.Keys)
	for i := range keys {
		sk, err := cfg.SeededKey(b, i)
		if err != nil {
			return nil, fmt.Errorf("seeded key %d over %s: %w", i, b.Name, err)
		}
		keys[i] = Key{seededRef(&cfg, b, i), sk}
	}
	return keys, nil
}

// seededRef names key i of the seeded campaign cfg over b.
func seededRef(cfg *shadow.Config, b arith.Backend, i int) KeyRef {
	ks := cfg.KeySourceOf()
	ref := KeyRef{Source: "seed", Index: i, Seed: cfg.Seed, KeySource: string(ks)}
	if ks == "" || ks == shadow.KeysFalcon {
		ref.KeygenBackend = cfg.KeygenBackendOf(b)
	}
	return ref
}

// Job is a backend to certify, with the error model of its operations.
type Job struct {
	Backend arith.Backend
	Model   Model
}

// Finished is the document of one (backend, key) of a run and how many
// of its checks (0 to 2) exceeded the bound, as a checkpoint keeps it
// (Resume).
type Finished struct {
	Document Document `json:"document"`
	Exceeded int      `json:"exceeded"`
}

// Resume lets an interrupted run of All continue: Done holds the
// (backend, key) pairs an earlier run of the same jobs, keys and check
// finished, whose documents are reused as they are; Save, when set, is
// called with every pair finished so far (Done's first) after each new one.
type Resume struct {
	Done []Finished
	Save func([]Finished) error
}

// done returns the pair of backend and key that r holds, if any.
func (r *Resume) done(backend string, key KeyRef) (Finished, bool) {
	if r == nil {
		return Finished{}, false
	}
	for _, f := range r.Done {
		if f.Document.Backend == backend && f.Document.Key == key {
			return f, true
		}
	}
	return Finished{}, false
}

// All certifies every key keysFor gives for each job's backend and, when
// check.Signatures > 0, signs that many messages with each under
// check.Shadow (CheckSignatures, messages seeded "fprlab certify INDEX",
// which replaces check.Seed) to set the sampled maximum beside the bound;
// when check.Chosen > 0, runs that many attempts on hashed points chosen
// for the key (CheckChosen, same seed). exceeded counts the checks whose
// maximum exceeds the key's certified bound: an analysis or an error
// model that is wrong.
//
// The pairs resume holds (nil: none) are not computed again; each new one
// is handed to resume.Save as it is finished. All stops with ctx's error
// when ctx is cancelled between pairs or between the signatures of a
// check, losing only the pair under way: it then returns the documents
// of the pairs finished before it (and their exceeded count) beside the
// error.
func All(ctx context.Context, jobs []Job, keysFor func(arith.Backend) ([]Key, error), logn uint, check Check, sc scheme.Scheme, resume *Resume) (docs []Document, exceeded int, err error) {
	var finished []Finished
	if resume != nil {
		finished = slices.Clone(resume.Done)
	}
	for _, j := range jobs {
		keys, err := keysFor(j.Backend)
		if err != nil {
			return nil, 0, err
		}
		for _, k := range keys {
			if f, ok := resume.done(j.Backend.Name, k.Ref); ok {
				docs = append(docs, f.Document)
				exceeded += f.Exceeded
				continue
			}
			if err := ctx.Err(); err != nil {
				return docs, exceeded, err
			}
			d, exc, err := certifyOne(ctx, j, k, logn, check, sc)
			if err != nil {
				if ctx.Err() != nil {
					return docs, exceeded, err
				}
				return nil, 0, err
			}
			docs = append(docs, d)
			exceeded += exc
			if resume != nil && resume.Save != nil {
				finished = append(finished, Finished{Document: d, Exceeded: exc})
				if err := resume.Save(finished); err != nil {
					return nil, 0, err
				}
			}
		}
	}
	return docs, exceeded, nil
}

// certifyOne certifies key k over job j and runs check's signatures and
// attempts with it (All); exceeded counts the checks above the bound.
func certifyOne(ctx context.Context, j Job, k Key, logn uint, check Check, sc scheme.Scheme) (d Document, exceeded int, err error) {
	r, err := Certify(j.Backend, k.SK, Options{Model: j.Model, Scheme: sc, Sigma: check.Sigma})
	if err != nil {
		return d, 0, err
	}
	d = NewDocument(j.Backend.Name, logn, k.Ref, r)
	check.Seed = fmt.Sprintf("fprlab certify %d", k.Ref.Index)
	progress := func(what string) func(done, total int) {
		if check.Progress == nil {
			return nil
		}
		return check.Progress(j.Backend, k.Ref, what)
	}
	if check.Signatures > 0 {
		smp, err := CheckSignatures(ctx, j.Backend, sc, k.SK, check, progress("signatures"))
		if err != nil {
			return d, 0, err
		}
		if d.AddSampled(smp) {
			exceeded++
		}
	}
	if check.Chosen > 0 {
		smp, err := CheckChosen(ctx, j.Backend, sc, k.SK, check, progress("chosen"))
		if err != nil {
			return d, 0, err
		}
		if d.AddChosen(smp) {
			exceeded++
		}
	}
	return d, exceeded, nil
}

// PStarReport is the certified P* of a set of keys: each key's, and the
// worst (nil when some key has none up to PStarHigh).
type PStarReport struct {
	Params int             `json:"params"`
	PerKey []PStarDocument `json:"per_key"`
	Worst  *int            `json:"worst_pstar"`
	// Keys is the number of keys asked for; Interrupted says that PerKey
	// holds fewer (the run was stopped), and Worst is then unknown (nil).
	Keys        int  `json:"-"`
	Interrupted bool `json:"interrupted,omitempty"`
}

// PStarAll finds the certified P* of each key (PStar) and the worst. It
// stops with ctx's error when ctx is cancelled between keys, returning the
// keys finished (Interrupted set) beside the error.
func PStarAll(ctx context.Context, logn uint, keys []Key, sc scheme.Scheme, sigma shadow.ExactSigma) (*PStarReport, error) {
	rep := &PStarReport{Params: 1 << logn, Keys: len(keys), PerKey: []PStarDocument{}}
	worst, unproven := 0, false
	for _, k := range keys {
		if err := ctx.Err(); err != nil {
			rep.Interrupted = true
			return rep, err
		}
		r, err := PStar(k.SK, sc, sigma)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k.Ref.Name(), err)
		}
		rep.PerKey = append(rep.PerKey, PStarDocument{Key: k.Ref, PStarResult: r})
		if r.PStar == nil {
			unproven = true
		} else {
			worst = max(worst, *r.PStar)
		}
	}
	if !unproven {
		rep.Worst = &worst
	}
	return rep, nil
}

// CampaignKeys returns the keys of the compare campaign cfg over b: its
// seeded keys as the campaign makes them, or its KAT records' keys.
func CampaignKeys(cfg shadow.Config, b arith.Backend) ([]*falcon.PrivateKey, error) {
	var keys []Key
	var err error
	if cfg.KATMode() {
		keys, err = KATKeys(cfg.LogN, cfg.KATFrom, cfg.KATTo)
	} else {
		keys, err = SeededKeys(cfg, b)
	}
	if err != nil {
		return nil, err
	}
	sks := make([]*falcon.PrivateKey, len(keys))
	for i, k := range keys {
		sks[i] = k.SK
	}
	return sks, nil
}
