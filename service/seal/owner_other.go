//go:build !unix

package seal

import "io/fs"

// ownedByAnother reports false: where files have no Unix owner, LoadOrCreateKeyFile does not check it.
func ownedByAnother(fs.FileInfo) bool { return false }
