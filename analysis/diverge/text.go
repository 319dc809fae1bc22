package diverge

import (
	"fmt"
	"io"
)

// WriteText writes r as fprlab diverge prints it: the answer first (how
// many differing pairs reveal the key), then the rate and its interval, who
// signed as exact arithmetic would, and each pair.
func (r *Result) WriteText(w io.Writer) error {
	if r.Differing == 0 {
		fmt.Fprintf(w, "no signature differs: no pair reveals the secret key\n")
	} else {
		fmt.Fprintf(w, "%d of %d differing pairs reveal the secret key\n", r.KeyRevealing, r.Differing)
	}
	shard := ""
	if r.Shard != "" {
		shard = " (shard " + r.Shard + ")"
	}
	scheme := ""
	if r.Scheme != "" {
		scheme = r.Scheme + " "
	}
	fmt.Fprintf(w, "%s vs %s, %sn = %d%s: %d of %d signatures differ, rate %.3g (95 %% Wilson interval %.3g to %.3g)\n",
		r.Backend, r.Against, scheme, r.N, shard, r.Differing, r.Compared, r.Rate, r.RateCI95[0], r.RateCI95[1])
	if r.Right != nil {
		fmt.Fprintf(w, "signed as exact arithmetic would (%s shadow): A (%s) in %d, B (%s) in %d, neither in %d, undecided in %d; %d decided at a tie (a centre that is an integer to %d-bit oracle precision)\n",
			r.Pairs[0].Exact.Shadow, r.Backend, r.Right[RightA], r.Against, r.Right[RightB], r.Right[RightNeither], r.Right[RightUndecided],
			r.Ties, TieBits)
	}
	if len(r.Pairs) > 0 {
		fmt.Fprintln(w, "pairs (margin: how near side A's decision came to going B's way -- floor: |mu - the integer between the floors|; rint: distance to the half-integer; BerExp: |drawn - threshold| / 2^64; acceptance: |norm^2 - bound| / bound):")
	}
	for _, p := range r.Pairs {
		d := p.Diff
		what := fmt.Sprintf("s2_A - s2_B = %d x^%d %s: the key", d.C, d.K, d.Kind)
		if !d.KeyRevealing() {
			what = fmt.Sprintf("s2_A - s2_B has norm %.1f (%d nonzero coefficients)", d.Norm, d.Nonzero)
		}
		if p.Exact != nil {
			what += "; right: " + p.Exact.Right
			if p.Exact.Tie {
				what += " (at a tie)"
			}
		}
		q := p.Parting
		_, err := fmt.Fprintf(w, "  signature %d (key %d): part at attempt %d, leaf %d, call %d, %s (margin %.3g); %s\n",
			p.Index, p.Key, q.Attempt, q.Leaf, q.Call, q.Kind, q.Margin, what)
		if err != nil {
			return err
		}
	}
	return nil
}
