package results

// Tune is the result document of `fprlab tune --json` (DIR/result.json): a
// JSON object, not an array.
type Tune struct {
	Params     int     `json:"params"`
	TargetLog2 float64 `json:"target_log2"`
	// MarginBits is how far below the target a plan's error must be for
	// the search to accept it (0: absent, no margin).
	MarginBits  float64     `json:"margin_bits,omitempty"`
	Statistic   string      `json:"statistic"`
	Cost        string      `json:"cost_model"`
	CostUnit    string      `json:"cost_unit"`
	Format      string      `json:"format"`
	Signatures  int         `json:"signatures"`
	Confirm     int         `json:"confirm_signatures"`
	Stages      []string    `json:"stages"`
	Uniform     *TunePlan   `json:"uniform"`
	Chosen      *TunePlan   `json:"chosen"`
	Pareto      []*TunePlan `json:"pareto"`
	Evaluations []*TunePlan `json:"evaluations"`
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
