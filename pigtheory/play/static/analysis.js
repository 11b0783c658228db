/* The live numbers of the play site: the person's exact win probability, the best move and
 * the value of each move, rebuilt from the compact data that `pigtheory site` writes.
 *
 * Data (pigtheory/play/site.py): the person's start-of-turn values V[i][j] (rounded to
 * 2**-24), the opponent's moves and the person's best-response roll table. Everything else
 * follows from short backward passes (pigtheory/play/sequential_response.py and
 * stopping_response.py give the equations):
 *
 * Sequential. During the opponent's turn at (j, i, k) the person's value q(k) is, if it rolls,
 *   pBust V[i][j] + pReset V[i][0] + sum_g p_g q(k + g)   (q = 0 once the opponent reaches the goal)
 * and V[i][j + k] if it holds; W(j, i) = q(0). During the person's turn at (i, j, k),
 *   roll = pBust W(j, i) + pReset W(j, 0) + sum_g p_g P(k + g)  (P = 1 at the goal),
 *   hold = W(j, i + k) (at k = 0 a pass, worth W(j, i)), and P(k) is the one the best
 *   response picks. Double Trouble: after a double the roll is forced; past the goal after a
 *   double the value is the boundary of Zhu & Ma (2022).
 * Simultaneous (one die). With Y the opponent's turn (its threshold, or mix, at its state),
 *   u(x) = E V[min(i + x, g)][min(j + Y, g)] is the value of ending the turn with x points,
 *   and Q(t) = max(u(t), pBust u(0) + sum_g p_g Q(min(t + g, r))), Q(r) = u(r), r = g - i.
 *
 * Runs in the browser (window.PigAnalysis) and in node (module.exports).
 */
