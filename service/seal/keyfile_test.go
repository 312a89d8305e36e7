package seal

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func TestParseKeys(t *testing.T) {
	k1, k2, k3 := testKey("k1"), testKey("k2"), testKey("k3")
	std := func(k Key) string { return base64.StdEncoding.EncodeToString(k.Secret[:]) }
	rawStd := func(k Key) string { return base64.RawStdEncoding.EncodeToString(k.Secret[:]) }
	url := func(k Key) string { return base64.URLEncoding.EncodeToString(k.Secret[:]) }
	rawURL := func(k Key) string { return base64.RawURLEncoding.EncodeToString(k.Secret[:]) }
	// A secret whose base64 holds both "+" or "/" and "-" or "_" in the other alphabet, to test mixing.
	var mixed Key
	for i := 0; ; i++ {
		mixed = testKey(fmt.Sprint("m", i))
		if s := std(mixed); strings.Contains(s, "+") && strings.Contains(s, "/") {
			break
		}
	}
	tests := []struct {
		name string
		text string
		want []Key
		line int // of the error, 0 for an error of the whole file
	}{
		{"one, standard padded", "k1:" + std(k1) + "\n", []Key{k1}, 0},
		{"one, no final newline", "k1:" + std(k1), []Key{k1}, 0},
		{"standard unpadded", "k1:" + rawStd(k1), []Key{k1}, 0},
		{"URL padded", "k1:" + url(k1), []Key{k1}, 0},
		{"URL unpadded", "k1:" + rawURL(k1), []Key{k1}, 0},
		{"order kept", "k2:" + std(k2) + "\nk1:" + rawURL(k1) + "\nk3:" + url(k3) + "\n", []Key{k2, k1, k3}, 0},
		{"comments and blank lines", "# keys\n\n  # indented comment\nk1:" + std(k1) + "\n\n#k2:" + std(k2) + "\n", []Key{k1}, 0},
		{"CRLF, spaces and a BOM", "\uFEFF# keys\r\n k1 : " + std(k1) + " \r\n\tk2:" + std(k2) + "\r\n", []Key{k1, k2}, 0},
		{"FormatKeys", FormatKeys(k1, k2), []Key{k1, k2}, 0},

		{"empty", "", nil, 0},
		{"comments only", "# nothing\n\n", nil, 0},
		{"no colon", "# keys\n\n" + std(k1), nil, 3},
		{"empty id", "k1:" + std(k1) + "\n:" + std(k2), nil, 2},
		{"bad id", "k.1:" + std(k1), nil, 1},
		{"id too long", strings.Repeat("k", 33) + ":" + std(k1), nil, 1},
		{"duplicate id", "k1:" + std(k1) + "\n#\nk1:" + std(k2), nil, 3},
		{"empty secret", "k1:", nil, 1},
		{"31 bytes", "k1:" + base64.StdEncoding.EncodeToString(k1.Secret[:31]), nil, 1},
		{"33 bytes", "k1:" + base64.StdEncoding.EncodeToString(append(k1.Secret[:], 0)), nil, 1},
		{"hex", "k1:" + fmt.Sprintf("%x", k1.Secret), nil, 1},
		{"bad character", "k1:" + std(k1)[:10] + "!" + std(k1)[11:], nil, 1},
		{"space inside", "k1:" + std(k1)[:10] + " " + std(k1)[11:], nil, 1},
		{"mixed alphabets", "k1:" + strings.Replace(std(mixed), "+", "-", 1), nil, 1},
		{"too much padding", "k1:" + std(k1) + "=", nil, 1},
		{"padding inside", "k1:" + rawStd(k1)[:40] + "=" + rawStd(k1)[40:], nil, 1},
		{"stray bits", "k1:" + rawStd(k1)[:42] + "B", nil, 1},
		{"zeros", "k1:" + base64.StdEncoding.EncodeToString(make([]byte, 32)), nil, 1},
		{"second line bad", "k1:" + std(k1) + "\nk2:" + std(k2)[:20], nil, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseKeys(tt.text)
			if tt.want != nil {
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.want) || len(got) != len(tt.want) {
					t.Fatalf("ParseKeys = %v, want %v", got, tt.want)
				}
				for i := range got {
					if got[i].Secret != tt.want[i].Secret {
						t.Errorf("key %d: another secret", i)
					}
				}
				return
			}
			if err == nil {
				t.Fatalf("ParseKeys succeeded: %v", got)
			}
			msg := err.Error()
			if tt.line > 0 && !strings.Contains(msg, fmt.Sprintf("line %d:", tt.line)) {
				t.Errorf("error %q does not name line %d", msg, tt.line)
			}
			// No secret, nor a long piece of one, in the message.
			for _, line := range strings.Split(tt.text, "\n") {
				_, secret, _ := strings.Cut(line, ":")
				secret = strings.TrimSpace(secret)
				for i := 0; i+8 <= len(secret); i++ {
					if strings.Contains(msg, secret[i:i+8]) {
						t.Fatalf("error %q shows part of a secret", msg)
					}
				}
			}
		})
	}
}

