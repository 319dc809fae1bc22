package ffsfsm_test

import (
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	_ "github.com/fprlab/fprlab/arith/backends"
	"github.com/fprlab/fprlab/arith/emu64"
	_ "github.com/fprlab/fprlab/falcon" // installs Sign and KAT
	"github.com/fprlab/fprlab/internal/ffsfsm"
)

// TestEntryPointsRefuse checks that importing falcon installs the entry
// points and that they refuse, with an error naming the backend, a
// backend other than emu64 and a malformed key. (Signing and the KAT
// record bit for bit are checked in package falcon, TestSignFSMVectors and
// TestKATRecordsFSM, and through the command, TestAccelModelsText.)
func TestEntryPointsRefuse(t *testing.T) {
	if ffsfsm.Sign == nil || ffsfsm.KAT == nil {
		t.Fatal("falcon did not install the entry points")
	}
	native, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	emu, err := arith.Lookup("emu64")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ffsfsm.Sign(emu64.Arith{}, nil, []byte{1, 2, 3}, []byte("m"), strings.NewReader("")); err == nil {
		t.Error("Sign accepted a malformed key")
	}
	if _, _, _, _, err := ffsfsm.KAT(emu, native, 9, 0, make([]byte, 48), []byte("m")); err == nil || !strings.Contains(err.Error(), `"native"`) {
		t.Errorf("KAT over native: %v, want an error naming the backend", err)
	}
}
