/* The multiplayer page: sequential Pig with n players, the person at one seat, the stationary
 * equilibrium at the others.
 *
 * The JavaScript twin of pigtheory/play/multiplayer.py (MultiplayerGame): the same generator
 * streams (engine.js), the same draws and the same event records, so a seed and the person's
 * moves give the same game here and in `pigtheory play --players N --seat S`. Each game's data
 * (data/multi-*.js, calling PigMulti.register) holds the opponents' roll table run-length coded
 * along the turn total, with the mixed states and their integer roll weights apart
 * (pack_multiplayer in multiplayer.py). Every text is set with textContent.
 * ?speed=0 makes the opponents move at once (as the tests do).
 */
(function () {
  "use strict";
  const Engine = window.PigEngine;
  const Analysis = window.PigAnalysis;
  const TWO32 = Engine.TWO32;

  const raw = [];
  const tables = new Map();
  let game = null;
  let token = 0;

  window.PigMulti = {
    register(obj) {
      raw.push(obj);
    },
    /* The events of the game on the page, as JSON (for the tests). */
    events() {
      return JSON.stringify(game ? game.events : []);
    },
  };

  /* The opponents' policy: roll weight at (scores in turn order from the mover, k). */
  class Table {
    constructor(obj, data) {
      this.n = obj.players;
      this.g = obj.rules.goal;
      const tuples = Math.pow(this.g, this.n);
      this.start = new Uint32Array(tuples + 1);
      for (let t = 0; t < tuples; t++) this.start[t + 1] = this.start[t] + data.switches[t];
      this.switchK = data.switch_k;
      this.mixed = new Map();
      for (let m = 0; m < data.mixed_state.length; m++) this.mixed.set(data.mixed_state[m], data.mixed_weight[m]);
    }

    weight(view, k) {
      let flat = 0;
      for (let i = 0; i < this.n; i++) flat = flat * this.g + view[i];
      const w = this.mixed.get(flat * this.g + k);
      if (w !== undefined) return w;
      let roll = true;
      for (let s = this.start[flat]; s < this.start[flat + 1]; s++) {
        if (this.switchK[s] > k) break;
        roll = !roll;
      }
      return roll ? TWO32 : 0;
    }
  }

  class MultiGame {
    constructor(obj, table, seat, seed) {
      this.obj = obj;
      this.table = table;
      this.rules = obj.rules;
      this.players = obj.players;
      this.seat = seat;
      this.rng = Engine.streams(seed);
      this.scores = new Array(obj.players).fill(0);
      this.k = 0;
      this.mover = 1;
      this.winner = null;
      this.events = [];
    }

    get toMove() {
      if (this.winner !== null) return null;
      return this.mover === this.seat ? "you" : "opponent";
    }

    get canHold() {
      return this.toMove === "you" && (this.k > 0 || this.obj.allowPass);
    }

    view() {
      const out = [];
      for (let i = 0; i < this.players; i++) out.push(this.scores[(this.mover - 1 + i) % this.players]);
      return out;
    }

    roll() {
      if (this.toMove !== "you") throw new Error("it is not your move");
      return this._roll(0);
    }

    hold() {
      if (!this.canHold) throw new Error("you cannot hold now");
      return this._bank();
    }

    stepOpponent() {
      if (this.toMove !== "opponent") throw new Error("it is not an opponent's move");
      const w = this.table.weight(this.view(), this.k);
      if (w === TWO32 || (w > 0 && this.rng[1].nextUint32() < w)) return this._roll(1);
      return this._bank();
    }

    _log(action, extra) {
      const event = {
        seat: this.mover,
        who: this.mover === this.seat ? "you" : "opponent",
        action,
        dice: [],
        k: this.k,
        scores: this.scores.slice(),
      };
      Object.assign(event, extra);
      this.events.push(event);
      return event;
    }

    _roll(stream) {
      const face = 1 + this.rng[stream].below(this.rules.dieFaces);
      // the game model's outcome table (Python's pigtheory.games.Outcomes.to_json): roll face - 1
      const [kind, points] = this.rules.rolls[face - 1];
      if (kind === "bust" || kind === "reset") {
        this.k = 0;
        const event = this._log("roll", { dice: [face], outcome: "bust" });
        this._next();
        return event;
      }
      this.k += points;
      const s = this.mover - 1;
      if (this.scores[s] + this.k >= this.rules.goal) {
        this.scores[s] += this.k;
        this.winner = this.mover;
        return this._log("roll", { dice: [face], outcome: "goal" });
      }
      return this._log("roll", { dice: [face], outcome: "score" });
    }

    _bank() {
      const outcome = this.k ? "hold" : "pass";
      this.scores[this.mover - 1] += this.k;
      this.k = 0;
      const event = this._log("hold", { outcome });
      this._next();
      return event;
    }

    _next() {
      this.k = 0;
      this.mover = (this.mover % this.players) + 1;
    }
  }

  /* --- the page --------------------------------------------------------------------- */

  const $ = (id) => document.getElementById(id);

  function params() {
    const out = {};
    for (const part of [location.search.slice(1), location.hash.slice(1)]) {
      for (const [k, v] of new URLSearchParams(part)) out[k] = v;
    }
    return out;
  }

  function who(g, seat) {
    return seat === g.seat ? "you" : "seat " + seat;
  }

  function describe(g, e) {
    const you = e.who === "you";
    const name = who(g, e.seat);
    if (e.action === "hold") {
      if (e.outcome === "pass") return name + (you ? " pass" : " passes");
      return name + (you ? " hold" : " holds") + " -> " + e.scores[e.seat - 1];
    }
    const coin = g.rules.dieFaces === 2;
    const face = e.dice[0];
    const shown = coin ? (g.rules.rolls[face - 1][0] === "bust" ? "tails" : "heads") : String(face);
    const text = {
      bust: "bust, the turn total is lost",
      goal: "turn total " + e.k + ": the goal is reached",
      score: "turn total " + e.k,
    }[e.outcome];
    return name + (you ? " roll " : " rolls ") + shown + ": " + text;
  }

  function pct(x) {
    return (100 * x).toFixed(2) + "%";
  }

  function current() {
    return raw.find((o) => o.key === $("game").value) || raw[0];
  }

  function fillSeats(obj, wanted) {
    const select = $("seat");
    select.textContent = "";
    for (let s = 1; s <= obj.players; s++) {
      const o = document.createElement("option");
      o.value = String(s);
      o.textContent = "Seat " + s + (s === 1 ? " (moves first)" : "");
      select.appendChild(o);
    }
    if (wanted && Number(wanted) >= 1 && Number(wanted) <= obj.players) select.value = String(Number(wanted));
  }

  function render() {
    const g = game;
    const list = $("seats");
    list.textContent = "";
    for (let s = 1; s <= g.players; s++) {
      const li = document.createElement("li");
      li.className = (s === g.seat ? "you" : "opp") + (g.winner === null && s === g.mover ? " active" : "");
      li.id = "seat-" + s;
      const name = document.createElement("span");
      name.className = "who";
      name.textContent = "Seat " + s + (s === g.seat ? " (you)" : "");
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = String(g.scores[s - 1]);
      const bar = document.createElement("div");
      bar.className = "bar";
      const fill = document.createElement("div");
      fill.className = "fill";
      fill.style.width = Math.min(100, (100 * g.scores[s - 1]) / g.rules.goal) + "%";
      bar.appendChild(fill);
      li.append(name, score, bar);
      list.appendChild(li);
    }
    $("turn-total").textContent = String(g.k);
    const mine = g.toMove === "you";
    $("roll").disabled = !mine;
    $("hold").disabled = !g.canHold;
    if (g.winner !== null) {
      $("status").textContent = g.winner === g.seat ? "You win!" : "Seat " + g.winner + " wins.";
      $("advice").textContent = "";
    } else if (mine) {
      $("status").textContent = "Your move: roll or hold.";
      const w = g.table.weight(g.view(), g.k);
      $("advice").textContent =
        w === TWO32
          ? "The equilibrium rolls here."
          : w === 0
            ? "The equilibrium holds here."
            : "The equilibrium rolls here with probability " + (w / TWO32).toFixed(4) + ".";
    } else {
      $("status").textContent = "Seat " + g.mover + " is playing…";
      $("advice").textContent = "";
    }
    const b = document.body.dataset;
    b.phase = g.winner !== null ? "over" : mine ? "you" : "opponents";
    b.events = String(g.events.length);
  }

  function logEvents(from) {
    for (let n = from; n < game.events.length; n++) {
      const e = game.events[n];
      const li = document.createElement("li");
      li.className = e.who;
      li.textContent = describe(game, e);
      $("log").prepend(li);
    }
  }

  function runOpponents(my) {
    const speed = Number($("speed").value);
    const step = () => {
      if (my !== token || game.toMove !== "opponent") return render();
      const before = game.events.length;
      game.stepOpponent();
      logEvents(before);
      if (speed === 0) return step();
      render();
      setTimeout(step, speed);
    };
    step();
  }

  async function tableOf(obj) {
    if (!tables.has(obj.key)) tables.set(obj.key, Analysis.decode(obj).then((d) => new Table(obj, d)));
    return tables.get(obj.key);
  }

  async function newGame() {
    const my = ++token;
    const obj = current();
    let seed = Number($("seed").value);
    if (!Number.isInteger(seed) || seed < 0 || seed >= TWO32) {
      seed = Math.floor(Math.random() * TWO32);
      $("seed").value = String(seed);
    }
    const seat = Number($("seat").value) || 1;
    $("about").textContent = obj.label;
    const sv = $("start-values");
    sv.textContent = "";
    if (obj.start) {
      obj.start.forEach((v, i) => {
        const dt = document.createElement("dt");
        dt.textContent = "Seat " + (i + 1) + " wins";
        const dd = document.createElement("dd");
        dd.textContent = pct(v);
        sv.append(dt, dd);
      });
    }
    const table = await tableOf(obj);
    if (my !== token) return;
    game = new MultiGame(obj, table, seat, seed);
    $("log").textContent = "";
    const b = document.body.dataset;
    b.seed = String(seed);
    b.game = obj.key;
    b.seat = String(seat);
    render();
    runOpponents(my);
  }

  function move(kind) {
    if (!game || game.toMove !== "you" || (kind === "hold" && !game.canHold)) return;
    const before = game.events.length;
    kind === "roll" ? game.roll() : game.hold();
    logEvents(before);
    render();
    runOpponents(token);
  }

  function start() {
    if (!raw.length) {
      $("status").textContent = "This site was built without multiplayer games.";
      return;
    }
    const p = params();
    const select = $("game");
    for (const obj of raw) {
      const o = document.createElement("option");
      o.value = obj.key;
      o.textContent = obj.players + " players, goal " + obj.rules.goal + (obj.allowPass ? ", passing" : "");
      select.appendChild(o);
    }
    if (p.game && raw.some((o) => o.key === p.game)) select.value = p.game;
    fillSeats(current(), p.seat);
    if (p.seed !== undefined) $("seed").value = p.seed;
    if (p.speed !== undefined && [...$("speed").options].some((o) => o.value === p.speed)) $("speed").value = p.speed;
    select.addEventListener("change", () => fillSeats(current(), $("seat").value));
    $("new-game").addEventListener("click", newGame);
    $("new-seed").addEventListener("click", () => {
      $("seed").value = String(Math.floor(Math.random() * TWO32));
      newGame();
    });
    $("roll").addEventListener("click", () => move("roll"));
    $("hold").addEventListener("click", () => move("hold"));
    document.addEventListener("keydown", (ev) => {
      if (ev.target && ev.target.tagName === "INPUT") return;
      if (ev.key === "r" || ev.key === "R") move("roll");
      if (ev.key === "h" || ev.key === "H") move("hold");
    });
    newGame();
  }

  window.addEventListener("DOMContentLoaded", start);
})();
