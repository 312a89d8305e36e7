package engine_test

import (
	"testing"

	"github.com/rulebook/rulebook/engine"
	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// TestIterations checks the iterations of a level in a game's info: its own, Medium's for a level the info does not
// list, and 0 when it lists neither.
func TestIterations(t *testing.T) {
	level := func(l rulebookv1.BotLevel, iterations uint32) *rulebookv1.BotLevelInfo {
		return &rulebookv1.BotLevelInfo{Level: l, Iterations: iterations}
	}
	full := &rulebookv1.GameInfo{BotLevels: []*rulebookv1.BotLevelInfo{level(rulebookv1.BotLevel_BOT_LEVEL_EASY, 5),
		level(rulebookv1.BotLevel_BOT_LEVEL_MEDIUM, 50), level(rulebookv1.BotLevel_BOT_LEVEL_HARD, 500)}}
	noHard := &rulebookv1.GameInfo{BotLevels: full.GetBotLevels()[:2]}
	onlyEasy := &rulebookv1.GameInfo{BotLevels: full.GetBotLevels()[:1]}
	for _, c := range []struct {
		name  string
		info  *rulebookv1.GameInfo
		level engine.Level
		want  int
	}{
		{"easy", full, engine.Easy, 5},
		{"medium", full, engine.Medium, 50},
		{"hard", full, engine.Hard, 500},
		{"no such level", full, engine.Level(9), 50},
		{"a level not listed", noHard, engine.Hard, 50},
		{"neither listed", onlyEasy, engine.Hard, 0},
		{"no info", nil, engine.Easy, 0},
	} {
		if got := engine.Iterations(c.info, c.level); got != c.want {
			t.Errorf("%s: %d iterations, want %d", c.name, got, c.want)
		}
	}
}