func TestFormatKeys(t *testing.T) {
	keys := []Key{testKey("new"), testKey("old"), testKey(strings.Repeat("z", 32))}
	text := FormatKeys(keys...)
	if !strings.HasPrefix(text, "# ") || !strings.HasSuffix(text, "\n") || !strings.Contains(text, "chmod 600") {
		t.Errorf("FormatKeys has no comment header or no final newline:\n%s", text)
	}
	got, err := ParseKeys(text)
	if err != nil {
		t.Fatal(err)
	}
	for i := range keys {
		if got[i] != keys[i] {
			t.Errorf("key %d: %v, want %v", i, got[i], keys[i])
		}
	}
}

// perm returns the permission bits of path.
func perm(t *testing.T, path string) fs.FileMode {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode().Perm()
}

func TestLoadOrCreateKeyFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys", "rulebook")
	keys, path, created, err := LoadOrCreateKeyFile(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !created || len(keys) != 1 || path != filepath.Join(dir, "state-keys") {
		t.Fatalf("first start: created %v, %d keys, path %s", created, len(keys), path)
	}
	if !regexp.MustCompile(`^k[0-9a-f]{8}$`).MatchString(keys[0].ID) {
		t.Errorf("generated key id %q", keys[0].ID)
	}
	if p := perm(t, path); p != 0o600 {
		t.Errorf("key file mode %04o, want 0600", p)
	}
	if p := perm(t, dir); p != 0o700 {
		t.Errorf("key directory mode %04o, want 0700", p)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the key directory holds %d files, want only the key file", len(entries))
	}

	// A restart loads the same key.
	again, path2, created, err := LoadOrCreateKeyFile(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if created || path2 != path || len(again) != 1 || again[0] != keys[0] {
		t.Errorf("restart: created %v, keys %v, want %v", created, again, keys)
	}

	// Rotation by hand: a new key put first.
	rotated := FormatKeys(testKey("k2"), keys[0])
	if err := os.WriteFile(path, []byte(rotated), 0o600); err != nil {
		t.Fatal(err)
	}
	got, _, _, err := LoadOrCreateKeyFile(dir, nil)
	if err != nil || len(got) != 2 || got[0] != testKey("k2") || got[1] != keys[0] {
		t.Errorf("after rotation: %v, %v", got, err)
	}
}

func TestLoadOrCreateKeyFileSeeded(t *testing.T) {
	a, _, _, err := LoadOrCreateKeyFile(t.TempDir(), seeded(5))
	if err != nil {
		t.Fatal(err)
	}
	b, _, _, err := LoadOrCreateKeyFile(t.TempDir(), seeded(5))
	if err != nil {
		t.Fatal(err)
	}
	if a[0] != b[0] {
		t.Errorf("the same seeded source made keys %v and %v", a[0], b[0])
	}
	if _, _, _, err := LoadOrCreateKeyFile(t.TempDir(), strings.NewReader("short")); err == nil {
		t.Error("a failing random source made a key")
	}
}

func TestLoadOrCreateKeyFileRefuses(t *testing.T) {
	good := FormatKeys(testKey("k1"))
	tests := []struct {
		name string
		text string
		mode fs.FileMode
		want string // in the error
	}{
		{"0644", good, 0o644, "chmod 600"},
		{"0640", good, 0o640, "chmod 600"},
		{"0604", good, 0o604, "chmod 600"},
		{"0660", good, 0o660, "chmod 600"},
		{"no key", "# empty\n", 0o600, "no key"},
		{"bad line", good + "k2:AAAA\n", 0o600, "line 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, KeyFileName)
			if err := os.WriteFile(path, []byte(tt.text), tt.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tt.mode); err != nil { // whatever the umask
				t.Fatal(err)
			}
			keys, _, created, err := LoadOrCreateKeyFile(dir, nil)
			if err == nil || keys != nil || created {
				t.Fatalf("LoadOrCreateKeyFile = %v, created %v, %v", keys, created, err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not say %q or name the file", err, tt.want)
			}
			if data, _ := os.ReadFile(path); string(data) != tt.text {
				t.Error("the refused key file was changed")
			}
		})
	}
	t.Run("a directory", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, KeyFileName), 0o700); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := LoadOrCreateKeyFile(dir, nil); err == nil {
			t.Error("a directory named state-keys was taken as a key file")
		}
	})
}

