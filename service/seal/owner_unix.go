//go:build unix

package seal

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByAnother reports whether the file of info belongs to another user than the one this process runs as.
func ownedByAnother(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) != os.Getuid()
}

// fileGroup returns the group of the file of info, or -1 if it has none.
func fileGroup(info fs.FileInfo) int {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return int(st.Gid)
	}
	return -1
}
