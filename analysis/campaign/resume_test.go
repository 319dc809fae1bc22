package campaign

import (
	"strings"
	"testing"
)

// TestLegacyDirError: which run.json contents are refused for resuming.
func TestLegacyDirError(t *testing.T) {
	for _, c := range []struct {
		runJSON string
		refused string // "" when it resumes
	}{
		{`{"command": "compare", "backends": ["native", "triword"]}`, `now named "triword-b64const"`},
		{`{"command": "compare", "backends": ["triword-acc"]}`, `now named "triword-acc-b64const"`},
		{`{"command": "sweep", "formats": ["vprec:40", "native", "triword"]}`, `now named "triword-b64const"`},
		{`{"command": "compare", "backends": ["triword-fullconst"]}`, "no backend has that arithmetic"},
		{`{"command": "compare", "backends": ["native", "triword"], "triword_names": 2}`, ""},
		{`{"command": "sweep", "formats": ["native", "triword"], "triword_names": 2}`, ""},
		{`{"command": "compare", "backends": ["native", "emu64"]}`, ""},
		{`not json`, ""}, // OpenCampaign refuses it as another run
	} {
		err := LegacyDirError("DIR", []byte(c.runJSON))
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s: refused: %v", c.runJSON, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused) || !strings.Contains(err.Error(), "DIR cannot be resumed")):
			t.Errorf("%s: %v, want a refusal saying %q", c.runJSON, err, c.refused)
		}
	}
}
