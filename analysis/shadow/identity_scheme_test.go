package shadow

import (
	"strings"
	"testing"
)

// TestIdentityDiffScheme: a directory of the other scheme is named by its
// scheme, and round 3's identity (no scheme, no key_source) is not described
// as "--key-source falcon", a flag round 3 refuses.
func TestIdentityDiffScheme(t *testing.T) {
	r3 := []byte(`{"command":"compare","params":512}`)
	fn := []byte(`{"command":"compare","params":512,"scheme":"fn-dsa","key_source":"fn-dsa"}`)
	for i, c := range []struct {
		old, cur []byte
		want     string
	}{
		{fn, r3, "it signs FN-DSA (--scheme fn-dsa), this run Falcon round 3 (--scheme falcon, the default)"},
		{r3, fn, "it signs Falcon round 3 (--scheme falcon, the default), this run FN-DSA (--scheme fn-dsa)"},
	} {
		got, err := IdentityDiff(c.old, c.cur)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if got != c.want {
			t.Errorf("case %d: %q, want %q", i, got, c.want)
		}
	}
	// Same scheme, other key source: the key sources are named.
	fnOld := []byte(`{"command":"compare","params":512,"scheme":"fn-dsa"}`)
	got, err := IdentityDiff(fnOld, fn)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "--key-source falcon") || !strings.Contains(got, "--key-source fn-dsa") {
		t.Errorf("key sources not named: %q", got)
	}
}
