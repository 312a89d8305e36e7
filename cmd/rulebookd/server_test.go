package main

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	statuspb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// testServer is a rulebookd running in the test process on loopback ports, with a gRPC client and an HTTP base URL.
type testServer struct {
	client  rulebookv1.RulesServiceClient
	conn    *grpc.ClientConn
	httpURL string
	stop    func() error // stops the server as SIGTERM would and returns what run returned
}

// testConfig is the configuration the tests run with unless they say otherwise.
func testConfig() config {
	return config{
		logFormat:          "console",
		logLevel:           "debug",
		maxMessageBytes:    1 << 20,
		callTimeout:        10 * time.Second,
		shutdownTimeout:    10 * time.Second,
		stateKeys:          testStateKeys,
		acceptPlainStates:  true,
		maxConcurrentCalls: 64,
		maxHeavyCalls:      2,
	}
}

// testStateKeys is the key the tests seal tokens with, in the key file's format.
const testStateKeys = "test:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n"

// startServer runs rulebookd with cfg on 127.0.0.1 until the test ends, hosting testGames or, if none are given, the
// games rulebookd hosts.
func startServer(t testing.TB, cfg config, testGames ...engine.Game) *testServer {
	t.Helper()
	if len(testGames) == 0 {
		testGames = games
	}
	grpcLis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	httpLis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	log := zaptest.NewLogger(t)
	keys, err := loadKeys(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := newServer(cfg, log, keys, testGames...)
	if err != nil {
		t.Fatal(err)
	}
	go func() { done <- srv.run(ctx, grpcLis, httpLis) }()

	conn, err := grpc.NewClient(grpcLis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{
		client:  rulebookv1.NewRulesServiceClient(conn),
		conn:    conn,
		httpURL: "http://" + httpLis.Addr().String(),
		stop:    sync.OnceValue(func() error { cancel(); return <-done }),
	}
	t.Cleanup(func() {
		conn.Close()
		if err := ts.stop(); err != nil {
			t.Errorf("server stopped with %v", err)
		}
	})
	return ts
}

// callContext is the context of one test call: bounded, so that a broken server fails the test instead of hanging.
func callContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// post sends body as JSON to path and returns the status code and the response body.
func (ts *testServer) post(t testing.TB, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(callContext(t), http.MethodPost, ts.httpURL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return do(t, req)
}

// get fetches path and returns the status code and the response body.
func (ts *testServer) get(t testing.TB, path string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(callContext(t), http.MethodGet, ts.httpURL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, req)
}

// do sends req and reads the whole response.
func do(t testing.TB, req *http.Request) (int, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

// postProto sends req as JSON to path, expects 200 and decodes the answer into resp.
func (ts *testServer) postProto(t testing.TB, path string, req, resp proto.Message) {
	t.Helper()
	body, err := protojson.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	code, out := ts.post(t, path, string(body))
	if code != http.StatusOK {
		t.Fatalf("POST %s: %d %s", path, code, out)
	}
	if err := protojson.Unmarshal(out, resp); err != nil {
		t.Fatalf("POST %s: decoding %s: %v", path, out, err)
	}
}

// transport plays the RulesService calls a full-game test needs, over gRPC or over REST.
type transport struct {
	name     string
	newGame  func(t testing.TB, ts *testServer, req *rulebookv1.NewGameRequest) *rulebookv1.NewGameResponse
	legal    func(t testing.TB, ts *testServer, req *rulebookv1.ListLegalMovesRequest) *rulebookv1.ListLegalMovesResponse
	validate func(t testing.TB, ts *testServer, req *rulebookv1.ValidateMoveRequest)
	apply    func(t testing.TB, ts *testServer, req *rulebookv1.ApplyMoveRequest) *rulebookv1.ApplyMoveResponse
	score    func(t testing.TB, ts *testServer, req *rulebookv1.ScoreRequest) *rulebookv1.ScoreResponse
	view     func(t testing.TB, ts *testServer, req *rulebookv1.GetViewRequest) *rulebookv1.GetViewResponse
	solve    func(t testing.TB, ts *testServer, req *rulebookv1.SolvePuzzleRequest) *rulebookv1.SolvePuzzleResponse
}

// transports are gRPC and REST.
var transports = []transport{
	{
		name: "gRPC",
		newGame: func(t testing.TB, ts *testServer, req *rulebookv1.NewGameRequest) *rulebookv1.NewGameResponse {
			return succeeded(ts.client.NewGame(callContext(t), req))(t)
		},
		legal: func(t testing.TB, ts *testServer, req *rulebookv1.ListLegalMovesRequest) *rulebookv1.ListLegalMovesResponse {
			return succeeded(ts.client.ListLegalMoves(callContext(t), req))(t)
		},
		validate: func(t testing.TB, ts *testServer, req *rulebookv1.ValidateMoveRequest) {
			succeeded(ts.client.ValidateMove(callContext(t), req))(t)
		},
		apply: func(t testing.TB, ts *testServer, req *rulebookv1.ApplyMoveRequest) *rulebookv1.ApplyMoveResponse {
			return succeeded(ts.client.ApplyMove(callContext(t), req))(t)
		},
		score: func(t testing.TB, ts *testServer, req *rulebookv1.ScoreRequest) *rulebookv1.ScoreResponse {
			return succeeded(ts.client.Score(callContext(t), req))(t)
		},
		view: func(t testing.TB, ts *testServer, req *rulebookv1.GetViewRequest) *rulebookv1.GetViewResponse {
			return succeeded(ts.client.GetView(callContext(t), req))(t)
		},
		solve: func(t testing.TB, ts *testServer, req *rulebookv1.SolvePuzzleRequest) *rulebookv1.SolvePuzzleResponse {
			return succeeded(ts.client.SolvePuzzle(callContext(t), req))(t)
		},
	},
	{
		name: "REST",
		newGame: func(t testing.TB, ts *testServer, req *rulebookv1.NewGameRequest) *rulebookv1.NewGameResponse {
			resp := &rulebookv1.NewGameResponse{}
			ts.postProto(t, "/v1/games/"+req.GetGame()+":new", req, resp)
			return resp
		},
		legal: func(t testing.TB, ts *testServer, req *rulebookv1.ListLegalMovesRequest) *rulebookv1.ListLegalMovesResponse {
			resp := &rulebookv1.ListLegalMovesResponse{}
			ts.postProto(t, "/v1/games/"+req.GetGame()+":legalMoves", req, resp)
			return resp
		},
		validate: func(t testing.TB, ts *testServer, req *rulebookv1.ValidateMoveRequest) {
			ts.postProto(t, "/v1/games/"+req.GetGame()+":validate", req, &rulebookv1.ValidateMoveResponse{})
		},
		apply: func(t testing.TB, ts *testServer, req *rulebookv1.ApplyMoveRequest) *rulebookv1.ApplyMoveResponse {
			resp := &rulebookv1.ApplyMoveResponse{}
			ts.postProto(t, "/v1/games/"+req.GetGame()+":apply", req, resp)
			return resp
		},
		score: func(t testing.TB, ts *testServer, req *rulebookv1.ScoreRequest) *rulebookv1.ScoreResponse {
			resp := &rulebookv1.ScoreResponse{}
			ts.postProto(t, "/v1/games/"+req.GetGame()+":score", req, resp)
			return resp
		},
		view: func(t testing.TB, ts *testServer, req *rulebookv1.GetViewRequest) *rulebookv1.GetViewResponse {
			resp := &rulebookv1.GetViewResponse{}
			ts.postProto(t, "/v1/games/"+req.GetGame()+":view", req, resp)
			return resp
		},
		solve: func(t testing.TB, ts *testServer, req *rulebookv1.SolvePuzzleRequest) *rulebookv1.SolvePuzzleResponse {
			resp := &rulebookv1.SolvePuzzleResponse{}
			ts.postProto(t, "/v1/puzzles:solve", req, resp)
			return resp
		},
	},
}

// succeeded returns a check that fails the test if a call failed, and otherwise returns the call's result.
func succeeded[R any](r R, err error) func(t testing.TB) R {
	return func(t testing.TB) R {
		t.Helper()
		if err != nil {
			t.Fatalf("call failed: %v", err)
		}
		return r
	}
}

// fullGame is a game that TestFullGame plays to the end, and what the end must look like.
type fullGame struct {
	name    string
	game    string
	options *rulebookv1.GameOptions
	seed    uint64
	check   func(t *testing.T, moves int, final *rulebookv1.GameState, score *rulebookv1.Score)
	// choose picks the next move; nil means a random legal move.
	choose func(t *testing.T, ts *testServer, tr transport, state *rulebookv1.GameState, rng *rand.Rand) *rulebookv1.Move
}

// fullGames are the games TestFullGame plays.
var fullGames = []fullGame{
	{name: "exploze 6x6", game: "exploze", options: explozeOptions(6, 6, 2), check: checkExplozeEnd},
	{name: "exploze 4x5 three players", game: "exploze", options: explozeOptions(4, 5, 3), check: checkExplozeEnd},
	{name: "kipicot", game: "kipicot", seed: 1, check: checkKipicotEnd},
	{name: "kipicot whole stacks", game: "kipicot", seed: 2, check: checkKipicotEnd, options: &rulebookv1.GameOptions{
		Game: &rulebookv1.GameOptions_Kipicot{Kipicot: &rulebookv1.KipicotOptions{WholeStackMoves: true, PawnMayStay: true}}}},
	{name: "micropul", game: "micropul", seed: 11, check: checkMicropulEnd},
	{name: "micropul solo", game: "micropul", seed: 12, options: micropulOptions(1, rulebookv1.MicropulRuleSet_MICROPUL_RULE_SET_DEFAULT),
		check: checkMicropulEnd},
	{name: "micropul original rules", game: "micropul", seed: 13,
		options: micropulOptions(2, rulebookv1.MicropulRuleSet_MICROPUL_RULE_SET_ORIGINAL_2004), check: checkMicropulEnd},
	{name: "ubongo duel side A", game: "ubongo-duel", seed: 21, choose: solveUbongo, check: checkUbongoEnd,
		options: ubongoOptions(rulebookv1.UbongoDuelSide_UBONGO_DUEL_SIDE_A, false)},
	{name: "ubongo duel side B catch-up", game: "ubongo-duel", seed: 22, choose: solveUbongo, check: checkUbongoEnd,
		options: ubongoOptions(rulebookv1.UbongoDuelSide_UBONGO_DUEL_SIDE_B, true)},
}

// ubongoOptions returns the options of an Ubongo Duel game.
func ubongoOptions(side rulebookv1.UbongoDuelSide, catchUp bool) *rulebookv1.GameOptions {
	return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_UbongoDuel{
		UbongoDuel: &rulebookv1.UbongoDuelOptions{Side: side, CatchUp: catchUp}}}
}

// solveUbongo has a random player who still races in the current duel solve their task with SolvePuzzle, and
// returns that solution as the player's move.
func solveUbongo(t *testing.T, ts *testServer, tr transport, state *rulebookv1.GameState, rng *rand.Rand) *rulebookv1.Move {
	u := state.GetUbongoDuel()
	tasks := u.GetTasks()
	player := int32(rng.IntN(2) + 1)
	task := tasks[len(tasks)-1] // the last roll; a leader in the catch-up variant solves the first roll before it
	if u.GetLeader() == player && u.GetPlayers()[player-1].GetSolved() == 0 {
		task = tasks[0]
	}
	req := &rulebookv1.SolvePuzzleRequest{Pieces: &rulebookv1.SolvePuzzleRequest_NamedSet{NamedSet: "ubongo"}, Select: task.GetPieces()}
	for _, c := range task.GetShape() {
		req.Shape = append(req.Shape, &rulebookv1.PuzzleCell{X: c.GetX(), Y: c.GetY()})
	}
	solution := tr.solve(t, ts, req)
	if !solution.GetSolvable() {
		t.Fatalf("task %v of the deck has no solution", task)
	}
	submit := &rulebookv1.UbongoDuelSubmit{}
	for _, p := range solution.GetSolution() {
		placement := &rulebookv1.UbongoDuelPlacement{Piece: p.GetName()}
		for _, c := range p.GetCells() {
			placement.Cells = append(placement.Cells, &rulebookv1.UbongoDuelCell{X: c.GetX(), Y: c.GetY()})
		}
		submit.Placements = append(submit.Placements, placement)
	}
	return &rulebookv1.Move{Player: player, Game: &rulebookv1.Move_UbongoDuel{UbongoDuel: &rulebookv1.UbongoDuelMove{
		Action: &rulebookv1.UbongoDuelMove_Submit{Submit: submit}}}}
}

// checkUbongoEnd checks that an Ubongo Duel game ended with a player on 5 duels won.
func checkUbongoEnd(t *testing.T, _ int, _ *rulebookv1.GameState, score *rulebookv1.Score) {
	won := score.GetUbongoDuel().GetDuelsWon()
	if len(score.GetWinners()) != 1 || len(won) != 2 || won[score.GetWinners()[0]-1] != 5 {
		t.Errorf("winners %v with duels won %v, want one player on 5", score.GetWinners(), won)
	}
}

// micropulOptions returns the options of a Micropul game.
func micropulOptions(players int32, rules rulebookv1.MicropulRuleSet) *rulebookv1.GameOptions {
	return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Micropul{
		Micropul: &rulebookv1.MicropulOptions{Players: players, RuleSet: rules}}}
}

// checkKipicotEnd checks that a Kipicot game ended with a colour's supply empty, and that the winner (if any)
// captured the most tokens.
func checkKipicotEnd(t *testing.T, _ int, _ *rulebookv1.GameState, score *rulebookv1.Score) {
	k := score.GetKipicot()
	if k.GetSupplyRed() != 0 && k.GetSupplyYellow() != 0 {
		t.Errorf("supplies %d red, %d yellow: the game ended with neither colour used up", k.GetSupplyRed(), k.GetSupplyYellow())
	}
	players := k.GetPlayers()
	if len(players) != 2 {
		t.Fatalf("score of %d players", len(players))
	}
	best := max(players[0].GetTotal(), players[1].GetTotal())
	switch {
	case players[0].GetTotal() == players[1].GetTotal():
		if !k.GetDraw() || len(score.GetWinners()) != 0 {
			t.Errorf("equal catches: draw %v winners %v, want a draw", k.GetDraw(), score.GetWinners())
		}
	case len(score.GetWinners()) != 1 || players[score.GetWinners()[0]-1].GetTotal() != best:
		t.Errorf("winners %v with catches %v", score.GetWinners(), players)
	}
}

// checkMicropulEnd checks that a Micropul game ended for a reason, with totals that add up its breakdown.
func checkMicropulEnd(t *testing.T, _ int, _ *rulebookv1.GameState, score *rulebookv1.Score) {
	m := score.GetMicropul()
	if m.GetEnd() == rulebookv1.MicropulEnd_MICROPUL_END_UNSPECIFIED {
		t.Error("the game is over but its score gives no end")
	}
	for _, p := range m.GetPlayers() {
		if p.GetTotal() != p.GetGroupPoints()+p.GetSupplyPoints()+p.GetHandPoints() {
			t.Errorf("player %d: total %d is not the sum of its parts", p.GetPlayer(), p.GetTotal())
		}
	}
	if solo := len(m.GetPlayers()) == 1; solo != (m.GetSoloBand() != rulebookv1.MicropulSoloBand_MICROPUL_SOLO_BAND_UNSPECIFIED) {
		t.Errorf("%d players with solo band %v", len(m.GetPlayers()), m.GetSoloBand())
	}
}

// explozeOptions returns the options of an Exploze game.
func explozeOptions(rows, cols, players int32) *rulebookv1.GameOptions {
	return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{
		Exploze: &rulebookv1.ExplozeOptions{Rows: rows, Cols: cols, Players: players}}}
}

// checkExplozeEnd checks that an Exploze game ended with one winner on its last move.
func checkExplozeEnd(t *testing.T, moves int, _ *rulebookv1.GameState, score *rulebookv1.Score) {
	if len(score.GetWinners()) != 1 {
		t.Errorf("winners %v, want one", score.GetWinners())
	}
	if got := score.GetExploze().GetFinalMove(); got != uint32(moves) {
		t.Errorf("final move %d, want %d", got, moves)
	}
}

// TestFullGame plays whole seeded games over each transport, each move a random one of the player to move's legal
// moves, validated and then applied, until the score says the game is over.
func TestFullGame(t *testing.T) {
	ts := startServer(t, testConfig())
	for _, tr := range transports {
		for _, g := range fullGames {
			t.Run(tr.name+"/"+g.name, func(t *testing.T) {
				state := tr.newGame(t, ts, &rulebookv1.NewGameRequest{Game: g.game, Options: g.options, Seed: proto.Uint64(g.seed)}).GetState()
				rng := rand.New(rand.NewPCG(g.seed, 7))
				const maxMoves = 5000
				moves, events := 0, 0
				for ; moves < maxMoves; moves++ {
					score := tr.score(t, ts, &rulebookv1.ScoreRequest{Game: g.game, State: state}).GetScore()
					if score.GetGameOver() {
						break
					}
					var move *rulebookv1.Move
					if g.choose != nil {
						move = g.choose(t, ts, tr, state, rng)
					} else {
						legal := tr.legal(t, ts, &rulebookv1.ListLegalMovesRequest{Game: g.game, State: state}).GetMoves()
						if len(legal) == 0 {
							t.Fatalf("move %d: no legal moves in a game that is not over", moves)
						}
						move = legal[rng.IntN(len(legal))]
					}
					tr.validate(t, ts, &rulebookv1.ValidateMoveRequest{Game: g.game, State: state, Move: move})
					applied := tr.apply(t, ts, &rulebookv1.ApplyMoveRequest{Game: g.game, State: state, Move: move})
					events += len(applied.GetEvents())
					state = applied.GetState()
				}
				if events == 0 {
					t.Errorf("%d moves and not one event", moves)
				}
				score := tr.score(t, ts, &rulebookv1.ScoreRequest{Game: g.game, State: state}).GetScore()
				if !score.GetGameOver() {
					t.Fatalf("after %d moves: score %v, want the game over", moves, score)
				}
				t.Logf("%d moves, %d events", moves, events)
				g.check(t, moves, state, score)
			})
		}
	}
}

// TestViewOfPerfectInformation checks that GetView of an Exploze state, for a player or a spectator, is the state.
func TestViewOfPerfectInformation(t *testing.T) {
	ts := startServer(t, testConfig())
	for _, tr := range transports {
		state := tr.newGame(t, ts, &rulebookv1.NewGameRequest{Game: "exploze"}).GetState()
		for _, viewer := range []int32{0, 1, 2} {
			view := tr.view(t, ts, &rulebookv1.GetViewRequest{Game: "exploze", State: state, Viewer: viewer}).GetView()
			if !proto.Equal(view, state) {
				t.Errorf("%s: the view of viewer %d differs from the state", tr.name, viewer)
			}
		}
	}
}

// wantError describes the error a bad request must get.
type wantError struct {
	code     codes.Code
	httpCode int
	reason   string
	field    string // the field violation's field, for INVALID_ARGUMENT
}

// errorCase is a bad request, sent over gRPC by call and over REST as body to path; a case without call is REST
// only, one without path gRPC only.
type errorCase struct {
	name string
	path string
	body string
	call func(ctx context.Context, ts *testServer) error
	want wantError
	// secrets are texts of which the refusal may show no part (a token, a seat pass, a key).
	secrets []string
}

// openingState is an Exploze 2x2 state after A(0,0) and B(1,1), as JSON.
const openingState = `{"exploze":{"options":{"rows":2,"cols":2,"players":2},"movesPlayed":2,"toMove":1,` +
	`"cells":[{"owner":1,"stones":1},{},{},{"owner":2,"stones":1}]}}`

// errorCases covers each class of error and how it travels.
func errorCases(t testing.TB) []errorCase {
	state := &rulebookv1.GameState{}
	if err := protojson.Unmarshal([]byte(openingState), state); err != nil {
		t.Fatal(err)
	}
	badState := proto.Clone(state).(*rulebookv1.GameState)
	badState.GetExploze().Cells[0].Stones = 2
	move := func(player, row, col int32) *rulebookv1.Move {
		return &rulebookv1.Move{Player: player, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Row: row, Col: col}}}
	}
	apply := func(s *rulebookv1.GameState, m *rulebookv1.Move) func(context.Context, *testServer) error {
		return func(ctx context.Context, ts *testServer) error {
			_, err := ts.client.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "exploze", State: s, Move: m})
			return err
		}
	}
	return []errorCase{
		{
			name: "unknown game",
			path: "/v1/games/chess:new", body: `{}`,
			call: func(ctx context.Context, ts *testServer) error {
				_, err := ts.client.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "chess"})
				return err
			},
			want: wantError{codes.NotFound, http.StatusNotFound, "UNKNOWN_GAME", ""},
		},
		{
			name: "missing state",
			path: "/v1/games/exploze:apply", body: `{"move":{"player":1,"exploze":{"row":0,"col":0}}}`,
			call: apply(nil, move(1, 0, 0)),
			want: wantError{codes.InvalidArgument, http.StatusBadRequest, "MISSING_FIELD", "state"},
		},
		{
			name: "option out of range",
			path: "/v1/games/exploze:new", body: `{"options":{"exploze":{"rows":33}}}`,
			call: func(ctx context.Context, ts *testServer) error {
				_, err := ts.client.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "exploze", Options: &rulebookv1.GameOptions{
					Game: &rulebookv1.GameOptions_Exploze{Exploze: &rulebookv1.ExplozeOptions{Rows: 33}}}})
				return err
			},
			want: wantError{codes.InvalidArgument, http.StatusBadRequest, "OPTION_OUT_OF_RANGE", "options.exploze.rows"},
		},
		{
			name: "inconsistent state",
			path: "/v1/games/exploze:apply",
			body: `{"state":` + strings.Replace(openingState, `"stones":1}`, `"stones":2}`, 1) + `,"move":{"player":1,"exploze":{"row":0,"col":0}}}`,
			call: apply(badState, move(1, 0, 0)),
			want: wantError{codes.InvalidArgument, http.StatusBadRequest, "STONE_COUNT_MISMATCH", "state.exploze.movesPlayed"},
		},
		{
			name: "move off the board",
			path: "/v1/games/exploze:apply", body: `{"state":` + openingState + `,"move":{"player":1,"exploze":{"row":2,"col":0}}}`,
			call: apply(state, move(1, 2, 0)),
			want: wantError{codes.InvalidArgument, http.StatusBadRequest, "CELL_OFF_BOARD", "move.exploze.row"},
		},
		{
			name: "opponent's cell",
			path: "/v1/games/exploze:apply", body: `{"state":` + openingState + `,"move":{"player":1,"exploze":{"row":1,"col":1}}}`,
			call: apply(state, move(1, 1, 1)),
			want: wantError{codes.FailedPrecondition, http.StatusBadRequest, "CELL_OWNED_BY_OPPONENT", ""},
		},
		{
			name: "not your turn",
			path: "/v1/games/exploze:validate", body: `{"state":` + openingState + `,"move":{"player":2,"exploze":{"row":1,"col":1}}}`,
			call: func(ctx context.Context, ts *testServer) error {
				_, err := ts.client.ValidateMove(ctx, &rulebookv1.ValidateMoveRequest{Game: "exploze", State: state, Move: move(2, 1, 1)})
				return err
			},
			want: wantError{codes.FailedPrecondition, http.StatusBadRequest, "NOT_YOUR_TURN", ""},
		},
	}
}

