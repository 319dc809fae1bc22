package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestWatchInterruptAfterCommandReturned checks the case main creates on
// every run: the command has returned (done closed) and main has then
// cancelled the signal context, both before the watcher reaches its
// select. The watcher must not take that for an interrupt (it used to
// exit 130 in about half of such schedules: select picks a ready case at
// random), so 500 tries with both ready must never call exit.
func TestWatchInterruptAfterCommandReturned(t *testing.T) {
	for i := range 500 {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		close(done)
		cancel()
		var stderr bytes.Buffer
		exited := -1
		watchInterrupt(ctx, cancel, done, newStreams(nil, nil, nil), &stderr, func(c int) { exited = c })
		if exited != -1 || stderr.Len() != 0 {
			t.Fatalf("try %d: the watcher exited %d (%q) after the command had returned", i, exited, stderr.String())
		}
	}
}

// TestWatchInterrupt checks the interrupt itself: a command that cannot
// stop cleanly ends with exitInterrupted; one that can (stoppable) is left
// to stop, with the handler removed so that a second interrupt ends it.
func TestWatchInterrupt(t *testing.T) {
	for _, stoppable := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		s := newStreams(nil, nil, nil)
		s.stoppable.Store(stoppable)
		var stderr bytes.Buffer
		exited, stopped := -1, false
		watchInterrupt(ctx, func() { stopped = true }, make(chan struct{}), s, &stderr, func(c int) { exited = c })
		switch {
		case !stopped:
			t.Errorf("stoppable %v: the signal handler was not removed", stoppable)
		case !stoppable && (exited != exitInterrupted || !strings.Contains(stderr.String(), "interrupted")):
			t.Errorf("not stoppable: exit %d, stderr %q; want %d", exited, stderr.String(), exitInterrupted)
		case stoppable && (exited != -1 || !strings.Contains(stderr.String(), "stopping after the current step")):
			t.Errorf("stoppable: exit %d, stderr %q; want no exit", exited, stderr.String())
		}
	}
}
