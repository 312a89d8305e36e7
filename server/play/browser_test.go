package play_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"image/png"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rulebook/rulebook/clients/clienttest"
)

// waitBound bounds every wait for the page: generous, for a busy machine; a wait is for a condition, never a time.
const waitBound = 45 * time.Second

// chromium returns the path of Debian's Chromium ($RULEBOOK_CHROMIUM, else chromium on PATH); without it the test is
// skipped, except under CI=true, where it fails.
func chromium(t *testing.T) string {
	t.Helper()
	if path := os.Getenv("RULEBOOK_CHROMIUM"); path != "" {
		return path
	}
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not on PATH (.ci/run must install it: apt-get install -y chromium)")
		}
		t.Skip("chromium is not on PATH; on Debian: apt-get install -y chromium")
	}
	return path
}

// artifacts returns the directory the screenshots go to: $RULEBOOK_ARTIFACTS/playground, else a temporary one.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if root := os.Getenv("RULEBOOK_ARTIFACTS"); root != "" {
		dir = filepath.Join(root, "playground")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// page is one tab of the browser, on the playground of a real server.
type page struct {
	t        *testing.T
	ctx      context.Context
	base     string // the server's HTTP origin
	shots    string
	download string
}

// newBrowser starts headless Chromium with a new empty profile and returns a tab's context, which lives as long as
// the test.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-proxy-server", true), chromedp.WindowSize(1280, 900), chromedp.UserDataDir(t.TempDir()),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// open opens a new tab on the playground at query (after /play/), failing the test on any uncaught exception of the
// page.
func (p *page) open(t *testing.T, query string) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(p.ctx)
	t.Cleanup(cancel)
	tab := &page{t: t, ctx: ctx, base: p.base, shots: p.shots, download: t.TempDir()}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			t.Errorf("the page threw: %s %s", ev.ExceptionDetails.Text, exceptionDescription(&ev))
		}
	}()
	allow := true
	if _, err := cdp.Call(ctx, chromedp.FromContext(ctx).Browser, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: tab.download, EventsEnabled: &allow}); err != nil {
		t.Fatal(err)
	}
	tab.do(chromedp.Navigate(p.base + "/play/" + query))
	return tab
}

func exceptionDescription(ev *runtime.EventExceptionThrown) string {
	if ev.ExceptionDetails.Exception != nil {
		return ev.ExceptionDetails.Exception.Description
	}
	return ""
}

// do runs actions, bounded by waitBound, failing the test on an error.
func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitBound)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("%v (the page says: %s)", err, p.eval(`document.getElementById('status')?.textContent + ' | ' + document.getElementById('refusal')?.textContent`))
	}
}

// eval returns the value of a JavaScript expression in the page, as JSON, or the error's text.
func (p *page) eval(expr string) string {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr))
	if err != nil {
		return err.Error()
	}
	return string(raw)
}

// value returns the JSON of a JavaScript expression in the page, decoded into v.
func (p *page) value(expr string, v any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitBound)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr))
	if err == nil {
		err = json.Unmarshal(raw, v)
	}
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
}

// settle waits until the page waits for a person (phase move, over or replay, nothing animating) and returns the phase.
func (p *page) settle() string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitBound)
	defer cancel()
	phase, err := poll[string](ctx, `(() => { const b = document.body.dataset;
		return ['move', 'over', 'replay', 'setup'].includes(b.phase) && !b.busy ? b.phase : false; })()`)
	if err != nil {
		p.t.Fatalf("the page did not settle: %v (phase %s, status %s, refusal %s)", err, p.eval(`document.body.dataset.phase`),
			p.eval(`document.getElementById('status').textContent`), p.eval(`document.getElementById('refusal').textContent`))
	}
	return phase
}

