package jsapi_test

import (
	"encoding/json"
	"testing"

	"github.com/rulebook/rulebook/cmd/rulebook-wasm/jsapi"
)

// FuzzCall calls each function with arbitrary arguments: game ids, strings of JSON or not, numbers and JavaScript's
// other values. It must always answer JSON, a refusal with a code and a reason that is not INTERNAL (a panic of
// the service, which Call answers so) or a response. Strings are cut to 16 KiB, so that one input's work stays small.
func FuzzCall(f *testing.F) {
	state := `{"exploze": {"rulesVersion": 1, "options": {"rows": 2, "cols": 2, "players": 2}, "toMove": 1, "owners": [0, 0, 0, 0], "stones": [0, 0, 0, 0]}}`
	f.Add(uint8(3), uint8(0), state, `{"player": 1, "exploze": {"row": 1}}`, 1.0)
	f.Add(uint8(1), uint8(0x20), `{"micropul": {"players": 1}}`, ``, 42.0)
	f.Add(uint8(9), uint8(0x04), `{"kipicot": {}}`, `{`, 2.5)
	f.Add(uint8(14), uint8(0x3c), `{"ubongoDuel": {}}`, `null`, -1.0)
	f.Add(uint8(0), uint8(0xff), `[]`, `"x"`, 9007199254740993.0)
	m, err := jsapi.New()
	if err != nil {
		f.Fatal(err)
	}
	functions := m.Functions()
	games := []string{"exploze", "kipicot", "micropul", "ubongo-duel", "", "chess"}
	f.Fuzz(func(t *testing.T, pick, kinds uint8, a, b string, n float64) {
		a, b = a[:min(len(a), 16<<10)], b[:min(len(b), 16<<10)]
		fn := functions[int(pick)%len(functions)]
		strs := []string{games[int(pick)/len(functions)%len(games)], a, b}
		args := make([]jsapi.Value, 1+int(kinds>>6))
		for i := range args {
			switch (kinds >> (2 * i)) & 3 {
			case 0:
				args[i] = jsapi.Value{Kind: jsapi.String, String: strs[i]}
			case 1:
				args[i] = jsapi.Value{Kind: jsapi.Number, Number: n}
			case 2:
				args[i] = jsapi.Value{Kind: jsapi.Null}
			default:
				args[i] = jsapi.Value{Kind: jsapi.Other}
			}
		}
		answer := fn.Call(args...)
		var r struct {
			Code    *int `json:"code"`
			Details []struct {
				Reason string `json:"reason"`
			} `json:"details"`
		}
		if err := json.Unmarshal([]byte(answer), &r); err != nil {
			t.Fatalf("%s%v: not JSON: %.300s", fn.Name, args, answer)
		}
		if r.Code != nil && (*r.Code <= 0 || *r.Code == 13 || len(r.Details) == 0 || r.Details[0].Reason == "") {
			t.Fatalf("%s%v: %.300s, want a refusal with a reason, not INTERNAL", fn.Name, args, answer)
		}
	})
}
