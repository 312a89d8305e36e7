package servertest

import (
	"math/rand/v2"
	"testing"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// UbongoOptions returns the options of an Ubongo Duel game.
func UbongoOptions(side rulebookv1.UbongoDuelSide, catchUp bool) *rulebookv1.GameOptions {
	return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_UbongoDuel{
		UbongoDuel: &rulebookv1.UbongoDuelOptions{Side: side, CatchUp: catchUp}}}
}

// SolveUbongo has a random player who still races in the current duel solve their task with SolvePuzzle, and
// returns that solution as the player's move.
func SolveUbongo(t testing.TB, c *Client, tr Transport, state *rulebookv1.GameState, rng *rand.Rand) *rulebookv1.Move {
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
	solution := tr.Solve(t, c, req)
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

// CheckUbongoEnd checks that an Ubongo Duel game ended with a player on 5 duels won.
func CheckUbongoEnd(t testing.TB, _ int, _ *rulebookv1.GameState, score *rulebookv1.Score) {
	won := score.GetUbongoDuel().GetDuelsWon()
	if len(score.GetWinners()) != 1 || len(won) != 2 || won[score.GetWinners()[0]-1] != 5 {
		t.Errorf("winners %v with duels won %v, want one player on 5", score.GetWinners(), won)
	}
}

// MicropulOptions returns the options of a Micropul game.
func MicropulOptions(players int32, rules rulebookv1.MicropulRuleSet) *rulebookv1.GameOptions {
	return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Micropul{
		Micropul: &rulebookv1.MicropulOptions{Players: players, RuleSet: rules}}}
}

// CheckKipicotEnd checks that a Kipicot game ended with a colour's supply empty, and that the winner (if any)
// captured the most tokens.
func CheckKipicotEnd(t testing.TB, _ int, _ *rulebookv1.GameState, score *rulebookv1.Score) {
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

// CheckMicropulEnd checks that a Micropul game ended for a reason, with totals that add up its breakdown.
func CheckMicropulEnd(t testing.TB, _ int, _ *rulebookv1.GameState, score *rulebookv1.Score) {
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

// ExplozeOptions returns the options of an Exploze game.
func ExplozeOptions(rows, cols, players int32) *rulebookv1.GameOptions {
	return &rulebookv1.GameOptions{Game: &rulebookv1.GameOptions_Exploze{
		Exploze: &rulebookv1.ExplozeOptions{Rows: rows, Cols: cols, Players: players}}}
}

// CheckExplozeEnd checks that an Exploze game ended with one winner on its last move.
func CheckExplozeEnd(t testing.TB, moves int, _ *rulebookv1.GameState, score *rulebookv1.Score) {
	if len(score.GetWinners()) != 1 {
		t.Errorf("winners %v, want one", score.GetWinners())
	}
	if got := score.GetExploze().GetFinalMove(); got != uint32(moves) {
		t.Errorf("final move %d, want %d", got, moves)
	}
}

// SealedGame is a game held as a token, played by its seats with their own passes through a transport, every call
// to the next of a list of servers in turn.
type SealedGame struct {
	game   string
	tr     Transport
	Token  string // the token of the game now
	passes []string
	Moves  int // moves applied
	Calls  int // calls made, which picks the next server
	rng    *rand.Rand
}

// next returns the server the next call goes to.
func (g *SealedGame) next(servers []*Client) *Client {
	c := servers[g.Calls%len(servers)]
	g.Calls++
	return c
}

// NewSealedGame starts a game on c (which draws its seed: a token-only server takes none), its legal moves chosen
// at random from seed.
func NewSealedGame(t testing.TB, c *Client, tr Transport, game string, options *rulebookv1.GameOptions, seed uint64) *SealedGame {
	t.Helper()
	resp := tr.NewGame(t, c, &rulebookv1.NewGameRequest{Game: game, Options: options, Seal: true})
	if resp.GetToken() == "" || len(resp.GetSeatPasses()) < 2 {
		t.Fatalf("NewGame answered token %q and passes %v, want a token and a pass per seat", resp.GetToken(), resp.GetSeatPasses())
	}
	return &SealedGame{game: game, tr: tr, Token: resp.GetToken(), passes: resp.GetSeatPasses(), Calls: 1,
		rng: rand.New(rand.NewPCG(seed, 7))}
}

// Play plays at most maxMoves moves, each by the seat that has legal moves (found by asking each seat with its own
// pass), a random one of them, until the score says the game is over; it returns that score, or nil if the game
// goes on.
func (g *SealedGame) Play(t testing.TB, servers []*Client, maxMoves int) *rulebookv1.Score {
	t.Helper()
	for played := 0; ; played++ {
		score := g.tr.Score(t, g.next(servers), &rulebookv1.ScoreRequest{Game: g.game, Token: g.Token}).GetScore()
		if score.GetGameOver() {
			return score
		}
		if played == maxMoves {
			return nil
		}
		var legal []*rulebookv1.Move
		var pass string
		for _, pass = range g.passes {
			req := &rulebookv1.ListLegalMovesRequest{Game: g.game, Token: g.Token, SeatPass: pass}
			if legal = g.tr.Legal(t, g.next(servers), req).GetMoves(); len(legal) > 0 {
				break
			}
		}
		if len(legal) == 0 {
			t.Fatalf("move %d: no seat has a legal move in a game that is not over", g.Moves)
		}
		move := legal[g.rng.IntN(len(legal))]
		applied := g.tr.Apply(t, g.next(servers), &rulebookv1.ApplyMoveRequest{Game: g.game, Token: g.Token, SeatPass: pass, Move: move})
		if applied.GetToken() == "" || applied.GetState() != nil {
			t.Fatalf("move %d: answered token %q and state %v, want a token only", g.Moves, applied.GetToken(), applied.GetState())
		}
		g.Token = applied.GetToken()
		g.Moves++
	}
}

// Rect returns the cells of a w x h rectangle, for SolvePuzzle.
func Rect(w, h int) []*rulebookv1.PuzzleCell {
	var cells []*rulebookv1.PuzzleCell
	for y := range h {
		for x := range w {
			cells = append(cells, &rulebookv1.PuzzleCell{X: int32(x), Y: int32(y)})
		}
	}
	return cells
}

// ExplozeCornerChain is the moves of a two-player 6 x 6 Exploze game whose last sets off a chain: player 1 in the
// corner (0, 0), player 2 in the opposite corner, then player 1 in the corner again, which holds one stone only.
func ExplozeCornerChain() []*rulebookv1.Move {
	opposite := &rulebookv1.Move{Player: 2, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Row: 5, Col: 5}}}
	return []*rulebookv1.Move{ExplozeMove(1), opposite, ExplozeMove(1)}
}
