// micropul.js: the Micropul board (the tiles as they lie, their micropuls and catalysts, the stones), the hand of the
// seat to move, and the counts of the core, hands and supplies. A tile is chosen from the hand, turned, and put on a
// highlighted position; a stone goes on a highlighted micropul.
import { html, svg, target, playerClass, headings, quoteSquares, count, cap, MARGIN } from './svg.js';

const T = 64; // a tile's side
const H = T / 2;
const QUADS = ['MICROPUL_QUADRANT_TOP_LEFT', 'MICROPUL_QUADRANT_TOP_RIGHT', 'MICROPUL_QUADRANT_BOTTOM_RIGHT', 'MICROPUL_QUADRANT_BOTTOM_LEFT'];
const QXY = [[0, 0], [1, 0], [1, 1], [0, 1]];
const QNAMES = ['tl', 'tr', 'br', 'bl']; // the quadrants in the notation (docs/notation.md)
const pos = (x, y) => `${x ?? 0},${y ?? 0}`; // a position in the notation: "1,-1"
const STONES = 3; // each player's stones

let tiles = []; // by id: {quads, big, centre}, from the engine's table (micropul-tiles.json)
let choice = { turn: '', tile: null, rotation: 0, stones: false };

/** load fetches what each tile holds, from the engine's table, before the first game. */
async function load(get) {
  tiles = await get('micropul-tiles.json');
}

/** rotated returns tile id's quadrants TL, TR, BR, BL turned r quarter turns clockwise. */
function rotated(id, r) {
  const q = tiles[id].quads;
  const out = [];
  for (let i = 0; i < 4; i++) out[(i + r) & 3] = q[i];
  return out;
}

/** canonical returns the rotation the game records for tile id turned r: the smallest with the same look. */
function canonical(id, r) {
  if (tiles[id].big) return 0;
  const look = rotated(id, r).join('');
  for (let k = 0; k < r; k++) if (rotated(id, k).join('') === look) return k;
  return r;
}

/** fitting returns the first rotation at which tile id has a legal placement, so that a tile picked up is shown
 * turned to fit somewhere (0 if none does). */
function fitting(id, placements) {
  for (let r = 0; r < 4; r++) {
    if (placements.some((p) => (p.tile ?? 0) === id && (p.rotation ?? 0) === canonical(id, r))) return r;
  }
  return 0;
}

/** symbol draws what a quadrant holds, centred at (cx, cy), r its size. */
function symbol(y, cx, cy, r) {
  switch (y) {
    case 'W': return svg('circle', { class: 'micropul white', cx, cy, r });
    case 'B': return svg('circle', { class: 'micropul black', cx, cy, r });
    case '1': return svg('circle', { class: 'catalyst', cx, cy, r: r / 3 });
    case '2': return svg('g', {}, svg('circle', { class: 'catalyst', cx: cx - r / 2.5, cy, r: r / 3.2 }), svg('circle', { class: 'catalyst', cx: cx + r / 2.5, cy, r: r / 3.2 }));
    case '+': return svg('path', { class: 'plus', d: `M${cx - r / 1.6} ${cy} H${cx + r / 1.6} M${cx} ${cy - r / 1.6} V${cy + r / 1.6}` });
    default: return svg('g');
  }
}

/** tileArt draws tile id at rotation r in a T x T square from (0, 0). */
function tileArt(id, r) {
  const t = tiles[id];
  const g = svg('g', { class: 'tile-art' }, svg('rect', { class: 'tile', width: T, height: T, rx: 4 }));
  if (t.big) {
    g.append(symbol(t.quads[0], H, H, H * 0.85), symbol(t.centre, H, H, H * 0.45));
    g.lastChild.classList.add('on-big');
    return g;
  }
  rotated(id, r).forEach((y, q) => g.append(symbol(y, QXY[q][0] * H + H / 2, QXY[q][1] * H + H / 2, H * 0.36)));
  return g;
}

