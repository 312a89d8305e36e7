// exploze.js: the Exploze board, its stones by owner, the legal cells, and the waves of a move's explosions.
import { html, svg, target, playerClass, lastMarks, reducedMotion, pause, square, headings, quoteSquares, count, cap, MARGIN } from './svg.js';

const CELL = 48;

/** critical returns the stones at which cell (r, c) of a rows x cols board explodes: its orthogonal neighbours. */
function critical(r, c, rows, cols) {
  return (r > 0) + (r < rows - 1) + (c > 0) + (c < cols - 1);
}

/** stonePositions places n stones in a cell, around its centre. */
function stonePositions(n) {
  if (n <= 0) return [];
  if (n === 1) return [[0, 0]];
  const out = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n - Math.PI / 2;
    out.push([Math.cos(a) * 10, Math.sin(a) * 10]);
  }
  return out;
}

function render(ctx) {
  const s = ctx.state;
  const { rows, cols } = s.options;
  const legal = new Set(ctx.legal.map((m) => `${m.exploze.row ?? 0},${m.exploze.col ?? 0}`));
  const owners = s.owners ?? [], counts = s.stones ?? [];
  const cells = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const stones = counts[r * cols + c] ?? 0;
      const owner = owners[r * cols + c] ?? 0;
      const crit = critical(r, c, rows, cols);
      const last = ctx.last.has(`${r},${c}`);
      const g = svg('g', { class: `cell${owner ? ` ${playerClass(owner)}` : ''}`, transform: `translate(${c * CELL},${r * CELL})`,
        'data-row': r, 'data-col': c, 'data-square': square(c, r), 'data-stones': stones, 'data-owner': owner, 'data-last': last ? '' : undefined });
      g.append(svg('rect', { class: 'square', width: CELL, height: CELL }));
      if (stones >= crit - 1 && stones > 0) g.classList.add('loaded');
      for (const [dx, dy] of stonePositions(stones)) {
        g.append(svg('circle', { class: 'stone', cx: CELL / 2 + dx, cy: CELL / 2 + dy, r: stones > 3 ? 5 : 7 }));
      }
      const label = `${square(c, r)}${last ? ', the last move' : ''}: ${stones ? `${stones} of ${crit} stones of player ${owner}` : `empty, explodes at ${crit}`}`;
      if (ctx.playable) {
        target(g, label, legal.has(`${r},${c}`), () => ctx.act({ exploze: { row: r, col: c } }));
      } else {
        g.setAttribute('aria-label', label);
      }
      cells.push(g);
    }
  }
  const board = svg('svg', { class: 'board exploze', viewBox: `${-MARGIN} ${-MARGIN} ${cols * CELL + MARGIN + 2} ${rows * CELL + MARGIN + 2}`,
    role: 'group', 'aria-label': `Exploze board, ${rows} by ${cols}`, 'data-game': 'exploze' }, headings(cols, rows, CELL), cells, lastMarks(ctx.last, CELL));
  return { board, controls: html('p', { class: 'hint' }, 'A cell explodes when it holds as many stones as it has neighbours: ',
    'its stones go one to each neighbour, which becomes yours.') };
}

function status(ctx) {
  const s = ctx.state;
  if (!s.toMove) return `Game over after ${s.movesPlayed ?? 0} moves.`;
  return `Move ${(s.movesPlayed ?? 0) + 1}: player ${s.toMove} to place a stone.`;
}

/** animate shows the waves of events on the board drawn before the move: each wave's exploding cells burst and its
 * captured cells change colour, one wave after another (all at once, shortened, for a long chain; not at all for a
 * person who asked for reduced motion). */
async function animate(boardEl, before, events) {
  if (reducedMotion()) return;
  const waves = events.map((e) => e.exploze && e.exploze.wave).filter(Boolean);
  const placed = events.map((e) => e.exploze && e.exploze.placed).find(Boolean);
  const cellAt = (c) => boardEl.querySelector(`g.cell[data-row="${c.row ?? 0}"][data-col="${c.col ?? 0}"]`);
  if (placed) {
    const g = cellAt(placed.cell || {});
    if (g) g.classList.add('placed', playerClass(placed.player));
  }
  if (!waves.length) return;
  const step = Math.max(30, Math.min(220, 2500 / waves.length));
  for (const w of waves) {
    for (const c of w.exploded || []) cellAt(c)?.classList.add('burst');
    for (const cap of w.captured || []) {
      const g = cellAt(cap.cell || {});
      if (g) {
        g.classList.remove(playerClass(cap.fromPlayer ?? 1));
        g.classList.add('captured', playerClass(placed ? placed.player : 1));
      }
    }
    await pause(step);
    for (const g of boardEl.querySelectorAll('g.burst')) g.classList.remove('burst');
  }
}

/** at is the square of an event's cell. */
const at = (c) => square(c?.col ?? 0, c?.row ?? 0);

/** narrate words a move from its events: "the bot placed at c3: 2 explosions, 5 cells taken. Player 3 lost every
 * cell." */
function narrate({ seat, events, name }) {
  const placed = events.map((e) => e.exploze?.placed).find(Boolean);
  const waves = events.map((e) => e.exploze?.wave).filter(Boolean);
  const exploded = waves.reduce((n, w) => n + (w.exploded || []).length, 0);
  const taken = new Set(waves.flatMap((w) => (w.captured || []).map((cap) => at(cap.cell)))).size;
  let text = `${name(seat)} placed at ${at(placed?.cell)}`;
  text += exploded ? `: ${count(exploded, 'explosion')}${taken ? `, ${count(taken, 'cell')} taken` : ''}.` : '.';
  for (const e of events) if (e.exploze?.eliminated) text += ` ${cap(name(e.exploze.eliminated.player ?? 0))} lost every cell.`;
  return { text, marks: placed ? [`${placed.cell?.row ?? 0},${placed.cell?.col ?? 0}`] : [] };
}

/** quote writes the cells of a refusal's message in the notation: "cell (4,5)" is "cell f5". */
function quote(message, facts) {
  return quoteSquares(message, facts, [['row', 'col', (r, c) => square(c, r)]]);
}

function breakdown(score) {
  const rows = (score.players || []).map((p) => html('tr', { class: playerClass(p.player) },
    html('td', {}, `Player ${p.player}`), html('td', {}, String(p.stones ?? 0)), html('td', {}, String(p.cells ?? 0)),
    html('td', {}, p.eliminated ? 'eliminated' : 'in')));
  return html('div', {},
    html('table', { class: 'breakdown' }, html('caption', {}, `Final move: ${score.finalMove ?? 0}`),
      html('thead', {}, html('tr', {}, ['Seat', 'Stones', 'Cells', ''].map((h) => html('th', {}, h)))), html('tbody', {}, rows)));
}

export default { render, status, animate, narrate, quote, breakdown, toMove: (s) => s.toMove ?? 0 };
