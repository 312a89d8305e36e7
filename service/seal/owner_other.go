//go:build !unix

package seal

import "io/fs"

// ownedByAnother reports false: where files have no Unix owner, LoadOrCreateKeyFile does not check it.
func ownedByAnother(fs.FileInfo) bool { return false }

// fileGroup returns -1: where files have no Unix group, none is the process's.
func fileGroup(fs.FileInfo) int { return -1 }