function render(ctx) {
  const s = ctx.state;
  const turn = `${s.toMove}/${ctx.game.token}`;
  if (choice.turn !== turn) choice = { turn, tile: null, rotation: 0, stones: false };
  const placements = ctx.legal.filter((m) => m.micropul.placeTile).map((m) => m.micropul.placeTile);
  const stoneMoves = ctx.legal.filter((m) => m.micropul.placeStone).map((m) => m.micropul.placeStone);
  const board = s.board || [];
  const xs = board.map((b) => b.x ?? 0).concat(placements.map((p) => p.x ?? 0));
  const ys = board.map((b) => b.y ?? 0).concat(placements.map((p) => p.y ?? 0));
  const minX = Math.min(...xs) - (placements.length ? 0 : 1);
  const minY = Math.min(...ys) - (placements.length ? 0 : 1);
  const w = Math.max(...xs) - minX + 1 + (placements.length ? 0 : 1);
  const h = Math.max(...ys) - minY + 1 + (placements.length ? 0 : 1);
  const at = (x, y) => `translate(${((x ?? 0) - minX) * T},${((y ?? 0) - minY) * T})`;
  const layer = [];
  layer.push(headings(w, h, T, (i) => String(minX + i), (i) => String(minY + i)));
  for (const b of board) {
    const last = ctx.last.has(pos(b.x, b.y));
    const g = svg('g', { class: 'placed', transform: at(b.x, b.y), 'data-tile': b.tile ?? 0, 'data-x': b.x ?? 0, 'data-y': b.y ?? 0,
      'data-last': last ? '' : undefined }, tileArt(b.tile ?? 0, b.rotation ?? 0));
    if (last) g.append(svg('rect', { class: 'last-mark', width: T, height: T, rx: 4 }));
    g.setAttribute('aria-label', `tile ${b.tile ?? 0} at ${pos(b.x, b.y)}${last ? ', the last move' : ''}`);
    layer.push(g);
  }
  for (const st of s.stones || []) {
    const q = QUADS.indexOf(st.quadrant);
    const big = tiles[board.find((b) => (b.x ?? 0) === (st.x ?? 0) && (b.y ?? 0) === (st.y ?? 0))?.tile ?? 0]?.big;
    const [qx, qy] = big ? [0.5, 0.5] : QXY[q];
    layer.push(svg('circle', { class: `stone ${playerClass(st.player)}`, transform: at(st.x, st.y), cx: qx * H + H / 2, cy: qy * H + H / 2, r: H * 0.3, 'data-player': st.player }));
  }
  if (ctx.playable && choice.tile !== null) {
    const rot = canonical(choice.tile, choice.rotation);
    const spots = new Map();
    for (const p of placements.filter((p) => (p.tile ?? 0) === choice.tile)) {
      const k = `${p.x ?? 0},${p.y ?? 0}`;
      spots.set(k, spots.get(k) || (p.rotation ?? 0) === rot);
    }
    for (const [k, legal] of spots) {
      const [x, y] = k.split(',').map(Number);
      const g = svg('g', { class: 'spot', transform: at(x, y), 'data-x': x, 'data-y': y }, svg('rect', { class: 'spot-square', width: T, height: T, rx: 4 }));
      if (legal) g.append(svg('g', { class: 'ghost' }, tileArt(choice.tile, choice.rotation)));
      target(g, `put tile ${choice.tile} at ${pos(x, y)}${legal ? '' : ', not at this rotation'}`, legal,
        () => ctx.act({ micropul: { placeTile: { tile: choice.tile, x, y, rotation: choice.rotation } } }));
      layer.push(g);
    }
  }
  if (ctx.playable && choice.stones) {
    for (const m of stoneMoves) {
      const q = QUADS.indexOf(m.quadrant);
      const g = svg('g', { class: 'stone-spot', transform: at(m.x, m.y) },
        svg('circle', { cx: QXY[q][0] * H + H / 2, cy: QXY[q][1] * H + H / 2, r: H * 0.3 }));
      target(g, `a stone on ${pos(m.x, m.y)} ${QNAMES[q]}`, true,
        () => ctx.act({ micropul: { placeStone: { x: m.x ?? 0, y: m.y ?? 0, quadrant: m.quadrant } } }));
      layer.push(g);
    }
  }
  const el = svg('svg', { class: 'board micropul', viewBox: `${-MARGIN} ${-MARGIN} ${w * T + MARGIN + 4} ${h * T + MARGIN + 4}`, role: 'group', 'aria-label': 'Micropul board', 'data-game': 'micropul' }, layer);
  return { board: el, controls: controls(ctx, s, placements, stoneMoves) };
}