(function (root, factory) {
  "use strict";
  const api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.PigAnalysis = api;
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const TWO32 = 4294967296;
  const FIXED_SCALE = 16777216; // 2**24

  /* --- decoding ------------------------------------------------------------------- */

  function base64ToBytes(b64) {
    if (typeof atob === "function") {
      const bin = atob(b64);
      const out = new Uint8Array(bin.length);
      for (let n = 0; n < bin.length; n++) out[n] = bin.charCodeAt(n);
      return out;
    }
    return new Uint8Array(Buffer.from(b64, "base64"));
  }

  async function gunzip(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  class Bits {
    constructor(bytes, shape) {
      this.bytes = bytes;
      this.shape = shape;
    }

    at(a, b, c) {
      const n = (a * this.shape[1] + b) * this.shape[2] + c;
      return ((this.bytes[n >> 3] >> (n & 7)) & 1) === 1;
    }
  }

  /* Sections of an opponent's data file as typed arrays / Bits; values as Float64Array. */
  async function decode(obj) {
    const raw = await gunzip(base64ToBytes(obj.blob));
    const out = {};
    for (const [name, sec] of Object.entries(obj.sections)) {
      const n = sec.length;
      const off = raw.byteOffset + sec.offset;
      if (sec.dtype === "bits") {
        out[name] = new Bits(new Uint8Array(raw.buffer, off, (n + 7) >> 3), sec.shape);
      } else if (sec.dtype === "fixed24") {
        const planes = new Uint8Array(raw.buffer, off, 4 * n);
        const [rows, cols] = sec.shape;
        const v = new Float64Array(n);
        const colSum = new Float64Array(cols);
        for (let a = 0; a < rows; a++) {
          let rowSum = 0;
          for (let b = 0; b < cols; b++) {
            const idx = a * cols + b;
            const d = planes[idx] | (planes[n + idx] << 8) | (planes[2 * n + idx] << 16) | (planes[3 * n + idx] << 24);
            rowSum += d;
            colSum[b] += rowSum;
            v[idx] = colSum[b] / FIXED_SCALE;
          }
        }
        out[name] = v;
      } else {
        const Type = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array }[sec.dtype];
        out[name] = new Type(raw.buffer, off, n);
      }
    }
    return out;
  }

  /* --- one roll ------------------------------------------------------------------- */

  /* Probabilities of a roll's outcomes: bust, reset (snake eyes), free and forced gains, counted
   * over the equally likely rolls of the site's roll table (Python's Rules.roll_model). */
  function rollModel(rules) {
    const count = { bust: new Map(), reset: new Map(), score: new Map(), double: new Map() };
    for (const [kind, gain] of rules.rolls) count[kind].set(gain, (count[kind].get(gain) || 0) + 1);
    const total = rules.rolls.length;
    const list = (m) => Array.from(m.entries(), ([g, c]) => [g, c / total]).sort((x, y) => x[0] - y[0]);
    const mass = (m) => Array.from(m.values()).reduce((s, c) => s + c, 0) / total;
    const free = list(count.score);
    const forced = list(count.double);
    const maxGain = Math.max(...free.map((x) => x[0]), ...forced.map((x) => x[0]));
    return {
      pBust: mass(count.bust),
      pReset: mass(count.reset),
      free,
      forced,
      qFree: mass(count.score),
      qDouble: mass(count.double),
      maxGain,
    };
  }

  /* --- sequential play ------------------------------------------------------------ */

  class SequentialAnalyst {
    constructor(rules, data) {
      this.rules = rules;
      this.g = rules.goal;
      this.model = rollModel(rules);
      this.values = data.value;
      this.opponentRoll = data.opponent_roll;
      this.bestRoll = data.best_roll || data.opponent_roll;
      this.oppCache = new Map();
      this.personCache = new Map();
    }

    V(i, s) {
      return s >= this.g ? 0 : this.values[i * this.g + s];
    }

    /* The person's values during the opponent's turn from (j, i): q0 (free), q1 (after a double). */
    opponentTurn(j, i) {
      const key = j * this.g + i;
      if (this.oppCache.has(key)) return this.oppCache.get(key);
      const { pBust, pReset, free, forced, qDouble, maxGain } = this.model;
      const top = this.g - j;
      const q0 = new Float64Array(top + maxGain + 1);
      const q1 = new Float64Array(top + maxGain + 1);
      const base = pBust * this.V(i, j) + pReset * this.V(i, 0);
      q1.fill(base / (1 - qDouble), top);
      for (let k = top - 1; k >= 0; k--) {
        let r = base;
        for (const [gain, p] of free) r += p * q0[k + gain];
        for (const [gain, p] of forced) r += p * q1[k + gain];
        q1[k] = r;
        q0[k] = this.opponentRoll.at(j, i, k) ? r : this.V(i, j + k);
      }
      const out = { q0, q1 };
      this.oppCache.set(key, out);
      return out;
    }

    W(j, s) {
      return s >= this.g ? 1 : this.opponentTurn(j, s).q0[0];
    }

    /* The person's turn from (i, j): values p0/p1, and the values of rolling and holding. */
    personTurn(i, j) {
      const key = i * this.g + j;
      if (this.personCache.has(key)) return this.personCache.get(key);
      const { pBust, pReset, free, forced, qFree, qDouble, maxGain } = this.model;
      const top = this.g - i;
      const p0 = new Float64Array(top + maxGain + 1);
      const p1 = new Float64Array(top + maxGain + 1);
      const roll = new Float64Array(top);
      const hold = new Float64Array(top);
      const base = pBust * this.W(j, i) + pReset * this.W(j, 0);
      p0.fill(1, top);
      p1.fill((qFree + base) / (1 - qDouble), top);
      for (let k = top - 1; k >= 0; k--) {
        let r = base;
        for (const [gain, p] of free) r += p * p0[k + gain];
        for (const [gain, p] of forced) r += p * p1[k + gain];
        roll[k] = r;
        hold[k] = this.W(j, i + k); // at k = 0 a pass
        p1[k] = r;
        p0[k] = this.bestRoll.at(i, j, k) ? r : hold[k];
      }
      const out = { p0, p1, roll, hold };
      this.personCache.set(key, out);
      return out;
    }

    /* Reading at a game state: {who, value, roll, hold, advice}. */
    read(game) {
      if (game.winner !== null) return over(game);
      const [i, j] = game.scores;
      if (game.toMove === "you") {
        const t = this.personTurn(i, j);
        const k = game.k;
        const advice = game.forced || this.bestRoll.at(i, j, k) ? "roll" : "hold";
        return {
          who: "you",
          value: game.forced ? t.p1[k] : t.p0[k],
          roll: k < t.roll.length ? t.roll[k] : t.p1[k], // past the goal only after a double
          hold: game.forced ? null : t.hold[k],
          advice: advice,
        };
      }
      const q = this.opponentTurn(j, i);
      return { who: "opponent", value: game.forced ? q.q1[game.k] : q.q0[game.k], roll: null, hold: null, advice: null };
    }
  }

  function over(game) {
    const value = game.winner === "you" ? 1 : game.winner === "tie" ? 0.5 : 0;
    return { who: null, value: value, roll: null, hold: null, advice: null };
  }

  /* --- simultaneous play (one die) ------------------------------------------------ */

  class SimultaneousAnalyst {
    constructor(rules, data) {
      this.rules = rules;
      this.g = rules.goal;
      this.model = rollModel(rules);
      this.values = data.value;
      this.threshold = data.opponent_threshold;
      this.bestRoll = data.best_roll;
      this.mixed = new Map();
      if (data.mixed_state) {
        const width = data.mixed_threshold.length / data.mixed_state.length;
        data.mixed_state.forEach((state, row) => {
          const thresholds = [];
          const weights = [];
          for (let s = 0; s < width; s++) {
            const w = data.mixed_weight[row * width + s];
            if (w > 0) {
              thresholds.push(data.mixed_threshold[row * width + s]);
              weights.push(w);
            }
          }
          this.mixed.set(state, { thresholds, weights });
        });
      }
      this.turnCache = new Map();
    }

    /* The opponent's thresholds and integer weights at its state (own, other). */
    choices(own, other) {
      const idx = own * this.g + other;
      return this.mixed.get(idx) || { thresholds: [this.threshold[idx]], weights: [TWO32] };
    }

    V(i, j) {
      const g = this.g;
      if (i >= g) return j >= g ? 0.5 : 1;
      if (j >= g) return 0;
      return this.values[i * g + j];
    }

    /* Points of a "hold at t" turn started at turn total `from`, capped at `room` (index 0: bust). */
    turnPoints(t, room, from) {
      const { pBust, free } = this.model;
      const out = new Float64Array(room + 1);
      if (from >= room) {
        out[room] = 1;
        return out;
      }
      const reach = new Float64Array(room + 1);
      reach[from] = 1;
      for (let x = from; x < room; x++) {
        const m = reach[x];
        if (m === 0) continue;
        if (x >= t) {
          out[x] += m;
          continue;
        }
        out[0] += pBust * m;
        for (const [gain, p] of free) {
          const to = x + gain;
          if (to >= room) out[room] += p * m;
          else reach[to] += p * m;
        }
      }
      return out;
    }

    /* Distribution of the opponent's points this turn at its state (j, i). */
    opponentPoints(j, i) {
      const c = this.choices(j, i);
      const room = this.g - j;
      const out = new Float64Array(room + 1);
      c.thresholds.forEach((t, s) => {
        const part = this.turnPoints(t, room, 0);
        const w = c.weights[s] / TWO32;
        for (let y = 0; y <= room; y++) out[y] += w * part[y];
      });
      return out;
    }

    /* The person's turn at (i, j): u (end the turn with x points), roll values, best values Q. */
    turn(i, j) {
      const key = i * this.g + j;
      if (this.turnCache.has(key)) return this.turnCache.get(key);
      const g = this.g;
      const room = g - i;
      const y = this.opponentPoints(j, i);
      const u = new Float64Array(room + 1);
      for (let x = 0; x <= room; x++) {
        let s = 0;
        for (let d = 0; d < y.length; d++) if (y[d]) s += y[d] * this.V(Math.min(i + x, g), Math.min(j + d, g));
        u[x] = s;
      }
      const { pBust, free } = this.model;
      const best = new Float64Array(room + 1);
      const roll = new Float64Array(room);
      best[room] = u[room];
      for (let t = room - 1; t >= 0; t--) {
        let r = pBust * u[0];
        for (const [gain, p] of free) r += p * best[Math.min(t + gain, room)];
        roll[t] = r;
        best[t] = t === 0 || this.bestRoll.at(i, j, t) ? r : u[t];
      }
      const out = { u, roll, best };
      this.turnCache.set(key, out);
      return out;
    }

    /* The person's value once its own turn ended with `gain` points, while the opponent (its
     * threshold known) is at turn total kOpp. */
    afterTurn(i, j, gain, threshold, kOpp) {
      const g = this.g;
      const room = g - j;
      const y = this.turnPoints(threshold, room, kOpp);
      let s = 0;
      for (let d = 0; d <= room; d++) if (y[d]) s += y[d] * this.V(Math.min(i + gain, g), Math.min(j + d, g));
      return s;
    }

    read(game) {
      if (game.winner !== null) return over(game);
      const [i, j] = game.scores;
      if (game.toMove === "you") {
        const t = this.turn(i, j);
        const k = game.k;
        return {
          who: "you",
          value: t.best[k],
          roll: t.roll[k],
          hold: k >= 1 ? t.u[k] : null,
          advice: k === 0 || this.bestRoll.at(i, j, k) ? "roll" : "hold",
        };
      }
      const value = this.afterTurn(i, j, game.gain, game.threshold, game.k);
      return { who: "opponent", value: value, roll: null, hold: null, advice: null };
    }
  }

  async function analyst(entry, obj) {
    const data = await decode(obj);
    if (entry.mode === "sequential") return new SequentialAnalyst(entry.rules, data);
    return new SimultaneousAnalyst(entry.rules, data);
  }

  return { decode, rollModel, SequentialAnalyst, SimultaneousAnalyst, analyst, Bits };
});