// poll evaluates expr in the page until it is truthy, within ctx, and returns its value. A poll begun while the page
// that was just opened is still getting its JavaScript context fails with "Cannot find context with specified id":
// it is begun again.
func poll[T any](ctx context.Context, expr string) (T, error) {
	for {
		v, err := chromedp.Run(ctx, chromedp.Poll[T](expr, chromedp.WithPollingInterval(10*time.Millisecond)))
		if err == nil || !strings.Contains(err.Error(), "Cannot find context with specified id") {
			return v, err
		}
		select {
		case <-ctx.Done():
			return v, err
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// click clicks the element of a CSS selector as a person does: the mouse, on its middle.
func (p *page) click(selector string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible))
}

// screenshot keeps a PNG of the whole page as name.png.
func (p *page) screenshot(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitBound)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.shots, name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// setup starts a hot-seat game from the form, with options set as a person types them.
func (p *page) setup(game string, options map[string]string) {
	p.t.Helper()
	if phase := p.settle(); phase != "setup" {
		p.t.Fatalf("phase %s, want setup", phase)
	}
	p.do(chromedp.SetValue(chromedp.ID("game"), game), chromedp.Evaluate[chromedp.Void](`document.getElementById('game').dispatchEvent(new Event('change'))`))
	for name, v := range options {
		p.do(chromedp.SetValue(chromedp.ID("opt-"+name), ""), chromedp.SendKeys(chromedp.ID("opt-"+name), v))
	}
	p.click("#start")
}

// playLegal plays until the game is over, each time clicking the first legal choice the page highlights (a cell, a
// square, a tile of the hand and then its position, a button), at most clicks times.
func (p *page) playLegal(clicks int) int {
	p.t.Helper()
	for n := range clicks {
		if p.settle() == "over" {
			return n
		}
		p.click("[data-legal]")
	}
	p.t.Fatalf("the game is not over after %d clicks", clicks)
	return 0
}

// checkEnd checks the end screen: a winner (or a draw) and a breakdown of the score with a row per seat.
func (p *page) checkEnd(seats int) {
	p.t.Helper()
	p.do(chromedp.WaitVisible(chromedp.ID("end")))
	var end struct {
		Winner string `json:"winner"`
		Rows   int    `json:"rows"`
	}
	p.value(`({winner: document.getElementById('winner').textContent, rows: document.querySelectorAll('#breakdown tbody tr').length})`, &end)
	if !strings.Contains(end.Winner, "wins") && !strings.Contains(end.Winner, "draw") && !strings.Contains(end.Winner, "share") {
		p.t.Errorf("the end says %q, want the winner", end.Winner)
	}
	if end.Rows != seats {
		p.t.Errorf("the breakdown has %d rows, want %d", end.Rows, seats)
	}
}

// serve starts the real server (tokens only, as rulebookd by default) and the browser.
func serve(t *testing.T) *page {
	t.Helper()
	chrome := newBrowser(t)
	addrs := clienttest.Serve(t, clienttest.Config(false))
	return &page{t: t, ctx: chrome, base: "http://" + addrs.HTTP, shots: artifacts(t)}
}

// TestPlayground plays a whole game of each game through the page in headless Chromium, as a person would, against
// the real server: the end screen with the breakdown, a refused move with its reason, the record downloaded and
// replayed, and a few moves against the bot when the server has SuggestMove.
func TestPlayground(t *testing.T) {
	root := serve(t)
	t.Logf("screenshots in %s", root.shots)

	t.Run("exploze", func(t *testing.T) {
		p := root.open(t, "")
		p.setup("exploze", map[string]string{"rows": "3", "cols": "3"})
		p.settle()
		p.checkHeadings("exploze", "a b c", "1 2 3")
		p.click(`[data-legal][data-row="1"][data-col="1"]`)
		p.settle()
		p.checkLastMove("person", "Player 1 placed at b2.", `g.cell[data-square="b2"]`)
		p.click(`g.cell[data-owner="1"]`) // player 2 on player 1's stone
		p.settle()
		p.do(chromedp.WaitVisible(chromedp.ID("refusal")))
		var refusal struct{ Reason, Text string }
		p.value(`({reason: document.getElementById('refusal').dataset.reason, text: document.getElementById('refusal').textContent})`, &refusal)
		if refusal.Reason != "CELL_OWNED_BY_OPPONENT" || !strings.Contains(refusal.Text, "cell b2 ") || strings.Contains(refusal.Text, "(1,1)") {
			t.Errorf("refusal %+v, want CELL_OWNED_BY_OPPONENT about cell b2, in the notation", refusal)
		}
		p.screenshot("exploze-refused")
		p.playLegal(200)
		p.checkEnd(2)
		p.screenshot("exploze-end")

		p.click("#download")
		record := p.waitDownload("exploze-record.json")
		var rec struct {
			Game   string            `json:"game"`
			Moves  []json.RawMessage `json:"moves"`
			Tokens []string          `json:"tokens"`
		}
		if err := json.Unmarshal(record, &rec); err != nil || rec.Game != "exploze" || len(rec.Moves) == 0 || len(rec.Moves) != len(rec.Tokens) {
			t.Fatalf("record %s: %v", record, err)
		}
		replay := root.open(t, "")
		replay.settle()
		replay.do(chromedp.SetUploadFiles(chromedp.ID("record-file"), []string{filepath.Join(p.download, "exploze-record.json")}))
		if phase := replay.settle(); phase != "replay" {
			t.Fatalf("after loading the record: phase %s, want replay", phase)
		}
		replay.checkEnd(2)
		replay.click("#replay-prev")
		replay.settle()
		var step string
		replay.value(`document.getElementById('replay-step').dataset.step`, &step)
		if want := fmt.Sprint(len(rec.Moves) - 1); step != want {
			t.Errorf("after Previous: step %s, want %s", step, want)
		}
		replay.screenshot("exploze-replay")
	})

	t.Run("bot", func(t *testing.T) {
		if !root.hasSuggest(t) {
			t.Skip("this server has no SuggestMove (POST /v1/games/{game}:suggest is UNKNOWN_PATH)")
		}
		p := root.open(t, "")
		p.settle() // the form laid out with the games' options, so that the click lands where the radio button is
		p.click(`input[name="mode"][value="bot"]`)
		var chosen bool
		if p.value(`document.querySelector('input[name="mode"][value="bot"]').checked`, &chosen); !chosen {
			t.Fatal("after the click on the bot's mode, it is not chosen")
		}
		p.setup("exploze", map[string]string{"rows": "3", "cols": "3"})
		p.settle()
		p.click(`[data-legal][data-square="a1"]`)
		p.settle() // the bot (player 2) has answered
		p.checkLastMove("bot", "The bot placed at ", `g.cell[data-owner="2"]`)
		p.screenshot("exploze-bot-moved")
		p.playLegal(200)
		p.checkEnd(2)
		var botStones bool
		p.value(`document.querySelectorAll('g.cell[data-owner="2"]').length > 0 || document.getElementById('winner').dataset.winners === '2'`, &botStones)
		if !botStones {
			t.Error("the bot (player 2) neither holds a cell nor won")
		}
		p.screenshot("exploze-bot-end")
	})

	t.Run("setup-errors", func(t *testing.T) {
		p := root.open(t, "")
		p.setup("exploze", map[string]string{"rows": "2", "cols": "2", "players": "5"})
		p.settle()
		p.checkVisibleRefusal("OPTION_OUT_OF_RANGE", `"Players"`)
		var invalid string
		p.value(`document.querySelector('[aria-invalid="true"]')?.id ?? ''`, &invalid)
		if invalid != "opt-players" {
			t.Errorf("the field marked invalid is %q, want opt-players", invalid)
		}
		p.screenshot("setup-refused")

		unknown := root.open(t, "?game=ubongo")
		unknown.settle()
		unknown.checkVisibleRefusal("UNKNOWN_GAME", "?game=ubongo-duel")
		unknown.screenshot("setup-unknown-game")
	})

	t.Run("labels", func(t *testing.T) {
		p := root.open(t, "")
		p.settle()
		for _, g := range root.games(t) {
			p.do(chromedp.SetValue(chromedp.ID("game"), g.ID), chromedp.Evaluate[chromedp.Void](`document.getElementById('game').dispatchEvent(new Event('change'))`))
			var form struct {
				Labels  map[string]string `json:"labels"`
				Choices []string          `json:"choices"`
				Text    string            `json:"text"`
			}
			p.value(`({labels: Object.fromEntries([...document.querySelectorAll('#options label')].map((l) => [l.htmlFor, l.firstChild.textContent.trim()])),
				choices: [...document.querySelectorAll('#options option')].map((o) => o.textContent), text: document.getElementById('options').innerText})`, &form)
			for _, o := range g.Options {
				if got := form.Labels["opt-"+o.Name]; got != o.Label || got == "" {
					t.Errorf("%s: option %s is labelled %q, want %q", g.ID, o.Name, got, o.Label)
				}
				if o.Name != strings.ToLower(o.Name) && strings.Contains(form.Text, o.Name) {
					t.Errorf("%s: the form shows the raw name %s", g.ID, o.Name)
				}
				for i, v := range o.Values {
					if strings.Contains(form.Text, v) || !slices.Contains(form.Choices, o.Choices[i].Label) {
						t.Errorf("%s: option %s's value %s: choices %q, want %q, the raw value nowhere", g.ID, o.Name, v, form.Choices, o.Choices[i].Label)
					}
				}
				if !strings.Contains(form.Text, o.Description) {
					t.Errorf("%s: option %s's help %q is not on the form", g.ID, o.Name, o.Description)
				}
			}
			if len(g.BotLevels) == 0 {
				t.Errorf("%s: ListGames describes no bot level", g.ID)
			}
			for _, l := range g.BotLevels {
				var help string
				p.do(chromedp.SetValue(chromedp.ID("bot-level"), l.Level), chromedp.Evaluate[chromedp.Void](`document.getElementById('bot-level').dispatchEvent(new Event('change'))`))
				p.value(`document.getElementById('bot-level-help').textContent`, &help)
				if help != l.Description || help == "" {
					t.Errorf("%s: level %s is explained %q, want %q", g.ID, l.Level, help, l.Description)
				}
			}
		}
		p.screenshot("setup-labels")
	})

	if *update {
		t.Run("picture", func(t *testing.T) { root.picture(t) })
	}

	if testing.Short() {
		t.Log("-short: Exploze only")
		return
	}

	t.Run("kipicot", func(t *testing.T) {
		p := root.open(t, "")
		p.setup("kipicot", map[string]string{"endThreshold": "16"})
		p.settle()
		p.checkHeadings("kipicot", "a b c d e", "1 2 3 4 5")
		var hint string
		p.value(`document.getElementById('kipicot-hint').textContent`, &hint)
		if !strings.Contains(hint, "board is still empty") || !strings.Contains(hint, "skip") {
			t.Errorf("the first hint says %q, want why only Skip is offered", hint)
		}
		p.click("#kipicot-skip")
		p.settle()
		p.value(`document.getElementById('kipicot-hint').textContent`, &hint)
		if !strings.Contains(hint, "Step 2 of 3") {
			t.Errorf("the hint of step 2 says %q", hint)
		}
		p.checkLastMove("person", "Player 1 skipped the optional move.", "")
		for clicks := 0; p.pawnContrast() < 0; clicks++ {
			if clicks == 20 || p.settle() == "over" {
				t.Fatal("no pawn on the board after 20 clicks")
			}
			p.click("[data-legal]")
		}
		if contrast := p.pawnContrast(); contrast < 4.5 {
			t.Errorf("a pawn's outline has a contrast of %.2f to its token, want 4.5 at least", contrast)
		}
		p.screenshot("kipicot-pawn")
		p.playLegal(400)
		p.checkEnd(2)
		p.screenshot("kipicot-end")
	})

	t.Run("micropul", func(t *testing.T) {
		p := root.open(t, "?game=micropul") // opened directly, with the default options
		p.settle()
		p.do(chromedp.WaitVisible(chromedp.ID("micropul-legend")))
		var legend []string
		p.value(`[...document.querySelectorAll('#micropul-legend li')].filter((li) => li.querySelector('svg *')).map((li) => li.textContent)`, &legend)
		if len(legend) != 7 || !strings.Contains(strings.Join(legend, " "), "extra turn") {
			t.Errorf("the legend has %q, want 7 marks with what they mean", legend)
		}
		p.checkHeadings("micropul", "-1 0 1", "-1 0 1")
		p.screenshot("micropul-start")
		p.click(".hand-tile[data-legal]")
		p.click(".spot[data-legal]")
		p.settle()
		p.checkLastMove("person", "Player 1 placed tile ", ".placed[data-tile]")
		n := p.playLegal(1000)
		p.checkEnd(2)
		p.screenshot("micropul-end")
		t.Logf("micropul: %d clicks", n)
	})

	t.Run("ubongo-duel", func(t *testing.T) {
		p := root.open(t, "?game=ubongo-duel")
		p.settle()
		var shape [][2]int
		p.value(`JSON.parse(document.getElementById('ubongo-board').dataset.shape)`, &shape)
		var names []string
		p.value(`[...document.querySelectorAll('#ubongo-board [data-square]')].map((c) => c.dataset.square)`, &names)
		if len(names) != len(shape) || len(shape) == 0 || names[0] != fmt.Sprintf("%c%d", 'a'+shape[0][0], shape[0][1]+1) {
			t.Errorf("the shape's squares are named %q, of the shape %v", names, shape)
		}
		p.checkHeadings("ubongo-duel", "a b", "1 2")
		for duel := 0; duel < 20; duel++ {
			if p.settle() == "over" {
				break
			}
			p.solveUbongo(duel == 0)
			if duel == 0 {
				p.settle()
				p.checkLastMove("person", "Player 1 won the duel of sheet 1: duels won 1 to 0.", "")
			}
		}
		p.checkEnd(2)
		p.screenshot("ubongo-duel-end")
	})

	t.Run("ubongo-duel-bot", func(t *testing.T) {
		if !root.hasSuggest(t) {
			t.Skip("this server has no SuggestMove")
		}
		p := root.open(t, "")
		p.settle()
		p.click(`input[name="mode"][value="bot"]`)
		p.do(chromedp.SetValue(chromedp.ID("bot-level"), "BOT_LEVEL_HARD"))
		p.setup("ubongo-duel", nil)
		p.settle()
		// The person does nothing: the bot submits its solution after its delay and wins the duel, which the page
		// announces (a wait for the words, bounded).
		ctx, cancel := context.WithTimeout(p.ctx, 2*waitBound)
		defer cancel()
		if _, err := poll[bool](ctx, `document.getElementById('narration').textContent.includes('The bot won the duel of sheet 1')`); err != nil {
			t.Fatalf("no announcement that the bot won the duel: %v (narration %s, status %s)", err,
				p.eval(`document.getElementById('narration').textContent`), p.eval(`document.getElementById('status').textContent`))
		}
		p.screenshot("ubongo-duel-bot-won")
	})
}

// checkVisibleRefusal checks that the page shows a refusal with reason, whose text has want, where a person sees it:
// laid out, in the viewport.
func (p *page) checkVisibleRefusal(reason, want string) {
	p.t.Helper()
	p.do(chromedp.WaitVisible(chromedp.ID("refusal")))
	var box struct {
		Reason string  `json:"reason"`
		Text   string  `json:"text"`
		Top    float64 `json:"top"`
		Height float64 `json:"height"`
		Window float64 `json:"window"`
	}
	p.value(`(() => { const b = document.getElementById('refusal'); const r = b.getBoundingClientRect();
		return {reason: b.dataset.reason, text: b.textContent, top: r.top, height: r.height, window: window.innerHeight}; })()`, &box)
	if box.Reason != reason || !strings.Contains(box.Text, reason) || !strings.Contains(box.Text, want) {
		p.t.Errorf("refusal %q: %q, want %s with %q", box.Reason, box.Text, reason, want)
	}
	if box.Height == 0 || box.Top < 0 || box.Top+box.Height > box.Window {
		p.t.Errorf("the refusal is not in view: top %v, height %v, window %v", box.Top, box.Height, box.Window)
	}
}

// checkHeadings checks that the board has the column headings cols and row headings rows first (space-separated).
func (p *page) checkHeadings(game, cols, rows string) {
	p.t.Helper()
	var got struct{ Cols, Rows []string }
	p.value(`({cols: [...document.querySelectorAll('#board .col-heading')].map((h) => h.textContent),
		rows: [...document.querySelectorAll('#board .row-heading')].map((h) => h.textContent)})`, &got)
	if !strings.HasPrefix(strings.Join(got.Cols, " "), cols) || !strings.HasPrefix(strings.Join(got.Rows, " "), rows) {
		p.t.Errorf("%s: headings %q and %q, want %q and %q first", game, got.Cols, got.Rows, cols, rows)
	}
}

// checkLastMove checks the narration of the last move (who made it, "bot" or "person", and its words, which have
// want) and, with a selector, that the board marks the last move on an element it selects.
func (p *page) checkLastMove(who, want, selector string) {
	p.t.Helper()
	var last struct {
		Who    string `json:"who"`
		Text   string `json:"text"`
		Hidden bool   `json:"hidden"`
		Marked int    `json:"marked"`
	}
	p.value(`(() => { const n = document.getElementById('narration'); const sel = `+"`"+selector+"`"+`;
		return {who: n.dataset.who, text: n.textContent, hidden: n.hidden,
			marked: sel ? [...document.querySelectorAll(sel)].filter((e) => e.matches('[data-last]')).length : 1}; })()`, &last)
	if last.Who != who || !strings.Contains(last.Text, want) || last.Hidden {
		p.t.Errorf("the narration is %+v, want %s's move told as %q...", last, who, want)
	}
	if last.Marked == 0 {
		p.t.Errorf("no %s is marked as the last move", selector)
	}
}

// pawnContrast returns the least contrast ratio (WCAG) on the board between a pawn and the top token under it,
// each pawn taken at the better of its outline and its halo; -1 when no pawn is on the board.
func (p *page) pawnContrast() float64 {
	p.t.Helper()
	var least float64
	p.value(`(() => {
		const lum = (c) => { const [r, g, b] = c.match(/[\d.]+/g).map(Number).map((v) => v / 255)
			.map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m); return (x + 0.05) / (y + 0.05); };
		let least = -1;
		for (const sq of document.querySelectorAll('#board g.square')) {
			const pawn = sq.querySelector('.pawn'), halo = sq.querySelector('.pawn-halo');
			const tokens = sq.querySelectorAll('.token');
			if (!pawn || !tokens.length) continue;
			const under = getComputedStyle(tokens[tokens.length - 1]).fill;
			const best = Math.max(ratio(getComputedStyle(pawn).stroke, under), halo ? ratio(getComputedStyle(halo).stroke, under) : 0);
			least = least < 0 ? best : Math.min(least, best);
		}
		return least; })()`, &least)
	return least
}

// gameInfo is what the test reads of ListGames.
type gameInfo struct {
	ID      string `json:"id"`
	Options []struct {
		Name        string   `json:"name"`
		Label       string   `json:"label"`
		Description string   `json:"description"`
		Values      []string `json:"values"`
		Choices     []struct {
			Label string `json:"label"`
		} `json:"choices"`
	} `json:"options"`
	BotLevels []struct {
		Level       string `json:"level"`
		Description string `json:"description"`
	} `json:"botLevels"`
}

// games returns the server's games, from ListGames.
func (p *page) games(t *testing.T) []gameInfo {
	t.Helper()
	resp, err := http.Get(p.base + "/v1/games")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct{ Games []gameInfo }
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list.Games) == 0 {
		t.Fatalf("ListGames: %v, %d games", err, len(list.Games))
	}
	return list.Games
}

