package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rulebook/rulebook/clients/clienttest"
	"github.com/rulebook/rulebook/cmd/rulebook-wasm/wasmnode"
	"github.com/rulebook/rulebook/conformance/internal/kit"
	"github.com/rulebook/rulebook/server"
)

// cases returns the cases of every game's kit file, by game.
func cases(t *testing.T) map[string][]kit.Case {
	t.Helper()
	all := map[string][]kit.Case{}
	for _, game := range kit.Games() {
		cs, err := kit.Read(kit.File(".", game))
		if err != nil {
			t.Fatalf("%v (regenerate the kit with scripts/conformance)", err)
		}
		all[game] = cs
	}
	return all
}

// TestKit runs every case of the kit against rulebook itself: the RulesService in process, as the server runs it
// without a transport; the rulebookd binary over REST on loopback, as README.md says to run it (plain states
// accepted, -fixed-clock at the kit's); and the WebAssembly module under Node.js (one process for every case), its clock fixed at the kit's by
// configure, but for the cases with a token or a seat pass, which the module does not take (README.md: exactly
// tokenCases a file). Answers are compared as JSON values (objects' keys in any order, arrays in order, numbers and
// strings by their text), refusals by their code and reason. Under -short, which builds neither rulebookd nor the
// module, the REST leg runs every tenth case against the server in process (server.New, its clock at the kit's), and
// the module's does not run; without Node.js it is skipped (it fails under CI=true).
func TestKit(t *testing.T) {
	all := cases(t)
	targets := []struct {
		name   string
		target kit.Target
		every  int
	}{
		{"service", kit.NewService(), 1},
		{"REST", nil, 1},
	}
	if testing.Short() {
		cfg := clienttest.Config(true)
		cfg.Now = func() time.Time { return kit.Clock }
		targets[1].target, targets[1].every = rest{url: "http://" + clienttest.Serve(t, cfg).HTTP}, 10
	} else {
		targets[1].target = rest{url: rulebookd(t)}
	}
	for _, tg := range targets {
		for _, game := range kit.Games() {
			t.Run(tg.name+"/"+game, func(t *testing.T) {
				for i, c := range all[game] {
					if i%tg.every == 0 {
						check(t, tg.target, c)
					}
				}
			})
		}
	}
	t.Run("wasm", func(t *testing.T) {
		if testing.Short() {
			t.Skip("builds the WebAssembly module, then runs the kit under Node.js: not with -short")
		}
		clienttest.Node(t)
		wasm, wasmExec := wasmnode.Build(t)
		n := wasmnode.Start(t, wasm, wasmExec)
		config := `{"now": "` + kit.Clock.Format(time.RFC3339Nano) + `"}`
		if answer := n.Call(t, "configure", config); answer != "{}" {
			t.Fatalf("configure(%s) answered %s", config, answer)
		}
		for _, game := range kit.Games() {
			t.Run(game, func(t *testing.T) {
				skipped := 0
				for _, c := range all[game] {
					if tokened(t, c) {
						skipped++
						continue
					}
					check(t, module{n}, c)
				}
				if skipped != tokenCases {
					t.Errorf("%d cases with a token or a seat pass, which the module does not take; want %d (README.md)",
						skipped, tokenCases)
				}
			})
		}
	})
}

// tokenCases is how many cases of each file have a token or a seat pass, which an implementation that takes only
// plain states (the WebAssembly module) skips: a state with a token (CONFLICTING_FIELDS), a seat pass with a state
// (SEAT_PASS_WITHOUT_TOKEN), and a seat pass too long (FIELD_TOO_LARGE).
const tokenCases = 3

// tokened reports whether the request of c has a token or a seat pass.
func tokened(t *testing.T, c kit.Case) bool {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(c.Request, &fields); err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	_, token := fields["token"]
	_, seatPass := fields["seatPass"]
	return token || seatPass
}

// check fails t unless target answers c as the kit says.
func check(t *testing.T, target kit.Target, c kit.Case) {
	t.Helper()
	got, refused, err := target.Call(c.RPC, c.Request)
	switch {
	case err != nil:
		t.Errorf("%s: %v", c.Name, err)
	case c.Error != nil && (refused == nil || *refused != *c.Error):
		t.Errorf("%s: got %+v %.300s, want the refusal %+v", c.Name, refused, got, *c.Error)
	case c.Error == nil && refused != nil:
		t.Errorf("%s: refused with %+v, want %.300s", c.Name, *refused, c.Response)
	case c.Error == nil && !sameJSON(t, got, c.Response):
		t.Errorf("%s: got\n%s\nwant\n%s", c.Name, got, c.Response)
	}
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	decode := func(raw json.RawMessage) any {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%v: %.200s", err, raw)
		}
		return v
	}
	return reflect.DeepEqual(decode(a), decode(b))
}

