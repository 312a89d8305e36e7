// kipicot.js: the Kipicot board: stacks of red and yellow tokens, the pawns, the supply and the catches; each step
// of a turn chosen on the board (a token to move and where, a colour and a square to place on, the pawn's square,
// the fishing square), the legal ones highlighted.
import { html, svg, target, playerClass, lastMarks, square, headings, quoteSquares, count, cap, MARGIN } from './svg.js';

const SQ = 64;
const COLORS = { KIPICOT_COLOR_RED: 'red', KIPICOT_COLOR_YELLOW: 'yellow' };
const key = (c) => `${c?.row ?? 0},${c?.col ?? 0}`;
const at = (c) => square(c?.col ?? 0, c?.row ?? 0);

// The person's choices within the step: what to do (place red, place yellow or move) and the token chosen to move.
let choice = { turn: '', mode: '', from: null };

function stepOf(m) {
  const k = m.kipicot;
  if (k.skip) return { kind: 'skip' };
  if (k.moveToken) return { kind: 'move', from: key(k.moveToken.from), to: key(k.moveToken.to) };
  if (k.place) return { kind: `place-${COLORS[k.place.color]}`, to: key(k.place.to) };
  if (k.pawn) return { kind: 'pawn', to: key(k.pawn.to) };
  return { kind: 'fish', to: key(k.fish.corner) };
}

function coord(k) {
  const [row, col] = k.split(',').map(Number);
  return { row, col };
}

function render(ctx) {
  const s = ctx.state;
  const steps = ctx.legal.map(stepOf);
  const turn = `${s.toMove}/${s.phase}/${ctx.game.token}`;
  const kinds = [...new Set(steps.map((st) => st.kind))];
  if (choice.turn !== turn) {
    choice = { turn, mode: kinds.find((k) => k.startsWith('place')) || (kinds.includes('move') ? 'move' : ''), from: null };
  }
  const phase = s.phase;
  const rerender = () => ctx.game.redraw();
  // What a click on square k does, and whether it is legal.
  const onSquare = (k) => {
    if (phase === 'KIPICOT_PHASE_PAWN') return { legal: steps.some((st) => st.kind === 'pawn' && st.to === k), act: () => ctx.act({ kipicot: { pawn: { to: coord(k) } } }) };
    if (phase === 'KIPICOT_PHASE_FISHING') return { legal: steps.some((st) => st.kind === 'fish' && st.to === k), act: () => ctx.act({ kipicot: { fish: { corner: coord(k) } } }) };
    if (choice.mode.startsWith('place')) {
      const color = choice.mode === 'place-red' ? 'KIPICOT_COLOR_RED' : 'KIPICOT_COLOR_YELLOW';
      return { legal: steps.some((st) => st.kind === choice.mode && st.to === k), act: () => ctx.act({ kipicot: { place: { color, to: coord(k) } } }) };
    }
    if (choice.from === null) {
      return { legal: steps.some((st) => st.kind === 'move' && st.from === k), act: () => { choice.from = k; rerender(); } };
    }
    if (choice.from === k) return { legal: false, act: () => { choice.from = null; rerender(); } };
    const from = coord(choice.from);
    return { legal: steps.some((st) => st.kind === 'move' && st.from === choice.from && st.to === k), act: () => ctx.act({ kipicot: { moveToken: { from, to: coord(k) } } }) };
  };
  const squares = [];
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 5; c++) {
      const q = s.squares[r * 5 + c] || {};
      const tokens = (q.tokens || []).map((t) => COLORS[t]);
      const k = `${r},${c}`;
      const last = ctx.last.has(k);
      const g = svg('g', { class: 'square', transform: `translate(${c * SQ},${r * SQ})`, 'data-square': k, 'data-name': square(c, r),
        'data-tokens': tokens.join(' '), 'data-last': last ? '' : undefined });
      g.append(svg('rect', { class: 'ground', width: SQ, height: SQ }));
      if (tokens[0]) g.append(svg('circle', { class: `token ${tokens[0]}`, cx: SQ / 2, cy: SQ / 2, r: 24 }));
      if (tokens[1]) g.append(svg('circle', { class: `token top ${tokens[1]}`, cx: SQ / 2, cy: SQ / 2, r: 15 }));
      if (q.pawn) {
        // A white halo and a black outline: one of the two stands out from any token's colour.
        const d = `M${SQ / 2} 10 L${SQ / 2 + 12} 44 L${SQ / 2 - 12} 44 Z`;
        g.append(svg('path', { class: 'pawn-halo', d }), svg('path', { class: `pawn ${playerClass(q.pawn)}`, d, 'data-player': q.pawn }),
          svg('text', { class: 'pawn-label', x: SQ / 2, y: 40 }, String(q.pawn)));
      }
      if (choice.from === k) g.classList.add('chosen');
      const label = `${square(c, r)}: ${tokens.length ? tokens.join(' under ') : 'empty'}${q.pawn ? `, pawn of player ${q.pawn}` : ''}`;
      if (ctx.playable) {
        const { legal, act } = onSquare(k);
        target(g, label, legal, act);
      } else {
        g.setAttribute('aria-label', label);
      }
      squares.push(g);
    }
  }
  const fishing = phase === 'KIPICOT_PHASE_FISHING' ? steps.filter((st) => st.kind === 'fish').map((st) => {
    const { row, col } = coord(st.to);
    return svg('rect', { class: 'fishing', x: col * SQ + 3, y: row * SQ + 3, width: 2 * SQ - 6, height: 2 * SQ - 6 });
  }) : [];
  const board = svg('svg', { class: 'board kipicot', viewBox: `${-MARGIN} ${-MARGIN} ${5 * SQ + MARGIN + 2} ${5 * SQ + MARGIN + 2}`, role: 'group',
    'aria-label': 'Kipicot board', 'data-game': 'kipicot' }, headings(5, 5, SQ), squares, fishing, lastMarks(ctx.last, SQ));
  return { board, controls: controls(ctx, s, kinds) };
}

