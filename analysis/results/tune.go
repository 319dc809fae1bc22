package results

// Tune is the result document of `fprlab tune --json` (DIR/result.json): a
// JSON object, not an array.
type Tune struct {
	// Scheme is "fn-dsa" for an FN-DSA search; "falcon" or absent (a
	// document written before tune took --scheme) for round 3.
	Scheme string `json:"scheme,omitempty"`
	// KeySource is an FN-DSA search's keys' generation: "fn-dsa"
	// (FN-DSA's own) or "falcon" (round 3's; also FN-DSA documents that
	// predate the field).
	KeySource  string  `json:"key_source,omitempty"`
	Params     int     `json:"params"`
	TargetLog2 float64 `json:"target_log2"`
	// MarginBits is how far below the target a plan's error must be for
	// the search to accept it (0: absent, no margin).
	MarginBits float64  `json:"margin_bits,omitempty"`
	Statistic  string   `json:"statistic"`
	Cost       string   `json:"cost_model"`
	CostUnit   string   `json:"cost_unit"`
	Format     string   `json:"format"`
	Signatures int      `json:"signatures"`
	Confirm    int      `json:"confirm_signatures"`
	Stages     []string `json:"stages"`
	// NotTuned lists the stages with no arithmetic in the scheme's
	// signing, which the search leaves at the uniform width.
	NotTuned    []TuneStageNote `json:"not_tuned,omitempty"`
	Uniform     *TunePlan       `json:"uniform"`
	Chosen      *TunePlan       `json:"chosen"`
	Pareto      []*TunePlan     `json:"pareto"`
	Evaluations []*TunePlan     `json:"evaluations"`
}

// TuneStageNote is a stage of a Tune document and why it was not tuned.
type TuneStageNote struct {
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
}

// Name is the scheme and degree searched with the keys of an FN-DSA
// search, as "Falcon-512", "FN-DSA-512 (FN-DSA keys)" or "FN-DSA-512
// (round-3 keys)".
func (t *Tune) Name() string { return schemeKeysName(t.Scheme, t.KeySource, t.Params) }

// Tuned reports whether the search set the width of stage i (false for a
// stage in NotTuned).
func (t *Tune) Tuned(i int) bool {
	if i < 0 || i >= len(t.Stages) {
		return false
	}
	for _, n := range t.NotTuned {
		if n.Stage == t.Stages[i] {
			return false
		}
	}
	return true
}

// TunePlan is one measured plan of a Tune document.
type TunePlan struct {
	Plan         string    `json:"plan"`
	Widths       []int     `json:"widths"`
	Signatures   int       `json:"signatures"`
	ErrorLog2    Log2      `json:"error_log2"`
	Meets        bool      `json:"meets_target"`
	Flips        int64     `json:"flips"`
	Cost         float64   `json:"cost"`
	Confirmation *TunePlan `json:"confirmation"`
}

// TuneDoc is a Tune document of a campaign directory.
type TuneDoc struct {
	File string
	Tune Tune
}
