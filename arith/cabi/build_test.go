package cabi_test

import (
	"os"
	"testing"

	"github.com/fprlab/fprlab/internal/plugintest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	plugintest.Cleanup()
	os.Exit(code)
}

// plugin builds the plugin source src (relative to this package).
func plugin(t testing.TB, src string) string { return plugintest.Build(t, src) }
