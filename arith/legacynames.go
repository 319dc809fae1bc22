package arith

import "fmt"

// TriwordNamesRevision numbers the meaning of the triword backend names, so that
// a document or campaign directory can say which meaning its names have.
//
// Revision 1 (everything written before the names were numbered, which
// therefore carries no revision): "triword" and "triword-acc" imported the
// reference's binary64 constants, twiddles and 1/sigma, sigma_min (today's
// "triword-b64const" and "triword-acc-b64const"), and "triword-fullconst"
// held the constants and twiddles at 72 bits but 1/sigma and sigma_min at
// binary64 (an arithmetic no backend has today).
//
// Revision 2: the names arith/triword registers; "triword" is TWFalcon's arithmetic,
// every constant at 72 bits.
const TriwordNamesRevision = 2

// legacyNames maps each revision-1 triword name to its revision-2 name
// ("" when the arithmetic has none).
var legacyNames = map[string]string{
	"triword":           "triword-b64const",
	"triword-acc":       "triword-acc-b64const",
	"triword-fullconst": "",
}

// LegacyName returns today's name of the arithmetic that a revision-1
// document called old. Names outside the triword family, and those that
// did not exist then, mean the same today and are returned unchanged. ok
// is false when old named an arithmetic that no backend has today
// ("triword-fullconst"); LegacyNameError then says so.
func LegacyName(old string) (current string, ok bool) {
	cur, legacy := legacyNames[old]
	if !legacy {
		return old, true
	}
	return cur, cur != ""
}

// IsLegacyName reports whether old is a revision-1 name whose meaning changed:
// a document without a names revision that uses it must not be read under
// today's meaning.
func IsLegacyName(old string) bool {
	_, legacy := legacyNames[old]
	return legacy
}

// LegacyNameError explains, for a revision-1 name, what it meant and what it
// is called today (or that it has no name today); nil for a name whose
// meaning did not change.
func LegacyNameError(old string) error {
	cur, legacy := legacyNames[old]
	switch {
	case !legacy:
		return nil
	case cur == "":
		return fmt.Errorf("%q, a triword name from before the names were revised, meant 72-bit constants and "+
			"twiddles with the reference's binary64 1/sigma and sigma_min: no backend has that arithmetic today "+
			"(\"triword\" now also holds 1/sigma and sigma_min at 72 bits)", old)
	}
	return fmt.Errorf("%q, as written before the triword names were revised, is the arithmetic now named %q "+
		"(binary64 constants imported); today's %q holds every constant at 72 bits", old, cur, old)
}