function controls(ctx, s, kinds) {
  const box = html('div', { class: 'kipicot-controls' });
  const supply = html('p', { class: 'supply' }, `Supply: ${s.supplyRed ?? 0} red, ${s.supplyYellow ?? 0} yellow.`);
  const caught = (s.captured || []).map((c, i) => html('li', { class: playerClass(i + 1) }, `Player ${i + 1} caught ${c.red ?? 0} red, ${c.yellow ?? 0} yellow`));
  box.append(supply, html('ul', { class: 'catches' }, caught));
  if (!ctx.playable) return box;
  box.append(html('p', { class: 'hint', id: 'kipicot-hint' }, hint(s, kinds)));
  const modes = [['place-red', 'Place red'], ['place-yellow', 'Place yellow'], ['move', 'Move a token']].filter(([m]) => kinds.includes(m));
  if (modes.length > 1) {
    box.append(html('div', { class: 'modes', role: 'radiogroup', 'aria-label': 'Action' }, modes.map(([m, label]) => html('button', {
      type: 'button', role: 'radio', 'aria-checked': String(choice.mode === m), 'data-mode': m,
      onclick: () => { choice.mode = m; choice.from = null; ctx.game.redraw(); },
    }, label))));
  }
  if (kinds.includes('skip')) {
    box.append(html('button', { type: 'button', id: 'kipicot-skip', 'data-legal': '', class: 'legal', onclick: () => ctx.act({ kipicot: { skip: {} } }) }, 'Skip the optional move'));
  }
  return box;
}

/** hint says what the player to move may do now, and why when there is one choice only. */
function hint(s, kinds) {
  const tokens = (s.squares || []).reduce((n, q) => n + (q.tokens || []).length, 0);
  switch (s.phase) {
    case 'KIPICOT_PHASE_OPTIONAL_MOVE':
      if (kinds.length === 1 && kinds[0] === 'skip') {
        return tokens === 0
          ? 'Step 1 of 3 lets you move a token already on the board. The board is still empty, so there is none to move: skip this step.'
          : 'Step 1 of 3 lets you move a token already on the board, but none can move now (a token under a pawn is frozen, and a token moves only to an empty square): skip this step.';
      }
      return 'Step 1 of 3, optional: move a token one square up, down, left or right to an empty square (the top of a stack moves any distance along its row or column), or skip.';
    case 'KIPICOT_PHASE_ACTION':
      if (!kinds.includes('move') && tokens > 0) {
        const rounds = s.options?.antiStallRounds ?? 3;
        const why = rounds > 0 && (s.turnsWithoutPlacement ?? 0) >= 2 * rounds
          ? `${count(s.turnsWithoutPlacement ?? 0, 'turn')} in a row placed no token`
          : 'no token on the board can move (a token under a pawn is frozen, and a token moves only to an empty square)';
        return `Step 2 of 3: ${why}, so this step places one from the supply, on an empty square or on a single token of the other colour.`;
      }
      return 'Step 2 of 3: place a red or yellow token from the supply on an empty square or on a single token of the other colour (no pawn on it), or move a token.';
    case 'KIPICOT_PHASE_PAWN':
      return 'Step 3 of 3: jump your pawn onto any token or stack the other pawn is not on. A 2 x 2 block whose diagonals are each of one colour, with your pawn in it, is a fishing square: you catch its tokens.';
    case 'KIPICOT_PHASE_FISHING':
      return 'Your pawn stands in more than one fishing square: choose the one to take (the block of the highlighted top-left square).';
    default:
      return '';
  }
}

