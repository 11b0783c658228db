/* The rules of one game of Pig against a fixed opponent, move by move.
 *
 * The JavaScript twin of pigtheory/play/rng.py and pigtheory/play/game.py: the same
 * generator (mulberry32), the same draws, the same moves and the same event records, so a
 * seed and the person's choices give the same game here, in the terminal and in the tests
 * (which play seeded games through both and compare every event). Runs in the browser
 * (window.PigEngine) and in node (module.exports). See game.py for the rules in prose.
 */
(function (root, factory) {
  "use strict";
  const api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.PigEngine = api;
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const TWO32 = 4294967296;

  /* mulberry32 (Tommy Ettinger, public domain): 32-bit outputs as unsigned numbers. */
  class Mulberry32 {
    constructor(seed) {
      if (!Number.isInteger(seed) || seed < 0 || seed >= TWO32) {
        throw new RangeError("seed must be an integer in 0..2**32-1, got " + seed);
      }
      this.state = seed >>> 0;
    }

    nextUint32() {
      this.state = (this.state + 0x6d2b79f5) >>> 0;
      let t = this.state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
      return (t ^ (t >>> 14)) >>> 0;
    }

    /* A uniform integer in 0..n-1, by rejection (no modulo bias). */
    below(n) {
      const limit = TWO32 - (TWO32 % n);
      for (;;) {
        const x = this.nextUint32();
        if (x < limit) return x % n;
      }
    }

    /* An index drawn with integer weights summing to 2**32; one output per draw. */
    pick(weights) {
      const u = this.nextUint32();
      let acc = 0;
      for (let s = 0; s < weights.length; s++) {
        acc += weights[s];
        if (u < acc) return s;
      }
      throw new RangeError("weights must sum to 2**32");
    }
  }

  function streams(seed) {
    return [new Mulberry32(seed), new Mulberry32((seed + 0x9e3779b9) % TWO32)];
  }

  /* [kind, points] of one roll: "bust", "reset", "double" or "score". The site's data carries
   * the rules' roll rule (Python's Rules.roll_outcome) for every roll, numbered in base
   * dieFaces, so a new die or variant needs no change here. */
  function rollOutcome(faces, rules) {
    let index = 0;
    for (const f of faces) index = index * rules.dieFaces + (f - 1);
    const [kind, gain] = rules.rolls[index];
    return [kind, gain];
  }

  /* One game. `opponent` supplies its moves:
   *   sequential:   opponent.rolls(own, other, k) -> bool
   *   simultaneous: opponent.choices(own, other) -> {thresholds: [...], weights: [...]}
   */
  class Game {
    constructor(options) {
      const { rules, mode, seed, opponent } = options;
      const first = options.first || "you";
      if (mode !== "sequential" && mode !== "simultaneous") throw new RangeError("mode: " + mode);
      if (first !== "you" && first !== "opponent") throw new RangeError("first: " + first);
      this.rules = rules;
      this.mode = mode;
      this.seed = seed;
      this.opponent = opponent;
      this.rng = streams(seed);
      this.scores = [0, 0];
      this.k = 0;
      this.forced = false;
      this.turn = 1;
      this.winner = null;
      this.events = [];
      this.threshold = 0;
      this.gain = 0;
      this.mover = first === "you" || mode === "simultaneous" ? 0 : 1;
      if (mode === "simultaneous") this.choose();
    }

    get toMove() {
      if (this.winner !== null) return null;
      return this.mover === 0 ? "you" : "opponent";
    }

    get canHold() {
      if (this.toMove !== "you") return false;
      return this.mode === "simultaneous" ? this.k >= 1 : !this.forced;
    }

    roll() {
      this.expect("you");
      return this.rollFor(0);
    }

    hold() {
      this.expect("you");
      if (!this.canHold) throw new Error("hold: not allowed now");
      if (this.mode === "simultaneous") return this.endOwnTurn("hold");
      return this.bank(0);
    }

    stepOpponent() {
      this.expect("opponent");
      const g = this.rules.goal;
      const own = this.scores[1];
      const other = this.scores[0];
      if (this.mode === "simultaneous") {
        if (this.k >= this.threshold || own + this.k >= g) {
          const event = this.log("opponent", "hold", { outcome: "hold" });
          return this.resolve(event);
        }
        return this.rollFor(1);
      }
      if (this.forced || this.opponent.rolls(own, other, this.k)) return this.rollFor(1);
      return this.bank(1);
    }

    playOpponent() {
      const start = this.events.length;
      while (this.toMove === "opponent") this.stepOpponent();
      return this.events.slice(start);
    }

    expect(who) {
      if (this.toMove !== who) throw new Error(who + ": not your move");
    }

    log(who, action, extra) {
      const event = { turn: this.turn, who: who, action: action, dice: [], k: this.k };
      Object.assign(event, extra || {});
      event.scores = this.scores.slice();
      this.events.push(event);
      return event;
    }

    choose() {
      const own = this.scores[1];
      const other = this.scores[0];
      const c = this.opponent.choices(own, other);
      const s = this.rng[1].pick(c.weights);
      this.threshold = c.thresholds[s];
      this.log("opponent", "choose", { outcome: "choose", threshold: this.threshold });
    }

    rollFor(seat) {
      const rules = this.rules;
      const who = seat === 0 ? "you" : "opponent";
      const faces = [];
      for (let d = 0; d < rules.dice; d++) faces.push(1 + this.rng[seat].below(rules.dieFaces));
      const [kind, points] = rollOutcome(faces, rules);
      if (kind === "bust" || kind === "reset") {
        this.k = 0;
        this.forced = false;
        if (kind === "reset") this.scores[seat] = 0;
        const event = this.log(who, "roll", { dice: faces, outcome: kind });
        if (this.mode === "simultaneous") return seat === 0 ? this.endOwnTurn(null) : this.resolve(event);
        return this.passDice(event);
      }
      this.k += points;
      this.forced = kind === "double";
      const reached = this.scores[seat] + this.k >= rules.goal;
      if (reached && !this.forced) {
        if (this.mode === "simultaneous") {
          const event = this.log(who, "roll", { dice: faces, outcome: "goal" });
          return seat === 0 ? this.endOwnTurn(null) : event;
        }
        this.scores[seat] = rules.goal;
        this.winner = who;
        this.mover = -1;
        return this.log(who, "roll", { dice: faces, outcome: "goal" });
      }
      return this.log(who, "roll", { dice: faces, outcome: kind });
    }

    bank(seat) {
      const who = seat === 0 ? "you" : "opponent";
      const outcome = this.k ? "hold" : "pass";
      this.scores[seat] += this.k;
      return this.passDice(this.log(who, "hold", { outcome: outcome }));
    }

    passDice(event) {
      this.mover = 1 - this.mover;
      this.turn += 1;
      this.k = 0;
      this.forced = false;
      return event;
    }

    endOwnTurn(action) {
      this.gain = this.k;
      const event = action === "hold" ? this.log("you", "hold", { outcome: "hold" }) : this.events[this.events.length - 1];
      this.mover = 1;
      this.k = 0;
      return event;
    }

    resolve(event) {
      const g = this.rules.goal;
      const gains = [this.gain, this.k];
      this.scores = [Math.min(this.scores[0] + gains[0], g), Math.min(this.scores[1] + gains[1], g)];
      this.k = 0;
      this.gain = 0;
      const done = [this.scores[0] >= g, this.scores[1] >= g];
      let outcome = "next";
      if (done[0] && done[1]) {
        this.winner = "tie";
        outcome = "tie";
      } else if (done[0] || done[1]) {
        this.winner = done[0] ? "you" : "opponent";
        outcome = "win";
      }
      this.log("both", "resolve", { outcome: outcome, gains: gains });
      if (this.winner === null) {
        this.turn += 1;
        this.mover = 0;
        this.choose();
      } else {
        this.mover = -1;
      }
      return event;
    }
  }

  return { Mulberry32, streams, rollOutcome, Game, TWO32 };
});
