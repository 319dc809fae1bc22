package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/certify"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
)

// certifyOptions holds the flags of certify.
type certifyOptions struct {
	Backends, Params, Scheme, KATRecords, ErrorModel string
	JSON                                             bool
	CheckSignatures                                  int
}

const certifyLong = `certify proves, per key, how precise an arithmetic is at every signature:
not a sample maximum but a bound valid for every hashed point (n integers in
[0, q)) and every output of the sampler in its support. For each key and each
--backend it computes

  delta_sigma, exactly: the largest relative error of a leaf's 1/sigma
    against the oracle at 256 bits (compare --shadow oracle measures the same
    value at every signature of the key);
  delta_c, certified: an upper bound on |c_backend - c_exact| at every
    sampler call, by a forward error analysis of ffSampling (dynamic path)
    with Euclidean norm bounds of every intermediate, the key's tree values
    and the backend's twiddles read exactly, and the backend's per-operation
    error model (package analysis/certify documents the method);
  the verdict: "proven" when bound(delta_c) + delta_sigma <= 2^-46 (the
    Falcon specification's condition), "not proven" otherwise -- a bound
    above 2^-46 shows no failure, only that this analysis cannot exclude one.

Error models are built in for native, emu64 (binary64; emu64 flushes
subnormals), vprec:P[:eE][:rn|:rz|:sr=SEED] (2^-P relative to nearest,
2^-(P-1) toward zero or stochastic), dd and triword* (their proven
per-operation bounds); any other backend needs --error-model rel=2^-P
[,abs=2^-E], the bound you vouch for. Keys: --kat-records FROM:TO, the NIST
KAT records' keys (published responses). Scheme: falcon (round 3).

--json prints {"results": [...]}, one object per (backend, key) with
"backend", "scheme", "params", "key" {"source", "index"},
"delta_c_bound_log2", "delta_sigma_log2", "sum_bound_log2", "proven",
"worst_call" {"call", "leaf", "path"}, "stages" (each stage's terms at the
worst call, "bound_log2" and "share"), "error_model", "seconds", and with
--check-signatures N "signatures", "sampled_delta_c_max_log2" and "gap_bits"
(bound over sampled maximum). A sampled delta_c above its bound is a bug
(of the analysis or of the model) and exits 1.`

