package play_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	phase, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => { const b = document.body.dataset;
		return ['move', 'over', 'replay', 'setup'].includes(b.phase) && !b.busy ? b.phase : false; })()`,
		chromedp.WithPollingInterval(10*time.Millisecond)))
	if err != nil {
		p.t.Fatalf("the page did not settle: %v (phase %s, status %s, refusal %s)", err, p.eval(`document.body.dataset.phase`),
			p.eval(`document.getElementById('status').textContent`), p.eval(`document.getElementById('refusal').textContent`))
	}
	return phase
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
		p.click(`[data-legal][data-row="1"][data-col="1"]`)
		p.settle()
		p.click(`g.cell[data-owner="1"]`) // player 2 on player 1's stone
		p.settle()
		p.do(chromedp.WaitVisible(chromedp.ID("refusal")))
		var refusal string
		p.value(`document.getElementById('refusal').dataset.reason`, &refusal)
		if refusal != "CELL_OWNED_BY_OPPONENT" {
			t.Errorf("refusal %q, want CELL_OWNED_BY_OPPONENT", refusal)
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
		p.playLegal(200)
		p.checkEnd(2)
		var botStones bool
		p.value(`document.querySelectorAll('g.cell[data-owner="2"]').length > 0 || document.getElementById('winner').dataset.winners === '2'`, &botStones)
		if !botStones {
			t.Error("the bot (player 2) neither holds a cell nor won")
		}
		p.screenshot("exploze-bot-end")
	})

	if testing.Short() {
		t.Log("-short: Exploze only")
		return
	}

	t.Run("kipicot", func(t *testing.T) {
		p := root.open(t, "")
		p.setup("kipicot", map[string]string{"endThreshold": "16"})
		p.playLegal(400)
		p.checkEnd(2)
		p.screenshot("kipicot-end")
	})

	t.Run("micropul", func(t *testing.T) {
		p := root.open(t, "?game=micropul") // opened directly, with the default options
		p.settle()
		p.screenshot("micropul-start")
		n := p.playLegal(1000)
		p.checkEnd(2)
		p.screenshot("micropul-end")
		t.Logf("micropul: %d clicks", n)
	})

	t.Run("ubongo-duel", func(t *testing.T) {
		p := root.open(t, "?game=ubongo-duel")
		for duel := 0; duel < 20; duel++ {
			if p.settle() == "over" {
				break
			}
			p.solveUbongo(duel == 0)
		}
		p.checkEnd(2)
		p.screenshot("ubongo-duel-end")
	})
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
