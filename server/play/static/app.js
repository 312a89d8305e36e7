// app.js: the playground's controller. It sets up a game from ListGames' options, holds the token and every seat's
// pass the page was given, asks for the view and legal moves of the seat to act, applies the person's moves (and the
// bot's, from SuggestMove), shows refusals and the end, and downloads and replays the record.
import { ApiError, get, gameCall, stateKey } from './api.js';
import { html, playerClass, cap } from './svg.js';

// boards holds each hosted game's board, by game id: the default export of the module <id>.js, loaded once ListGames
// has named the games (server/play's TestBoards fails for a hosted game without one). A board may export load(get),
// which fetches what it needs before its first game.
const boards = {};
const $ = (id) => document.getElementById(id);

let games = []; // ListGames' games
let game = null; // the game at the table
let seatTab = 1; // the seat a hot-seat game of simultaneous moves shows

/** setPhase tells the person (and a test) what the page is doing: setup, working, move, over or replay. */
function setPhase(phase) {
  document.body.dataset.phase = phase;
}

/**
 * showRefusal shows why the service refused something (above the form or the board, where the person looks), or
 * hides the last refusal. The squares of a refused move are written in the game's notation (docs/notation.md), and
 * an option the setup form has is named by its label and marked on the form.
 */
function showRefusal(err) {
  const box = $('refusal');
  box.replaceChildren();
  box.hidden = !err;
  ($('table').hidden ? $('setup-form') : $('play')).before(box); // above what the person is acting on
  for (const input of document.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  if (!err) return;
  if (err instanceof ApiError) {
    box.append(html('strong', { class: 'reason' }, err.reason), ' ', refusalText(err));
    box.dataset.reason = err.reason;
  } else {
    box.append(html('strong', { class: 'reason' }, 'ERROR'), ' ', String(err.message || err));
    box.dataset.reason = 'ERROR';
  }
  box.scrollIntoView({ block: 'nearest' });
}

/** refusalText is the message of a refusal for a person: squares in the notation of the game at the table, the
 * option of a refused setup by its label. */
function refusalText(err) {
  let text = err.message;
  if (game && $('setup').hidden) return game.board.quote(text, err.facts);
  const info = games.find((g) => g.id === $('game').value);
  const option = (info?.options || []).find((o) => o.name === err.facts.option);
  if (option) {
    text = text.replace(new RegExp(`\\b${option.name}\\b`, 'g'), `"${option.label}"`);
    $(`opt-${option.name}`)?.setAttribute('aria-invalid', 'true');
  }
  return text;
}

// ---- setup ----

/** optionInput is the field of option o of ListGames, labelled and explained as ListGames says: an enum's choices by
 * their labels, the chosen one's description under the option's. */
function optionInput(o) {
  const id = `opt-${o.name}`;
  const def = o.defaultValue ? JSON.parse(o.defaultValue) : undefined;
  const help = html('small', { id: `${id}-help` }, o.description || '');
  let input;
  switch (o.type) {
    case 'OPTION_TYPE_INTEGER':
      input = html('input', { id, name: o.name, type: 'number', min: o.min ?? 0, max: o.max ?? 0, value: def ?? o.min ?? 0, required: true });
      break;
    case 'OPTION_TYPE_BOOLEAN':
      input = html('input', { id, name: o.name, type: 'checkbox', checked: def === true });
      break;
    default: {
      const choices = o.choices || [];
      input = html('select', { id, name: o.name }, choices.map((c) => html('option', { value: c.value, selected: c.value === def }, c.label)));
      const choiceHelp = html('small', { class: 'choice-help' });
      const explain = () => { choiceHelp.textContent = choices.find((c) => c.value === input.value)?.description || ''; };
      input.addEventListener('change', explain);
      explain();
      help.append(choiceHelp);
    }
  }
  input.dataset.type = o.type;
  input.setAttribute('aria-describedby', help.id);
  return html('label', { for: id }, `${o.label} `, input, help);
}

function showGameForm() {
  const info = games.find((g) => g.id === $('game').value);
  $('game-summary').textContent = info.summary || '';
  $('options').replaceChildren(html('legend', {}, 'Options'), ...(info.options || []).map(optionInput));
  const seats = [];
  for (let p = 1; p <= info.maxPlayers; p++) seats.push(html('option', { value: p, selected: p === 2 }, String(p)));
  $('bot-seat').replaceChildren(...seats);
  explainLevel();
}

/** explainLevel says what the chosen bot level does in the chosen game, as ListGames' botLevels describes it. */
function explainLevel() {
  const info = games.find((g) => g.id === $('game').value);
  const level = (info?.botLevels || []).find((l) => l.level === $('bot-level').value);
  $('bot-level-help').textContent = level?.description || '';
}

function readOptions(info) {
  const opts = {};
  for (const o of info.options || []) {
    const input = $(`opt-${o.name}`);
    if (o.type === 'OPTION_TYPE_INTEGER') opts[o.name] = Number(input.value);
    else if (o.type === 'OPTION_TYPE_BOOLEAN') opts[o.name] = input.checked;
    else opts[o.name] = input.value;
  }
  return opts;
}

/** players returns how many seats a game of info has with options opts. */
function playerCount(info, opts) {
  return opts.players || info.defaultPlayers || info.minPlayers;
}

async function start(id, opts, mode, botSeat, botLevel) {
  const info = games.find((g) => g.id === id);
  setPhase('working');
  showRefusal(null);
  try {
    const key = stateKey(id);
    const created = await gameCall(id, 'new', { options: { [key]: opts }, seal: true, seat: 1 });
    const players = created.seatPasses.length;
    game = {
      id, key, info, board: boards[id], mode, players,
      botSeat: mode === 'bot' && players > 1 ? Math.min(botSeat, players) : 0, botLevel,
      passes: created.seatPasses, startToken: created.token, token: created.token, view: created.view,
      moves: [], tokens: [], replay: null, botAsked: '', last: null,
    };
    seatTab = game.botSeat === 1 ? 2 : 1;
    history.replaceState(null, '', `?game=${encodeURIComponent(id)}`);
    enterTable();
    await refresh();
  } catch (err) {
    showRefusal(err);
    setPhase(game ? 'move' : 'setup');
  }
}

function enterTable() {
  showNarration();
  $('setup').hidden = true;
  $('table').hidden = false;
  $('end').hidden = true;
  $('replay-controls').hidden = !game.replay;
  $('download').hidden = !!game.replay;
  $('table-title').textContent = `${game.info.name}${game.replay ? ': replay' : game.botSeat ? ': against the bot' : ': hot-seat'}`;
}

// ---- play ----

/** actingSeat is the seat whose view and moves the page shows now. */
function actingSeat() {
  if (game.board.simultaneous) return game.botSeat ? (game.botSeat === 1 ? 2 : 1) : seatTab;
  return game.board.toMove(game.view[game.key]);
}

function passOf(seat) {
  return seat ? game.passes[seat - 1] : undefined;
}

/** refresh asks for the view, the score and the legal moves of the seat to act, and shows them. */
async function refresh() {
  setPhase('working');
  const seat = actingSeat();
  const { token } = game;
  const [{ view }, { score }, { moves }] = await Promise.all([
    gameCall(game.id, 'view', { token, seatPass: passOf(seat) }),
    gameCall(game.id, 'score', { token, seatPass: passOf(seat) }),
    seat ? gameCall(game.id, 'legalMoves', { token, seatPass: passOf(seat) }) : Promise.resolve({ moves: [] }),
  ]);
  if (token !== game.token) return; // a move arrived meanwhile; its refresh shows the game
  game.view = view;
  game.score = score;
  const over = !!score.gameOver;
  const botTurn = !over && game.botSeat && !game.board.simultaneous && seat === game.botSeat;
  draw(seat, botTurn || over ? [] : moves || [], !botTurn && !over);
  if (over) return showEnd(score);
  if (game.board.simultaneous && game.botSeat) askBotSimultaneous();
  if (botTurn) return botMove(game.botSeat);
  setPhase('move');
}

/** draw shows the board, the seats, the controls and the live standings. */
function draw(seat, legal, playable) {
  const state = game.view[game.key];
  const ctx = { state, legal, seat, playable, players: game.players, act: (m) => act(seat, m), game,
    last: new Set(game.last ? game.last.marks : []) };
  game.redraw = () => draw(seat, legal, playable);
  const { board, controls } = game.board.render(ctx);
  $('board').replaceChildren(board);
  $('controls').replaceChildren(controls || '');
  $('status').textContent = `${game.board.status(ctx)} ${game.botNote || ''}`;
  drawSeats(seat);
  $('standings').replaceChildren(standingsTable(game.score));
}

function drawSeats(seat) {
  const items = [];
  for (let p = 1; p <= game.players; p++) {
    const who = p === game.botSeat ? 'bot' : game.replay ? 'recorded' : 'person';
    const label = `Player ${p} (${who})`;
    if (game.board.simultaneous && !game.botSeat && !game.replay) {
      items.push(html('button', { type: 'button', class: `seat ${playerClass(p)}`, 'aria-pressed': String(p === seat), 'data-seat': p,
        onclick: () => { seatTab = p; refresh().catch(fail); } }, `Show ${label}`));
    } else {
      items.push(html('span', { class: `seat ${playerClass(p)}${p === seat ? ' active' : ''}`, 'data-seat': p }, label));
    }
  }
  $('seats').replaceChildren(...items);
}

function standingsTable(score) {
  if (!score) return '';
  const rows = (score.standings || []).map((s) => html('tr', { class: playerClass(s.player) },
    html('td', {}, `Player ${s.player}`), html('td', {}, String(s.points ?? 0)), html('td', {}, String(s.rank ?? 0)),
    html('td', {}, s.eliminated ? 'out' : '')));
  return html('table', { class: 'standings' }, html('caption', {}, score.gameOver ? 'Final standings' : 'Standings'),
    html('thead', {}, html('tr', {}, html('th', {}, 'Seat'), html('th', {}, 'Points'), html('th', {}, 'Rank'), html('th', {}, ''))),
    html('tbody', {}, rows));
}

let serial = Promise.resolve();

/** act applies a move of seat with its pass (moves are applied one at a time, in order). */
function act(seat, move) {
  setPhase('working');
  const run = serial.then(() => apply(seat, move)).catch(fail);
  serial = run;
  return run;
}

async function apply(seat, move) {
  showRefusal(null);
  const before = game.view;
  let applied;
  try {
    applied = await gameCall(game.id, 'apply', { token: game.token, seatPass: passOf(seat), move: { player: seat, ...move } });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    showRefusal(err);
    await refresh();
    return;
  }
  game.moves.push(applied.move);
  game.tokens.push(applied.token);
  game.token = applied.token;
  game.view = applied.view;
  tell(seat, applied.move, applied.events || []);
  if (game.board.animate) await animate(before, applied.events || []);
  await refresh();
}

/** seatName names seat in a sentence: "you" and "the bot" against the bot, else "player 2". */
function seatName(seat) {
  if (game.botSeat && !game.replay) return seat === game.botSeat ? 'the bot' : 'you';
  return `player ${seat}`;
}

/**
 * tell narrates the move seat made, from ApplyMove's events (the board's narrate words them), and marks its squares
 * on the board; the last moves one seat makes in a row (a Kipicot turn's steps, Micropul's extra turns: up to 4) are
 * told together.
 */
function tell(seat, move, events) {
  const run = game.last && game.last.seat === seat && !game.board.simultaneous ? game.last.run.slice(-3) : [];
  run.push(game.board.narrate({ seat, move, events, name: seatName }));
  game.last = { seat, run, text: run.map((told) => cap(told.text)).join(' '), marks: run.flatMap((told) => told.marks) };
  showNarration();
}

/** showNarration shows the narration of the last move, or none. */
function showNarration() {
  const box = $('narration');
  box.textContent = game && game.last ? game.last.text : '';
  box.hidden = !box.textContent;
  box.dataset.seat = game && game.last ? String(game.last.seat) : '';
  box.dataset.who = game && game.last && game.last.seat === game.botSeat ? 'bot' : 'person';
}

async function animate(before, events) {
  document.body.dataset.busy = 'animating';
  try {
    await game.board.animate($('board'), before[game.key], events);
  } finally {
    delete document.body.dataset.busy;
  }
}

async function botMove(seat) {
  $('status').textContent = `The bot (player ${seat}) is thinking...`;
  try {
    const { move, evaluation } = await gameCall(game.id, 'suggest', { token: game.token, seatPass: passOf(seat), player: seat, level: game.botLevel });
    const { player, ...rest } = move;
    game.botNote = evaluation ? `The bot ${evaluation.expectedScore !== undefined ? `expects ${Math.round(evaluation.expectedScore)} points`
      : `gives itself a ${Math.round((evaluation.winProbability ?? 0) * 100)}% chance`} after its last move.` : '';
    await apply(seat, rest);
  } catch (err) {
    showRefusal(err);
    setPhase('move');
  }
}

/** askBotSimultaneous asks the bot for its solution of the duel in play, once per duel, and applies it if the duel
 * is still the same when it answers. */
function askBotSimultaneous() {
  const key = game.board.duelKey(game.view[game.key], game.botSeat);
  if (!key || key === game.botAsked) return;
  game.botAsked = key;
  const { token } = game;
  const seat = game.botSeat;
  gameCall(game.id, 'suggest', { token, seatPass: passOf(seat), player: seat, level: game.botLevel })
    .then(({ move, delay }) => new Promise((resolve) => {
      // The bot of the level plays its move after its delay (a duration such as "24s"), as the answer says.
      setTimeout(() => resolve(move), 1000 * parseFloat(delay || '0'));
    }))
    .then((move) => {
      if (!game || game.board.duelKey(game.view[game.key], seat) !== key) return;
      const { player, ...rest } = move;
      if (rest[game.key]) delete rest[game.key].receivedAt;
      return act(seat, rest);
    })
    .catch(showRefusal);
}

function fail(err) {
  showRefusal(err);
  setPhase(game && game.score && game.score.gameOver ? 'over' : 'move');
}

function showEnd(score) {
  const winners = score.winners || [];
  $('winner').textContent = winners.length === 0 ? 'A draw.'
    : winners.length === 1 ? `Player ${winners[0]} wins.` : `Players ${winners.join(' and ')} share the win.`;
  $('winner').dataset.winners = winners.join(',');
  $('breakdown').replaceChildren(game.board.breakdown(score[game.key] || {}, score));
  $('end').hidden = false;
  setPhase(game.replay ? 'replay' : 'over');
}

// ---- the record ----

/** record is the game's record: a Replay request that audits the game (docs/api.md: Replay), as seat 1 or the
 * person's seat, which only the server that dealt the game can open. */
function record() {
  const seat = game.botSeat === 1 ? 2 : 1;
  return { game: game.id, token: game.startToken, seatPass: passOf(seat), moves: game.moves, tokens: game.tokens };
}

function download() {
  const blob = new Blob([JSON.stringify(record(), null, 1)], { type: 'application/json' });
  const a = html('a', { href: URL.createObjectURL(blob), download: `${game.id}-record.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 0);
}

async function loadRecord(file) {
  setPhase('working');
  showRefusal(null);
  try {
    let rec;
    try {
      rec = JSON.parse(await file.text());
    } catch (err) {
      throw new Error(`the file is not JSON: ${err.message}`);
    }
    const id = typeof rec.game === 'string' ? rec.game : '';
    const info = games.find((g) => g.id === id);
    if (!info) throw new Error(`the record names no hosted game (${JSON.stringify(id)})`);
    const replayed = await gameCall(id, 'replay', { ...rec, events: 'EVENT_DETAIL_ALL' });
    if (replayed.refusal) {
      const r = replayed.refusal;
      throw new ApiError({ code: r.code, message: `move ${(r.index ?? 0) + 1} of the record: ${r.message}`,
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: r.reason, metadata: r.facts }] }, 400);
    }
    const tokens = rec.tokens || [];
    game = {
      id, key: stateKey(id), info, board: boards[id], mode: 'replay', players: (replayed.score.standings || []).length,
      botSeat: 0, passes: [], seatPass: rec.seatPass, startToken: rec.token, token: rec.token, view: null,
      moves: rec.moves || [], tokens, replay: { steps: replayed.steps || [], score: replayed.score, at: 0 },
    };
    enterTable();
    await replayTo(tokens.length);
  } catch (err) {
    showRefusal(err);
    setPhase(game ? document.body.dataset.phase : 'setup');
    if (!game) setPhase('setup');
  }
}

/** replayTo shows the recorded game after its first n moves (animated when one step forward). */
async function replayTo(n) {
  const r = game.replay;
  n = Math.max(0, Math.min(n, game.tokens.length));
  setPhase('working');
  const token = n === 0 ? game.startToken : game.tokens[n - 1];
  const before = game.view;
  const [{ view }, { score }] = await Promise.all([
    gameCall(game.id, 'view', { token, seatPass: game.seatPass }),
    gameCall(game.id, 'score', { token, seatPass: game.seatPass }),
  ]);
  if (before && n === r.at + 1 && game.board.animate) await animate(before, (r.steps[n - 1] || {}).events || []);
  r.at = n;
  game.last = null;
  if (n > 0) tell(game.moves[n - 1]?.player ?? 0, game.moves[n - 1] || {}, (r.steps[n - 1] || {}).events || []);
  else showNarration();
  game.token = token;
  game.view = view;
  game.score = score;
  const seat = Number((game.seatPass || '').split('.')[0]) || 0;
  draw(seat, [], false);
  $('replay-step').textContent = `move ${n} of ${game.tokens.length}`;
  $('replay-step').dataset.step = String(n);
  $('end').hidden = true;
  if (score.gameOver) showEnd(score);
  else setPhase('replay');
}

// ---- start ----

async function main() {
  $('setup-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = $('game').value;
    const info = games.find((g) => g.id === id);
    const mode = new FormData(e.target).get('mode');
    start(id, readOptions(info), mode, Number($('bot-seat').value), $('bot-level').value);
  });
  $('game').addEventListener('change', showGameForm);
  $('bot-level').addEventListener('change', explainLevel);
  $('download').addEventListener('click', download);
  $('new-game').addEventListener('click', () => {
    game = null;
    showRefusal(null);
    history.replaceState(null, '', './');
    $('table').hidden = true;
    $('setup').hidden = false;
    setPhase('setup');
  });
  $('record-file').addEventListener('change', (e) => e.target.files[0] && loadRecord(e.target.files[0]));
  const step = (d) => () => replayTo(d(game.replay.at)).catch(fail);
  $('replay-first').addEventListener('click', step(() => 0));
  $('replay-prev').addEventListener('click', step((n) => n - 1));
  $('replay-next').addEventListener('click', step((n) => n + 1));
  $('replay-last').addEventListener('click', step(() => Infinity));
  try {
    games = (await get('/v1/games')).games;
    await Promise.all(games.map(async ({ id }) => {
      const board = (await import(`./${id}.js`)).default;
      if (board.load) await board.load(get);
      boards[id] = board;
    }));
  } catch (err) {
    showRefusal(err);
    setPhase('setup');
    return;
  }
  $('game').replaceChildren(...games.map((g) => html('option', { value: g.id }, g.name)));
  const wanted = new URLSearchParams(location.search).get('game');
  if (wanted && !games.some((g) => g.id === wanted)) {
    // The service's own refusal of the id (UNKNOWN_GAME), and the games there are.
    const err = await gameCall(wanted, 'new', { seal: true, seat: 1 }).then(() => new Error(`no game "${wanted}"`), (e) => e);
    err.message = `${err.message}. The games here: ${games.map((g) => `${g.name} (?game=${g.id})`).join(', ')}; pick one below.`;
    showRefusal(err);
  } else if (wanted) {
    $('game').value = wanted;
  }
  showGameForm();
  if (wanted && games.some((g) => g.id === wanted)) {
    const info = games.find((g) => g.id === wanted);
    return start(wanted, readOptions(info), 'hotseat', 2, 'BOT_LEVEL_MEDIUM');
  }
  setPhase('setup');
}

main();
