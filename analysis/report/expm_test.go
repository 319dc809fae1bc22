package report

import (
	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/analysis/plot"
	_ "github.com/fprlab/fprlab/valuetype" // the backends, by name, with their value types
)

// The expm figure is a measurement, which a program supplies to package
// plot (as fprlab does).
func init() { plot.MeasureExpm = analysis.MeasureExpmCurves }
