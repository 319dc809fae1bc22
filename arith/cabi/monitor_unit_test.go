package cabi

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// The units of work a worker names on its page are what the supervisor
// reads back: at most eight at once (a ninth goes unnamed rather than
// over another), each cut at 55 bytes, a finished one gone.
func TestMonitorUnits(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "page"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(MonitorSize); err != nil {
		t.Fatal(err)
	}
	b, err := mapShared(f, MonitorSize)
	if err != nil {
		t.Fatal(err)
	}
	saved := monitor
	monitor = (*[MonitorSize / 8]uint64)(unsafe.Pointer(&b[0]))
	defer func() { monitor = saved }()
	monitor[monMagic] = monitorMagic

	long := strings.Repeat("x", 70)
	var done []func()
	for i := range 9 {
		name := "signature " + string(rune('0'+i))
		if i == 3 {
			name = long
		}
		done = append(done, MonitorUnit(name))
	}
	want := []string{"signature 0", "signature 1", "signature 2", long[:55], "signature 4", "signature 5", "signature 6", "signature 7"}
	st, err := ReadMonitor(f)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(st.Units, want) || !slices.Equal(MonitorUnits(), want) {
		t.Fatalf("page names %q, process %q; want %q", st.Units, MonitorUnits(), want)
	}
	done[1]()
	done[8]() // the unnamed ninth: its end changes nothing
	st, _ = ReadMonitor(f)
	if want := slices.Delete(slices.Clone(want), 1, 2); !slices.Equal(st.Units, want) {
		t.Fatalf("after signature 1 ended the page names %q, want %q", st.Units, want)
	}
	done[1] = MonitorUnit("key 4") // the freed slot is taken again
	st, _ = ReadMonitor(f)
	if len(st.Units) != 8 || st.Units[1] != "key 4" {
		t.Fatalf("page names %q", st.Units)
	}
	for _, d := range done[:8] {
		d()
	}
	if st, _ = ReadMonitor(f); len(st.Units) != 0 {
		t.Fatalf("all units ended, page names %q", st.Units)
	}
}
