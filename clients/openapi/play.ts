// play.ts plays a whole game of Exploze on a 6 x 6 board over REST, with a client whose every type comes from the
// OpenAPI document (openapi-typescript's generated/rulebook.ts, and openapi-fetch), against a server that accepts
// plain states, at RULEBOOK_HTTP (host:port). Each seat takes a legal move drawn by a generator seeded with SEED, until
// no seat has one; after the first move, the second seat plays on the first one's stone, which the rules refuse.
// It prints what it saw as one line of JSON, and fails if the standings do not name the one seat left on the board.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/rulebook.js";

type GameState = components["schemas"]["rulebook.v1.GameState"];
type Move = components["schemas"]["rulebook.v1.Move"];
type Status = components["schemas"]["google.rpc.Status"];
type ErrorInfo = components["schemas"]["google.rpc.ErrorInfo"];

const client = createClient<paths>({ baseUrl: `http://${process.env.RULEBOOK_HTTP}` });
const exploze = { path: { game: "exploze" } };

// mulberry32 returns a generator of numbers in [0, 1), the same ones for the same seed.
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// errorInfo returns the ErrorInfo of a refusal: its reason code and facts.
function errorInfo(refusal: Status): ErrorInfo {
  for (const detail of refusal.details ?? []) {
    if (detail["@type"] === "type.googleapis.com/google.rpc.ErrorInfo" && detail.domain === "rulebook") {
      return detail;
    }
  }
  return fail("a refusal without an ErrorInfo", refusal);
}

// fail throws what a call answered instead of what was expected.
function fail(what: string, answer: unknown): never {
  throw new Error(`${what}: ${JSON.stringify(answer)}`);
}

async function main(): Promise<void> {
  const games = await client.GET("/v1/games");
  const info = games.data?.games?.find((g) => g.id === "exploze") ?? fail("ListGames has no exploze", games.error);
  const maxMoves = info.maxMoves ?? 0;

  const created = await client.POST("/v1/games/{game}:new", {
    params: exploze,
    body: { options: { exploze: { rows: 6, cols: 6 } } },
  });
  let state: GameState = created.data?.state ?? fail("NewGame", created.error);
  const next = mulberry32(Number(process.env.SEED ?? "1"));
  let moves = 0;
  let refusal: { status: number; reason: string; facts: Record<string, string> } | undefined;
  for (; moves <= maxMoves; moves++) {
    const legal = await client.POST("/v1/games/{game}:legalMoves", { params: exploze, body: { state } });
    // Unset fields are left out of an answer: no moves, none listed.
    const list = (legal.data ?? fail("ListLegalMoves", legal.error)).moves ?? [];
    const move: Move | undefined = list[Math.floor(next() * list.length)];
    if (move === undefined) {
      break;
    }
    const applied = await client.POST("/v1/games/{game}:apply", { params: exploze, body: { state, move } });
    state = applied.data?.state ?? fail("ApplyMove", applied.error);
    if (moves === 0) {
      const cell = move.exploze ?? fail("not an Exploze move", move);
      const onStone: Move = { player: state.exploze?.toMove ?? 0, exploze: cell };
      const refused = await client.POST("/v1/games/{game}:apply", { params: exploze, body: { state, move: onStone } });
      if (refused.error === undefined) {
        fail("a move on the opponent's stone was applied", refused.data);
      }
      const info = errorInfo(refused.error);
      refusal = { status: refused.response.status, reason: info.reason ?? "", facts: info.metadata ?? {} };
    }
  }

  const scored = await client.POST("/v1/games/{game}:score", { params: exploze, body: { state } });
  const score = scored.data?.score ?? fail("Score", scored.error);
  const owners = [...new Set((state.exploze?.owners ?? []).filter((o) => o !== 0))];
  if (!score.gameOver || owners.length !== 1 || JSON.stringify(score.winners) !== JSON.stringify(owners)) {
    fail(`the winners of a game whose board is held by ${JSON.stringify(owners)}`, score);
  }
  console.log(JSON.stringify({ moves, maxMoves, winners: score.winners, refusal }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
