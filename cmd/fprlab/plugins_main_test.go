package main

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/fprlab/fprlab/internal/isolate"
	"github.com/fprlab/fprlab/internal/plugintest"
)

// TestMain runs the test binary as a plugin worker when it is started as
// one; else it builds the C double plugin as the member of the so: family
// that TestEveryBackendEveryConsumer crosses with every consumer, and as
// a plan's sampler stage (none without gcc, unless CI=true), and removes
// the plugins the tests built.
func TestMain(m *testing.M) {
	if isolate.IsWorker() {
		// The test binary is the plugin worker of the tests that run
		// commands isolated (isolate_test.go).
		if os.Getenv("FPRLAB_TEST_SEGMENT_UNITS") == "1" {
			segmentUnits = 1
		}
		os.Exit(workerMain(os.Args[1:]))
	}
	lib, err := plugintest.Path("../../examples/double.c")
	switch {
	case err == nil:
		familyMembers["so"] = []string{"so:" + lib}
		// A plan stage in a plugin is a stage of its own implementation.
		familyMembers["plan"] = append(familyMembers["plan"], "plan:sampler=so:"+lib+"+all=binary64")
	case errors.Is(err, plugintest.ErrNoCompiler) && !plugintest.Required():
		familyMembers["so"] = nil
	default:
		fmt.Fprintln(os.Stderr, "building examples/double.c:", err)
		os.Exit(1)
	}
	code := m.Run()
	plugintest.Cleanup()
	os.Exit(code)
}