// TestErrors sends each class of bad request over gRPC and over REST and checks the code, the reason and the field.
func TestErrors(t *testing.T) {
	checkErrorCases(t, startServer(t, testConfig()), errorCases(t))
}

// checkErrorCases sends each case to ts over the transports it has, and checks the code, the reason and the field
// of the refusal, and that it shows no part of the case's secrets.
func checkErrorCases(t *testing.T, ts *testServer, cases []errorCase) {
	t.Helper()
	for _, tc := range cases {
		if tc.call != nil {
			t.Run(tc.name+"/gRPC", func(t *testing.T) {
				err := tc.call(callContext(t), ts)
				st, ok := status.FromError(err)
				if !ok || err == nil {
					t.Fatalf("got %v, want a status error", err)
				}
				checkStatus(t, st.Proto(), tc.want.code, tc.want)
				checkNoLeak(t, prototext.Format(st.Proto()), tc.secrets)
			})
		}
		if tc.path != "" {
			t.Run(tc.name+"/REST", func(t *testing.T) {
				code, body := ts.post(t, tc.path, tc.body)
				if code != tc.want.httpCode {
					t.Errorf("HTTP %d, want %d: %.300s", code, tc.want.httpCode, body)
				}
				checkStatus(t, restStatus(t, body), tc.want.code, tc.want)
				checkNoLeak(t, string(body), tc.secrets)
			})
		}
	}
}

