package main

import (
	"log/slog"
	"math"

	"github.com/KimMachineGun/automemlimit/memlimit"
	"go.uber.org/zap"
)

// cgroupShare is the part of the container's memory limit that the Go runtime's memory limit is set to, when
// nothing else sets it: the rest is for what the runtime does not count (the binary, thread stacks outside the
// heap, memory the kernel has not taken back yet).
const cgroupShare = 0.9

// setMemoryLimit sets the Go runtime's memory limit (what GOMEMLIMIT sets) and returns it, math.MaxInt64 for none:
// the GOMEMLIMIT of the environment if it has one (the runtime has applied it already), else configured if it is
// positive, else cgroupShare of the container's cgroup memory limit if it has one.
func setMemoryLimit(configured int64, log *zap.Logger) (int64, error) {
	provider := memlimit.ApplyRatio(memlimit.FromCgroup, cgroupShare)
	if configured > 0 {
		provider = memlimit.Limit(uint64(configured))
	}
	limit, err := memlimit.Set(memlimit.WithProvider(provider), memlimit.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		return 0, err
	}
	if limit == math.MaxInt64 {
		log.Info("no memory limit: the garbage collector runs on GOGC alone")
	} else {
		log.Info("memory limit of the Go runtime", zap.Int64("bytes", limit))
	}
	return limit, nil
}
