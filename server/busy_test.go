package server

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// busyEnv, set in the environment of this package's test binary, makes it a busy process (see busyLoop) instead of
// running the tests: the value is how long it stays busy at most, in seconds.
const busyEnv = "RULEBOOK_TEST_BUSY_SECONDS"

// TestMain runs the tests, or keeps a CPU busy if the environment asks for it (startBusy).
func TestMain(m *testing.M) {
	if seconds, err := strconv.Atoi(os.Getenv(busyEnv)); err == nil {
		busyLoop(time.Duration(seconds) * time.Second)
		return
	}
	os.Exit(m.Run())
}

// busyLoop keeps one CPU busy until its standard input ends (the test that started it closed it, or ended) or for
// at most limit.
func busyLoop(limit time.Duration) {
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(done)
	}()
	for end := time.Now().Add(limit); time.Now().Before(end); {
		select {
		case <-done:
			return
		default:
		}
	}
}

// startBusy starts n processes beside the test, each keeping a CPU busy (the test binary again, in busyLoop), for
// at most limit; they are ended with the test. Each is a session of its own, as another program on the machine would
// be: Linux shares the CPUs fairly among sessions first (autogroups), so that processes of the test's own session
// would take their CPU time from the test alone.
func startBusy(t *testing.T, n int, limit time.Duration) {
	t.Helper()
	for range n {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), busyEnv+"="+strconv.Itoa(int(limit.Seconds())))
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stdin.Close()
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
	}
}
