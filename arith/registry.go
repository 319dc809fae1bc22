package arith

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Backend describes a registered arithmetic. Impl holds the backend as an
// Arith[F] for the backend's own value type F; code that runs Falcon over a
// backend recovers F with a type switch on Impl (see package falcon).
type Backend struct {
	Name string // the name it is chosen by, e.g. "emu64" or "vprec:64"
	Bits int    // significand precision in bits (53 for binary64)
	// ExpBits is the exponent range, as the width of the exponent field
	// of the IEEE 754 binary format with the same range (emax =
	// 2^(ExpBits-1)-1, emin = 1-emax): 11 for binary64 and for formats
	// built from binary64 limbs, 8 for those built from binary32 limbs.
	// 0 means the range is unbounded (no overflow or underflow).
	ExpBits     int
	Description string
	Impl        any
}

// Family is a parameterised group of backends chosen as "name:arg", such as
// "oracle:512" or "vprec:24". New parses arg (empty when the name is used
// alone, if the family allows that) and returns the backend.
type Family struct {
	Name        string // the prefix before ':'
	Usage       string // how the name is written, e.g. "vprec:P (11 <= P <= 256)"
	Description string
	New         func(arg string) (Backend, error)
	// Forms are further ways of writing the family's names, with their
	// meanings (such as "vprec:P:eE"). New parses them all.
	Forms []FamilyForm
}

// FamilyForm is one way of writing a family's names and what it means.
type FamilyForm struct {
	Usage, Description string
}

var (
	regMu    sync.RWMutex
	backends = map[string]Backend{}
	families = map[string]Family{}
)

// Register makes a backend available by name. It panics on a duplicate
// name: registration happens in init functions, where that is a bug.
func Register(b Backend) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := backends[b.Name]; dup {
		panic("arith: backend registered twice: " + b.Name)
	}
	backends[b.Name] = b
}

// RegisterFamily makes a parameterised backend family available.
func RegisterFamily(f Family) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := families[f.Name]; dup {
		panic("arith: backend family registered twice: " + f.Name)
	}
	families[f.Name] = f
}

// Lookup returns the backend with the given name: a registered backend, or
// "family:arg" for a registered family. The error lists what is available.
func Lookup(name string) (Backend, error) {
	regMu.RLock()
	b, ok := backends[name]
	fam, arg, hasArg := strings.Cut(name, ":")
	f, fok := families[fam]
	regMu.RUnlock()
	if ok {
		return b, nil
	}
	if fok && hasArg {
		b, err := f.New(arg)
		if err != nil {
			return Backend{}, fmt.Errorf("backend %q: %w", name, err)
		}
		return b, nil
	}
	return Backend{}, fmt.Errorf("unknown backend %q (available: %s)", name, strings.Join(Names(), ", "))
}

// List returns the registered backends sorted by name.
func List() []Backend {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]Backend, 0, len(backends))
	for _, b := range backends {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Families returns the registered families sorted by name, each followed
// by its further forms as entries of their own (the same Name and New,
// the form's Usage and Description, no Forms), so that a listing shows
// every way of writing a name.
func Families() []Family {
	regMu.RLock()
	defer regMu.RUnlock()
	fams := make([]Family, 0, len(families))
	for _, f := range families {
		fams = append(fams, f)
	}
	sort.Slice(fams, func(i, j int) bool { return fams[i].Name < fams[j].Name })
	var out []Family
	for _, f := range fams {
		out = append(out, f)
		for _, form := range f.Forms {
			out = append(out, Family{Name: f.Name, Usage: form.Usage, Description: form.Description, New: f.New})
		}
	}
	return out
}

// Names lists the accepted backend names: each backend, then each family's usage.
func Names() []string {
	var names []string
	for _, b := range List() {
		names = append(names, b.Name)
	}
	for _, f := range Families() {
		names = append(names, f.Usage)
	}
	return names
}

// CatalogEntry is one line of the catalogue of names a backend can be
// chosen by (`fprlab backends`; its --json objects): a registered backend
// with its precision, or a family (vprec:P, ...) whose precision is its
// parameter, written as its usage shows it.
type CatalogEntry struct {
	Name        string `json:"name"`
	Bits        *int   `json:"bits"` // null for a family: its precision is its parameter
	Description string `json:"description"`
	Family      bool   `json:"family,omitempty"`
}

// Catalog lists every registered backend, then every family and each of
// its further forms. A family's name is the first word of its usage when
// that names it (vprec:P:eE), else NAME:P; what its usage adds in
// parentheses (the range of P) is appended to its description unless the
// description says it already.
func Catalog() []CatalogEntry {
	var rows []CatalogEntry
	for _, b := range List() {
		bits := b.Bits
		rows = append(rows, CatalogEntry{Name: b.Name, Bits: &bits, Description: b.Description})
	}
	for _, f := range Families() {
		name, desc := f.Name+":P", f.Description
		if first, _, _ := strings.Cut(f.Usage, " "); strings.HasPrefix(first, f.Name+":") {
			name = first
		}
		if extra := strings.Trim(strings.TrimSpace(strings.TrimPrefix(f.Usage, name)), "()"); extra != "" && !strings.Contains(desc, extra) {
			desc += "; " + extra
		}
		rows = append(rows, CatalogEntry{Name: name, Description: desc, Family: true})
	}
	return rows
}
