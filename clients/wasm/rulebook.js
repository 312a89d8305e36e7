"use strict";
// Loads rulebook's WebAssembly module (cmd/rulebook-wasm) in Node.js, and calls it by RulesService method with the
// body of the REST call, for programs that hold REST requests (such as a conformance kit's cases).
//
//   const { load, call } = require("./wasm/rulebook.js");
//   const rulebook = await load("rulebook.wasm");
//   rulebook.newGame("exploze", '{"exploze": {"rows": 6, "cols": 6}}', 42);   // a JSON string
//   call(rulebook, "NewGame", "exploze", { options: { exploze: { rows: 6, cols: 6 } }, seed: "42" });  // the same
//   rulebook.configure('{"now": "2025-01-01T00:00:00Z"}');   // the clock that stamps Ubongo Duel's moves, fixed

const fs = require("node:fs");
const path = require("node:path");
const { execFileSync } = require("node:child_process");

// wasmExecPath returns the path of the wasm_exec.js of the Go that built the module: $RULEBOOK_WASM_EXEC, else the
// one under `go env GOROOT` (lib/wasm since Go 1.24, misc/wasm before).
function wasmExecPath() {
  if (process.env.RULEBOOK_WASM_EXEC) {
    return process.env.RULEBOOK_WASM_EXEC;
  }
  const goroot = execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
  for (const dir of ["lib/wasm", "misc/wasm"]) {
    const file = path.join(goroot, dir, "wasm_exec.js");
    if (fs.existsSync(file)) {
      return file;
    }
  }
  throw new Error(`no wasm_exec.js in ${goroot}/lib/wasm or ${goroot}/misc/wasm`);
}

// load instantiates the module in the file wasmFile, with the wasm_exec.js at wasmExec, runs it, and returns the
// object rulebook it defines (also globalThis.rulebook).
async function load(wasmFile, wasmExec = wasmExecPath()) {
  require(wasmExec); // defines globalThis.Go
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmFile), go.importObject);
  go.run(instance).then(() => {
    throw new Error("the rulebook module exited");
  });
  if (typeof globalThis.rulebook !== "object") {
    throw new Error(`${wasmFile} defined no rulebook object`);
  }
  return globalThis.rulebook;
}

// json returns v, a field of a REST body, as a string of JSON: a field left out (undefined) is null, which the REST
// API decodes as the field unset, so that a required field left out is the service's MISSING_FIELD as over REST.
const json = (v) => JSON.stringify(v ?? null);

// methods maps each RulesService method that the module serves to its function, its arguments made of the REST
// body (the body's fields that the function takes: others are an error).
const methods = {
  ListGames: { fn: "listGames", fields: [], args: () => [] },
  NewGame: { fn: "newGame", fields: ["options", "seed"], args: (b) => [json(b.options), b.seed] },
  ValidateMove: { fn: "validateMove", fields: ["state", "move"], args: (b) => [json(b.state), json(b.move)] },
  ApplyMove: { fn: "applyMove", fields: ["state", "move", "events"], args: (b) => [json(b.state), json(b.move), b.events] },
  ListLegalMoves: { fn: "legalMoves", fields: ["state", "player"], args: (b) => [json(b.state), b.player] },
  Score: { fn: "score", fields: ["state"], args: (b) => [json(b.state)] },
  GetView: { fn: "view", fields: ["state", "viewer"], args: (b) => [json(b.state), b.viewer] },
};

// call calls the function of rulebook that serves the RulesService method rpc (such as "ApplyMove") with the REST
// body body (an object) of game, and returns its answer: the JSON string the REST call answers, or its refusal (whose
// parsed JSON has a code). A field game of the body is ignored: as over REST, where the path's game is the one, game
// is. It throws for a method the module does not serve, or a field of body that the function does not take (a
// token, a seat pass).
function call(rulebook, rpc, game, body) {
  body ??= {};
  const m = methods[rpc];
  if (!m) {
    throw new Error(`the module does not serve ${rpc}; it serves ${Object.keys(methods).join(", ")}`);
  }
  const extra = Object.keys(body).filter((f) => f !== "game" && !m.fields.includes(f));
  if (extra.length > 0) {
    throw new Error(`${m.fn} takes no ${extra.join(", ")}: only ${m.fields.join(", ") || "nothing"}`);
  }
  const args = m.args(body);
  return rpc === "ListGames" ? rulebook.listGames() : rulebook[m.fn](game, ...args);
}

module.exports = { load, call, wasmExecPath, methods };
