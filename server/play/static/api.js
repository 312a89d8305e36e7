// api.js: the REST API of the page's own origin (docs/api.md: "Calling it"). Every call answers the JSON of the answer,
// or throws an ApiError with the google.rpc.Status the server refused it with.

/** ApiError is a refusal: the gRPC code, the ErrorInfo's reason and facts, and the message. */
export class ApiError extends Error {
  constructor(status, httpStatus) {
    super(status.message || `HTTP ${httpStatus}`);
    const info = (status.details || []).find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo') || {};
    this.code = status.code ?? 0;
    this.reason = info.reason || `HTTP_${httpStatus}`;
    this.facts = info.metadata || {};
    this.httpStatus = httpStatus;
  }
}

async function answer(response) {
  let body;
  try {
    body = await response.json();
  } catch {
    body = { message: `the server answered ${response.status} without JSON` };
  }
  if (!response.ok) throw new ApiError(body, response.status);
  return body;
}

/** get calls a GET route, such as "/v1/games". */
export async function get(path) {
  return answer(await fetch(path, { headers: { Accept: 'application/json' } }));
}

/** post calls a POST route with a JSON body. */
export async function post(path, body) {
  return answer(await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  }));
}

/** gameCall calls a game's method, such as gameCall("exploze", "apply", {...}). */
export function gameCall(game, method, body) {
  return post(`/v1/games/${encodeURIComponent(game)}:${method}`, body);
}

/** stateKey is the name of a game's member in GameOptions, GameState, Move and Score: "ubongo-duel" is "ubongoDuel". */
export function stateKey(game) {
  return game.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
}
