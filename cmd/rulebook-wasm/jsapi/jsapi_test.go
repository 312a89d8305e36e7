package jsapi_test

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/clients/clienttest"
	"github.com/rulebook/rulebook/cmd/rulebook-wasm/jsapi"
	"github.com/rulebook/rulebook/cmd/rulebook-wasm/wasmtest"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
)

// serve returns a harness of a new module and a server that accepts plain states.
func serve(t *testing.T) *wasmtest.Harness {
	addrs := clienttest.Serve(t, clienttest.Config(true))
	return wasmtest.New(wasmtest.Native(t), servertest.Dial(t, addrs.GRPC, addrs.HTTP))
}

// TestPlay plays every game to its end natively, each call of the module compared with the server's.
func TestPlay(t *testing.T) {
	serve(t).Play(t)
}

// TestSameAsREST checks calls that a server refuses, or takes in a form the games do not play, against the server.
func TestSameAsREST(t *testing.T) {
	h := serve(t)
	state := string(newState(t, h))
	tests := []struct {
		name string
		fn   string
		args []any
	}{
		{name: "an unknown game", fn: "newGame", args: []any{"chess"}},
		{name: "a game id too long", fn: "score", args: []any{"exploze-exploze-exploze-exploze-exploze", state}},
		{name: "defaults", fn: "newGame", args: []any{"exploze", "null", 0}},
		{name: "options out of range", fn: "newGame", args: []any{"exploze", `{"exploze": {"rows": 99}}`, 1}},
		{name: "options with an unknown field", fn: "newGame", args: []any{"exploze", `{"exploze": {"rowz": 3}}`, 1}},
		{name: "options that are not an object", fn: "newGame", args: []any{"exploze", `[]`, 1}},
		{name: "options of another game", fn: "newGame", args: []any{"kipicot", `{"exploze": {}}`, 1}},
		{name: "a seed that is negative", fn: "newGame", args: []any{"micropul", nil, "-1"}},
		{name: "a seed past 2^64-1", fn: "newGame", args: []any{"micropul", nil, "18446744073709551616"}},
		{name: "a seed with an exponent", fn: "newGame", args: []any{"micropul", nil, "1e3"}},
		{name: "the largest safe seed", fn: "newGame", args: []any{"micropul", nil, 1<<53 - 1}},
		{name: "a state that is a number", fn: "score", args: []any{"exploze", "5"}},
		{name: "an empty state", fn: "score", args: []any{"exploze", "{}"}},
		{name: "a state of another game", fn: "score", args: []any{"kipicot", state}},
		{name: "a state that breaks the rules' conditions", fn: "score",
			args: []any{"exploze", `{"exploze": {"rulesVersion": 1, "options": {"rows": 2, "cols": 2, "players": 2}, "toMove": 3, "cells": [{}, {}, {}, {}]}}`}},
		{name: "a move off the board", fn: "applyMove", args: []any{"exploze", state, `{"player": 1, "exploze": {"row": 9}}`}},
		{name: "a move of no game", fn: "validateMove", args: []any{"exploze", state, `{"player": 1}`}},
		{name: "a move that is null", fn: "validateMove", args: []any{"exploze", state, `null`}},
		{name: "the moves of a player", fn: "legalMoves", args: []any{"exploze", state, 1}},
		{name: "the moves of a player who may not move", fn: "legalMoves", args: []any{"exploze", state, 2}},
		{name: "the moves of a player out of range", fn: "legalMoves", args: []any{"exploze", state, 65}},
		{name: "the moves of a player past int32", fn: "legalMoves", args: []any{"exploze", state, 1 << 40}},
		{name: "the view of a player", fn: "view", args: []any{"exploze", state, 2}},
		{name: "the view of a player the game does not have", fn: "view", args: []any{"exploze", state, 3}},
		{name: "the view of a negative player", fn: "view", args: []any{"exploze", state, -1}},
		{name: "a hidden state's view", fn: "view", args: []any{"micropul", micropulState(t, h), 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { h.Same(t, tt.fn, append([]any{}, tt.args...)...) })
	}
}

// newState returns the state of a new 3 x 3 Exploze game.
func newState(t *testing.T, h *wasmtest.Harness) json.RawMessage {
	return stateOf(t, h.Same(t, "newGame", "exploze", `{"exploze": {"rows": 3, "cols": 3}}`, 7))
}

// micropulState returns the state of a new Micropul game for two.
func micropulState(t *testing.T, h *wasmtest.Harness) string {
	return string(stateOf(t, h.Same(t, "newGame", "micropul", `{"micropul": {"players": 2}}`, 11)))
}

// stateOf returns the state of an answer of newGame.
func stateOf(t *testing.T, answer []byte) json.RawMessage {
	var a struct{ State json.RawMessage }
	if err := json.Unmarshal(answer, &a); err != nil || a.State == nil {
		t.Fatalf("no state in %s", answer)
	}
	return a.State
}

// TestArguments checks the refusals of arguments that the functions do not take, JavaScript's own values included.
func TestArguments(t *testing.T) {
	wasmtest.CheckArguments(t, wasmtest.Native(t))
	m, err := jsapi.New()
	if err != nil {
		t.Fatal(err)
	}
	newGame := m.Functions()[1]
	for _, v := range []jsapi.Value{{Kind: jsapi.Number, Number: math.NaN()}, {Kind: jsapi.Number, Number: math.Inf(1)},
		{Kind: jsapi.Number, Number: math.Copysign(0, -1)}, {Kind: jsapi.Kind(99)}} {
		answer := newGame.Call(jsapi.Value{Kind: jsapi.String, String: "exploze"}, jsapi.Value{}, v)
		if v.Number == 0 && v.Kind == jsapi.Number { // -0 is the seed 0
			if stateOf(t, []byte(answer)) == nil {
				t.Errorf("seed -0: %s", answer)
			}
			continue
		}
		if r := wasmtest.Refused(t, []byte(answer)); r.Details[0].Reason != jsapi.ReasonInvalidArguments {
			t.Errorf("seed %+v: %s, want %s", v, answer, jsapi.ReasonInvalidArguments)
		}
	}
}

// responses are the responses of the functions, which must not have a field named code, as a refusal has.
var responses = map[string]proto.Message{
	"listGames":    &rulebookv1.ListGamesResponse{},
	"newGame":      &rulebookv1.NewGameResponse{},
	"validateMove": &rulebookv1.ValidateMoveResponse{},
	"applyMove":    &rulebookv1.ApplyMoveResponse{},
	"legalMoves":   &rulebookv1.ListLegalMovesResponse{},
	"score":        &rulebookv1.ScoreResponse{},
	"view":         &rulebookv1.GetViewResponse{},
}

// TestAnswersHaveNoCode checks that a caller can tell an answer from a refusal by its code: no response of a
// function has a top-level field code.
func TestAnswersHaveNoCode(t *testing.T) {
	m, err := jsapi.New()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range m.Functions() {
		names = append(names, f.Name)
		resp, ok := responses[f.Name]
		if !ok {
			t.Errorf("function %s: what does it answer?", f.Name)
			continue
		}
		if fd := resp.ProtoReflect().Descriptor().Fields().ByJSONName("code"); fd != nil {
			t.Errorf("function %s answers %s, which has a field code: an answer would look like a refusal", f.Name,
				resp.ProtoReflect().Descriptor().FullName())
		}
	}
	want := []string{"listGames", "newGame", "validateMove", "applyMove", "legalMoves", "score", "view"}
	if !slices.Equal(names, want) {
		t.Errorf("functions %v, want %v", names, want)
	}
}
