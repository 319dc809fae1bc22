package campaign

import (
	"fmt"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
)

// ShadowMargin is how many bits wider than the measured backend the
// shadow's significand must be. compare reports |B - S|, the backend's
// distance from the shadow S, as the backend's error; S's own error
// enters it in full. A shadow narrower than the backend measures itself:
// vprec:100 against the 64-bit oracle reads 2^-50.83 where the 256-bit
// oracle gives 2^-86.91. Both errors grow from their significands alike
// (dd's 106 bits give it 2^-93.7 against the oracle, docs/shadow.md), so a
// margin of m bits puts the shadow's part near 2^-m of the figure: 24 bits
// change a log2 figure by less than 10^-7 bit. It admits the dd shadow for
// formats up to 82 bits (binary64, triword's 72, the vprec:{24..80}
// sweeps) and the 256-bit oracle up to 232.
const ShadowMargin = 24

// ddShadowBits is the significand of double-double, the dd shadow (the
// summaries report it as their oracle_bits).
const ddShadowBits = 106

// ShadowBits is the significand precision of the configured shadow: the
// oracle's cfg.OracleBits, or double-double's 106.
func ShadowBits(cfg shadow.Config) int {
	if cfg.Shadow == shadow.ShadowOracle {
		return int(cfg.OracleBits)
	}
	return ddShadowBits
}

// CheckShadowWidth refuses to measure a backend whose precision comes
// within ShadowMargin bits of the shadow's, unless allow
// (--allow-weak-shadow) is set.
func CheckShadowWidth(bs []arith.Backend, cfg shadow.Config, allow bool) error {
	b, narrow := NarrowShadow(bs, cfg)
	if allow || !narrow {
		return nil
	}
	return fmt.Errorf("the %s shadow (%d bits) is not %d bits wider than %s (%d bits): the figures would be the shadow's own error, not the backend's; use --shadow oracle --oracle-bits %d or more (--allow-weak-shadow measures anyway, its figures marked as including the shadow's own error)",
		cfg.Shadow, ShadowBits(cfg), ShadowMargin, b.Name, b.Bits, max(b.Bits+ShadowMargin, 64))
}

// NarrowShadow returns the first of bs whose precision comes within
// ShadowMargin bits of cfg's shadow -- whose measured error would be the
// shadow's own -- and whether there is one.
func NarrowShadow(bs []arith.Backend, cfg shadow.Config) (arith.Backend, bool) {
	sb := ShadowBits(cfg)
	for _, b := range bs {
		if b.Bits+ShadowMargin > sb {
			return b, true
		}
	}
	return arith.Backend{}, false
}

// MarkWeakShadow records in s that its shadow (s.OracleBits, 106 for dd)
// is not ShadowMargin bits wider than the backend (s.Bits): a run with
// --allow-weak-shadow, whose figures include the shadow's own error.
// summary.json and --json carry the mark, the report shows it.
func MarkWeakShadow(s *shadow.Summary) {
	if sb := int(s.OracleBits); s.Bits > 0 && s.Bits+ShadowMargin > sb {
		s.WeakShadow, s.ShadowBits = true, sb
	}
}

// WeakShadowNote is the line printed beside the figures of a backend
// measured with a shadow narrower than the margin (--allow-weak-shadow),
// empty otherwise.
func WeakShadowNote(backend string, shadowName shadow.Kind, bits uint) string {
	shadowBits := int(bits)
	b, err := arith.Lookup(backend)
	if err != nil || b.Bits+ShadowMargin <= shadowBits {
		return ""
	}
	return fmt.Sprintf("WEAK SHADOW (--allow-weak-shadow): the %s shadow has %d bits against %s's %d (at least %d measure it): these figures include the shadow's own error and do not measure the backend alone\n",
		shadowName, shadowBits, backend, b.Bits, b.Bits+ShadowMargin)
}

// Finish completes the summary of backend b measured under cfg: the
// backend of its keys, b's widths and the weak-shadow mark.
func Finish(sum *shadow.Summary, cfg shadow.Config, b arith.Backend) {
	sum.KeygenBackend = cfg.KeygenBackendOf(b)
	sum.Bits, sum.ExpBits = b.Bits, b.ExpBits
	MarkWeakShadow(sum)
}