// TestLoadOrCreateKeyFileConcurrent starts replicas at once on a fresh directory: one creates the key file, and all
// end up with its key.
func TestLoadOrCreateKeyFileConcurrent(t *testing.T) {
	for round := range 20 {
		dir := filepath.Join(t.TempDir(), "keys")
		const n = 8
		var (
			wg      sync.WaitGroup
			keys    [n][]Key
			created [n]bool
			errs    [n]error
		)
		for i := range n {
			wg.Go(func() { keys[i], _, created[i], errs[i] = LoadOrCreateKeyFile(dir, nil) })
		}
		wg.Wait()
		creators := 0
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("round %d, replica %d: %v", round, i, errs[i])
			}
			if len(keys[i]) != 1 || keys[i][0] != keys[0][0] {
				t.Fatalf("round %d: replicas disagree: %v and %v", round, keys[i], keys[0])
			}
			if created[i] {
				creators++
			}
		}
		if creators != 1 {
			t.Fatalf("round %d: %d replicas say they created the file", round, creators)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Fatalf("round %d: %d files left in the key directory", round, len(entries))
		}
	}
}

// FuzzParseKeys parses arbitrary key files: ParseKeys never panics, and what it accepts formats and parses back to
// the same keys.
func FuzzParseKeys(f *testing.F) {
	k1 := testKey("k1")
	f.Add(FormatKeys(k1, testKey("k2")))
	f.Add("k1:" + base64.RawURLEncoding.EncodeToString(k1.Secret[:]) + "\r\n# c\n\n")
	f.Add("\uFEFFk1 : " + base64.URLEncoding.EncodeToString(k1.Secret[:]))
	f.Add("k1:AAAA\n")
	f.Add("k1:k2:")
	f.Add("")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<16 {
			return
		}
		keys, err := ParseKeys(text)
		if err != nil {
			if keys != nil {
				t.Fatal("keys came with an error")
			}
			return
		}
		again, err := ParseKeys(FormatKeys(keys...))
		if err != nil {
			t.Fatalf("FormatKeys of parsed keys does not parse: %v", err)
		}
		if len(again) != len(keys) {
			t.Fatalf("%d keys, then %d", len(keys), len(again))
		}
		for i := range keys {
			if again[i] != keys[i] {
				t.Fatalf("key %d changed", i)
			}
		}
		if _, err := NewKeyring(keys...); err != nil {
			t.Fatalf("parsed keys make no keyring: %v", err)
		}
	})
}

