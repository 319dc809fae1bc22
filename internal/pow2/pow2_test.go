package pow2

import (
	"math"
	"testing"
)

func TestText(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0, "0"},
		{-1, "0"},
		{math.NaN(), "0"},
		{1, "2^0.00"},
		{0x1p-46, "2^-46.00"},
		{3 * 0x1p-60, "2^-58.42"}, // log2(3) = 1.585
		{math.Inf(1), "2^+Inf"},
	} {
		if got := Text(c.x); got != c.want {
			t.Errorf("Text(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}