// leakWindow is the length of the shortest part of a secret that checkNoLeak looks for.
const leakWindow = 8

// checkNoLeak fails the test if text shows any leakWindow characters in a row of one of secrets.
func checkNoLeak(t testing.TB, text string, secrets []string) {
	t.Helper()
	for _, secret := range secrets {
		for i := 0; i+leakWindow <= len(secret); i++ {
			if part := secret[i : i+leakWindow]; strings.Contains(text, part) {
				t.Errorf("the refusal shows %q, part of a secret: %.300s", part, text)
				return
			}
		}
	}
}

// TestUnknownJSONField checks that REST refuses a field the API does not have instead of dropping it.
func TestUnknownJSONField(t *testing.T) {
	ts := startServer(t, testConfig())
	code, body := ts.post(t, "/v1/games/exploze:new", `{"options":{"exploze":{"rows":6,"colums":6}}}`)
	if code != http.StatusBadRequest || !bytes.Contains(body, []byte("colums")) {
		t.Errorf("HTTP %d %s, want 400 naming the unknown field", code, body)
	}
}

// statusProto is the google.rpc.Status of a gRPC call's error (code OK for no error).
func statusProto(err error) *statuspb.Status { return status.Convert(err).Proto() }

// restStatus decodes the google.rpc.Status of a REST error body.
func restStatus(t testing.TB, body []byte) *statuspb.Status {
	t.Helper()
	st := &statuspb.Status{}
	if err := protojson.Unmarshal(body, st); err != nil {
		t.Fatalf("error body %.300s: %v", body, err)
	}
	return st
}

