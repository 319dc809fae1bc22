package main

import (
	"os"
	"testing"

	"github.com/fprlab/fprlab/internal/plugintest"
)

// TestMain removes the plugins the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	plugintest.Cleanup()
	os.Exit(code)
}
