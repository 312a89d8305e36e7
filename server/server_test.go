package server

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
	"github.com/rulebook/rulebook/server/servertest"
	"github.com/rulebook/rulebook/service/seal"
)

// testServer is a rulebookd running in the test process on loopback ports, with a client of both transports.
type testServer struct {
	*servertest.Client
	srv      *Server
	adminURL string       // the admin endpoints' base URL, if served
	stop     func() error // stops the server as SIGTERM would and returns what Serve returned
}

// testConfig is the configuration the tests run with unless they say otherwise.
func testConfig() Config {
	return Config{
		MaxMessageBytes:         1 << 20,
		MaxRequestMemory:        64 << 20,
		CallTimeout:             10 * time.Second,
		ShutdownTimeout:         10 * time.Second,
		AcceptPlainStates:       true,
		MaxConcurrentCalls:      64,
		MaxHeavyCalls:           2,
		MaxGRPCConnections:      64,
		MaxHTTPConnections:      64,
		MaxStreamsPerConnection: 100,
		IdleTimeout:             time.Minute,
		MaxConnectionAge:        time.Hour,
		Metrics:                 true,
	}
}

// testKeys returns the keyring of servertest.StateKeys.
func testKeys(t testing.TB) *seal.Keyring {
	t.Helper()
	keys, err := seal.ParseKeys(servertest.StateKeys)
	if err != nil {
		t.Fatal(err)
	}
	return keyring(t, keys...)
}

// keyring returns a keyring of keys, the first sealing.
func keyring(t testing.TB, keys ...seal.Key) *seal.Keyring {
	t.Helper()
	ring, err := seal.NewKeyring(keys...)
	if err != nil {
		t.Fatal(err)
	}
	return ring
}

// testLogger logs to t: everything for a test, errors only for a benchmark.
func testLogger(t testing.TB) *zap.Logger {
	level := zap.DebugLevel
	if _, ok := t.(*testing.B); ok {
		level = zap.ErrorLevel
	}
	return zaptest.NewLogger(t, zaptest.Level(level))
}

// startServer runs a server with cfg and the test key on 127.0.0.1 until the test ends, hosting testGames or, if
// none are given, the games rulebookd hosts.
func startServer(t testing.TB, cfg Config, testGames ...engine.Game) *testServer {
	t.Helper()
	return start(t, setup{cfg: cfg, games: testGames})
}

// startServerWithKeys is startServer with the keys given.
func startServerWithKeys(t testing.TB, cfg Config, keys *seal.Keyring, testGames ...engine.Game) *testServer {
	t.Helper()
	return start(t, setup{cfg: cfg, keys: keys, games: testGames})
}

// setup is what a test server is started with; only cfg is needed.
type setup struct {
	cfg   Config
	keys  *seal.Keyring // nil for testKeys
	games []engine.Game // none for the games rulebookd hosts
	log   *zap.Logger   // nil for testLogger
	admin bool          // whether to serve the admin endpoints
}

// start runs a server as s says on 127.0.0.1 until the test ends.
func start(t testing.TB, s setup) *testServer {
	t.Helper()
	if len(s.games) == 0 {
		s.games = Games()
	}
	if s.keys == nil {
		s.keys = testKeys(t)
	}
	if s.log == nil {
		s.log = testLogger(t)
	}
	listen := func() net.Listener {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	l := Listeners{GRPC: listen(), HTTP: listen()}
	if s.admin {
		l.Admin = listen()
	}
	srv, err := New(s.cfg, s.log, s.keys, s.games...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, l) }()
	ts := &testServer{
		Client: servertest.Dial(t, l.GRPC.Addr().String(), l.HTTP.Addr().String()),
		srv:    srv,
		stop:   sync.OnceValue(func() error { cancel(); return <-done }),
	}
	if s.admin {
		ts.adminURL = "http://" + l.Admin.Addr().String()
	}
	t.Cleanup(func() {
		if err := ts.stop(); err != nil {
			t.Errorf("server stopped with %v", err)
		}
	})
	return ts
}

// fullGame is a game that TestFullGame plays to the end, and what the end must look like.
type fullGame struct {
	name    string
	game    string
	options *rulebookv1.GameOptions
	seed    uint64
	check   func(t testing.TB, moves int, final *rulebookv1.GameState, score *rulebookv1.Score)
	// choose picks the next move; nil means a random legal move.
	choose func(t testing.TB, c *servertest.Client, tr servertest.Transport, state *rulebookv1.GameState, rng *rand.Rand) *rulebookv1.Move
}