// TestLoadOrCreateKeyFileRefusesOpenDirectories checks that a key directory others may write to, or a key file or
// directory of another user, is refused: whoever can put a key file there could forge every token.
func TestLoadOrCreateKeyFileRefusesOpenDirectories(t *testing.T) {
	for _, mode := range []fs.FileMode{0o777, 0o770, 0o702} {
		dir := filepath.Join(t.TempDir(), "keys")
		if err := os.Mkdir(dir, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil { // whatever the umask
			t.Fatal(err)
		}
		if _, _, _, err := LoadOrCreateKeyFile(dir, nil); err == nil || !strings.Contains(err.Error(), "chmod 700") {
			t.Errorf("a key directory of mode %04o: %v, want a refusal saying chmod 700", mode, err)
		}
	}
	if os.Getuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	dir := t.TempDir()
	if _, _, _, err := LoadOrCreateKeyFile(dir, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(filepath.Join(dir, KeyFileName), 4242, 4242); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := LoadOrCreateKeyFile(dir, nil); err == nil || !strings.Contains(err.Error(), "another user") {
		t.Errorf("a key file of another user: %v, want a refusal", err)
	}
	if err := os.Chown(dir, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := LoadOrCreateKeyFile(dir, nil); err == nil || !strings.Contains(err.Error(), "another user") {
		t.Errorf("a key directory of another user: %v, want a refusal", err)
	}
}

// TestReadKeyFile checks the modes of a provided key file: none for others, and for its group only when it is the
// process's own (as Kubernetes' fsGroup makes a mounted Secret's files).
func TestReadKeyFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows files have no Unix permission bits")
	}
	good := FormatKeys(testKey("k1"))
	for _, tt := range []struct {
		mode fs.FileMode
		ok   bool
	}{
		{0o600, true}, {0o400, true}, {0o640, true}, {0o440, true}, {0o660, true},
		{0o644, false}, {0o604, false}, {0o602, false}, {0o601, false}, {0o444, false},
	} {
		t.Run(fmt.Sprintf("%04o", tt.mode), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "keys")
			if err := os.WriteFile(path, []byte(good), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(path, -1, os.Getgid()); err != nil { // whatever group the directory gives
				t.Fatal(err)
			}
			if err := os.Chmod(path, tt.mode); err != nil { // whatever the umask
				t.Fatal(err)
			}
			keys, err := ReadKeyFile(path)
			switch {
			case tt.ok && (err != nil || len(keys) != 1):
				t.Errorf("ReadKeyFile = %v, %v; want its key", keys, err)
			case !tt.ok && err == nil:
				t.Errorf("ReadKeyFile took a key file of mode %04o", tt.mode)
			case !tt.ok && (!strings.Contains(err.Error(), "chmod 600") || !strings.Contains(err.Error(), path)):
				t.Errorf("error %q does not say chmod 600 or name the file", err)
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		if _, err := ReadKeyFile(filepath.Join(t.TempDir(), "keys")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadKeyFile of no file: %v, want fs.ErrNotExist", err)
		}
	})
	t.Run("a directory", func(t *testing.T) {
		if _, err := ReadKeyFile(t.TempDir()); err == nil {
			t.Error("a directory was taken as a key file")
		}
	})
}

// TestProvidedModeSafe checks the rule of a provided key file's mode against its group, another group included,
// which a test cannot give a file of its own.
func TestProvidedModeSafe(t *testing.T) {
	const own, other = 1000, 2000
	for _, tt := range []struct {
		perm fs.FileMode
		gid  int
		want bool
	}{
		{0o600, other, true},
		{0o640, own, true},
		{0o440, own, true},
		{0o640, other, false},
		{0o620, other, false},
		{0o604, own, false},
		{0o644, own, false},
	} {
		if got := providedModeSafe(tt.perm, tt.gid, own); got != tt.want {
			t.Errorf("providedModeSafe(%04o, group %d) = %v, want %v", tt.perm, tt.gid, got, tt.want)
		}
	}
}