// module is the WebAssembly module under Node.js: a case's request is the REST body of the function that serves its
// call (clients/wasm/rulebook.js's call, which ignores the body's game for the one it is given, the request's).
type module struct {
	n *wasmnode.Node
}

// Call calls the function of rpc with request and returns its answer, or the code and the ErrorInfo's reason of the
// google.rpc.Status it answers instead (an answer with a code).
func (m module) Call(rpc string, request json.RawMessage) (json.RawMessage, *kit.Refusal, error) {
	var path struct{ Game string }
	if err := json.Unmarshal(request, &path); err != nil {
		return nil, nil, err
	}
	answer, err := m.n.Method(rpc, path.Game, request)
	if err != nil {
		return nil, nil, err
	}
	var code struct{ Code *int }
	if err := json.Unmarshal([]byte(answer), &code); err != nil {
		return nil, nil, fmt.Errorf("not JSON: %w: %.300s", err, answer)
	}
	if code.Code == nil {
		return json.RawMessage(answer), nil, nil
	}
	refused, err := refusalOf([]byte(answer))
	return nil, refused, err
}

// rest is the server over REST at url: a case's request is the body of POST /v1/games/{game}:<verb>.
type rest struct {
	url string
}

// statuses are the HTTP statuses of the refusals' gRPC codes that the kit holds.
var statuses = map[int]int{3: http.StatusBadRequest, 5: http.StatusNotFound, 7: http.StatusForbidden,
	9: http.StatusBadRequest}

// Call posts request to the route of rpc and returns the answer: the body of a 200, else the code and the
// ErrorInfo's reason of the google.rpc.Status in the body, whose HTTP status must be the code's.
func (r rest) Call(rpc string, request json.RawMessage) (json.RawMessage, *kit.Refusal, error) {
	m, err := kit.MethodOf(rpc)
	if err != nil {
		return nil, nil, err
	}
	var path struct{ Game string }
	if err := json.Unmarshal(request, &path); err != nil {
		return nil, nil, err
	}
	resp, err := http.Post(r.url+"/v1/games/"+path.Game+":"+m.Verb, "application/json", bytes.NewReader(request))
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode == http.StatusOK {
		return body, nil, nil
	}
	refused, err := refusalOf(body)
	if err != nil {
		return nil, nil, fmt.Errorf("HTTP %d: %w", resp.StatusCode, err)
	}
	if want := statuses[refused.Code]; resp.StatusCode != want {
		return nil, nil, fmt.Errorf("HTTP %d for code %d, want %d", resp.StatusCode, refused.Code, want)
	}
	return nil, refused, nil
}

// refusalOf returns the code and the ErrorInfo's reason of body, a google.rpc.Status in JSON.
func refusalOf(body []byte) (*kit.Refusal, error) {
	var st struct {
		Code    int
		Details []struct {
			Type   string `json:"@type"`
			Reason string
		}
	}
	if err := json.Unmarshal(body, &st); err != nil {
		return nil, fmt.Errorf("%w: %.300s", err, body)
	}
	for _, d := range st.Details {
		if strings.HasSuffix(d.Type, "/google.rpc.ErrorInfo") {
			return &kit.Refusal{Code: st.Code, Reason: d.Reason}, nil
		}
	}
	return nil, fmt.Errorf("a status without an ErrorInfo: %.300s", body)
}

// answeredBy is a rules document's mark on the row of a reason code that the service never answers: the code it
// answers instead, or never (the service cannot be brought to it).
var answeredBy = regexp.MustCompile("\\(over the service: (never|`[A-Z_]+`)[,)]")

