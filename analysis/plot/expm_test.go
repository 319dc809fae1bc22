package plot

import (
	"github.com/fprlab/fprlab/analysis"
	_ "github.com/fprlab/fprlab/valuetype" // the backends, by name, with their value types
)

// The expm figure is a measurement, which a program supplies to package
// plot (as fprlab does).
func init() { MeasureExpm = analysis.MeasureExpmCurves }
