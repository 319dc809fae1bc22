//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestCampaignMemoryFlat runs compare --out at 200 and at 2,000 Falcon-512
// signatures (native, dd shadow, --workers 2) in child processes and
// compares their peak resident memory (getrusage's ru_maxrss): streaming
// summaries keep it flat in N. It also checks that the records take at most
// 4 KB per signature on disk.
func TestCampaignMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("2,200 shadowed signatures")
	}
	rss := map[int]int64{}
	for _, n := range []int{200, 2000} {
		dir := filepath.Join(t.TempDir(), "c")
		cmd := exec.Command(os.Args[0], "-test.run=^TestCLIChild$")
		cmd.Env = append(os.Environ(), "FPRLAB_TEST_CLI="+strings.Join([]string{"compare", "--backend", "native", "--params", "512",
			"--signatures", strconv.Itoa(n), "--workers", "2", "--json", "--out", dir}, "\x1f"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%d signatures: %v\n%.2000s", n, err, out)
		}
		rss[n] = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux (this file is Linux only)
		st, err := os.Stat(filepath.Join(dir, "records-native.seg"))
		if err != nil {
			t.Fatal(err)
		}
		perSig := float64(st.Size()) / float64(n)
		t.Logf("%d signatures: peak RSS %.1f MiB, records %d bytes (%.0f bytes per signature)", n, float64(rss[n])/1024, st.Size(), perSig)
		if perSig > 4096 {
			t.Errorf("%d signatures: %.0f bytes of records per signature, want at most 4096", n, perSig)
		}
	}
	if float64(rss[2000]) > 1.2*float64(rss[200]) {
		t.Errorf("peak RSS %d KiB at 2,000 signatures, %d KiB at 200: grows with N", rss[2000], rss[200])
	}
}