const PHASES = {
  KIPICOT_PHASE_OPTIONAL_MOVE: 'may move a token (or skip)',
  KIPICOT_PHASE_ACTION: 'places a token from the supply or moves one',
  KIPICOT_PHASE_PAWN: 'puts the pawn on a token',
  KIPICOT_PHASE_FISHING: 'chooses the fishing square to take',
};

function status(ctx) {
  const s = ctx.state;
  if (!s.toMove) return 'Game over.';
  return `Player ${s.toMove} ${PHASES[s.phase] || ''}${choice.from ? `: where does the token of ${choice.from} go?` : '.'}`;
}

const colour = (c) => COLORS[c] || 'a';

/** narrate words a step of a turn from its events: "the bot placed a red token on c3." */
function narrate({ seat, move, events, name }) {
  const who = name(seat);
  const said = [];
  const marks = [];
  for (const e of events.map((ev) => ev.kipicot || {})) {
    if (e.placed) said.push(`${who} placed a ${colour(e.placed.color)} token on ${at(e.placed.square)}.`);
    if (e.stacked) said.push(`${who} stacked a ${colour(e.stacked.color)} token on ${at(e.stacked.square)}.`);
    if (e.moved) said.push(`${who} moved ${e.moved.under ? 'the stack' : `the ${colour(e.moved.color)} token`} from ${at(e.moved.from)} to ${at(e.moved.to)}.`);
    if (e.pawn) said.push(`${who} put the pawn on ${at(e.pawn.to)}.`);
    if (e.fishingChoice) said.push(`${cap(who)} may fish ${count((e.fishingChoice.corners || []).length, 'square')}: a choice to make.`);
    if (e.fished) said.push(`${who} fished the square at ${at(e.fished.corner)}: ${e.fished.red ?? 0} red and ${e.fished.yellow ?? 0} yellow caught.`);
    for (const c of [e.placed?.square, e.stacked?.square, e.moved?.to, e.pawn?.to, e.fished?.corner]) if (c) marks.push(key(c));
  }
  if (move.kipicot?.skip) said.push(`${who} skipped the optional move.`);
  return { text: said.map(cap).join(' '), marks };
}

/** quote writes the squares of a refusal's message in the notation: "(1,2)" is "c2". */
function quote(message, facts) {
  const name = (r, c) => square(c, r);
  return quoteSquares(message, facts, [['row', 'col', name], ['fromRow', 'fromCol', name], ['toRow', 'toCol', name]]);
}

function breakdown(score) {
  const rows = (score.players || []).map((p) => html('tr', { class: playerClass(p.player) },
    html('td', {}, `Player ${p.player}`), html('td', {}, String(p.red ?? 0)), html('td', {}, String(p.yellow ?? 0)), html('td', {}, String(p.total ?? 0))));
  return html('div', {}, html('table', { class: 'breakdown' },
    html('caption', {}, `${score.draw ? 'A draw. ' : ''}Left in the supply: ${score.supplyRed ?? 0} red, ${score.supplyYellow ?? 0} yellow`),
    html('thead', {}, html('tr', {}, ['Seat', 'Red', 'Yellow', 'Total'].map((h) => html('th', {}, h)))), html('tbody', {}, rows)));
}

export default { render, status, narrate, quote, breakdown, toMove: (s) => s.toMove ?? 0 };
