package cli

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// ProgressLines reports "LABEL: done/total UNIT, rate, ETA" on w at most
// every 2 s, and at the end.
func ProgressLines(w io.Writer, label, unit string) func(done, total int) {
	var mu sync.Mutex
	start, last := time.Now(), time.Time{}
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(last) < 2*time.Second && done < total {
			return
		}
		last = time.Now()
		el := time.Since(start).Seconds()
		rate := float64(done) / el
		eta := "?"
		if rate > 0 {
			eta = (time.Duration(float64(total-done)/rate) * time.Second).Round(time.Second).String()
		}
		fmt.Fprintf(w, "%s: %d/%d %s, %.1f/s, ETA %s\n", label, done, total, unit, rate, eta)
	}
}

// ElapsedEvery is how often ShowElapsed reports.
var ElapsedEvery = 5 * time.Second

// ShowElapsed prints "what: N s elapsed" on w every ElapsedEvery until
// the returned function is called (a step without progress hooks, such
// as key generation, still shows that it is alive).
func ShowElapsed(ctx context.Context, w io.Writer, what string) (stop func()) {
	start := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(ElapsedEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				fmt.Fprintf(w, "%s: %.0f s elapsed\n", what, time.Since(start).Seconds())
			}
		}
	}()
	return func() { close(done); <-finished }
}

// UntilFirstUnit wraps the progress function of a campaign so that,
// until the first unit finishes, the elapsed time is shown on w every
// ElapsedEvery: the first units are the keys, and key generation has no
// progress of its own while it takes minutes over a slow backend
// (vprec:11: 34-100 s of silence). stop ends that display; call it once
// the run has returned.
func UntilFirstUnit(ctx context.Context, w io.Writer, what string, progress func(done, total int)) (wrapped func(done, total int), stop func()) {
	stopElapsed := ShowElapsed(ctx, w, what)
	var once sync.Once
	stop = func() { once.Do(stopElapsed) }
	return func(done, total int) {
		stop()
		progress(done, total)
	}, stop
}
