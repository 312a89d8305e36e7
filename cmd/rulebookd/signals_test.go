package main

import (
	"syscall"
	"testing"
	"time"
)

// TestSecondSignalStopsAtOnce sends SIGTERM to rulebookd with a drain delay of an hour: it drains (and says that a
// second signal stops it at once); a second SIGTERM makes it exit, cleanly, long before the hour is up.
func TestSecondSignalStopsAtOnce(t *testing.T) {
	p := startProcess(t, map[string]string{"RULEBOOK_DRAIN_DELAY": "1h", "RULEBOOK_SHUTDOWN_TIMEOUT": "1h"})
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ { // until it says it drains: only then is the second signal a second one
		if _, ok := p.logged("draining"); ok {
			break
		}
		if i == 60_000 {
			t.Fatal("rulebookd never said it drains")
		}
		time.Sleep(time.Millisecond)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
		if p.err != nil {
			t.Errorf("rulebookd exited with %v, want a clean exit", p.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("rulebookd still runs a minute after the second SIGTERM")
	}
	if _, ok := p.logged("stopping at once"); !ok {
		t.Error("rulebookd did not say it stops at once")
	}
}