// hasSuggest reports whether the server has SuggestMove's REST route (another branch adds it).
func (p *page) hasSuggest(t *testing.T) bool {
	t.Helper()
	resp, err := http.Post(p.base+"/v1/games/exploze:suggest", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var status struct {
		Details []struct {
			Reason string `json:"reason"`
		} `json:"details"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&status)
	return resp.StatusCode != http.StatusNotFound || len(status.Details) == 0 || status.Details[0].Reason != "UNKNOWN_PATH"
}

// waitDownload waits for the file name in the tab's download directory and returns its content.
func (p *page) waitDownload(name string) []byte {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitBound)
	defer cancel()
	path := filepath.Join(p.download, name)
	for {
		if b, err := os.ReadFile(path); err == nil && json.Valid(b) {
			return b
		} else if err != nil && !errors.Is(err, os.ErrNotExist) {
			p.t.Fatal(err)
		}
		select {
		case <-ctx.Done():
			p.t.Fatalf("no download %s: %v", name, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// solveUbongo solves player 1's task through the page: it asks SolvePuzzle for a solution of the shape and pieces
// the page shows, and puts each piece on the shape as a person does: a click on the piece, R and F to turn and flip
// it until it has the solution's form, the arrow keys to move it there, Enter to put it down; then Submit. On the
// first duel it first submits an incomplete solution, which is refused with its reason.
func (p *page) solveUbongo(refuseFirst bool) {
	p.t.Helper()
	var task struct {
		Shape  [][2]int `json:"shape"`
		Pieces []string `json:"pieces"`
	}
	p.value(`({shape: JSON.parse(document.getElementById('ubongo-board').dataset.shape),
		pieces: [...document.querySelectorAll('.tray-piece')].map((b) => b.dataset.piece)})`, &task)
	solution := p.solve(task.Shape, task.Pieces)
	if refuseFirst {
		p.click("#ubongo-submit")
		p.settle()
		var reason string
		p.value(`document.getElementById('refusal').dataset.reason`, &reason)
		if reason == "" {
			p.t.Error("an empty submission was not refused")
		}
	}
	for _, piece := range solution {
		p.click(fmt.Sprintf(`.tray-piece[data-piece=%q]`, piece.Name))
		want, at := normalize(piece.Cells)
		for turn := 0; ; turn++ {
			var cells [][2]int
			p.value(`JSON.parse(document.querySelector('[data-held]').dataset.cells)`, &cells)
			if slices.Equal(cells, want) {
				break
			}
			if turn == 8 {
				p.t.Fatalf("piece %s never takes the form %v", piece.Name, want)
			}
			key := "r"
			if turn == 3 || turn == 7 {
				key = "f"
			}
			p.do(chromedp.KeyEvent(key))
		}
		var x, y int
		p.value(`Number(document.querySelector('[data-held]').dataset.x)`, &x)
		p.value(`Number(document.querySelector('[data-held]').dataset.y)`, &y)
		keys := strings.Repeat(kb.ArrowRight, max(0, at[0]-x)) + strings.Repeat(kb.ArrowLeft, max(0, x-at[0])) +
			strings.Repeat(kb.ArrowDown, max(0, at[1]-y)) + strings.Repeat(kb.ArrowUp, max(0, y-at[1]))
		p.do(chromedp.KeyEvent(keys), chromedp.KeyEvent(kb.Enter))
	}
	p.screenshot("ubongo-duel-solved")
	p.click("#ubongo-submit")
}

// placement is a piece of a solution: its name and cells.
type placement struct {
	Name  string `json:"name"`
	Cells []struct {
		X int `json:"x"`
		Y int `json:"y"`
	} `json:"cells"`
}

// solve asks the server's SolvePuzzle for a tiling of shape by the Ubongo pieces named.
func (p *page) solve(shape [][2]int, pieces []string) []placement {
	p.t.Helper()
	cells := make([]map[string]int, len(shape))
	for i, c := range shape {
		cells[i] = map[string]int{"x": c[0], "y": c[1]}
	}
	body, _ := json.Marshal(map[string]any{"shape": cells, "namedSet": "ubongo", "select": pieces})
	resp, err := http.Post(p.base+"/v1/puzzles:solve", "application/json", bytes.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		Solvable bool        `json:"solvable"`
		Solution []placement `json:"solution"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil || !answer.Solvable {
		p.t.Fatalf("SolvePuzzle of %v %v: %v, solvable %v", shape, pieces, err, answer.Solvable)
	}
	return answer.Solution
}

// normalize returns cells moved to start at (0, 0), sorted by row then column as the page lists them, and where
// they start.
func normalize(cells []struct {
	X int `json:"x"`
	Y int `json:"y"`
}) ([][2]int, [2]int) {
	mx, my := cells[0].X, cells[0].Y
	for _, c := range cells {
		mx, my = min(mx, c.X), min(my, c.Y)
	}
	out := make([][2]int, len(cells))
	for i, c := range cells {
		out[i] = [2]int{c.X - mx, c.Y - my}
	}
	slices.SortFunc(out, func(a, b [2]int) int {
		if a[1] != b[1] {
			return a[1] - b[1]
		}
		return a[0] - b[0]
	})
	return out, [2]int{mx, my}
}

// picturePath is the playground's picture in the README, made by TestPlayground with -update.
var picturePath = filepath.Join("..", "..", "docs", "playground.png")

// pictureKey is the keyword of the PNG's tEXt chunk that records what the picture was made from.
const pictureKey = "rulebook-playground-sha256"

// pictureScenario says what the picture shows; changing the scenario (picture below) means changing this text, which
// the picture's hash covers with the playground's files.
const pictureScenario = "exploze 6x6 against the bot at easy, 1000x700, six moves of the person to the centre first"

// pictureHash returns the SHA-256, in hex, of what determines the picture: the playground's files (static/, each
// name and content, in order) and pictureScenario. A Chromium of another version draws other pixels from them, so
// that the picture is current when its recorded hash is this, not when its pixels are the same.
func pictureHash(t *testing.T) string {
	t.Helper()
	h := sha256.New()
	err := fs.WalkDir(os.DirFS("static"), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := os.ReadFile(filepath.Join("static", name))
		fmt.Fprintf(h, "%s\x00%d\x00%s", name, len(body), body)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(h, "scenario\x00%s", pictureScenario)
	return hex.EncodeToString(h.Sum(nil))
}

// picture makes docs/playground.png: a game of Exploze against the bot, a few moves in, in a 1000 x 700 window;
// recompressed, with pictureHash in a tEXt chunk.
func (p *page) picture(t *testing.T) {
	tab := p.open(t, "")
	tab.do(chromedp.EmulateViewport(1000, 700))
	tab.settle()
	tab.click(`input[name="mode"][value="bot"]`)
	tab.do(chromedp.SetValue(chromedp.ID("bot-level"), "BOT_LEVEL_EASY"))
	tab.setup("exploze", nil)
	for range 6 {
		if tab.settle() != "move" {
			break
		}
		var square string
		tab.value(`['c3', 'd4', 'c4', 'd3', 'b2', 'e5', 'b5', 'e2', 'c2', 'd5'].find((sq) => document.querySelector(`+"`[data-legal][data-square=\"${sq}\"]`"+`))
			?? document.querySelector('[data-legal]').dataset.square`, &square)
		tab.click(fmt.Sprintf(`[data-legal][data-square=%q]`, square))
	}
	tab.settle()
	tab.do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0); document.activeElement?.blur()`),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 990, 690)) // no cell under the pointer, drawn as hovered
	ctx, cancel := context.WithTimeout(tab.ctx, waitBound)
	defer cancel()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, img); err != nil {
		t.Fatal(err)
	}
	body, err := withText(out.Bytes(), pictureKey, pictureHash(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(picturePath, body, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", picturePath, len(body))
}

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// withText returns the PNG file b with a tEXt chunk of keyword and text after its IHDR chunk.
func withText(b []byte, keyword, text string) ([]byte, error) {
	chunks, err := pngChunks(b)
	if err != nil || len(chunks) == 0 || chunks[0].kind != "IHDR" {
		return nil, fmt.Errorf("not a PNG with its IHDR first: %v", err)
	}
	data := []byte(keyword + "\x00" + text)
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	chunk = append(chunk, "tEXt"...)
	chunk = append(chunk, data...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	at := chunks[0].end
	return slices.Concat(b[:at], chunk, b[at:]), nil
}

// pngChunk is a chunk of a PNG file: its type, data, and the offset of its end in the file.
type pngChunk struct {
	kind string
	data []byte
	end  int
}

// pngChunks returns the chunks of the PNG file b (their CRCs unchecked).
func pngChunks(b []byte) ([]pngChunk, error) {
	if !bytes.HasPrefix(b, []byte(pngSignature)) {
		return nil, errors.New("no PNG signature")
	}
	var out []pngChunk
	for at := len(pngSignature); at < len(b); {
		if len(b)-at < 12 {
			return nil, errors.New("a truncated chunk")
		}
		n := int(binary.BigEndian.Uint32(b[at:]))
		if n > len(b)-at-12 {
			return nil, errors.New("a chunk longer than the file")
		}
		out = append(out, pngChunk{kind: string(b[at+4 : at+8]), data: b[at+8 : at+8+n], end: at + 12 + n})
		at += 12 + n
	}
	return out, nil
}

// TestPlaygroundPicture checks that docs/playground.png, the README's picture of the playground, is current: that
// the hash it records (a tEXt chunk) is that of the playground's files and scenario now (pictureHash), and that it
// is a small picture of a sensible size. It needs no browser; TestPlayground with -update makes the picture.
func TestPlaygroundPicture(t *testing.T) {
	b, err := os.ReadFile(picturePath)
	if err != nil {
		t.Fatalf("%v: make it with go test ./server/play -run TestPlayground -update", err)
	}
	chunks, err := pngChunks(b)
	if err != nil {
		t.Fatalf("%s: %v", picturePath, err)
	}
	recorded := ""
	for _, c := range chunks {
		if key, text, ok := strings.Cut(string(c.data), "\x00"); c.kind == "tEXt" && ok && key == pictureKey {
			recorded = text
		}
	}
	if want := pictureHash(t); recorded != want {
		t.Errorf("%s was made from other files of the playground (hash %q, now %q): rerun go test ./server/play -run TestPlayground -update",
			picturePath, recorded, want)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil || cfg.Width != 1000 || cfg.Height != 700 || len(b) >= 150<<10 {
		t.Errorf("%s: %d x %d, %d bytes (%v): want 1000 x 700 and less than 150 KiB", picturePath, cfg.Width, cfg.Height, len(b), err)
	}
}
