package main

import (
	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/analysis/plot"
)

// The expm figure of plot and report measures the backends (package plot
// links none).
func init() { plot.MeasureExpm = analysis.MeasureExpmCurves }
