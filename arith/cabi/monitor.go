package cabi

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The monitor page: what a process that loads plugins (fprlab's plugin
// worker) shows its supervisor, in a file both map or read, so that the
// supervisor can say what the worker was doing when a plugin ended it
// (exit(), a crash, a hang) without the worker sending a message per
// call. Around each call into a plugin the worker updates three words
// of shared memory -- calls in flight, calls completed, the last
// function entered -- which costs a few nanoseconds next to the call's
// ~90; the supervisor reads them when the worker has ended, and polls
// the count of completed calls for its watchdog. Each loaded library
// writes its backend name into a slot once, at load.

// MonitorSize is the size in bytes of a monitor page's file.
const MonitorSize = 16 << 10

// Words of the page.
const (
	monMagic     = iota // monitorMagic once attached
	monInFlight         // calls into plugins not yet returned
	monCompleted        // calls returned
	monLast             // slot<<16 | op of the last call entered, +1 (0: none)
	monDone             // 1<<32 | exit status, written by Exit
	monSlots            // libraries named in the slots
	monHeader    = 8    // words before the slots

	monitorMagic = 0x666c6d6f6e310a // "\nmon1lf" read as little-endian, arbitrary
	slotBytes    = 512
	maxSlots     = (MonitorSize - 8*monHeader - unitSlots*unitBytes) / slotBytes

	// The units of work under way (MonitorUnit) are named in the last
	// unitSlots*unitBytes bytes, NUL-terminated, an empty slot free.
	unitSlots = 8
	unitBytes = 56
	unitBase  = MonitorSize - unitSlots*unitBytes
)

// opInit stands for fprlab_init on the page (it has no entry in lib.fn).
const opInit = opRun + 1

// monitor is the attached page, nil outside a worker.
var monitor *[MonitorSize / 8]uint64

var slotMu sync.Mutex

// units records which unit slots of the page are taken.
var units struct {
	sync.Mutex
	taken [unitSlots]bool
}

// MonitorUnit names the unit of work what ("signature 17") on the
// monitor page until the returned function is called, so that a
// supervisor whose worker a plugin ended can say which unit was lost. It
// is arith.UnitHook in a worker. Units beyond the page's eight slots go
// unnamed; a name is cut at 55 bytes.
func MonitorUnit(what string) (done func()) {
	m := monitor
	if m == nil {
		return func() {}
	}
	units.Lock()
	defer units.Unlock()
	for i, t := range units.taken {
		if t {
			continue
		}
		units.taken[i] = true
		b := unsafe.Slice((*byte)(unsafe.Pointer(&m[(unitBase+i*unitBytes)/8])), unitBytes)
		clear(b[copy(b[:unitBytes-1], what):])
		return func() {
			units.Lock()
			defer units.Unlock()
			clear(b)
			units.taken[i] = false
		}
	}
	return func() {}
}

// AttachMonitor maps f (MonitorSize bytes, shared with the supervisor)
// as this process's monitor page. It is called once, before any plugin
// is loaded.
func AttachMonitor(f *os.File) error {
	if monitor != nil {
		return errors.New("a monitor page is attached already")
	}
	if err := f.Truncate(MonitorSize); err != nil {
		return fmt.Errorf("monitor page: %w", err)
	}
	b, err := mapShared(f, MonitorSize)
	if err != nil {
		return fmt.Errorf("monitor page: %w", err)
	}
	monitor = (*[MonitorSize / 8]uint64)(unsafe.Pointer(&b[0]))
	atomic.StoreUint64(&monitor[monMagic], monitorMagic)
	return nil
}

// Exit records that the process ends with status code by its own
// decision (not a plugin's exit()); a supervisor takes a worker's status
// as its own only after this.
func Exit(code int) {
	if m := monitor; m != nil {
		atomic.StoreUint64(&m[monDone], 1<<32|uint64(uint32(code)))
	}
}

// register gives the library named label a slot of the page.
func registerSlot(label string) int {
	m := monitor
	if m == nil {
		return 0
	}
	slotMu.Lock()
	defer slotMu.Unlock()
	n := int(atomic.LoadUint64(&m[monSlots]))
	if n == maxSlots {
		return n - 1 // named as the last one
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&m[monHeader+n*slotBytes/8])), slotBytes-1)
	copy(b, label)
	atomic.StoreUint64(&m[monSlots], uint64(n+1))
	return n
}

// enter and leave bracket a call of op of the library in slot.
func monEnter(m *[MonitorSize / 8]uint64, slot, op int) {
	atomic.AddUint64(&m[monInFlight], 1)
	atomic.StoreUint64(&m[monLast], uint64(slot)<<16|uint64(op)+1)
}

func monLeave(m *[MonitorSize / 8]uint64) {
	atomic.AddUint64(&m[monCompleted], 1)
	atomic.AddUint64(&m[monInFlight], ^uint64(0))
}

// MonitorState is what a monitor page says about its worker.
type MonitorState struct {
	Attached  bool     // the worker attached the page
	InFlight  int      // calls into plugins that had not returned
	Completed uint64   // calls returned
	Backend   string   // the backend of the last call entered ("" if none)
	Func      string   // its function, "fprlab_sqrt"
	Exited    bool     // the worker ended by its own decision (Exit) ...
	Code      int      // ... with this status
	Units     []string // the units of work under way (MonitorUnit)
}

// MonitorUnits returns the units of work under way in this process
// (MonitorUnit), for a worker's own message about a failure.
func MonitorUnits() []string {
	m := monitor
	if m == nil {
		return nil
	}
	units.Lock()
	defer units.Unlock()
	var names []string
	for i, t := range units.taken {
		if t {
			b := unsafe.Slice((*byte)(unsafe.Pointer(&m[(unitBase+i*unitBytes)/8])), unitBytes)
			names = append(names, string(b[:max(0, bytes.IndexByte(b, 0))]))
		}
	}
	return names
}

// ReadMonitor reads the state of the monitor page in f.
func ReadMonitor(f *os.File) (MonitorState, error) {
	var st MonitorState
	b := make([]byte, MonitorSize)
	if _, err := f.ReadAt(b, 0); err != nil {
		return st, fmt.Errorf("monitor page: %w", err)
	}
	w := func(i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }
	if w(monMagic) != monitorMagic {
		return st, nil
	}
	st.Attached = true
	st.InFlight, st.Completed = int(int64(w(monInFlight))), w(monCompleted)
	if d := w(monDone); d>>32 == 1 {
		st.Exited, st.Code = true, int(int32(uint32(d)))
	}
	for i := range unitSlots {
		u := b[unitBase+i*unitBytes:][:unitBytes]
		if n := bytes.IndexByte(u, 0); n > 0 {
			st.Units = append(st.Units, string(u[:n]))
		}
	}
	if last := w(monLast); last != 0 {
		slot, op := int((last-1)>>16), int((last-1)&0xffff)
		if slot < maxSlots && slot < int(w(monSlots)) {
			s := b[8*monHeader+slot*slotBytes:][:slotBytes]
			st.Backend = string(s[:max(0, bytes.IndexByte(s, 0))])
		}
		switch {
		case op == opInit:
			st.Func = "fprlab_init"
		case op <= opRun:
			st.Func = "fprlab_" + opName(op)
		}
	}
	return st, nil
}