// fullGames are the games TestFullGame plays.
var fullGames = []fullGame{
	{name: "exploze 6x6", game: "exploze", options: servertest.ExplozeOptions(6, 6, 2), check: servertest.CheckExplozeEnd},
	{name: "exploze 4x5 three players", game: "exploze", options: servertest.ExplozeOptions(4, 5, 3), check: servertest.CheckExplozeEnd},
	{name: "kipicot", game: "kipicot", seed: 1, check: servertest.CheckKipicotEnd},
	{name: "kipicot whole stacks", game: "kipicot", seed: 2, check: servertest.CheckKipicotEnd, options: &rulebookv1.GameOptions{
		Game: &rulebookv1.GameOptions_Kipicot{Kipicot: &rulebookv1.KipicotOptions{WholeStackMoves: true, PawnMayStay: true}}}},
	{name: "micropul", game: "micropul", seed: 11, check: servertest.CheckMicropulEnd},
	{name: "micropul solo", game: "micropul", seed: 12, options: servertest.MicropulOptions(1, rulebookv1.MicropulRuleSet_MICROPUL_RULE_SET_DEFAULT),
		check: servertest.CheckMicropulEnd},
	{name: "micropul original rules", game: "micropul", seed: 13,
		options: servertest.MicropulOptions(2, rulebookv1.MicropulRuleSet_MICROPUL_RULE_SET_ORIGINAL_2004), check: servertest.CheckMicropulEnd},
	{name: "ubongo duel side A", game: "ubongo-duel", seed: 21, choose: servertest.SolveUbongo, check: servertest.CheckUbongoEnd,
		options: servertest.UbongoOptions(rulebookv1.UbongoDuelSide_UBONGO_DUEL_SIDE_A, false)},
	{name: "ubongo duel side B catch-up", game: "ubongo-duel", seed: 22, choose: servertest.SolveUbongo, check: servertest.CheckUbongoEnd,
		options: servertest.UbongoOptions(rulebookv1.UbongoDuelSide_UBONGO_DUEL_SIDE_B, true)},
}