// checkStatus checks a google.rpc.Status against want.
func checkStatus(t testing.TB, st *statuspb.Status, code codes.Code, want wantError) {
	t.Helper()
	if codes.Code(st.GetCode()) != code {
		t.Errorf("code %v, want %v (%s)", codes.Code(st.GetCode()), code, st.GetMessage())
	}
	var reason, field string
	for _, d := range st.GetDetails() {
		m, err := d.UnmarshalNew()
		if err != nil {
			t.Fatalf("detail %v: %v", d, err)
		}
		switch m := m.(type) {
		case *errdetails.ErrorInfo:
			reason = m.GetReason()
			if m.GetDomain() != "rulebook" {
				t.Errorf("domain %q", m.GetDomain())
			}
		case *errdetails.BadRequest:
			field = m.GetFieldViolations()[0].GetField()
		}
	}
	if reason != want.reason {
		t.Errorf("reason %q, want %q (%s)", reason, want.reason, st.GetMessage())
	}
	if !strings.HasPrefix(field, want.field) || (want.field == "") != (field == "") {
		t.Errorf("field %q, want %q", field, want.field)
	}
}

// TestHiddenInformation checks Micropul's views over each transport: a player sees their own hand and the counts,
// never the core, a supply's contents or the other hand; a spectator sees no hand; a view is no state to move in.
func TestHiddenInformation(t *testing.T) {
	ts := startServer(t, testConfig())
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			state := tr.newGame(t, ts, &rulebookv1.NewGameRequest{Game: "micropul", Seed: proto.Uint64(5)}).GetState()
			full := state.GetMicropul()
			for _, viewer := range []int32{0, 1, 2} {
				view := tr.view(t, ts, &rulebookv1.GetViewRequest{Game: "micropul", State: state, Viewer: viewer}).GetView().GetMicropul()
				if !view.GetIsView() || view.GetViewer() != viewer || len(view.GetCore()) != 0 || view.GetCoreCount() != full.GetCoreCount() {
					t.Errorf("viewer %d: view %v of a core of %d", viewer, view, full.GetCoreCount())
				}
				for i, seat := range view.GetPlayers() {
					own := int32(i+1) == viewer
					if len(seat.GetSupply()) != 0 || seat.GetHandCount() != 6 || (len(seat.GetHand()) != 0) != own {
						t.Errorf("viewer %d sees seat %d as %v", viewer, i+1, seat)
					}
					if own && !slices.Equal(seat.GetHand(), full.GetPlayers()[i].GetHand()) {
						t.Errorf("viewer %d sees their hand as %v, not %v", viewer, seat.GetHand(), full.GetPlayers()[i].GetHand())
					}
				}
			}
			view := tr.view(t, ts, &rulebookv1.GetViewRequest{Game: "micropul", State: state, Viewer: 1}).GetView()
			_, err := ts.client.ListLegalMoves(callContext(t), &rulebookv1.ListLegalMovesRequest{Game: "micropul", State: view})
			if st := status.Convert(err); st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), "view") {
				t.Errorf("legal moves of a view: %v, want INVALID_ARGUMENT (STATE_IS_VIEW)", err)
			}
		})
	}
}

