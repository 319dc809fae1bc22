package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/fprlab/fprlab/falcon"
)

// addModeFlag adds --mode, the reference's signing procedure (falcon.Mode),
// to a command that signs.
func addModeFlag(f *pflag.FlagSet, mode *string) {
	f.StringVar(mode, "mode", falcon.Dyn.String(), "signing procedure: dyn (falcon_sign_dyn) or tree (falcon_expand_privkey + falcon_sign_tree)")
}

// parseMode parses the value of --mode.
func parseMode(s string) (falcon.Mode, error) {
	m, err := falcon.ParseMode(s)
	if err != nil {
		return 0, fmt.Errorf("--mode: %w", err)
	}
	return m, nil
}
