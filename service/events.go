package service

import rulebookv1 "github.com/rulebook/rulebook/gen/rulebook/v1"

// eventsAs returns what an answer carries of a move's events, as detail asks: every event (all), a count of each
// kind (counts), or neither.
func eventsAs(detail rulebookv1.EventDetail, events []*rulebookv1.Event) (all []*rulebookv1.Event, counts []*rulebookv1.EventCount) {
	switch detail {
	case rulebookv1.EventDetail_EVENT_DETAIL_NONE:
		return nil, nil
	case rulebookv1.EventDetail_EVENT_DETAIL_SUMMARY:
		return nil, countEvents(events)
	}
	return events, nil
}

// countEvents counts events by kind, in the order each kind first happens. A game has a handful of kinds, so a list
// is searched rather than a map kept.
func countEvents(events []*rulebookv1.Event) []*rulebookv1.EventCount {
	var counts []*rulebookv1.EventCount
	for _, e := range events {
		kind := eventKind(e)
		i := 0
		for i < len(counts) && counts[i].GetKind() != kind {
			i++
		}
		if i == len(counts) {
			counts = append(counts, &rulebookv1.EventCount{Kind: kind})
		}
		counts[i].Count++
	}
	return counts
}

// eventKind returns the kind of e: the name of its game's field, and of the field set in that game's event, such as
// "exploze.wave" ("exploze" alone if the game's event has none set, "" for an event of no game).
func eventKind(e *rulebookv1.Event) string {
	m := e.ProtoReflect()
	game := m.WhichOneof(m.Descriptor().Oneofs().ByName("game"))
	if game == nil {
		return ""
	}
	kind := string(game.Name())
	inner := m.Get(game).Message()
	if oneofs := inner.Descriptor().Oneofs(); oneofs.Len() > 0 {
		if fd := inner.WhichOneof(oneofs.Get(0)); fd != nil {
			kind += "." + string(fd.Name())
		}
	}
	return kind
}
