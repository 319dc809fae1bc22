// Package pow2 writes error magnitudes the way fprlab's texts read them: as
// powers of two ("2^-52.81"), the scale on which precisions, bounds and
// the 2^-46 threshold compare at a glance.
package pow2

import (
	"fmt"
	"math"
)

// Text is x > 0 as a power of two with two decimals of its exponent;
// "0" for zero, and for a negative or NaN x, which no magnitude is.
func Text(x float64) string {
	if !(x > 0) {
		return "0"
	}
	return fmt.Sprintf("2^%.2f", math.Log2(x))
}