// TestFullGame plays whole seeded games over each transport, each move a random one of the player to move's legal
// moves, validated and then applied, until the score says the game is over; the games run in parallel. With
// go test -short each game is played over one transport, the transports in turn.
func TestFullGame(t *testing.T) {
	ts := startServer(t, testConfig())
	for i, tr := range servertest.Transports {
		for j, g := range fullGames {
			if testing.Short() && j%len(servertest.Transports) != i {
				continue
			}
			t.Run(tr.Name+"/"+g.name, func(t *testing.T) {
				t.Parallel()
				state := tr.NewGame(t, ts.Client, &rulebookv1.NewGameRequest{Game: g.game, Options: g.options, Seed: proto.Uint64(g.seed)}).GetState()
				rng := rand.New(rand.NewPCG(g.seed, 7))
				const maxMoves = 5000
				moves, events := 0, 0
				for ; moves < maxMoves; moves++ {
					score := tr.Score(t, ts.Client, &rulebookv1.ScoreRequest{Game: g.game, State: state}).GetScore()
					if score.GetGameOver() {
						break
					}
					var move *rulebookv1.Move
					if g.choose != nil {
						move = g.choose(t, ts.Client, tr, state, rng)
					} else {
						legal := tr.Legal(t, ts.Client, &rulebookv1.ListLegalMovesRequest{Game: g.game, State: state}).GetMoves()
						if len(legal) == 0 {
							t.Fatalf("move %d: no legal moves in a game that is not over", moves)
						}
						move = legal[rng.IntN(len(legal))]
					}
					tr.Validate(t, ts.Client, &rulebookv1.ValidateMoveRequest{Game: g.game, State: state, Move: move})
					applied := tr.Apply(t, ts.Client, &rulebookv1.ApplyMoveRequest{Game: g.game, State: state, Move: move})
					events += len(applied.GetEvents())
					state = applied.GetState()
				}
				if events == 0 {
					t.Errorf("%d moves and not one event", moves)
				}
				score := tr.Score(t, ts.Client, &rulebookv1.ScoreRequest{Game: g.game, State: state}).GetScore()
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
	for _, tr := range servertest.Transports {
		state := tr.NewGame(t, ts.Client, &rulebookv1.NewGameRequest{Game: "exploze"}).GetState()
		for _, viewer := range []int32{0, 1, 2} {
			view := tr.View(t, ts.Client, &rulebookv1.GetViewRequest{Game: "exploze", State: state, Viewer: viewer}).GetView()
			if !proto.Equal(view, state) {
				t.Errorf("%s: the view of viewer %d differs from the state", tr.Name, viewer)
			}
		}
	}
}

// openingState is an Exploze 2x2 state after A(0,0) and B(1,1), as JSON.
const openingState = `{"exploze":{"options":{"rows":2,"cols":2,"players":2},"movesPlayed":2,"toMove":1,` +
	`"owners":[1,0,0,2],"stones":[1,0,0,1]}}`

// errorCases covers each class of error and how it travels.
func errorCases(t testing.TB) []servertest.ErrorCase {
	state := &rulebookv1.GameState{}
	if err := protojson.Unmarshal([]byte(openingState), state); err != nil {
		t.Fatal(err)
	}
	badState := proto.Clone(state).(*rulebookv1.GameState)
	badState.GetExploze().Stones[0] = 2
	move := func(player, row, col int32) *rulebookv1.Move {
		return &rulebookv1.Move{Player: player, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Row: row, Col: col}}}
	}
	apply := func(s *rulebookv1.GameState, m *rulebookv1.Move) func(context.Context, *servertest.Client) error {
		return func(ctx context.Context, c *servertest.Client) error {
			_, err := c.RPC.ApplyMove(ctx, &rulebookv1.ApplyMoveRequest{Game: "exploze", State: s, Move: m})
			return err
		}
	}
	return []servertest.ErrorCase{
		{
			Name: "unknown game",
			Path: "/v1/games/chess:new", Body: `{}`,
			Call: func(ctx context.Context, c *servertest.Client) error {
				_, err := c.RPC.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "chess"})
				return err
			},
			Want: servertest.WantError{Code: codes.NotFound, HTTPCode: http.StatusNotFound, Reason: "UNKNOWN_GAME"},
		},
		{
			Name: "missing state",
			Path: "/v1/games/exploze:apply", Body: `{"move":{"player":1,"exploze":{"row":0,"col":0}}}`,
			Call: apply(nil, move(1, 0, 0)),
			Want: servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: "MISSING_FIELD", Field: "state"},
		},
		{
			Name: "option out of range",
			Path: "/v1/games/exploze:new", Body: `{"options":{"exploze":{"rows":33}}}`,
			Call: func(ctx context.Context, c *servertest.Client) error {
				_, err := c.RPC.NewGame(ctx, &rulebookv1.NewGameRequest{Game: "exploze", Options: &rulebookv1.GameOptions{
					Game: &rulebookv1.GameOptions_Exploze{Exploze: &rulebookv1.ExplozeOptions{Rows: 33}}}})
				return err
			},
			Want: servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: "OPTION_OUT_OF_RANGE", Field: "options.exploze.rows"},
		},
		{
			Name: "inconsistent state",
			Path: "/v1/games/exploze:apply",
			Body: `{"state":` + strings.Replace(openingState, `"stones":[1,`, `"stones":[2,`, 1) + `,"move":{"player":1,"exploze":{"row":0,"col":0}}}`,
			Call: apply(badState, move(1, 0, 0)),
			Want: servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: "STONE_COUNT_MISMATCH", Field: "state.exploze.movesPlayed"},
		},
		{
			Name: "move off the board",
			Path: "/v1/games/exploze:apply", Body: `{"state":` + openingState + `,"move":{"player":1,"exploze":{"row":2,"col":0}}}`,
			Call: apply(state, move(1, 2, 0)),
			Want: servertest.WantError{Code: codes.InvalidArgument, HTTPCode: http.StatusBadRequest, Reason: "CELL_OFF_BOARD", Field: "move.exploze.row"},
		},
		{
			Name: "opponent's cell",
			Path: "/v1/games/exploze:apply", Body: `{"state":` + openingState + `,"move":{"player":1,"exploze":{"row":1,"col":1}}}`,
			Call: apply(state, move(1, 1, 1)),
			Want: servertest.WantError{Code: codes.FailedPrecondition, HTTPCode: http.StatusBadRequest, Reason: "CELL_OWNED_BY_OPPONENT"},
		},
		{
			Name: "not your turn",
			Path: "/v1/games/exploze:validate", Body: `{"state":` + openingState + `,"move":{"player":2,"exploze":{"row":1,"col":1}}}`,
			Call: func(ctx context.Context, c *servertest.Client) error {
				_, err := c.RPC.ValidateMove(ctx, &rulebookv1.ValidateMoveRequest{Game: "exploze", State: state, Move: move(2, 1, 1)})
				return err
			},
			Want: servertest.WantError{Code: codes.FailedPrecondition, HTTPCode: http.StatusBadRequest, Reason: "NOT_YOUR_TURN"},
		},
	}
}

