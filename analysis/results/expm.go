package results

// ExpmCurve is the error of one backend's expm_p63 across its domain, for a
// plot of where on [0, ln 2) the sampler's exponential loses accuracy
// (measured by analysis.MeasureExpmCurve).
type ExpmCurve struct {
	Backend string
	// X are the grid points x_k = (k + 1/2) ln 2 / len(X).
	X []float64
	// ErrLog2[k] is log2 of the largest error at X[k] over the ccs values
	// CCS, relative to full scale 2^63 as in analysis.MeasureOpError; -Inf where
	// every ccs gave the exact value.
	ErrLog2 []float64
	CCS     []float64
}
