"use strict";
// Serves rulebook's WebAssembly module over standard input and output, one JSON line per call, for tests and
// benchmarks in other languages: `node wasm/run.js rulebook.wasm`. Each line in is one of
//   {"fn": "applyMove", "args": ["exploze", "<state JSON>", "<move JSON>"]}   a function, with its arguments
//   {"rpc": "ApplyMove", "game": "exploze", "body": {"state": ..., "move": ...}}   a method, with its REST body
//   {"bench": <either of those>, "n": 1000}   the call n times
// and each line out, in order, {"answer": "<the answer, a string of JSON>"}, {"ns": <nanoseconds the n calls took>}
// or, if the call threw (a bad line, a method the module does not serve), {"thrown": "<message>"}. What the module
// itself prints goes to standard error.

const readline = require("node:readline");
const { load, call } = require("./rulebook.js");

// invoke makes the call of req, a line's object.
function invoke(rulebook, req) {
  if (req.fn !== undefined) {
    const f = rulebook[req.fn];
    if (typeof f !== "function") {
      throw new Error(`rulebook has no function ${req.fn}`);
    }
    return f(...(req.args ?? []));
  }
  return call(rulebook, req.rpc, req.game, req.body);
}

// answer returns the line out of the line in.
function answer(rulebook, line) {
  try {
    const req = JSON.parse(line);
    if (req.bench !== undefined) {
      const begin = process.hrtime.bigint();
      for (let i = 0; i < req.n; i++) {
        invoke(rulebook, req.bench);
      }
      return { ns: Number(process.hrtime.bigint() - begin) };
    }
    const got = invoke(rulebook, req);
    if (typeof got !== "string") {
      throw new Error(`the answer is ${typeof got}, not a string`);
    }
    return { answer: got };
  } catch (err) {
    return { thrown: String(err && err.stack ? err.stack : err) };
  }
}

async function main() {
  if (process.argv.length !== 3) {
    console.error("usage: node wasm/run.js rulebook.wasm");
    process.exit(2);
  }
  console.log = console.error; // the module's own output, never mixed with the answers
  const rulebook = await load(process.argv[2]);
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    process.stdout.write(JSON.stringify(answer(rulebook, line)) + "\n");
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