// TestErrors sends each class of bad request over gRPC and over REST and checks the code, the reason and the field.
func TestErrors(t *testing.T) {
	servertest.CheckErrorCases(t, startServer(t, testConfig()).Client, errorCases(t))
}

// TestUnknownJSONField checks that REST refuses a field the API does not have instead of dropping it.
func TestUnknownJSONField(t *testing.T) {
	ts := startServer(t, testConfig())
	code, body := ts.Post(t, "/v1/games/exploze:new", `{"options":{"exploze":{"rows":6,"colums":6}}}`)
	if code != http.StatusBadRequest || !bytes.Contains(body, []byte("colums")) {
		t.Errorf("HTTP %d %s, want 400 naming the unknown field", code, body)
	}
}

// TestHiddenInformation checks Micropul's views over each transport: a player sees their own hand and the counts,
// never the core, a supply's contents or the other hand; a spectator sees no hand; a view is no state to move in.
func TestHiddenInformation(t *testing.T) {
	ts := startServer(t, testConfig())
	for _, tr := range servertest.Transports {
		t.Run(tr.Name, func(t *testing.T) {
			state := tr.NewGame(t, ts.Client, &rulebookv1.NewGameRequest{Game: "micropul", Seed: proto.Uint64(5)}).GetState()
			full := state.GetMicropul()
			for _, viewer := range []int32{0, 1, 2} {
				view := tr.View(t, ts.Client, &rulebookv1.GetViewRequest{Game: "micropul", State: state, Viewer: viewer}).GetView().GetMicropul()
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
			view := tr.View(t, ts.Client, &rulebookv1.GetViewRequest{Game: "micropul", State: state, Viewer: 1}).GetView()
			_, err := ts.RPC.ListLegalMoves(servertest.CallContext(t), &rulebookv1.ListLegalMovesRequest{Game: "micropul", State: view})
			if st := status.Convert(err); st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), "view") {
				t.Errorf("legal moves of a view: %v, want INVALID_ARGUMENT (STATE_IS_VIEW)", err)
			}
		})
	}
}

// TestReceiveTimeStamped checks that the service, not the caller, stamps an Ubongo Duel move with its receive time.
func TestReceiveTimeStamped(t *testing.T) {
	ts := startServer(t, testConfig())
	state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "ubongo-duel", Seed: proto.Uint64(3)}))(t).GetState()
	future := time.Now().Add(1000 * time.Hour).UnixNano()
	move := &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_UbongoDuel{UbongoDuel: &rulebookv1.UbongoDuelMove{
		ReceivedAt: future, Action: &rulebookv1.UbongoDuelMove_GiveUp{GiveUp: &rulebookv1.UbongoDuelGiveUp{}}}}}
	before := time.Now().UnixNano()
	next := servertest.Succeeded(ts.RPC.ApplyMove(servertest.CallContext(t), &rulebookv1.ApplyMoveRequest{Game: "ubongo-duel", State: state, Move: move}))(t)
	if got := next.GetState().GetUbongoDuel().GetLastReceivedAt(); got < before || got >= future {
		t.Errorf("last receive time %d, want the server's time (after %d), not the caller's %d", got, before, future)
	}
}

// TestNewGameSeed checks that a seed gives the same game every time and that, without one, the service draws a
// seed nobody can predict: two Micropul games without a seed deal different cores.
func TestNewGameSeed(t *testing.T) {
	ts := startServer(t, testConfig())
	core := func(seed *uint64) []uint32 {
		state := servertest.Succeeded(ts.RPC.NewGame(servertest.CallContext(t), &rulebookv1.NewGameRequest{Game: "micropul", Seed: seed}))(t).GetState()
		return state.GetMicropul().GetCore()
	}
	if a, b := core(proto.Uint64(0)), core(proto.Uint64(0)); !slices.Equal(a, b) {
		t.Errorf("seed 0 dealt %v, then %v", a, b)
	}
	if a, b := core(nil), core(nil); slices.Equal(a, b) {
		t.Errorf("two games without a seed dealt the same core %v", a)
	}
}
