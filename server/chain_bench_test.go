package server

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/zap/zapcore"
	"google.golang.org/protobuf/encoding/protojson"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// BenchmarkLongChainEvents measures, over REST, the move that sets off the longest Exploze chain known (100,076
// explosions on 32 x 32, engine/exploze/testdata), answered with every event, with their counts by kind, and with
// neither: the time per call and the bytes of the answer (answer-bytes).
//
//	go test -run '^$' -bench BenchmarkLongChainEvents -benchtime 10x ./server
func BenchmarkLongChainEvents(b *testing.B) {
	ts := start(b, setup{cfg: benchConfig(), log: discardLogger(zapcore.WarnLevel)})
	state := longChainPosition(b)
	for _, detail := range []rulebookv1.EventDetail{rulebookv1.EventDetail_EVENT_DETAIL_ALL,
		rulebookv1.EventDetail_EVENT_DETAIL_SUMMARY, rulebookv1.EventDetail_EVENT_DETAIL_NONE} {
		body, err := protojson.Marshal(&rulebookv1.ApplyMoveRequest{Game: "exploze", State: state, Events: detail,
			Move: &rulebookv1.Move{Player: 1, Game: &rulebookv1.Move_Exploze{Exploze: &rulebookv1.ExplozeMove{Row: 16, Col: 16}}}})
		if err != nil {
			b.Fatal(err)
		}
		b.Run("events="+strings.TrimPrefix(detail.String(), "EVENT_DETAIL_"), func(b *testing.B) {
			var answer int
			for b.Loop() {
				resp, err := http.Post(ts.URL+"/v1/games/exploze:apply", "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK {
					b.Fatalf("%s: %v", resp.Status, err)
				}
				answer = int(n)
			}
			b.ReportMetric(float64(answer), "answer-bytes")
		})
	}
}

// longChainPosition reads the position of the longest known Exploze chain: rows of cells, "A2" two stones of
// player 1, ".0" empty; player 1 to move.
func longChainPosition(b *testing.B) *rulebookv1.GameState {
	text, err := os.ReadFile("../engine/exploze/testdata/chain_32x32_explosions.txt")
	if err != nil {
		b.Fatal(err)
	}
	s := &rulebookv1.ExplozeState{Options: &rulebookv1.ExplozeOptions{Rows: 32, Cols: 32, Players: 2}, ToMove: 1}
	for line := range strings.Lines(string(text)) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		for _, cell := range strings.Fields(line) {
			stones, err := strconv.Atoi(cell[1:])
			if err != nil {
				b.Fatal(err)
			}
			owner := int32(0)
			if cell[0] != '.' {
				owner = int32(cell[0]-'A') + 1
			}
			s.Owners, s.Stones = append(s.Owners, owner), append(s.Stones, uint32(stones))
			s.MovesPlayed += uint32(stones)
		}
	}
	if len(s.Owners) != 32*32 {
		b.Fatalf("%d cells, want 1,024", len(s.Owners))
	}
	return &rulebookv1.GameState{Game: &rulebookv1.GameState_Exploze{Exploze: s}}
}
