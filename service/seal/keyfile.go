package seal

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

const (
	// KeyFileName is the name of the key file in the directory given to LoadOrCreateKeyFile.
	KeyFileName = "state-keys"
	// maxKeyFileBytes bounds what LoadOrCreateKeyFile reads: far more than any sane number of keys.
	maxKeyFileBytes = 1 << 20
)

// keyFileHeader starts every key file FormatKeys writes.
const keyFileHeader = `# rulebook state-token keys: one key per line, "<id>:<base64 of 32 random bytes>".
# An id is 1 to 32 characters of [A-Za-z0-9_-]; lines starting with # and blank lines are ignored.
# The first key seals new tokens and every key opens them: to rotate, put a new key first (for example
# "k2:" followed by the output of "openssl rand -base64 32") and keep the old keys while their tokens are in use.
# Keep this file secret: chmod 600.
`

// ParseKeys returns the keys of a key file, in order: UTF-8 text with one key per line, "<id>:<secret>", where the
// secret is 32 bytes in base64 (standard or URL alphabet, padded or not). Blank lines and lines starting with "#" are
// ignored, and spaces around a line or either part are trimmed. The first key seals. An error names the line at fault
// but never shows a secret; a file without keys, a bad id, a repeated id, a secret that is not 32 bytes of base64 or
// is all zeros are errors.
func ParseKeys(text string) ([]Key, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	var keys []Key
	seen := make(map[string]bool)
	for n, line := range strings.Split(text, "\n") {
		n++
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, secret, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("seal: key file line %d: not of the form <id>:<base64 secret>", n)
		}
		id, secret = strings.TrimSpace(id), strings.TrimSpace(secret)
		if !validKeyID(id) {
			return nil, fmt.Errorf("seal: key file line %d: a key id is 1 to %d characters of [A-Za-z0-9_-]", n, MaxKeyIDLen)
		}
		if seen[id] {
			return nil, fmt.Errorf("seal: key file line %d: key id %q appears twice", n, id)
		}
		seen[id] = true
		k := Key{ID: id}
		if !decodeSecret(k.Secret[:], secret) {
			return nil, fmt.Errorf("seal: key file line %d: the secret of key %q is not 32 bytes in base64", n, id)
		}
		if k.Secret == ([32]byte{}) {
			return nil, fmt.Errorf("seal: key file line %d: the secret of key %q is all zeros", n, id)
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, errors.New("seal: the key file holds no key")
	}
	return keys, nil
}

// decodeSecret decodes s, 32 bytes in base64 of either alphabet, padded or not, into dst, and reports whether it
// could.
func decodeSecret(dst []byte, s string) bool {
	enc := base64.RawStdEncoding
	if strings.ContainsAny(s, "-_") {
		if strings.ContainsAny(s, "+/") {
			return false
		}
		enc = base64.RawURLEncoding
	}
	if strings.HasSuffix(s, "=") {
		enc = enc.WithPadding(base64.StdPadding)
	}
	if len(s) != enc.EncodedLen(len(dst)) || strings.ContainsAny(s, "\r\n") {
		return false
	}
	n, err := enc.Strict().Decode(dst, []byte(s))
	return err == nil && n == len(dst)
}

// FormatKeys returns the key file of keys, the inverse of ParseKeys: a comment that explains the format, then one
// line per key in order, its secret in padded standard base64.
func FormatKeys(keys ...Key) string {
	var b strings.Builder
	b.WriteString(keyFileHeader)
	for _, k := range keys {
		b.WriteString(k.ID)
		b.WriteByte(':')
		b.WriteString(base64.StdEncoding.EncodeToString(k.Secret[:]))
		b.WriteByte('\n')
	}
	return b.String()
}

// LoadOrCreateKeyFile returns the keys of the key file dir/state-keys and its path. A directory that group or others
// may write to, or that belongs to another user, is refused. If the file exists it is parsed, and refused if its
// permissions let group or others access it or it belongs to another user. If not, dir is created (mode 0700) if need be, and
// a key file of one new key (id "k" and 8 random hex digits, secret from random, or crypto/rand when random is nil)
// is written atomically with mode 0600 and created is true. When another process creates the file at the same time,
// both end up with the keys of whichever was first.
func LoadOrCreateKeyFile(dir string, random io.Reader) (keys []Key, path string, created bool, err error) {
	path = filepath.Join(dir, KeyFileName)
	if err := checkKeyDir(dir); err != nil {
		return nil, path, false, err
	}
	keys, err = loadKeyFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return keys, path, false, err
	}
	if random == nil {
		random = rand.Reader
	}
	var idBytes [4]byte
	if _, err := io.ReadFull(random, idBytes[:]); err != nil {
		return nil, path, false, fmt.Errorf("seal: drawing a key id: %w", err)
	}
	key, err := GenerateKey("k"+hex.EncodeToString(idBytes[:]), random)
	if err != nil {
		return nil, path, false, err
	}
	if key.Secret == ([32]byte{}) {
		return nil, path, false, errors.New("seal: the random source gave 32 zero bytes")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, path, false, fmt.Errorf("seal: creating the key directory: %w", err)
	}
	won, err := writeNewFile(path, []byte(FormatKeys(key)))
	if err != nil {
		return nil, path, false, err
	}
	if !won { // another process created it first: use its keys
		keys, err = loadKeyFile(path)
		return keys, path, false, err
	}
	return []Key{key}, path, true, nil
}

