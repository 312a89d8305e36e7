package identity

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// hashPrefix starts the hash of each line of a key file: the hash function, then the hex of the key's hash.
const hashPrefix = "sha256:"

// keyName is the form of an API key's name: what a log line, a metric label and -plain-state-callers show.
var keyName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// Keys are the API keys that name callers, each kept as the SHA-256 of the key: a key is a random token of at least
// 128 bits, so its hash cannot be searched back to it, and the file holding the hashes gives no key away.
type Keys struct {
	entries []keyEntry
}

// keyEntry is one line of a key file.
type keyEntry struct {
	name string
	hash [sha256.Size]byte
}

// ParseKeys reads a key file: one "name:sha256:<hex of the SHA-256 of the key>" per line, with blank lines and lines
// starting with # ignored. A name is 1 to 64 characters of [A-Za-z0-9._-] and may have several keys (to rotate
// them); a hash may appear once.
func ParseKeys(r io.Reader) (*Keys, error) {
	k := &Keys{}
	seen := map[[sha256.Size]byte]bool{}
	lines := bufio.NewScanner(r)
	for n := 1; lines.Scan(); n++ {
		line := strings.TrimSpace(lines.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, hash, ok := strings.Cut(line, ":")
		if !ok || !keyName.MatchString(name) {
			return nil, fmt.Errorf("line %d: want name:%s<hex>, the name 1 to 64 characters of A-Z a-z 0-9 . _ -", n, hashPrefix)
		}
		digest, ok := strings.CutPrefix(hash, hashPrefix)
		b, err := hex.DecodeString(digest)
		if !ok || err != nil || len(b) != sha256.Size {
			return nil, fmt.Errorf("line %d (%s): want %s and the 64 hex digits of the key's SHA-256 (never the key itself)", n, name, hashPrefix)
		}
		e := keyEntry{name: name, hash: [sha256.Size]byte(b)}
		if seen[e.hash] {
			return nil, fmt.Errorf("line %d (%s): a key hash that an earlier line has", n, name)
		}
		seen[e.hash] = true
		k.entries = append(k.entries, e)
	}
	if err := lines.Err(); err != nil {
		return nil, err
	}
	return k, nil
}

// LoadKeyFile reads the key file at path (see ParseKeys), refusing one that its group or others may read or write:
// it names who may do what.
func LoadKeyFile(path string) (*Keys, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("%s: mode %v lets its group or others at it: chmod 600 it", path, perm)
	}
	keys, err := ParseKeys(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return keys, nil
}

// Name returns the name of the caller holding key, and whether any does. It compares key's hash with every hash of
// the file in constant time, and looks at all of them whatever it finds.
func (k *Keys) Name(key string) (string, bool) {
	hash := sha256.Sum256([]byte(key))
	found := -1
	for i, e := range k.entries {
		if subtle.ConstantTimeCompare(hash[:], e.hash[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return "", false
	}
	return k.entries[found].name, true
}

// Names returns the names of the callers the keys name, each once, in the file's order.
func (k *Keys) Names() []string {
	var names []string
	seen := map[string]bool{}
	for _, e := range k.entries {
		if !seen[e.name] {
			seen[e.name] = true
			names = append(names, e.name)
		}
	}
	return names
}