// documented returns the reason codes of the table rows of game's rules document (docs/rules/<game>.md; each row
// "| `CODE` |", which the engine's tests keep equal to its reasons), each with its mark: the code the service answers
// instead, "never", or "" for a code the service answers.
func documented(t *testing.T, game string) map[string]string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "rules", game+".md"))
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]string{}
	for line := range strings.Lines(string(doc)) {
		if rest, ok := strings.CutPrefix(line, "| `"); ok {
			code, row, _ := strings.Cut(rest, "`")
			if code != strings.ToUpper(code) {
				continue // a row of another table, such as the options'
			}
			codes[code] = ""
			if mark := answeredBy.FindStringSubmatch(row); mark != nil {
				codes[code] = strings.Trim(mark[1], "`")
			}
		}
	}
	if len(codes) == 0 {
		t.Fatalf("docs/rules/%s.md has no table of reason codes", game)
	}
	return codes
}

// requestReasons are the service's refusals of a request's own shape, which every file shows.
var requestReasons = []string{"MISSING_FIELD", "CONFLICTING_FIELDS", "SEAT_PASS_WITHOUT_TOKEN", "FIELD_OUT_OF_RANGE",
	"FIELD_TOO_LARGE", "PLAYER_OUT_OF_RANGE", "GAME_MISMATCH", "OPTION_OUT_OF_RANGE"}

// TestKitCovers checks that each game's file shows every reason code its rules document lists (docs/rules/<game>.md,
// which lists its engine's) but those it marks as answered by another code, which the file shows instead, or never,
// and the service's refusals of a request's shape; that it calls every RPC of the kit, and sets every
// option of ListGames in a NewGame it answers; and that its cases have distinct names.
func TestKitCovers(t *testing.T) {
	all := cases(t)
	for _, game := range kit.Games() {
		t.Run(game, func(t *testing.T) {
			shown, rpcs, names := map[string]bool{}, map[string]bool{}, map[string]bool{}
			var options []string
			for _, c := range all[game] {
				if names[c.Name] {
					t.Errorf("two cases named %s", c.Name)
				}
				names[c.Name] = true
				rpcs[c.RPC] = true
				if c.Error != nil {
					shown[c.Error.Reason] = true
				}
				if c.RPC == "NewGame" && c.Error == nil {
					var req struct{ Options map[string]map[string]any }
					if err := json.Unmarshal(c.Request, &req); err != nil {
						t.Fatal(err)
					}
					for _, opts := range req.Options {
						for name := range opts {
							options = append(options, name)
						}
					}
				}
			}
			for code, instead := range documented(t, game) {
				switch {
				case instead == "" && !shown[code]:
					t.Errorf("no case shows %s, and docs/rules/%s.md does not mark it (over the service: ...)", code, game)
				case instead != "" && shown[code]:
					t.Errorf("docs/rules/%s.md marks %s as answered %s, yet a case shows it", game, code, instead)
				case instead != "" && instead != "never" && !shown[instead]:
					t.Errorf("docs/rules/%s.md marks %s as answered %s, which no case shows", game, code, instead)
				}
			}
			for _, r := range requestReasons {
				if !shown[r] {
					t.Errorf("no case shows %s", r)
				}
			}
			for _, m := range kit.Methods {
				if !rpcs[m.RPC] {
					t.Errorf("no case calls %s", m.RPC)
				}
			}
			for _, g := range server.Games() {
				if g.Info().GetId() != game {
					continue
				}
				for _, o := range g.Info().GetOptions() {
					if !slices.Contains(options, o.GetName()) {
						t.Errorf("no NewGame answered sets the option %s", o.GetName())
					}
				}
			}
		})
	}
}

// readmeRow is a row of README.md's table of the kit's files: file, cases, size in KB.
var readmeRow = regexp.MustCompile(`(?m)^\| \[([a-z-]+\.jsonl)\]\([a-z-]+\.jsonl\) \| ([0-9]+) \| ([0-9]+) KB \|$`)

// TestReadme checks README.md's table of the kit's files against the files: one row a game, with its count of
// cases and its size in KB (1,000 bytes, rounded).
func TestReadme(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, m := range readmeRow.FindAllStringSubmatch(string(readme), -1) {
		rows[m[1]] = m[2:]
	}
	all := cases(t)
	for _, game := range kit.Games() {
		file := kit.File(".", game)
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{strconv.Itoa(len(all[game])), strconv.FormatInt((info.Size()+500)/1000, 10)}
		if got := rows[filepath.Base(file)]; !slices.Equal(got, want) {
			t.Errorf("README.md says %s has %v cases and KB, the file %v", file, got, want)
		}
	}
	if len(rows) != len(kit.Games()) {
		t.Errorf("README.md's table has %d files, the kit %d", len(rows), len(kit.Games()))
	}
}