// checkKeyDir refuses a key directory that exists and that group or others may write to, or that belongs to another
// user: whoever can write there could put a key file of their own in place, and so forge every token.
func checkKeyDir(dir string) error {
	info, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("seal: key directory: %w", err)
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 && runtime.GOOS != "windows" {
		return fmt.Errorf("seal: key directory %s may be written by group or others (mode %04o): run chmod 700 %s", dir, perm, dir)
	}
	if ownedByAnother(info) {
		return fmt.Errorf("seal: key directory %s belongs to another user than this process's", dir)
	}
	return nil
}

// ReadKeyFile returns the keys of the key file at path that the operator provides (rulebookd's -state-keys-file).
// Whoever reads it can forge every token, so it is refused if it is not a regular file, if others may read or write
// it, or if its group may and that group is not this process's own. A group of the process's own is allowed, as
// Kubernetes' fsGroup gives a mounted Secret's files to the pod's group with group read; so is an owner other than
// the process's (such a Secret's files belong to root). Its error wraps fs.ErrNotExist when there is no such file.
func ReadKeyFile(path string) ([]Key, error) {
	return readKeyFile(path, func(info fs.FileInfo) error {
		if perm := info.Mode().Perm(); !providedModeSafe(perm, fileGroup(info), os.Getgid()) && runtime.GOOS != "windows" {
			return fmt.Errorf("seal: key file %s may be read by others, or by a group other than this process's "+
				"(mode %04o): run chmod 600 %s (or 640, for this process's group)", path, perm, path)
		}
		return nil
	})
}

// providedModeSafe reports whether a provided key file of mode perm, whose group is gid, is safe for a process of
// group ownGID: nothing for others, and nothing for its group unless it is ownGID.
func providedModeSafe(perm fs.FileMode, gid, ownGID int) bool {
	return perm&0o007 == 0 && (perm&0o070 == 0 || gid == ownGID)
}

// loadKeyFile reads and parses the key file at path, kept in the data directory, which only this process's user may
// read. Its error wraps fs.ErrNotExist when there is no such file.
func loadKeyFile(path string) ([]Key, error) {
	return readKeyFile(path, func(info fs.FileInfo) error {
		// Windows has no such permission bits: every file there looks like mode 0666 or 0444.
		if perm := info.Mode().Perm(); perm&0o077 != 0 && runtime.GOOS != "windows" {
			return fmt.Errorf("seal: key file %s may be read by group or others (mode %04o): run chmod 600 %s", path, perm, path)
		}
		if ownedByAnother(info) {
			return fmt.Errorf("seal: key file %s belongs to another user than this process's", path)
		}
		return nil
	})
}

// readKeyFile reads and parses the key file at path, a regular file that check accepts. Its error wraps
// fs.ErrNotExist when there is no such file.
func readKeyFile(path string, check func(fs.FileInfo) error) ([]Key, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("seal: opening the key file: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("seal: key file %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("seal: key file %s is not a regular file", path)
	}
	if err := check(info); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("seal: reading key file %s: %w", path, err)
	}
	if len(data) > maxKeyFileBytes {
		return nil, fmt.Errorf("seal: key file %s is longer than %d bytes", path, maxKeyFileBytes)
	}
	keys, err := ParseKeys(string(data))
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return keys, nil
}

// writeNewFile creates the file path (mode 0600) holding data, atomically: it writes and syncs a temporary file in
// the same directory, then links it to path, which never replaces a file. It reports false if path already exists.
func writeNewFile(path string, data []byte) (won bool, err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp") // O_EXCL, mode 0600
	if err != nil {
		return false, fmt.Errorf("seal: creating the key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return false, fmt.Errorf("seal: creating the key file: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return false, fmt.Errorf("seal: writing the key file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return false, fmt.Errorf("seal: writing the key file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return false, fmt.Errorf("seal: writing the key file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, fmt.Errorf("seal: creating the key file: %w", err)
	}
	if d, err := os.Open(dir); err == nil { // make the new name durable; not every system can sync a directory
		d.Sync()
		d.Close()
	}
	return true, nil
}
