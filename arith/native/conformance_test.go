package native_test

import (
	"testing"

	"github.com/fprlab/fprlab/arith/arithtest"
	"github.com/fprlab/fprlab/arith/native"
)

// TestConformance: hardware binary64 is IEEE 754's, whole range.
func TestConformance(t *testing.T) { arithtest.Run(t, native.Arith{}, arithtest.Options{}) }
