// ubongo-duel.js: Ubongo Duel: the shape of the seat's task and its pieces, to drag onto the shape (or pick with the
// keyboard and move with the arrow keys), turn (R) and flip (F); a submission is the whole solution.
import { html, svg, playerClass, square, headings, quoteSquares, cap, MARGIN } from './svg.js';

const C = 40; // a cell's side
let pieces = {}; // letter -> cells, from ListPieceSets' "ubongo" set
let arrangements = {}; // seat -> {key, held, placed: letter -> {rot, flip, at}}
let current = null; // what the keyboard and the pointer act on: {ctx, arr, task}

/** load fetches the pieces of Ubongo Duel, cell by cell, from ListPieceSets, before the first game. */
async function load(get) {
  const list = (await get('/v1/puzzles/pieceSets')).sets.find((s) => s.name === 'ubongo').pieces;
  pieces = Object.fromEntries(list.map((p) => [p.name, (p.cells || []).map((c) => [c.x ?? 0, c.y ?? 0])]));
}

/** orient returns a piece's cells flipped (x mirrored) if flip, turned rot quarter turns clockwise, and moved to
 * start at (0, 0), sorted by row then column. */
export function orient(cells, rot, flip) {
  let out = cells.map(([x, y]) => (flip ? [-x, y] : [x, y]));
  for (let i = 0; i < rot; i++) out = out.map(([x, y]) => [-y, x]);
  const mx = Math.min(...out.map((c) => c[0]));
  const my = Math.min(...out.map((c) => c[1]));
  return out.map(([x, y]) => [x - mx, y - my]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** taskOf returns the task seat must solve now, or null (solved, gave up, or over). */
function taskOf(s, seat) {
  const tasks = s.tasks || [];
  const p = (s.players || [])[seat - 1] || {};
  if (!tasks.length || p.gaveUp || s.winner) return null;
  const rolls = tasks.length === 1 ? [0] : seat === (s.leader ?? 0) ? [0, 1] : [1];
  const k = p.solved ?? 0;
  return k < rolls.length ? tasks[rolls[k]] : null;
}

/** duelKey names the task seat is at, so that the page (and the bot) know when it changes; "" for none. */
function duelKey(s, seat) {
  const t = taskOf(s, seat);
  return t ? `${s.sheet ?? 0}/${(s.faces || []).join(',')}/${seat}/${(s.players || [])[seat - 1]?.solved ?? 0}/${t.face}` : '';
}

function cellsOf(letter, p) {
  return orient(pieces[letter], p.rot, p.flip).map(([x, y]) => [x + p.at.x, y + p.at.y]);
}

function render(ctx) {
  const s = ctx.state;
  const seat = ctx.seat;
  const task = seat ? taskOf(s, seat) : null;
  const key = duelKey(s, seat);
  if (!arrangements[seat] || arrangements[seat].key !== key) {
    arrangements[seat] = { key, held: null, placed: Object.fromEntries((task?.pieces || []).map((l) => [l, { rot: 0, flip: false, at: null }])) };
  }
  const arr = arrangements[seat];
  current = task && ctx.playable ? { ctx, arr, task } : null;
  const shape = (task || (s.tasks || [])[0] || { shape: [] }).shape.map((c) => [c.x ?? 0, c.y ?? 0]);
  const w = Math.max(1, ...shape.map((c) => c[0] + 1)) + 1;
  const h = Math.max(1, ...shape.map((c) => c[1] + 1)) + 1;
  const cells = shape.map(([x, y]) => svg('rect', { class: 'shape-cell', x: x * C, y: y * C, width: C, height: C, 'data-cell': `${x},${y}`, 'data-square': square(x, y) }));
  const layer = [];
  if (task) {
    task.pieces.forEach((letter, i) => {
      const p = arr.placed[letter];
      if (!p.at) return;
      const held = arr.held === letter;
      const g = svg('g', { class: `piece piece-${i}${held ? ' held' : ''}`, 'data-piece': letter, 'data-x': p.at.x, 'data-y': p.at.y,
        'data-cells': JSON.stringify(orient(pieces[letter], p.rot, p.flip)), ...(held ? { 'data-held': letter } : { 'data-placed': letter }) },
      cellsOf(letter, p).map(([x, y]) => svg('rect', { class: 'piece-cell', x: x * C + 2, y: y * C + 2, width: C - 4, height: C - 4, rx: 4 })),
      svg('text', { class: 'piece-label', x: (cellsOf(letter, p)[0][0] + 0.5) * C, y: (cellsOf(letter, p)[0][1] + 0.65) * C }, letter));
      if (ctx.playable) g.addEventListener('pointerdown', (e) => grab(e, letter));
      layer.push(g);
    });
  }
  const board = svg('svg', { class: 'board ubongo', viewBox: `${-MARGIN} ${-MARGIN} ${w * C + MARGIN + 4} ${h * C + MARGIN + 4}`, role: 'application', tabindex: '0',
    'aria-label': 'Ubongo Duel shape: a held piece moves with the arrow keys, turns with R, flips with F, is put down with Enter and taken back with Escape',
    'data-game': 'ubongo-duel', 'data-shape': JSON.stringify(shape) }, headings(w - 1, h - 1, C), cells, layer);
  board.id = 'ubongo-board';
  return { board, controls: controls(ctx, s, task, arr) };
}

function controls(ctx, s, task, arr) {
  const box = html('div', { class: 'ubongo-controls' });
  const players = s.players || [];
  box.append(html('ul', { class: 'counts' }, players.map((p, i) => html('li', { class: playerClass(i + 1) },
    `Player ${i + 1}: ${p.duelsWon ?? 0} duels won${p.gaveUp ? ', gave up this duel' : ''}${(s.pendingWinner ?? 0) === i + 1 ? ', solved: the win waits for the tie window' : ''}`))));
  if (!ctx.playable) return box;
  if (!task) {
    box.append(html('p', {}, ctx.seat ? `Player ${ctx.seat} has nothing to solve in this duel.` : ''));
  } else {
    box.append(html('p', {}, `Task ${task.sideName}, face ${task.face}: cover the shape with pieces ${task.pieces.join(', ')}.`));
    const tray = html('div', { class: 'tray', role: 'group', 'aria-label': 'pieces' });
    task.pieces.forEach((letter, i) => {
      const p = arr.placed[letter];
      const cells = orient(pieces[letter], p.rot, p.flip);
      const pw = Math.max(...cells.map((c) => c[0])) + 1;
      const ph = Math.max(...cells.map((c) => c[1])) + 1;
      const b = html('button', { type: 'button', class: `tray-piece piece-${i}${arr.held === letter ? ' held' : ''}${p.at ? ' on-board' : ''}`, 'data-piece': letter,
        'aria-label': `piece ${letter}${p.at ? ', on the shape' : ''}`, 'aria-pressed': String(arr.held === letter) },
      svg('svg', { viewBox: `0 0 ${pw * 16} ${ph * 16}`, class: 'piece-icon', width: pw * 16, height: ph * 16 },
        cells.map(([x, y]) => svg('rect', { class: 'piece-cell', x: x * 16 + 1, y: y * 16 + 1, width: 14, height: 14 }))), letter);
      b.addEventListener('click', (e) => { if (e.detail === 0) hold(letter); }); // the keyboard's; the pointer's is grab's
      b.addEventListener('pointerdown', (e) => grab(e, letter));
      tray.append(b);
    });
    box.append(tray);
    const held = arr.held;
    box.append(html('div', { class: 'actions' },
      html('button', { type: 'button', id: 'ubongo-rotate', disabled: !held, onclick: () => turn('rot') }, 'Turn (R)'),
      html('button', { type: 'button', id: 'ubongo-flip', disabled: !held, onclick: () => turn('flip') }, 'Flip (F)'),
      html('button', { type: 'button', id: 'ubongo-submit', onclick: () => submit() }, 'Submit the solution'),
      html('button', { type: 'button', id: 'ubongo-clear', onclick: () => clear() }, 'Take every piece back')));
  }
  const legal = ctx.legal.map((m) => m.ubongoDuel || {});
  const acts = html('div', { class: 'actions' });
  if (legal.some((m) => m.giveUp)) acts.append(html('button', { type: 'button', id: 'ubongo-give-up', onclick: () => ctx.act({ ubongoDuel: { giveUp: {} } }) }, 'Give up this duel'));
  if (legal.some((m) => m.closeDuel)) {
    acts.append(html('button', { type: 'button', id: 'ubongo-close', class: 'legal', 'data-legal': '', onclick: () => ctx.act({ ubongoDuel: { closeDuel: {} } }) }, 'Close the duel'));
  }
  box.append(acts);
  return box;
}

function redraw() {
  current?.ctx.game.redraw();
  document.getElementById('ubongo-board')?.focus();
}

/** hold picks a piece up: it lies on the shape where it was (or at the top-left), to be moved and put down. */
function hold(letter) {
  if (!current) return;
  const { arr } = current;
  const p = arr.placed[letter];
  if (!p.at) p.at = { x: 0, y: 0 };
  arr.held = arr.held === letter ? null : letter;
  redraw();
}

function turn(what) {
  const p = current && current.arr.held && current.arr.placed[current.arr.held];
  if (!p) return;
  if (what === 'rot') p.rot = (p.rot + 1) % 4;
  else p.flip = !p.flip;
  redraw();
}

function clear() {
  for (const p of Object.values(current.arr.placed)) p.at = null;
  current.arr.held = null;
  redraw();
}

function submit() {
  const { ctx, arr, task } = current;
  const placements = task.pieces.filter((l) => arr.placed[l].at).map((l) => ({ piece: l, cells: cellsOf(l, arr.placed[l]).map(([x, y]) => ({ x, y })) }));
  ctx.act({ ubongoDuel: { submit: { placements } } });
}

document.addEventListener('keydown', (e) => {
  if (!current || !current.arr.held || e.target.closest?.('input, select')) return;
  const p = current.arr.placed[current.arr.held];
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (moves[e.key]) {
    p.at = { x: Math.max(-2, Math.min(62, p.at.x + moves[e.key][0])), y: Math.max(-2, Math.min(62, p.at.y + moves[e.key][1])) };
  } else if (e.key === 'r' || e.key === 'R') {
    p.rot = (p.rot + 1) % 4;
  } else if (e.key === 'f' || e.key === 'F') {
    p.flip = !p.flip;
  } else if (e.key === 'Enter' || e.key === ' ') {
    if (e.target.closest?.('button')) return; // the button's own click
    current.arr.held = null;
  } else if (e.key === 'Escape') {
    p.at = null;
    current.arr.held = null;
  } else {
    return;
  }
  e.preventDefault();
  redraw();
});

/** grab starts dragging a piece with the pointer: it follows the pointer over the shape, cell by cell, and is put
 * down where the pointer is released (back in the tray when released off the shape). */
function grab(e, letter) {
  if (!current || e.button !== 0) return;
  e.preventDefault();
  const { arr } = current;
  const p = arr.placed[letter];
  const cellAt = (ev) => {
    const board = document.getElementById('ubongo-board');
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(board.getScreenCTM().inverse());
    return { x: Math.floor(pt.x / C), y: Math.floor(pt.y / C), inside: board.contains(document.elementFromPoint(ev.clientX, ev.clientY)) };
  };
  const start = cellAt(e);
  const grip = p.at && start.inside ? { x: start.x - p.at.x, y: start.y - p.at.y } : { x: 0, y: 0 };
  arr.held = letter;
  const move = (ev) => {
    const c = cellAt(ev);
    if (c.inside) {
      p.at = { x: c.x - grip.x, y: c.y - grip.y };
      redraw();
    }
  };
  const up = (ev) => {
    document.removeEventListener('pointermove', move);
    document.removeEventListener('pointerup', up);
    const c = cellAt(ev);
    if (c.x === start.x && c.y === start.y && c.inside === start.inside) {
      p.at = p.at || { x: 0, y: 0 }; // a click, not a drag: held, to be turned and moved as with the keyboard
      arr.held = letter;
    } else if (c.inside) {
      p.at = { x: c.x - grip.x, y: c.y - grip.y };
      arr.held = null;
    } else {
      p.at = null;
      arr.held = null;
    }
    redraw();
  };
  document.addEventListener('pointermove', move);
  document.addEventListener('pointerup', up);
}

function status(ctx) {
  const s = ctx.state;
  if (s.winner) return `Game over: player ${s.winner} won five duels.`;
  const won = (s.players || []).map((p) => p.duelsWon ?? 0).join(' to ');
  return `Sheet ${s.sheet ?? 0}, duels won ${won}. Player ${ctx.seat}: ${taskOf(s, ctx.seat) ? 'solve the shape and submit.' : 'nothing to solve in this duel.'}`;
}

const REROLLS = { UBONGO_DUEL_REROLL_REASON_TIE: 'both solved within the tie window', UBONGO_DUEL_REROLL_REASON_GIVE_UP: 'both gave up' };

/** narrate words a move from its events, and announces a duel's result: "the bot solved the shape. The bot won the
 * duel of sheet 1: duels won 0 to 1. Sheet 2: a new shape." */
function narrate({ seat, events, name }) {
  const said = [];
  for (const e of events.map((ev) => ev.ubongoDuel || {})) {
    if (e.solved) said.push(`${name(e.solved.player ?? seat)} solved the shape${e.solved.pending ? ': the win waits for the tie window to close' : ''}.`);
    if (e.gaveUp) said.push(`${name(e.gaveUp.player ?? seat)} gave up this duel.`);
    if (e.duelWon) said.push(`${name(e.duelWon.player ?? 0)} won the duel of sheet ${e.duelWon.sheet ?? 0}: duels won ${(e.duelWon.duelsWon || []).map((n) => n ?? 0).join(' to ')}.`);
    if (e.rerolled) said.push(`Nobody won the duel (${REROLLS[e.rerolled.reason] || 'a re-roll'}): the die is rolled again on sheet ${e.rerolled.sheet ?? 0}.`);
    if (e.duelStarted) said.push(`Sheet ${e.duelStarted.sheet ?? 0}: a new shape to cover.`);
    if (e.gameOver) said.push(`${name(e.gameOver.winner ?? 0)} won the game.`);
  }
  if (!said.length) said.push(`${name(seat)} closed the duel.`);
  return { text: said.map(cap).join(' '), marks: [] };
}

/** quote writes the squares of a refusal's message in the notation: "(0,2)" is "a3". */
function quote(message, facts) {
  return quoteSquares(message, facts, [['x', 'y', square]]);
}

function breakdown(score) {
  const rows = (score.duelsWon || []).map((n, i) => html('tr', { class: playerClass(i + 1) }, html('td', {}, `Player ${i + 1}`), html('td', {}, String(n ?? 0))));
  return html('div', {}, html('table', { class: 'breakdown' }, html('caption', {}, `Last sheet: ${score.sheet ?? 0}`),
    html('thead', {}, html('tr', {}, html('th', {}, 'Seat'), html('th', {}, 'Duels won'))), html('tbody', {}, rows)));
}

export default { render, status, narrate, quote, breakdown, load, duelKey, simultaneous: true, toMove: () => 0 };