func newCertifyCmd(s *streams) *cobra.Command {
	opts := &certifyOptions{}
	cmd := &cobra.Command{
		Use:   "certify --backend B[,B...] --params 512|1024 --kat-records FROM:TO",
		Short: "Prove per key a bound on delta_c + delta_sigma valid for every message (exact delta_sigma, certified delta_c)",
		Long:  certifyLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCertify(opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Backends, "backend", "", "backends to certify, comma-separated")
	f.StringVar(&opts.Params, "params", "", "degree: 512 or 1024")
	addSchemeFlag(cmd, &opts.Scheme)
	f.StringVar(&opts.KATRecords, "kat-records", "", "NIST KAT records `FROM:TO` whose keys are certified (TO excluded, at most 100)")
	f.StringVar(&opts.ErrorModel, "error-model", "", "declared per-operation error model `rel=2^-P[,abs=2^-E]` (required for backends without a built-in one; replaces it otherwise)")
	f.IntVar(&opts.CheckSignatures, "check-signatures", 0, "also sign `N` messages per key under compare's oracle shadow and print the sampled maximum of delta_c beside the bound (exit 1 if it exceeds the bound)")
	f.BoolVar(&opts.JSON, "json", false, "print the results as JSON")
	return cmd
}

// certifyJob is one (backend, key) to certify.
type certifyJob struct {
	b     arith.Backend
	model certify.Model
}

// certifyConfig validates the flags.
func certifyConfig(opts *certifyOptions) (logn uint, from, to int, jobs []certifyJob, err error) {
	if opts.CheckSignatures < 0 || opts.CheckSignatures > 10_000_000 {
		return 0, 0, 0, nil, fmt.Errorf("--check-signatures %d: want 0 to 10000000", opts.CheckSignatures)
	}
	if opts.Backends == "" {
		return 0, 0, 0, nil, errors.New("missing --backend B[,B...]")
	}
	if logn, err = paramSetLogn(opts.Params); err != nil {
		return 0, 0, 0, nil, err
	}
	sc, err := parseScheme(opts.Scheme)
	if err != nil {
		return 0, 0, 0, nil, err
	}
	if sc.Name() != "falcon" {
		return 0, 0, 0, nil, fmt.Errorf("--scheme %s: certify analyses Falcon round 3's signing (its dynamic ffSampling and sampler support) only so far", opts.Scheme)
	}
	if opts.KATRecords == "" {
		return 0, 0, 0, nil, errors.New("missing --kat-records FROM:TO (the keys to certify)")
	}
	a, b, ok := strings.Cut(opts.KATRecords, ":")
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || from < 0 || to <= from || to > 100 {
		return 0, 0, 0, nil, fmt.Errorf("--kat-records %q: want FROM:TO with 0 <= FROM < TO <= 100", opts.KATRecords)
	}
	for _, name := range strings.Split(opts.Backends, ",") {
		bk, err := lookupBackend(strings.TrimSpace(name))
		if err != nil {
			return 0, 0, 0, nil, err
		}
		m, err := certify.ModelFor(bk, opts.ErrorModel)
		if err != nil {
			return 0, 0, 0, nil, err
		}
		jobs = append(jobs, certifyJob{b: bk, model: m})
	}
	return logn, from, to, jobs, nil
}

// certifyKey is the "key" object of a result.
type certifyKey struct {
	Source string `json:"source"`
	Index  int    `json:"index"`
}

// certifyStage is one stage's share of the bound at the worst call.
type certifyStage struct {
	Stage     string   `json:"stage"`
	BoundLog2 *float64 `json:"bound_log2"`
	Share     float64  `json:"share"`
}

// certifyResult is one object of --json's "results".
type certifyResult struct {
	Backend         string         `json:"backend"`
	Scheme          string         `json:"scheme"`
	Params          int            `json:"params"`
	Key             certifyKey     `json:"key"`
	DeltaCBoundLog2 float64        `json:"delta_c_bound_log2"`
	DeltaSigmaLog2  *float64       `json:"delta_sigma_log2"`
	DeltaSigmaLeaf  int            `json:"delta_sigma_leaf"`
	SumBoundLog2    float64        `json:"sum_bound_log2"`
	Proven          bool           `json:"proven"`
	WorstCall       map[string]any `json:"worst_call"`
	Stages          []certifyStage `json:"stages"`
	ErrorModel      string         `json:"error_model"`
	Seconds         float64        `json:"seconds"`
	// With --check-signatures: the signatures signed under the oracle
	// shadow, the largest delta_c they measured (absent when every one
	// was exact) and the bound's distance above it in bits.
	Signatures       int      `json:"signatures,omitempty"`
	SampledDeltaCMax *float64 `json:"sampled_delta_c_max_log2,omitempty"`
	GapBits          *float64 `json:"gap_bits,omitempty"`
	res              *certify.Result
}

func finiteLog2(x float64) *float64 {
	if x <= 0 {
		return nil
	}
	v := math.Log2(x)
	return &v
}

// runCertify certifies every (backend, key) and prints the results.
func runCertify(opts *certifyOptions, s *streams) error {
	logn, from, to, jobs, err := certifyConfig(opts)
	if err != nil || s.validateOnly {
		return err
	}
	rsp, err := katref.Response(logn)
	if err != nil {
		return err
	}
	_, recs, err := falcon.ParseKAT(rsp)
	if err != nil {
		return err
	}
	var out []certifyResult
	exceeded := 0
	for _, j := range jobs {
		for i := from; i < to; i++ {
			sk, err := falcon.DecodePrivateKey(recs[i].SK)
			if err != nil {
				return fmt.Errorf("KAT record %d: %w", i, err)
			}
			r, err := certify.Certify(j.b, sk, certify.Options{Model: j.model})
			if err != nil {
				return err
			}
			cr := certifyResult{Backend: j.b.Name, Scheme: "falcon", Params: 1 << logn, Key: certifyKey{"kat", i},
				DeltaCBoundLog2: math.Log2(r.DeltaCBound), DeltaSigmaLog2: finiteLog2(r.DeltaSigma), DeltaSigmaLeaf: r.DeltaSigmaLeaf,
				SumBoundLog2: math.Log2(r.SumBound), Proven: r.Proven,
				WorstCall:  map[string]any{"call": r.WorstCall, "leaf": r.WorstLeaf, "path": r.WorstPath},
				ErrorModel: r.Model.String(), Seconds: r.Seconds, res: r}
			for _, st := range r.Stages {
				cr.Stages = append(cr.Stages, certifyStage{Stage: st.Stage, BoundLog2: finiteLog2(st.Bound), Share: st.Bound / r.DeltaCBound})
			}
			if opts.CheckSignatures > 0 {
				smp, err := certify.CheckSignatures(j.b, sk, opts.CheckSignatures, fmt.Sprintf("fprlab certify %d", i), 0)
				if err != nil {
					return err
				}
				cr.Signatures = smp.Signatures
				if !math.IsInf(smp.DeltaCMax, -1) {
					v, gap := smp.DeltaCMax, cr.DeltaCBoundLog2-smp.DeltaCMax
					cr.SampledDeltaCMax, cr.GapBits = &v, &gap
				}
				if r.Exceeds(smp) {
					exceeded++
				}
			}
			out = append(out, cr)
		}
	}
	var err2 error
	if opts.JSON {
		err2 = printJSON(s.Out, map[string]any{"results": out})
	} else {
		err2 = printCertify(s.Out, out)
	}
	if err2 == nil && exceeded > 0 {
		err2 = &exitError{code: exitFalse, err: fmt.Errorf("%d sampled delta_c maxima exceed their certified bound: the analysis or an error model is wrong", exceeded)}
	}
	return err2
}

// printCertify prints the verdicts first, then each certificate.
func printCertify(w io.Writer, rs []certifyResult) error {
	proven := 0
	for _, r := range rs {
		if r.Proven {
			proven++
		}
	}
	switch {
	case proven == len(rs):
		fmt.Fprintf(w, "proven for every message: delta_c + delta_sigma <= 2^-46 for all %d (backend, key) pairs\n", len(rs))
	default:
		fmt.Fprintf(w, "not proven for %d of %d (backend, key) pairs: their bound on delta_c + delta_sigma exceeds 2^-46 -- a bound above 2^-46 shows no failure, only that this analysis cannot exclude one\n", len(rs)-proven, len(rs))
	}
	for _, r := range rs {
		verdict := "not proven"
		if r.Proven {
			verdict = "proven"
		}
		fmt.Fprintf(w, "\n%s: %s, %s, KAT key %d: delta_c + delta_sigma <= 2^%.2f (target 2^-46)\n",
			verdict, r.Backend, schemeName(r.Scheme, r.Params), r.Key.Index, r.SumBoundLog2)
		ds := "0 (exact)"
		if r.DeltaSigmaLog2 != nil {
			ds = fmt.Sprintf("2^%.2f", *r.DeltaSigmaLog2)
		}
		fmt.Fprintf(w, "  delta_sigma, exact:     %s at leaf %d\n", ds, r.DeltaSigmaLeaf)
		fmt.Fprintf(w, "  delta_c, certified:  <= 2^%.2f at sampler call %d (leaf %d, tree path %s from the root)\n",
			r.DeltaCBoundLog2, r.res.WorstCall, r.res.WorstLeaf, r.res.WorstPath)
		var parts []string
		for _, st := range r.Stages {
			parts = append(parts, fmt.Sprintf("%s %.1f%%", st.Stage, 100*st.Share))
		}
		if r.SampledDeltaCMax != nil {
			fmt.Fprintf(w, "  sampled delta_c:         2^%.2f, maximum over %d signatures under the oracle shadow: the bound is %.2f bits above\n", *r.SampledDeltaCMax, r.Signatures, *r.GapBits)
		}
		fmt.Fprintf(w, "  where the bound comes from: %s\n", strings.Join(parts, ", "))
		fmt.Fprintf(w, "  error model: %s; exact side oracle:%d; %.2f s\n", r.ErrorModel, certify.DefaultOracleBits, r.Seconds)
	}
	return nil
}