function controls(ctx, s, placements, stoneMoves) {
  const viewer = s.viewer ?? 0;
  const players = s.players || [];
  const placedBy = (p) => (s.stones || []).filter((st) => st.player === p).length;
  const counts = html('ul', { class: 'counts' }, html('li', {}, `Core: ${s.coreCount ?? 0} tiles`),
    players.map((pl, i) => html('li', { class: playerClass(i + 1) },
      `Player ${i + 1}: ${pl.handCount ?? 0} in hand, ${pl.supplyCount ?? 0} in supply, ${STONES - placedBy(i + 1)} stones left`)));
  const box = html('div', { class: 'micropul-controls' }, counts, legend());
  const hand = viewer ? players[viewer - 1]?.hand || [] : [];
  const redraw = () => ctx.game.redraw();
  if (viewer) {
    box.append(html('h3', {}, `Player ${viewer}'s hand`));
    const tray = html('div', { class: 'hand', role: 'group', 'aria-label': 'hand' });
    for (const id of hand) {
      const playable = ctx.playable && placements.some((p) => (p.tile ?? 0) === id);
      const chosen = choice.tile === id;
      const b = html('button', { type: 'button', class: `hand-tile${chosen ? ' chosen' : ''}${playable && !chosen ? ' legal' : ''}`, 'data-tile': id,
        'aria-pressed': String(chosen), 'aria-label': `tile ${id}`, disabled: !ctx.playable,
        onclick: () => { choice.tile = chosen ? null : id; choice.rotation = chosen ? 0 : fitting(id, placements); choice.stones = false; redraw(); } },
      svg('svg', { viewBox: `0 0 ${T} ${T}`, class: 'tile-icon' }, tileArt(id, chosen ? choice.rotation : 0)));
      if (playable && !chosen) b.dataset.legal = '';
      tray.append(b);
    }
    box.append(tray);
  }
  if (!ctx.playable) return box;
  const actions = html('div', { class: 'actions' });
  if (choice.tile !== null) {
    actions.append(html('button', { type: 'button', id: 'micropul-rotate', 'aria-keyshortcuts': 'R', onclick: () => { choice.rotation = (choice.rotation + 1) % 4; redraw(); } }, 'Turn the tile (R)'));
  }
  if (stoneMoves.length && !choice.stones) {
    actions.append(html('button', { type: 'button', id: 'micropul-stone', class: 'legal', 'data-legal': '', onclick: () => { choice.stones = true; choice.tile = null; redraw(); } }, 'Place a stone'));
  }
  const take = ctx.legal.some((m) => m.micropul.takeTile);
  if (take) actions.append(html('button', { type: 'button', id: 'micropul-take', class: 'legal', 'data-legal': '', onclick: () => ctx.act({ micropul: { takeTile: {} } }) }, 'Take a tile from the supply'));
  if (ctx.legal.some((m) => m.micropul.pass)) actions.append(html('button', { type: 'button', id: 'micropul-pass', class: 'legal', 'data-legal': '', onclick: () => ctx.act({ micropul: { pass: {} } }) }, 'Pass'));
  box.append(actions);
  return box;
}

document.addEventListener('keydown', (e) => {
  if ((e.key === 'r' || e.key === 'R') && choice.tile !== null && document.getElementById('micropul-rotate')) {
    document.getElementById('micropul-rotate').click();
  }
});

function status(ctx) {
  const s = ctx.state;
  if (!s.toMove) return 'Game over.';
  const extra = s.extraTurn ? ' (an extra turn)' : '';
  const pending = s.extraTurnsPending ? `, ${s.extraTurnsPending} more extra turns to come` : '';
  return `Player ${s.toMove} to move${extra}${pending}. ${choice.tile !== null ? `Tile ${choice.tile} chosen: put it on a highlighted square.` : ''}`;
}

/** LEGEND says what each mark of a tile means (docs/rules/micropul.md). */
const LEGEND = [
  ['W', 'a white micropul: micropuls of one colour that touch make a group'],
  ['B', 'a black micropul: it may never touch a white one across an edge'],
  ['1', 'a catalyst of one dot: when a placement brings a micropul next to it, the placer draws 1 tile into the supply'],
  ['2', 'a catalyst of two dots: draws 2 tiles'],
  ['+', 'a plus catalyst: an extra turn'],
];

/** legend draws each mark of the tiles with what it means, and a stone. */
function legend() {
  const item = (art, text) => html('li', {}, svg('svg', { viewBox: `0 0 ${H} ${H}`, class: 'legend-icon', 'aria-hidden': 'true' }, art), text);
  return html('details', { class: 'legend', id: 'micropul-legend', open: true }, html('summary', {}, 'What the marks mean'),
    html('ul', {}, LEGEND.map(([y, text]) => item(symbol(y, H / 2, H / 2, H * 0.36), text)),
      item(svg('g', { class: 'tile-icon' }, svg('rect', { class: 'tile', width: H, height: H, rx: 2 }), symbol('W', H / 2, H / 2, H * 0.42),
        svg('circle', { class: 'catalyst on-big', cx: H / 2, cy: H / 2, r: H * 0.14 })), 'a big micropul: one micropul over the whole tile, with a catalyst in its centre'),
      item(svg('circle', { class: 'stone p1', cx: H / 2, cy: H / 2, r: H * 0.3 }), 'a stone, in its player\'s colour: it claims the group of its micropul, which scores when closed')));
}

