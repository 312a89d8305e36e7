package notation

import (
	"errors"
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"

	rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"
)

// kipicotLimit is the side of the Kipicot board.
const kipicotLimit = 5

// maxKipicotSteps is the most steps of a turn.
const maxKipicotSteps = 4

// parseKipicot reads a Kipicot move: one step, or a turn of steps separated by ";" (a turn of one step ends in it).
func parseKipicot(text string) (*rulebookv1.KipicotMove, error) {
	if !strings.Contains(text, ";") {
		step, err := parseKipicotStep(text)
		if err != nil {
			return nil, err
		}
		return kipicotMoveOf(step), nil
	}
	parts := strings.Split(text, ";")
	if strings.TrimSpace(parts[len(parts)-1]) == "" { // "skip;": the ";" after the last step
		parts = parts[:len(parts)-1]
	}
	if len(parts) > maxKipicotSteps {
		return nil, fmt.Errorf("a turn has at most %d steps", maxKipicotSteps)
	}
	turn := &rulebookv1.KipicotTurn{}
	for i, part := range parts {
		step, err := parseKipicotStep(part)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i+1, err)
		}
		turn.Steps = append(turn.Steps, step)
	}
	return &rulebookv1.KipicotMove{Kind: &rulebookv1.KipicotMove_Turn{Turn: turn}}, nil
}

// parseKipicotStep reads one step of a turn.
func parseKipicotStep(text string) (*rulebookv1.KipicotStep, error) {
	words := strings.Fields(text)
	if len(words) == 0 {
		return nil, errors.New("an empty step")
	}
	square := func(i int) (*rulebookv1.KipicotCoord, error) {
		if len(words) != i+1 {
			return nil, fmt.Errorf("%q takes one square, such as %s c3", words[0], words[0])
		}
		col, row, err := parseSquare(words[i], kipicotLimit)
		return &rulebookv1.KipicotCoord{Row: int32(row), Col: int32(col)}, err
	}
	step := &rulebookv1.KipicotStep{}
	switch words[0] {
	case "skip":
		if len(words) != 1 {
			return nil, errors.New(`"skip" takes nothing after it`)
		}
		step.Kind = &rulebookv1.KipicotStep_Skip{Skip: &rulebookv1.KipicotSkip{}}
	case "r", "red", "y", "yellow":
		to, err := square(1)
		if err != nil {
			return nil, err
		}
		color := rulebookv1.KipicotColor_KIPICOT_COLOR_RED
		if words[0][0] == 'y' {
			color = rulebookv1.KipicotColor_KIPICOT_COLOR_YELLOW
		}
		step.Kind = &rulebookv1.KipicotStep_Place{Place: &rulebookv1.KipicotPlacement{Color: color, To: to}}
	case "pawn", "p":
		to, err := square(1)
		if err != nil {
			return nil, err
		}
		step.Kind = &rulebookv1.KipicotStep_Pawn{Pawn: &rulebookv1.KipicotPawnMove{To: to}}
	case "fish", "f":
		corner, err := square(1)
		if err != nil {
			return nil, err
		}
		step.Kind = &rulebookv1.KipicotStep_Fish{Fish: &rulebookv1.KipicotFishing{Corner: corner}}
	default:
		tm, err := parseKipicotTokenMove(strings.Join(words, ""))
		if err != nil {
			return nil, err
		}
		step.Kind = &rulebookv1.KipicotStep_MoveToken{MoveToken: tm}
	}
	return step, nil
}

// parseKipicotTokenMove reads a token move, "b2-b3".
func parseKipicotTokenMove(text string) (*rulebookv1.KipicotTokenMove, error) {
	from, to, ok := strings.Cut(text, "-")
	if !ok {
		return nil, fmt.Errorf("%q is not a step: skip, b2-b3, r c3, y c3, pawn c3 or fish b2", text)
	}
	fc, fr, err := parseSquare(from, kipicotLimit)
	if err != nil {
		return nil, err
	}
	tc, tr, err := parseSquare(to, kipicotLimit)
	if err != nil {
		return nil, err
	}
	return &rulebookv1.KipicotTokenMove{
		From: &rulebookv1.KipicotCoord{Row: int32(fr), Col: int32(fc)},
		To:   &rulebookv1.KipicotCoord{Row: int32(tr), Col: int32(tc)}}, nil
}

