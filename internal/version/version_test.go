package version

import (
	"strings"
	"testing"
)

// TestVersion: a test binary has no module version, so Release is the
// base release; Program starts with it (the revision follows when the
// build stamped one).
func TestVersion(t *testing.T) {
	if got := Release(); got != base {
		t.Errorf("Release() = %q, want %q", got, base)
	}
	if got := Program(); !strings.HasPrefix(got, base) {
		t.Errorf("Program() = %q, want it to start with %q", got, base)
	}
}