// TestReceiveTimeStamped checks that the service, not the caller, stamps an Ubongo Duel move with its receive time.
func TestReceiveTimeStamped(t *testing.T) {
	ts := startServer(t, testConfig())
	state := succeeded(ts.client.NewGame(callContext(t), &rulebookv1.NewGameRequest{Game: "ubongo-duel", Seed: proto.Uint64(3)}))(t).GetState()
	future := time.Now().Add(1000 * time.Hour).UnixNano()
	move := &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_UbongoDuel{UbongoDuel: &rulebookv1.UbongoDuelMove{
		ReceivedAt: future, Action: &rulebookv1.UbongoDuelMove_GiveUp{GiveUp: &rulebookv1.UbongoDuelGiveUp{}}}}}
	before := time.Now().UnixNano()
	next := succeeded(ts.client.ApplyMove(callContext(t), &rulebookv1.ApplyMoveRequest{Game: "ubongo-duel", State: state, Move: move}))(t)
	if got := next.GetState().GetUbongoDuel().GetLastReceivedAt(); got < before || got >= future {
		t.Errorf("last receive time %d, want the server's time (after %d), not the caller's %d", got, before, future)
	}
}

// TestNewGameSeed checks that a seed gives the same game every time and that, without one, the service draws a
// seed nobody can predict: two Micropul games without a seed deal different cores.
func TestNewGameSeed(t *testing.T) {
	ts := startServer(t, testConfig())
	core := func(seed *uint64) []uint32 {
		state := succeeded(ts.client.NewGame(callContext(t), &rulebookv1.NewGameRequest{Game: "micropul", Seed: seed}))(t).GetState()
		return state.GetMicropul().GetCore()
	}
	if a, b := core(proto.Uint64(0)), core(proto.Uint64(0)); !slices.Equal(a, b) {
		t.Errorf("seed 0 dealt %v, then %v", a, b)
	}
	if a, b := core(nil), core(nil); slices.Equal(a, b) {
		t.Errorf("two games without a seed dealt the same core %v", a)
	}
}