/** narrate words a move from its events: "the bot placed tile 12 at 1,-1 r1: 1 catalyst fired, 2 tiles drawn." */
function narrate({ seat, move, events, name }) {
  const who = name(seat);
  const said = [];
  const marks = [];
  const fired = events.filter((e) => e.micropul?.catalystActivated).length;
  const drawn = events.reduce((n, e) => n + (e.micropul?.tilesDrawn?.count ?? 0), 0);
  const extra = events.reduce((n, e) => n + (e.micropul?.extraTurnGranted?.turns ?? 0), 0);
  for (const e of events.map((ev) => ev.micropul || {})) {
    if (e.tilePlaced) {
      const t = e.tilePlaced.tile || {};
      marks.push(pos(t.x, t.y));
      const gains = [fired && `${count(fired, 'catalyst')} fired`, drawn && `${count(drawn, 'tile')} drawn into the supply`, extra && `${count(extra, 'extra turn')} won`].filter(Boolean);
      said.push(`${who} placed tile ${t.tile ?? 0} at ${pos(t.x, t.y)} r${t.rotation ?? 0}${gains.length ? `: ${gains.join(', ')}` : ''}.`);
    }
    if (e.tileTaken) said.push(`${who} took a tile from the supply into the hand.`);
    if (e.stonePlaced) {
      const st = e.stonePlaced.stone || {};
      marks.push(pos(st.x, st.y));
      said.push(`${who} put a stone on ${pos(st.x, st.y)} ${QNAMES[QUADS.indexOf(st.quadrant)] || ''}.`);
    }
    if (e.passed) said.push(`${who} ${e.passed.forced ? 'had to pass' : 'passed'}.`);
    if (e.outOfTiles) said.push(`${name(e.outOfTiles.player ?? 0)} ran out of tiles and lost.`);
  }
  if (!said.length && move.micropul?.pass) said.push(`${who} passed.`);
  return { text: said.map(cap).join(' '), marks };
}

/** quote writes the positions of a refusal's message in the notation: "(1,-1)" is "1,-1". */
function quote(message, facts) {
  return quoteSquares(message, facts, [['x', 'y', pos], ['neighbourX', 'neighbourY', pos]]);
}

const ENDS = { MICROPUL_END_CORE_EMPTY: 'the core is empty', MICROPUL_END_OUT_OF_TILES: 'a player ran out of tiles', MICROPUL_END_BLOCKED: 'nobody could move' };

function breakdown(score) {
  const rows = (score.players || []).map((p) => html('tr', { class: playerClass(p.player) },
    html('td', {}, `Player ${p.player}${p.lost ? ' (lost)' : ''}`), html('td', {}, String(p.groupPoints ?? 0)), html('td', {}, String(p.supplyPoints ?? 0)),
    html('td', {}, String(p.handPoints ?? 0)), html('td', {}, String(p.total ?? 0))));
  const groups = (score.groups || []).map((g) => html('li', {},
    `${(g.color || '').replace('MICROPUL_COLOR_', '').toLowerCase()} group of ${g.micropuls ?? 0} micropuls on ${g.tiles ?? 0} tiles at ${pos(g.x, g.y)}, `
    + `${g.closed ? 'closed' : 'open'}, stones of ${(g.stones || []).map((st) => `player ${st.player}`).join(' and ')}: ${g.points ?? 0} points`));
  const band = score.soloBand ? ` Solo rating: ${score.soloBand.replace('MICROPUL_SOLO_BAND_', '').toLowerCase()}.` : '';
  return html('div', {}, html('p', {}, `The game ended: ${ENDS[score.end] || 'it goes on'}.${band}`),
    html('table', { class: 'breakdown' }, html('thead', {}, html('tr', {}, ['Seat', 'Groups', 'Supply', 'Hand', 'Total'].map((h) => html('th', {}, h)))), html('tbody', {}, rows)),
    groups.length ? html('ul', { class: 'groups' }, groups) : html('p', {}, 'No group carries a stone.'));
}

export default { render, status, narrate, quote, breakdown, load, toMove: (s) => s.toMove ?? 0 };
