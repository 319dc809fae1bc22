package shadow

import (
	"math/big"

	"github.com/fprlab/fprlab/arith/oracle"
)

// BigExact is the big-float oracle as the exact side: every operation
// correctly rounded at its precision (oracle.New), constants and twiddles
// computed at that precision, ExpmP63 = floor(2^63 ccs exp(-x)) exactly.
type BigExact struct{ oracle.Arith }

// NewBigExact returns the oracle at prec bits as an exact side.
func NewBigExact(prec uint) (BigExact, error) {
	a, err := oracle.New(prec)
	return BigExact{a}, err
}

// FromBig implements Exact.
func (e BigExact) FromBig(v *big.Float) *big.Float {
	return new(big.Float).SetPrec(e.Prec()).Set(v)
}
