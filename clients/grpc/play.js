// play.js is a gRPC client of rulebook in plain JavaScript, with nothing but gen/rulebook.binpb, the API's
// FileDescriptorSet: against a server that takes only tokens (rulebookd's default) it plays a whole sealed Exploze
// game and a whole two-player Micropul game, each move by the seat to move with its own seat pass, chosen at random
// (seeded, so that a game without chance is the same every time) from that seat's legal moves, and checks Score's
// winners; then it makes a move that the rules refuse and reads the reason code from the status's details. It
// prints one JSON line for each, and exits non-zero if any check fails.
//
// Usage: node grpc/play.js [TLS options] [host:port [seed]]   (from clients/; default localhost:50051, seed 1)
//
// It connects over plain TCP, as rulebookd serves by default, or over TLS with any of the TLS options: --tls (TLS,
// trusting Node's CAs), --ca FILE (the PEM CAs that sign the server's certificate, trusted instead), --cert FILE and
// --key FILE (the client's PEM certificate and key, for a server that requires one: mutual TLS) and --server-name
// NAME (the name the server's certificate must hold, if not the address's host). Over TLS, it sends the API key in
// the environment variable RULEBOOK_API_KEY, if set, with every call (authorization: Bearer KEY); over plain TCP it
// refuses to.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');
require('protobufjs/ext/descriptor'); // adds Root.fromDescriptor

const { values: tlsOptions, positionals } = parseArgs({
  options: {
    tls: { type: 'boolean' }, ca: { type: 'string' }, cert: { type: 'string' }, key: { type: 'string' },
    'server-name': { type: 'string' },
  },
  allowPositionals: true,
});
const [address = 'localhost:50051', seedArg = '1'] = positionals;

// The API from its descriptor set: the service for grpc-js, and every message type (google.rpc.Status and the
// details it carries included) for decoding a refusal. Field names are those of the .proto files (snake_case):
// loading from a descriptor set does not convert them.
const set = fs.readFileSync(path.join(__dirname, '..', '..', 'gen', 'rulebook.binpb'));
const api = grpc.loadPackageDefinition(
  protoLoader.loadFileDescriptorSetFromBuffer(set, { longs: String, enums: String, defaults: true, oneofs: true }));
const types = protobuf.Root.fromDescriptor(set);

// connection returns the credentials and channel options that the TLS options ask for (plain TCP without any), with
// apiKey, if not empty, sent with every call over TLS.
function connection({ tls, ca, cert, key, 'server-name': serverName }, apiKey) {
  if (!tls && !ca && !cert && !key && !serverName) {
    if (apiKey) throw new Error('RULEBOOK_API_KEY is sent over TLS only: add --tls (or --ca)');
    return { credentials: grpc.credentials.createInsecure(), options: {} };
  }
  if (!cert !== !key) throw new Error('--cert and --key go together');
  const read = (file) => (file ? fs.readFileSync(file) : null);
  let credentials = grpc.credentials.createSsl(read(ca), read(key), read(cert));
  if (apiKey) {
    credentials = grpc.credentials.combineChannelCredentials(credentials,
      grpc.credentials.createFromMetadataGenerator((_, callback) => {
        const metadata = new grpc.Metadata();
        metadata.add('authorization', `Bearer ${apiKey}`);
        callback(null, metadata);
      }));
  }
  return {
    credentials,
    options: serverName ? { 'grpc.ssl_target_name_override': serverName, 'grpc.default_authority': serverName } : {},
  };
}

const { credentials, options } = connection(tlsOptions, process.env.RULEBOOK_API_KEY);
const client = new api.rulebook.v1.RulesService(address, credentials, options);

// call sends one RulesService call, within a deadline of 10 seconds.
function call(method, request) {
  return new Promise((resolve, reject) => {
    client[method](request, { deadline: Date.now() + 10_000 }, (err, response) => (err ? reject(err) : resolve(response)));
  });
}

// details decodes the google.rpc.Status that a refusal carries in its trailers, and each of its details.
function details(err) {
  const [bin] = err.metadata?.get('grpc-status-details-bin') ?? [];
  if (!bin) throw new Error(`no status details in ${err}`);
  const status = types.lookupType('google.rpc.Status').decode(bin);
  return status.details.map((any) => {
    const type = types.lookupType(any.type_url.slice(any.type_url.lastIndexOf('/') + 1));
    return { type: type.fullName.slice(1), ...type.toObject(type.decode(any.value)) };
  });
}

// random returns a function of n that gives an integer in [0, n), from a seeded generator (mulberry32).
function random(seed) {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n);
  };
}

// check throws, naming what was checked, unless ok.
function check(ok, what) {
  if (!ok) throw new Error(`check failed: ${what}`);
}

