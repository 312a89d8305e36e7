package polyomino

import "runtime"

// Options bounds and spreads a search. The zero value is no node limit and one worker per usable CPU.
type Options struct {
	// NodeLimit caps the nodes (pieces placed) a call may explore; 0 means no limit. A call that needs more returns
	// NODE_LIMIT_REACHED. The nodes a call needs do not depend on Workers, so neither does the outcome.
	NodeLimit int64
	// Workers is the number of goroutines Count and TilingSubsets use; 0 means runtime.GOMAXPROCS(0), and 1 searches
	// on the calling goroutine alone. Find always searches on the calling goroutine, so that the tiling it returns is
	// the first in search order. Results never depend on Workers.
	Workers int
	// Explored, if not nil, receives the nodes the call explored, once it returns (a search stopped by the node
	// limit or its context reports the nodes it had explored by then).
	Explored *int64
}

// workers returns the number of goroutines to use.
func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return max(runtime.GOMAXPROCS(0), 1)
}
