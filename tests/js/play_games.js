/* Plays seeded games with the page's own engine.js and analysis.js under node, for
 * tests/play/test_play_rules.py, and prints every event and every reading as JSON.
 *
 * usage: node play_games.js SITE_DIR GAMES_JSON
 *   GAMES_JSON: [{"key": ..., "seed": ..., "first": "you" | "opponent"}, ...]
 * The person's moves come from a third mulberry32 stream, seeded with seed ^ 0xA5A5A5A5:
 * where holding is allowed it holds when the next output is divisible by 4 (the Python side
 * of the test plays the same way).
 */
"use strict";
const fs = require("fs");
const path = require("path");

const site = process.argv[2];
const games = JSON.parse(process.argv[3]);
const Engine = require(path.join(site, "engine.js"));
const Analysis = require(path.join(site, "analysis.js"));

function readCall(file) {
  const text = fs.readFileSync(file, "utf8");
  return JSON.parse(text.slice(text.indexOf("(") + 1, text.lastIndexOf(")")));
}

async function main() {
  const catalog = readCall(path.join(site, "data", "catalog.js"));
  const entries = new Map(catalog.opponents.map((e) => [e.key, e]));
  const analysts = new Map();
  const out = [];
  for (const spec of games) {
    const entry = entries.get(spec.key);
    if (!analysts.has(spec.key)) {
      analysts.set(spec.key, await Analysis.analyst(entry, readCall(path.join(site, entry.file))));
    }
    const analyst = analysts.get(spec.key);
    const opponent =
      entry.mode === "sequential"
        ? { rolls: (own, other, k) => analyst.opponentRoll.at(own, other, k) }
        : { choices: (own, other) => analyst.choices(own, other) };
    const game = new Engine.Game({ rules: entry.rules, mode: entry.mode, seed: spec.seed, first: spec.first, opponent });
    const decider = new Engine.Mulberry32((spec.seed ^ 0xa5a5a5a5) >>> 0);
    const readings = [analyst.read(game)];
    let guard = 0;
    while (game.winner === null && guard++ < 100000) {
      if (game.toMove === "opponent") {
        game.stepOpponent();
      } else if (game.canHold && decider.nextUint32() % 4 === 0) {
        game.hold();
      } else {
        game.roll();
      }
      readings.push(analyst.read(game));
    }
    out.push({ key: spec.key, seed: spec.seed, events: game.events, readings });
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