// same reports whether a and b are equal values (as JSON, keys in the same order).
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// toMove returns the seat to move in a game's state or view (0 once it is over).
const toMove = (state) => state[state.game].to_move;

// play plays a whole game of random legal moves, each sent by the seat to move with its own pass, and returns the
// number of moves, the last mover and the final Score.
async function play(info, options, pick) {
  const game = info.id;
  const table = await call('NewGame', { game, options, seal: true });
  check(table.state === null && table.token.startsWith('v2.'), `${game}: NewGame answers a token, not a state`);
  const passes = table.seat_passes;
  let { token } = table;
  let seat = toMove(table.view);
  const limit = info.max_moves || 100_000;
  let moves = 0;
  let last = 0;
  for (; seat !== 0; moves++) {
    check(moves < limit, `${game}: over within ${limit} moves`);
    const seatPass = passes[seat - 1];
    const legal = await call('ListLegalMoves', { game, token, seat_pass: seatPass, player: seat });
    check(legal.moves.length > 0, `${game}: seat ${seat}, to move, has a legal move`);
    const move = legal.moves[pick(legal.moves.length)];
    const applied = await call('ApplyMove', { game, token, seat_pass: seatPass, move, events: 'EVENT_DETAIL_NONE' });
    check(applied.state === null, `${game}: ApplyMove answers a token, not a state`);
    token = applied.token;
    last = seat;
    seat = toMove(applied.view);
  }
  const { score } = await call('Score', { game, token, seat_pass: passes[0] });
  check(score.game_over, `${game}: Score says the game is over`);
  return { moves, last, score };
}

async function main() {
  const seed = Number(seedArg);
  check(Number.isSafeInteger(seed), `the seed ${seedArg} is an integer`);
  const pick = random(seed);
  const { games } = await call('ListGames', {});
  const info = Object.fromEntries(games.map((g) => [g.id, g]));
  check(info.exploze && info.micropul, 'the server hosts Exploze and Micropul');

  // Exploze: the last mover is the one player left, the winner.
  const exploze = await play(info.exploze, { exploze: { rows: 6, cols: 6, players: 2 } }, pick);
  check(same(exploze.score.winners, [exploze.last]), `exploze: the winner ${exploze.score.winners} made the last move`);
  console.log(JSON.stringify({ game: 'exploze', moves: exploze.moves, winners: exploze.score.winners }));

  // Micropul: a player out of tiles loses; otherwise the highest total wins, and equal totals are a draw.
  const micropul = await play(info.micropul, { micropul: { players: 2 } }, pick);
  const players = micropul.score.micropul.players;
  const totals = players.map((p) => p.total);
  const best = Math.max(...totals);
  const expected = players.some((p) => p.lost)
    ? players.filter((p) => !p.lost).map((p) => p.player)
    : totals.filter((t) => t === best).length === 1 ? players.filter((p) => p.total === best).map((p) => p.player) : [];
  check(same(micropul.score.winners, expected), `micropul: winners ${micropul.score.winners}, from the totals ${expected}`);
  console.log(JSON.stringify({
    game: 'micropul', moves: micropul.moves, end: micropul.score.micropul.end, totals, winners: micropul.score.winners,
  }));

  // A refused move: player 2 on player 1's stone.
  const table = await call('NewGame', { game: 'exploze', seal: true });
  const [pass1, pass2] = table.seat_passes;
  const placed = { player: 1, exploze: { row: 0, col: 0 } };
  const { token } = await call('ApplyMove', { game: 'exploze', token: table.token, seat_pass: pass1, move: placed });
  const err = await call('ApplyMove', {
    game: 'exploze', token, seat_pass: pass2, move: { player: 2, exploze: { row: 0, col: 0 } },
  }).then(() => null, (e) => e);
  check(err !== null && err.code === grpc.status.FAILED_PRECONDITION, `the move is refused with FAILED_PRECONDITION: ${err}`);
  const refusal = details(err).find((d) => d.type === 'google.rpc.ErrorInfo' && d.domain === 'rulebook');
  check(refusal?.reason === 'CELL_OWNED_BY_OPPONENT', `the ErrorInfo's reason is CELL_OWNED_BY_OPPONENT: ${refusal?.reason}`);
  // A map from a descriptor set is a list of its entries, in no set order (protobufjs 7, which proto-loader 0.8 uses).
  const facts = Object.fromEntries(refusal.metadata.map(({ key, value }) => [key, value]).sort());
  check(same(facts, { col: '0', owner: '1', row: '0' }), `the ErrorInfo's facts: ${JSON.stringify(facts)}`);
  console.log(JSON.stringify({ refused: 'ApplyMove', code: grpc.status[err.code], reason: refusal.reason, facts }));
}

main().then(
  () => client.close(),
  (err) => {
    console.error(err);
    client.close();
    process.exitCode = 1;
  });