// kipicotMoveOf returns the move of a single step.
func kipicotMoveOf(step *rulebookv1.KipicotStep) *rulebookv1.KipicotMove {
	m := &rulebookv1.KipicotMove{}
	sameKind(step, m)
	return m
}

// sameKind sets in dst the field of the oneof "kind" that is set in src, a field of the same name and type in both
// (KipicotStep's kinds are KipicotMove's but for the turn); it sets nothing when src has none that dst has.
func sameKind(src, dst proto.Message) {
	s, d := src.ProtoReflect(), dst.ProtoReflect()
	field := s.WhichOneof(s.Descriptor().Oneofs().ByName("kind"))
	if field == nil {
		return
	}
	if target := d.Descriptor().Fields().ByName(field.Name()); target != nil {
		d.Set(target, s.Get(field))
	}
}

// formatKipicot writes a Kipicot move.
func formatKipicot(m *rulebookv1.KipicotMove) (string, error) {
	step := &rulebookv1.KipicotStep{}
	switch k := m.GetKind().(type) {
	case *rulebookv1.KipicotMove_Turn:
		steps := k.Turn.GetSteps()
		if len(steps) == 0 || len(steps) > maxKipicotSteps {
			return "", fmt.Errorf("a turn of %d steps, not 1 to %d", len(steps), maxKipicotSteps)
		}
		texts := make([]string, len(steps))
		for i, s := range steps {
			var err error
			if texts[i], err = formatKipicotStep(s); err != nil {
				return "", err
			}
		}
		if len(texts) == 1 {
			return texts[0] + ";", nil
		}
		return strings.Join(texts, "; "), nil
	default:
		sameKind(m, step)
	}
	return formatKipicotStep(step)
}

// formatKipicotStep writes one step.
func formatKipicotStep(s *rulebookv1.KipicotStep) (string, error) {
	switch k := s.GetKind().(type) {
	case *rulebookv1.KipicotStep_Skip:
		return "skip", nil
	case *rulebookv1.KipicotStep_MoveToken:
		from, err := kipicotSquare(k.MoveToken.GetFrom())
		if err != nil {
			return "", err
		}
		to, err := kipicotSquare(k.MoveToken.GetTo())
		return from + "-" + to, err
	case *rulebookv1.KipicotStep_Place:
		to, err := kipicotSquare(k.Place.GetTo())
		switch k.Place.GetColor() {
		case rulebookv1.KipicotColor_KIPICOT_COLOR_RED:
			return "r " + to, err
		case rulebookv1.KipicotColor_KIPICOT_COLOR_YELLOW:
			return "y " + to, err
		}
		return "", errors.New("a placement of a token that is neither red nor yellow")
	case *rulebookv1.KipicotStep_Pawn:
		to, err := kipicotSquare(k.Pawn.GetTo())
		return "pawn " + to, err
	case *rulebookv1.KipicotStep_Fish:
		corner, err := kipicotSquare(k.Fish.GetCorner())
		return "fish " + corner, err
	}
	return "", errors.New("a step that says nothing")
}

// kipicotSquare names a square of the board, which it must be on.
func kipicotSquare(c *rulebookv1.KipicotCoord) (string, error) {
	if c.GetRow() < 0 || c.GetCol() < 0 || c.GetRow() >= kipicotLimit || c.GetCol() >= kipicotLimit {
		return "", fmt.Errorf("square (%d,%d) is off the board", c.GetRow(), c.GetCol())
	}
	return Square(int(c.GetCol()), int(c.GetRow())), nil
}
